/* The match page's analysis section (templates/games/partials/match_analysis.html):
 * while GNU Backgammon's job is queued or running, follow it. The analysis worker tells
 * the match's live topic when the job moves (live.js then redraws the page); this is the
 * backstop for when nothing does: every few seconds the API's brief status
 * (GET /api/v1/matches/<id>/analysis/?brief=true) is read, and when its version is not
 * the page's, the page asks live.js for a fresh look ("live:refresh"), which swaps the
 * section in; if the page is still behind at the next look (no live.js), it reloads.
 * Nothing is polled once the job is done or failed: that section has no poll address. */
(function () {
  "use strict";

  if (!window.fetch) return;
  var PERIOD = 5000;
  var timer = null;
  var asked = null; // the version a fresh look was asked for

  function section() {
    return document.querySelector("[data-analysis-poll]");
  }

  function schedule() {
    if (timer || !section()) return;
    timer = setTimeout(function () {
      timer = null;
      tick();
    }, PERIOD);
  }

  function tick() {
    var here = section();
    if (!here) return;
    fetch(here.dataset.analysisPoll, {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (body) {
        var now = section();
        if (!body || !now || String(body.version) === now.dataset.analysisVersion) return;
        if (asked === body.version) {
          window.location.reload(); // the fresh look did not come: load the page
          return;
        }
        asked = body.version;
        document.dispatchEvent(new CustomEvent("live:refresh"));
      })
      .catch(function () {})
      .then(schedule);
  }

  schedule();
  // The section swapped in (the Analyse form sent, a live update): follow it if pending.
  document.addEventListener("live:swapped", schedule);
})();
