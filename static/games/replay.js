/* The replay page (games/play/replay_pages.py): step through a game without loading
 * the page.
 *
 * The page works without this script: the first / previous / next / last buttons and
 * each line of the move list are plain links to ?move=K. With it, a click on one of
 * them (any a[data-replay-step]) and the arrow keys (Left / Right: previous and next;
 * Home / End: first and last) fetch that step's page, swap in its
 * [data-replay-region] and put its address in the history, so the board changes at
 * once and the address is a link to the position shown. Steps already fetched are kept,
 * and the next one is fetched ahead. Under the Content-Security-Policy: no inline code. */
(function () {
  "use strict";

  if (!window.fetch || !window.DOMParser || !window.history) return;

  var cache = {}; // url -> Promise of the region's element

  function region() {
    return document.querySelector("[data-replay-region]");
  }

  function load(url) {
    if (!cache[url]) {
      cache[url] = fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
        .then(function (response) {
          if (!response.ok) throw new Error("replay step " + response.status);
          return response.text();
        })
        .then(function (html) {
          var doc = new DOMParser().parseFromString(html, "text/html");
          var found = doc.querySelector("[data-replay-region]");
          if (!found) throw new Error("no replay region");
          return { region: found, title: doc.title };
        });
      cache[url].catch(function () {
        delete cache[url];
      });
    }
    return cache[url];
  }

  var busy = false;

  function go(url, push) {
    if (busy || !url) return;
    busy = true;
    var focused = document.activeElement;
    var role = focused && focused.dataset ? focused.dataset.role : null;
    var index = focused && focused.dataset ? focused.dataset.index : null;
    load(url)
      .then(function (got) {
        var old = region();
        var fresh = document.importNode(got.region, true);
        old.parentNode.replaceChild(fresh, old);
        if (got.title) document.title = got.title;
        if (push) window.history.pushState({ replay: url }, "", url);
        // Keep the keyboard where it was: the same button, or the same line of the list.
        var again = null;
        if (role) again = fresh.querySelector('[data-role="' + role + '"]');
        else if (index) again = fresh.querySelector('[data-index="' + index + '"]');
        if (again && again.tagName !== "A") {
          // "next" at the last move (or "previous" at the first) is no link: the end's.
          again = fresh.querySelector('[data-role="' + (role === "next" ? "last" : "first") + '"]');
        }
        if (again && again.focus) again.focus();
        var current = fresh.querySelector('[aria-current="step"]');
        if (current && current.scrollIntoView && !index) {
          current.scrollIntoView({ block: "nearest" });
        }
        var next = fresh.querySelector('[data-role="next"][href]');
        if (next) load(next.getAttribute("href")); // ahead of the next tap
        document.dispatchEvent(new CustomEvent("replay:swapped"));
      })
      .catch(function () {
        window.location.href = url; // the plain link does it
      })
      .then(function () {
        busy = false;
      });
  }

  document.addEventListener("click", function (event) {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    var link = event.target.closest && event.target.closest("a[data-replay-step]");
    if (!link || !region() || !region().contains(link)) return;
    event.preventDefault();
    go(link.getAttribute("href"), true);
  });

  var KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey) return;
    var role = KEYS[event.key];
    if (!role) return;
    var target = event.target;
    var tag = target && target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable)) return;
    var here = region();
    var link = here && here.querySelector('a[data-role="' + role + '"][href]');
    if (!link) return;
    event.preventDefault();
    go(link.getAttribute("href"), true);
  });

  window.addEventListener("popstate", function () {
    go(window.location.pathname + window.location.search, false);
  });

  var start = region();
  var first = start && start.querySelector('[data-role="next"][href]');
  if (first) load(first.getAttribute("href"));
})();
