// The match page's clock (R12): counts the running player's delay, then reserve, down
// from the times the server computed when it drew the page. Reading only: the server
// records a flag by itself; at zero the page reloads to show it.
(function () {
  "use strict";
  const el = document.querySelector(".clocks .reserve[data-running]");
  if (!el) return;
  const delayEl = el.parentElement.querySelector(".delay");
  const reserve0 = Number(el.dataset.ms);
  const delay0 = Number(el.dataset.delayMs || 0);
  const started = performance.now();
  const fmt = (ms) => {
    const s = Math.max(0, Math.ceil(ms / 1000));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  };
  let reloading = false;
  function tick() {
    const used = performance.now() - started;
    const delay = Math.max(0, delay0 - used);
    const reserve = Math.max(0, reserve0 - Math.max(0, used - delay0));
    if (delayEl) delayEl.textContent = "+" + fmt(delay);
    el.textContent = fmt(reserve);
    el.classList.toggle("is-low", reserve < 30000);
    if (reserve <= 0 && !reloading) {
      reloading = true;
      setTimeout(() => window.location.reload(), 500);
      return;
    }
    requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
})();
