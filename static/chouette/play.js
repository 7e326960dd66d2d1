/* The online chouette table (templates/chouette/play.html).
 *
 * The countdown: the time left for a cube decision (or for somebody to come back to a
 * side nobody at the table moves for) counts down on every phone; at zero the page asks
 * for a fresh look (static/games/live.js: "live:refresh"), and the server, which applies
 * the defaults when the window has run out (chouette.online.services), shows what they
 * were, in the moves.
 *
 * The team's chat beside the board: a panel that opens and closes (remembered on this
 * phone), with a badge counting the lines written since the member last had it open
 * (the last line seen is kept in localStorage per game). Live: the chat's region is
 * swapped on "chouette_team:<id>", and the badge recounts on every swap. */
(function () {
  "use strict";

  var timer = null;

  function tick() {
    var el = document.querySelector("[data-ms-left]");
    if (!el) return;
    var until = Number(el.dataset.until);
    var left = Math.max(0, until - Date.now());
    var seconds = Math.ceil(left / 1000);
    var number = el.querySelector("[data-seconds]");
    if (number) number.textContent = String(seconds);
    if (left <= 0) {
      stop();
      // A moment after the deadline: the server is then sure to find it due.
      setTimeout(function () {
        document.dispatchEvent(new CustomEvent("live:refresh"));
      }, 400);
    }
  }

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
  }

  function start() {
    stop();
    var el = document.querySelector("[data-ms-left]");
    if (!el) return;
    el.dataset.until = String(Date.now() + Number(el.dataset.msLeft));
    tick();
    timer = setInterval(tick, 250);
  }

  // ------------------------------------------------------------------ the team's chat
  function store(key, value) {
    try {
      if (value === undefined) return window.localStorage.getItem(key);
      window.localStorage.setItem(key, value);
    } catch (e) {
      return null;
    }
    return null;
  }

  function lastId(chat) {
    var top = 0;
    chat.querySelectorAll(".team-messages li[data-id]").forEach(function (li) {
      top = Math.max(top, Number(li.dataset.id) || 0);
    });
    return top;
  }

  function chat() {
    var section = document.querySelector("[data-team-chat]");
    if (!section) return;
    var game = section.dataset.teamChat;
    var box = section.querySelector("details");
    var badge = section.querySelector("[data-chat-badge]");
    if (!box || !badge) return;
    var openKey = "chouette-chat-open";
    var seenKey = "chouette-chat-seen:" + game;
    var wanted = store(openKey);
    // Open beside the board on a laptop; on a phone it opens when asked (remembered).
    box.open = wanted === null ? window.matchMedia("(min-width: 62rem)").matches : wanted === "1";

    function count() {
      var seen = Number(store(seenKey) || 0);
      if (box.open && document.visibilityState !== "hidden") {
        seen = Math.max(seen, lastId(section));
        store(seenKey, String(seen));
      }
      var fresh = 0;
      section.querySelectorAll(".team-messages li[data-id]").forEach(function (li) {
        if (Number(li.dataset.id) > seen) fresh += 1;
      });
      badge.hidden = fresh === 0;
      var number = badge.querySelector("[data-count]");
      if (number) number.textContent = String(fresh);
    }

    box.addEventListener("toggle", function () {
      store(openKey, box.open ? "1" : "0");
      count();
    });
    count();
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") chat();
  });
  document.addEventListener("live:swapped", function () {
    start();
    chat();
  });
  document.addEventListener("DOMContentLoaded", function () {
    start();
    chat();
  });
})();
