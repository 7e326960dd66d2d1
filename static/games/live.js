/* Live pages (games/live, docs/architecture.md): every page that shows something that
 * changes follows it over one WebSocket, /ws/live/, and redraws the parts that changed
 * without reloading.
 *
 * What a page declares, in its HTML:
 *   <body data-live-url="/ws/live/" data-live-topics="flight:5 user:3">  topics that send
 *       "changed": the page fetches itself again and swaps its live regions;
 *   <div data-live-topic="match:12" data-live-since="[2,7]"
 *        data-live-poll="/api/v1/games/34/" data-live-version="7">  a versioned topic,
 *       inside a region (so the swap brings the new position): each event is applied by
 *       fetching the regions again; while the socket is down the page polls the API URL
 *       and redraws when the version there is not the page's;
 *   <section id="..." data-live-region>  the parts that are swapped (each with an id).
 *       data-live-region="submit": swapped only with the answer to a form sent from
 *       here (the messages line), not on every change;
 *   <form data-live-form method="post">  sent with fetch; the answer's regions are
 *       swapped in, so playing a move does not reload the page either.
 * After each swap the document gets a "live:swapped" event (the match page's scripts
 * set themselves up again on it) and every "live:event" is dispatched too.
 *
 * When the socket closes (the server restarted, the network dropped) the page says so,
 * reconnects with back-off (1 s doubling to 15 s, with jitter; forever, so a wall left on
 * all night comes back by itself), polls meanwhile, and on reconnecting sends each
 * versioned topic's last position so the server replays what was missed. */
(function () {
  "use strict";

  var body = document.body;
  var path = body && body.dataset.liveUrl;
  if (!path || !window.WebSocket || !window.fetch || !window.DOMParser) {
    return;
  }
  var socket = null;
  var down = false; // the socket was lost (and not yet back)
  var backoff = 1000;
  var pollTimer = null;
  var refused = {}; // topic -> true: not asked again
  var positions = {}; // versioned topic -> the last position applied

  // ------------------------------------------------------------------ topics
  function plainTopics() {
    return (body.dataset.liveTopics || "").split(/\s+/).filter(Boolean);
  }

  function versioned() {
    var found = {};
    document.querySelectorAll("[data-live-topic]").forEach(function (el) {
      var since = null;
      try {
        since = JSON.parse(el.dataset.liveSince || "null");
      } catch (e) {
        since = null;
      }
      found[el.dataset.liveTopic] = { el: el, since: since };
    });
    return found;
  }

  function later(a, b) {
    // Positions compare like lists: [2, 1] comes after [1, 40].
    for (var i = 0; i < Math.max(a.length, b.length); i++) {
      var x = a[i] || 0;
      var y = b[i] || 0;
      if (x !== y) return x > y;
    }
    return false;
  }

  function sinceOf(topic, fromPage) {
    var known = positions[topic];
    if (known && (!fromPage || later(known, fromPage))) return known;
    return fromPage;
  }

  var watched = {}; // topic -> true: a watch was sent on this socket
  var confirmThenRefresh = {}; // plain topic -> true: refresh once it is watched (swap)

  function watchAll() {
    var seen = {};
    plainTopics().forEach(function (topic) {
      if (!refused[topic] && !seen[topic]) {
        seen[topic] = true;
        send({ op: "watch", topic: topic });
      }
    });
    var vs = versioned();
    Object.keys(vs).forEach(function (topic) {
      if (!refused[topic] && !seen[topic]) {
        seen[topic] = true;
        send({ op: "watch", topic: topic, since: sinceOf(topic, vs[topic].since) });
      }
    });
    watched = seen;
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(message));
    }
  }

  // ------------------------------------------------------------------ the socket
  function connect() {
    var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
    try {
      socket = new WebSocket(url);
    } catch (e) {
      lost();
      return;
    }
    socket.onopen = function () {
      backoff = 1000;
      var wasDown = down;
      down = false;
      stopPolling();
      status(false);
      watchAll();
      if (wasDown) refresh(); // what changed while away (plain topics have no replay)
    };
    socket.onmessage = function (message) {
      var data;
      try {
        data = JSON.parse(message.data);
      } catch (e) {
        return;
      }
      receive(data);
    };
    socket.onclose = function () {
      socket = null;
      lost();
    };
  }

  function lost() {
    down = true;
    status(true);
    startPolling();
    var wait = backoff * (0.75 + Math.random() * 0.5);
    backoff = Math.min(backoff * 2, 15000);
    setTimeout(connect, wait);
  }

  function receive(data) {
    if (data.t === "event") {
      positions[data.topic] = data.pos;
      document.dispatchEvent(new CustomEvent("live:event", { detail: data }));
      var shown = versioned()[data.topic];
      // The page may show it already (its own move, sent by a live form).
      if (!(shown && shown.since && !later(data.pos, shown.since))) refreshSoon(0);
    } else if (data.t === "changed") {
      refreshSoon(150); // a burst of changes costs one fetch
    } else if (data.t === "resync") {
      if (data.pos) positions[data.topic] = data.pos;
      refreshSoon(0);
    } else if (data.t === "watching" && confirmThenRefresh[data.topic]) {
      delete confirmThenRefresh[data.topic];
      refreshSoon(0);
    } else if (data.t === "watching" && data.pos) {
      var known = positions[data.topic];
      if (!known || later(data.pos, known)) positions[data.topic] = data.pos;
    } else if (data.t === "refused") {
      refused[data.topic] = true;
      if (window.console) console.warn("live: " + data.topic + " refused: " + data.detail);
    }
  }

  // ------------------------------------------------------------------ the status line
  function status(isDown) {
    var line = document.getElementById("live-status");
    if (line) line.hidden = !isDown;
    body.classList.toggle("live-down", isDown);
    body.dataset.liveState = isDown ? "down" : "up";
  }

  // ------------------------------------------------------------------ polling (socket down)
  function startPolling() {
    if (pollTimer) return;
    pollTimer = setInterval(poll, 5000);
  }

  function stopPolling() {
    if (pollTimer) clearInterval(pollTimer);
    pollTimer = null;
  }

  function poll() {
    var vs = versioned();
    var topics = Object.keys(vs);
    if (!topics.length) {
      if (plainTopics().length) refresh();
      return;
    }
    topics.forEach(function (topic) {
      var el = vs[topic].el;
      if (!el.dataset.livePoll) return refresh();
      fetch(el.dataset.livePoll, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (r) {
          return r.ok ? r.json() : null;
        })
        .then(function (state) {
          if (state && String(state.version) !== el.dataset.liveVersion) refresh();
        })
        .catch(function () {});
    });
  }

  // ------------------------------------------------------------------ redrawing
  var timer = null;
  var busy = false;
  var again = false;

  function refreshSoon(delay) {
    if (timer) return;
    timer = setTimeout(function () {
      timer = null;
      refresh();
    }, delay);
  }

  function refresh() {
    if (busy) {
      again = true; // one more fetch when this one is done: nothing is missed
      return;
    }
    busy = true;
    fetch(location.href, { credentials: "same-origin", headers: { "X-Live": "refresh" } })
      .then(function (r) {
        return r.ok ? r.text() : null;
      })
      .then(function (html) {
        if (html !== null) swap(html, false);
      })
      .catch(function () {})
      .then(function () {
        busy = false;
        if (again) {
          again = false;
          refresh();
        }
      });
  }

  function editing(region) {
    var active = document.activeElement;
    return (
      active &&
      region.contains(active) &&
      (active.tagName === "TEXTAREA" ||
        (active.tagName === "INPUT" && !/^(hidden|submit|button|checkbox|radio)$/.test(active.type)))
    );
  }

  var held = {}; // region id -> fresh content waiting for the user to leave the field

  // ------------------------------------------------------------------ keeping the reader's place (issue 27)
  /* A swap replaces the regions' elements, so without care the focus falls to <body>,
   * the page jumps and an open <details> shuts. Before a swap, snapshot() notes where
   * the reader is: the focused element (by id, else by what names it: name and value,
   * data-role, data-action, the step it plays, href, its form's action, its text), the
   * window's and each scrolled box's scroll, every <details> open or shut; after it,
   * restore() puts them back on the new elements. When the focused element is gone,
   * the focus goes to the page's primary action (the first control of a
   * [data-live-controls] box, or its [data-primary-action]), else the region's
   * [data-live-focus] element, heading or the region itself: never <body>. When the
   * swap makes it the viewer's turn ([data-your-turn] appears), the primary action gets
   * the focus, unless the reader is typing in a field elsewhere. Then the page's
   * [data-announce] words, when they changed, are written into #live-announcer
   * (templates/base.html, aria-live="polite"): a screen reader says the opponent's move
   * and whose turn it is. */
  var KEY_ATTRIBUTES = ["name", "value", "type", "data-role", "data-action", "data-die", "data-from",
    "data-to", "data-testid", "href"];

  function shown(el) {
    if (!el || !document.contains(el) || el.disabled || el.closest("[hidden]") || !el.getClientRects().length) {
      return false;
    }
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) return false;
    for (var up = el.parentElement; up; up = up.parentElement) {
      // inside a shut <details> (but its own <summary>): not there to focus
      if (up.tagName === "DETAILS" && !up.open && !(el.tagName === "SUMMARY" && el.parentElement === up)) {
        return false;
      }
    }
    return true;
  }

  function focusFirst(candidates, options) {
    // The first candidate that takes the focus (a hidden or inert one does not).
    for (var i = 0; i < candidates.length; i++) {
      var el = candidates[i];
      if (!el) continue;
      if (!el.matches("a[href], button, input, select, textarea, summary, [tabindex]")) {
        el.setAttribute("tabindex", "-1");
      }
      el.focus(options);
      if (document.activeElement === el) return true;
    }
    return false;
  }

  function typing(el) {
    return !!el && (el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable ||
      (el.tagName === "INPUT" && !/^(hidden|submit|button|checkbox|radio|reset|image)$/.test(el.type)));
  }

  function keyOf(el) {
    var key = { tag: el.tagName, id: el.id, attrs: {}, text: (el.textContent || "").trim() };
    KEY_ATTRIBUTES.forEach(function (name) {
      if (el.hasAttribute(name)) key.attrs[name] = el.getAttribute(name);
    });
    var form = el.form || el.closest("form");
    key.form = form ? form.getAttribute("action") || "" : null;
    return key;
  }

  function findKey(key) {
    if (key.id) return document.getElementById(key.id);
    var best = null;
    document.querySelectorAll(key.tag).forEach(function (el) {
      if (best && best.text) return;
      var same = Object.keys(key.attrs).every(function (name) {
        return el.getAttribute(name) === key.attrs[name];
      });
      var form = el.form || el.closest("form");
      if (!same || (key.form !== null && (!form || (form.getAttribute("action") || "") !== key.form))) return;
      var text = (el.textContent || "").trim() === key.text;
      if (!best || text) best = { el: el, text: text };
    });
    return best && best.el;
  }

  function primaryAction() {
    var boxes = document.querySelectorAll("[data-live-controls]");
    for (var i = 0; i < boxes.length; i++) {
      var marked = boxes[i].querySelector("[data-primary-action]");
      if (shown(marked)) return marked;
      // Not a <summary>: a folded form (Resign…) is no primary action.
      var controls = boxes[i].querySelectorAll("button, select, input:not([type=hidden]), textarea, a[href]");
      for (var j = 0; j < controls.length; j++) {
        if (shown(controls[j])) return controls[j];
      }
    }
    return null;
  }

  function detailsKeys() {
    // Each <details> by id, else by its region and its place among the region's.
    var found = [];
    document.querySelectorAll("[data-live-region]").forEach(function (region) {
      region.querySelectorAll("details").forEach(function (d, i) {
        found.push({ key: d.id ? "#" + d.id : region.id + "/" + i, el: d });
      });
    });
    return found;
  }

  var sentFrom = null; // the focused element when a live form was sent (see below)

  function snapshot(submitted) {
    var active = document.activeElement;
    var inPage = active && active !== body && active !== document.documentElement;
    if (!inPage && sentFrom && document.contains(sentFrom)) {
      // The button that sent a live form is disabled while it is sent, which drops the
      // focus to <body>: the place to keep is that button.
      active = sentFrom;
      inPage = true;
    }
    if (submitted) sentFrom = null;
    var scrolled = [];
    document.querySelectorAll("[data-live-region] [id]").forEach(function (el) {
      if (el.scrollTop || el.scrollLeft) scrolled.push([el.id, el.scrollTop, el.scrollLeft]);
    });
    var open = {};
    detailsKeys().forEach(function (d) {
      open[d.key] = d.el.open;
    });
    return {
      active: inPage ? active : null,
      key: inPage ? keyOf(active) : null,
      region: inPage ? active.closest("[data-live-region]") : null,
      typing: inPage && typing(active),
      x: window.scrollX,
      y: window.scrollY,
      scrolled: scrolled,
      open: open,
      yourTurn: !!document.querySelector("[data-your-turn]")
    };
  }

  function fallbacks(regionId) {
    // Where the focus goes when its element went: the primary action, else the region's
    // [data-live-focus] element, heading or the region itself, else <main>.
    var region = regionId && document.getElementById(regionId);
    var list = [primaryAction()];
    if (region) list.push(region.querySelector("[data-live-focus]"), region.querySelector("h1, h2, h3"), region);
    list.push(document.getElementById("main"));
    return list;
  }

  function restore(before) {
    detailsKeys().forEach(function (d) {
      if (Object.prototype.hasOwnProperty.call(before.open, d.key)) d.el.open = before.open[d.key];
    });
    before.scrolled.forEach(function (s) {
      var el = document.getElementById(s[0]);
      if (el) {
        el.scrollTop = s[1];
        el.scrollLeft = s[2];
      }
    });
    var nowYours = !!document.querySelector("[data-your-turn]");
    var focused = false;
    if (nowYours && !before.yourTurn && !before.typing) {
      focused = focusFirst([primaryAction()]); // and scrolled into view: the viewer's turn
    }
    if (!focused && before.active && !document.contains(before.active)) {
      var again = findKey(before.key);
      focusFirst([shown(again) ? again : null].concat(fallbacks(before.region && before.region.id)), {
        preventScroll: true
      });
    }
    if (!focused && (window.scrollX !== before.x || window.scrollY !== before.y)) {
      window.scrollTo(before.x, before.y);
    }
    announce();
  }

  var announced = null; // the words last said (or on the page when it loaded)

  function announcement() {
    var words = [];
    document.querySelectorAll("[data-announce]").forEach(function (el) {
      if (el.dataset.announce) words.push(el.dataset.announce);
    });
    return words.join(" ");
  }

  function announce() {
    var text = announcement();
    var region = document.getElementById("live-announcer");
    if (!region || text === announced) return;
    announced = text;
    region.textContent = text;
  }

  // Skip links marked data-skip-primary ("Skip to your move") go to the primary action
  // when there is one; otherwise to their own target, as any link.
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-skip-primary]");
    var primary = link && primaryAction();
    if (primary) {
      event.preventDefault();
      primary.focus();
    }
  });

  function swap(html, submitted) {
    var before = snapshot(submitted);
    var fresh = new DOMParser().parseFromString(html, "text/html");
    document.querySelectorAll("[data-live-region]").forEach(function (region) {
      if (!region.id) return;
      if (region.dataset.liveRegion === "submit" && !submitted) return;
      var next = fresh.getElementById(region.id);
      if (!next) return;
      if (!submitted && editing(region)) {
        // Someone is typing here: keep what they typed, swap when they leave the field.
        held[region.id] = next;
        return;
      }
      delete held[region.id];
      region.replaceWith(document.importNode(next, true));
    });
    var title = fresh.querySelector("title");
    if (title) document.title = title.textContent;
    var topics = fresh.body && fresh.body.dataset.liveTopics;
    var vs = versioned();
    // A swapped region may bring a new versioned topic (the next game of a chouette
    // table): it is watched at once, like new plain topics.
    var freshTopic = Object.keys(vs).some(function (topic) {
      return !watched[topic] && !refused[topic];
    });
    if (topics !== undefined && topics !== body.dataset.liveTopics) {
      body.dataset.liveTopics = topics;
      // A plain topic new to this socket (the team chat of a game that just began) has no
      // replay: what changed between this fragment's rendering and the server's taking
      // the watch would be missed, so the page fetches itself once more when the server
      // says it watches (a chat line sent as the game began, seen under load in
      // tests/browser/test_chouette_stall.py).
      plainTopics().forEach(function (topic) {
        if (!watched[topic] && !refused[topic]) confirmThenRefresh[topic] = true;
      });
      watchAll();
    } else if (freshTopic) {
      watchAll();
    }
    Object.keys(vs).forEach(function (topic) {
      var since = vs[topic].since;
      if (since && (!positions[topic] || later(since, positions[topic]))) positions[topic] = since;
    });
    document.dispatchEvent(new CustomEvent("live:swapped"));
    try {
      restore(before); // after the page's scripts set themselves up (their buttons exist)
    } catch (error) {
      window.__liveRestoreError = String(error) + " " + error.stack;
      if (window.console) console.error(error);
    }
  }

  // A page script may ask for a fresh look (the match clock at zero).
  document.addEventListener("live:refresh", function () {
    refreshSoon(0);
  });

  document.addEventListener("focusout", function () {
    setTimeout(function () {
      Object.keys(held).forEach(function (id) {
        var region = document.getElementById(id);
        if (region && !editing(region)) {
          region.replaceWith(document.importNode(held[id], true));
          delete held[id];
          document.dispatchEvent(new CustomEvent("live:swapped"));
        }
      });
    }, 0);
  });

  // ------------------------------------------------------------------ forms sent by fetch
  // Where the focus was when a live form was sent, noted first (capture phase): a page's
  // own submit handler may disable the button (board.js), which drops the focus.
  document.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      if (!form.hasAttribute || !form.hasAttribute("data-live-form")) return;
      var active = document.activeElement;
      sentFrom = active && active !== body ? active : event.submitter || null;
    },
    true
  );

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !form.hasAttribute || !form.hasAttribute("data-live-form")) return;
    event.preventDefault();
    var data = event.submitter ? new FormData(form, event.submitter) : new FormData(form);
    form.querySelectorAll("button, input[type=submit]").forEach(function (b) {
      b.disabled = true;
    });
    // getAttribute: an input named "action" (the match page's forms have one) hides
    // the form's action property.
    var target = new URL(form.getAttribute("action") || location.href, location.href);
    fetch(target.href, { method: "POST", body: data, credentials: "same-origin" })
      .then(function (r) {
        var there = new URL(r.url, location.href);
        if (there.pathname !== location.pathname) {
          location.assign(r.url); // the answer is another page: go there
          return null;
        }
        return r.text();
      })
      .then(function (html) {
        if (html !== null) swap(html, true);
      })
      .catch(function () {
        form.submit(); // the network failed: let the browser send it the plain way
      });
  });

  announced = announcement(); // what the page said when it loaded is not said again
  connect();
})();
