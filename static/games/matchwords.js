/* The match page's words that need a script (templates/games/match.html; issue 27):
 * - a confirmation's Cancel button (a <details>: without a script, tapping its summary
 *   again closes it, so the button stays hidden);
 * - the player's optional sound when a live update (static/games/live.js swaps the
 *   page's live region) makes it their turn: a short Web Audio beep, no sound file.
 *   Each beep is counted in document.body.dataset.turnBeeps (the browser tests read it).
 * Listeners sit on the document, so they survive the live region being swapped. */
(function () {
  "use strict";

  function showCancels() {
    document.querySelectorAll("[data-close-details][hidden]").forEach(function (button) {
      button.hidden = false;
    });
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest("[data-close-details]");
    if (!button) return;
    const details = button.closest("details");
    if (details) {
      details.open = false;
      const summary = details.querySelector("summary");
      if (summary) summary.focus();
    }
  });

  // Browsers start audio only after a gesture: the context is made on the first tap.
  let audio = null;
  function wake() {
    if (audio || !document.querySelector("[data-turn-sound]")) return;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (Context) audio = new Context();
  }
  document.addEventListener("pointerdown", wake, true);
  document.addEventListener("keydown", wake, true);

  function beep() {
    document.body.dataset.turnBeeps = String(Number(document.body.dataset.turnBeeps || 0) + 1);
    if (!audio) return;
    if (audio.state === "suspended") audio.resume();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = "sine";
    tone.frequency.value = 880;
    const now = audio.currentTime;
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start(now);
    tone.stop(now + 0.3);
  }

  function myTurn() {
    return !!document.querySelector("[data-my-turn]");
  }

  let wasMine = false;
  function start() {
    showCancels();
    wasMine = myTurn();
    // live.js replaces the region itself: the observer watches the whole page.
    new MutationObserver(function () {
      showCancels();
      const mine = myTurn();
      if (mine && !wasMine && document.querySelector("[data-turn-sound]")) beep();
      wasMine = mine;
    }).observe(document.body, { childList: true, subtree: true });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
