/* The online chouette table (templates/chouette/play.html): the time left for a cube
 * decision counts down on every phone; at zero the page asks for a fresh look
 * (static/games/live.js: "live:refresh"), and the server, which applies the defaults
 * when the window has run out (chouette.online.services), shows what they were. */
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

  document.addEventListener("live:swapped", start);
  document.addEventListener("DOMContentLoaded", start);
})();
