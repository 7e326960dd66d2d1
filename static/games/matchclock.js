// The match page's clocks (R12): count the running player's delay, then reserve, down
// from the times the server computed when it drew the page (or the live region: each
// "live:swapped" of static/games/live.js brings a fresh reading and starts again).
// Reading only: the server records a flag by itself and the page is told live; at zero
// it asks the live client to look once more, in case that message is slow.
(function () {
  "use strict";
  const fmt = (ms) => {
    const s = Math.max(0, Math.ceil(ms / 1000));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  };
  function init() {
    const el = document.querySelector(".clocks .reserve[data-running]");
    if (!el) return;
    const delayEl = el.parentElement.querySelector(".delay");
    const reserve0 = Number(el.dataset.ms);
    const delay0 = Number(el.dataset.delayMs || 0);
    const started = performance.now();
    let asked = false;
    // Redrawn only when a shown second changes, and woken just after that moment: a
    // loop on every animation frame rewrote the text 60 times a second (a layout and a
    // paint each), which kept a phone's processor busy for as long as the page was open.
    let shown = "";
    function tick() {
      if (!el.isConnected) return; // redrawn: the new clock has its own loop
      const used = performance.now() - started;
      const delay = Math.max(0, delay0 - used);
      const reserve = Math.max(0, reserve0 - Math.max(0, used - delay0));
      const text = (delayEl ? "+" + fmt(delay) : "") + "|" + fmt(reserve);
      if (text !== shown) {
        shown = text;
        if (delayEl) delayEl.textContent = "+" + fmt(delay);
        el.textContent = fmt(reserve);
        el.classList.toggle("is-low", reserve < 30000);
      }
      if (reserve <= 0) {
        if (!asked) {
          asked = true;
          setTimeout(() => document.dispatchEvent(new CustomEvent("live:refresh")), 1500);
        }
        return; // at zero nothing more to count
      }
      // The next whole second of whichever of the two is counting down.
      const counting = delay > 0 ? delay : reserve;
      setTimeout(tick, (counting % 1000 || 1000) + 5);
    }
    tick();
  }
  init();
  document.addEventListener("live:swapped", init);
})();
