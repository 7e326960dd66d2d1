/* The tablet page of a table clock (games/clocks/pages.py): two halves, tap yours
 * when your turn is over. Progressive enhancement: without this script the page shows
 * the server's times and taps with plain form posts.
 *
 * The server is the clock. The page holds its last answer (#tableclock-state, then the
 * API's): delay_left_ms and reserves_ms as they were at server_time. That answer is
 * anchored on this device's monotonic clock (performance.now) at the middle of the
 * request that brought it, so a tablet whose own clock is minutes off still counts
 * right; between answers the running player's delay, then reserve, counts down with
 * requestAnimationFrame (the engine's rule: the delay first, then the reserve).
 *
 * A tap shows the other player's clock running at once and POSTs to the API with the
 * version it was made against; the answer (or, on 409, the clock the refusal carries)
 * replaces the local state. The page follows its clock live (tableclock:<id>, through
 * static/games/live.js): on every change -- a tap on another device showing the same
 * clock, a pause by the director, a flag recorded by the server -- live.js fetches the
 * page again and fires "live:swapped", and this script re-reads the clock from the API.
 * It also re-reads it every 15 s, and whenever the page comes back into view. A beep
 * (WebAudio) and a vibration mark a reserve going under 10 s and the flag. All texts
 * come translated from #tableclock-texts. */
(function () {
  "use strict";

  var root = document.getElementById("tableclock");
  var source = document.getElementById("tableclock-state");
  var textSource = document.getElementById("tableclock-texts");
  if (!root || !source || !textSource || !window.fetch || !window.requestAnimationFrame) {
    return; // the server-rendered page and its forms do the job
  }
  var texts = JSON.parse(textSource.textContent);
  var data = root.dataset;
  var canOperate = data.canOperate === "1";
  var lowMs = Number(data.lowMs) || 10000;
  var SYNC_MS = 15000; // the backstop: changes arrive live (see above)

  function part(scope, role) {
    return scope.querySelector('[data-role="' + role + '"]');
  }

  var halves = {};
  Array.prototype.forEach.call(root.querySelectorAll(".half"), function (section) {
    var player = Number(section.getAttribute("data-player"));
    halves[player] = {
      section: section,
      form: part(section, "form"),
      button: part(section, "button"),
      reserve: part(section, "reserve"),
      delayBox: part(section, "delay-box"),
      delay: part(section, "delay"),
      hint: part(section, "hint")
    };
  });
  var statusLine = part(root, "status");
  var notice = part(root, "notice");
  var fullscreen = part(root, "fullscreen");
  var finishForm = part(root, "finish");
  var csrf = root.querySelector('input[name="csrfmiddlewaretoken"]');

  var state = JSON.parse(source.textContent);
  var anchor = performance.now(); // the local moment state's readings are for
  var pending = false; // a tap or start is on its way
  var queued = null; // a tap made while one was on its way
  var syncing = false;
  var online = true;
  var alerted = {}; // warnings already given: "low:<version>:<player>", "flag"
  var lastPointer = -Infinity;
  var lastSync = -Infinity;

  // ------------------------------------------------------------------ readings
  /* The clock at local time `now`: the running player's delay runs first, then their
   * reserve; nothing runs unless the status is "running". */
  function readings(now) {
    var reserves = state.reserves_ms.slice();
    var delay = state.delay_left_ms;
    var running = state.status === "running" ? state.running : null;
    if (running !== null && running !== undefined) {
      var elapsed = Math.max(0, now - anchor);
      var delayAtAnchor = delay || 0;
      delay = Math.max(0, delayAtAnchor - elapsed);
      reserves[running] = Math.max(0, reserves[running] - Math.max(0, elapsed - delayAtAnchor));
    }
    return { delay: delay, reserves: reserves, running: running };
  }

  /* As the server formats (games.clocks.pages.format_clock_ms): h:mm:ss, m:ss, and
   * seconds with tenths under 10 s; rounded up, so 0 shows only at the flag. */
  function format(ms) {
    if (ms === null || ms === undefined) {
      return "";
    }
    ms = Math.max(0, ms);
    if (ms < 10000) {
      var tenths = Math.ceil(ms / 100);
      return Math.floor(tenths / 10) + "." + (tenths % 10);
    }
    var seconds = Math.ceil(ms / 1000);
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    var secs = seconds % 60;
    var tail = (secs < 10 ? "0" : "") + secs;
    if (hours) {
      return hours + ":" + (minutes < 10 ? "0" : "") + minutes + ":" + tail;
    }
    return minutes + ":" + tail;
  }

  function setText(element, value) {
    if (element && element.textContent !== value) {
      element.textContent = value;
    }
  }

  function toggle(element, name, on) {
    if (element && element.classList.contains(name) !== on) {
      element.classList.toggle(name, on);
    }
  }

  // ------------------------------------------------------------------ sound and touch
  var audio = null;

  function wakeAudio() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) {
      try {
        audio = new Context();
      } catch (error) {
        audio = null;
      }
    }
    if (audio && audio.state === "suspended") {
      audio.resume();
    }
  }

  function beep(frequency, seconds, repeat) {
    if (!audio) {
      return;
    }
    for (var i = 0; i < (repeat || 1); i += 1) {
      var start = audio.currentTime + i * seconds * 1.6;
      var oscillator = audio.createOscillator();
      var gain = audio.createGain();
      oscillator.type = "square";
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.2, start);
      gain.gain.exponentialRampToValueAtTime(0.001, start + seconds);
      oscillator.connect(gain);
      gain.connect(audio.destination);
      oscillator.start(start);
      oscillator.stop(start + seconds);
    }
  }

  function vibrate(pattern) {
    if (navigator.vibrate) {
      try {
        navigator.vibrate(pattern);
      } catch (error) {
        /* not allowed here: the beep is enough */
      }
    }
  }

  var wakeLock = null;

  function keepAwake() {
    if (navigator.wakeLock && !wakeLock && document.visibilityState === "visible") {
      navigator.wakeLock.request("screen").then(
        function (lock) {
          wakeLock = lock;
          lock.addEventListener("release", function () {
            wakeLock = null;
          });
        },
        function () {}
      );
    }
  }

  // ------------------------------------------------------------------ drawing
  function hintKey(player, running) {
    if (state.flagged === player) {
      return "flag";
    }
    if (state.status === "running") {
      return running === player ? "tap" : "wait";
    }
    return { ready: "start", paused: "paused", finished: "finished" }[state.status] || "none";
  }

  function draw() {
    var now = performance.now();
    var r = readings(now);
    var outOfTime = r.running !== null && r.running !== undefined &&
      r.delay === 0 && r.reserves[r.running] === 0;
    [0, 1].forEach(function (player) {
      var half = halves[player];
      if (!half) {
        return;
      }
      var isTurn = state.turn === player && state.status !== "finished";
      var flagged = state.flagged === player || (outOfTime && r.running === player);
      setText(half.reserve, format(r.reserves[player]));
      var showDelay = isTurn && r.delay !== null && r.delay !== undefined;
      if (half.delayBox && half.delayBox.hidden === showDelay) {
        half.delayBox.hidden = !showDelay;
      }
      setText(half.delay, showDelay ? format(r.delay) : "");
      setText(half.hint, texts.hints[flagged ? "flag" : hintKey(player, r.running)]);
      toggle(half.section, "is-running", r.running === player);
      toggle(half.section, "is-turn", isTurn);
      toggle(half.section, "is-flagged", flagged);
      toggle(half.section, "is-low", isTurn && r.reserves[player] < lowMs);
      if (half.button && half.button.tagName === "BUTTON") {
        var tappable = state.status === "ready" ||
          (state.status === "running" && r.running === player);
        if (half.button.disabled === tappable) {
          half.button.disabled = !tappable;
        }
      }
    });
    var flaggedPlayer = state.flagged !== null && state.flagged !== undefined
      ? state.flagged
      : (outOfTime ? r.running : null);
    setText(
      statusLine,
      flaggedPlayer !== null ? texts.status.flagged[flaggedPlayer] : texts.status[state.status] || ""
    );
    warn(r, flaggedPlayer, outOfTime);
    window.requestAnimationFrame(draw);
  }

  /* A beep and a vibration once when the running reserve goes under 10 s, a longer one
   * at the flag (and then ask the server, which records it). */
  function warn(r, flaggedPlayer, outOfTime) {
    if (r.running !== null && r.running !== undefined) {
      var key = "low:" + state.version + ":" + r.running;
      var reserve = r.reserves[r.running];
      if (reserve > 0 && reserve < lowMs && !alerted[key]) {
        alerted[key] = true;
        beep(880, 0.12, 2);
        vibrate([150, 100, 150]);
      }
    }
    if (flaggedPlayer !== null && !alerted.flag) {
      alerted.flag = true;
      beep(440, 0.5, 3);
      vibrate([400, 150, 400, 150, 800]);
    }
    if (outOfTime && !pending && performance.now() - lastSync > 500) {
      sync(); // the server records the flag on this read (or has already)
    }
  }

  // ------------------------------------------------------------------ the server
  function apply(answer, at) {
    if (!answer || typeof answer.version !== "number" || answer.version < state.version) {
      return; // an older answer than the one shown
    }
    state = answer;
    anchor = at;
    Array.prototype.forEach.call(root.querySelectorAll('input[name="version"]'), function (input) {
      input.value = String(answer.version);
    });
    Array.prototype.forEach.call(root.querySelectorAll("[data-when]"), function (element) {
      element.hidden = element.getAttribute("data-when").split(" ").indexOf(answer.status) < 0;
    });
    root.className = root.className.replace(/\bstatus-\w+/, "status-" + answer.status);
  }

  function setOnline(value) {
    online = value;
    if (!value) {
      showNotice(texts.offline);
    } else if (notice && notice.textContent === texts.offline) {
      showNotice("");
    }
  }

  function showNotice(message) {
    if (notice) {
      notice.textContent = message;
      notice.hidden = !message;
    }
  }

  function sync() {
    if (syncing) {
      return;
    }
    syncing = true;
    var sent = performance.now();
    lastSync = sent;
    fetch(data.apiUrl, {
      credentials: "same-origin",
      cache: "no-store",
      headers: { Accept: "application/json" }
    })
      .then(function (response) {
        return response.ok ? response.json() : Promise.reject(response.status);
      })
      .then(function (answer) {
        syncing = false;
        if (!pending) {
          apply(answer, (sent + performance.now()) / 2);
        }
        setOnline(true);
      })
      .catch(function () {
        syncing = false;
        setOnline(false);
      });
  }

  function send(url, body) {
    pending = true;
    var sent = performance.now();
    fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "X-CSRFToken": csrf ? csrf.value : ""
      },
      body: JSON.stringify(body)
    })
      .then(function (response) {
        return response.json().then(function (answer) {
          return { ok: response.ok, answer: answer };
        });
      })
      .then(function (result) {
        pending = false;
        var at = (sent + performance.now()) / 2;
        setOnline(true);
        if (result.ok) {
          apply(result.answer, at);
          showNotice("");
        } else {
          if (result.answer && result.answer.clock) {
            // 409: the refusal carries the clock as it is now.
            state.version = -1; // whatever it says replaces the optimistic state
            apply(result.answer.clock, at);
          } else {
            sync();
          }
          if (result.answer && result.answer.code !== "stale_version") {
            showNotice(texts.error.replace("%(detail)s", result.answer.detail || ""));
          }
        }
        var next = queued;
        queued = null;
        if (next !== null) {
          act(next);
        }
      })
      .catch(function () {
        pending = false;
        queued = null;
        state.version = -1; // the tap may or may not have arrived: the server says
        setOnline(false);
        sync();
      });
  }

  /* `player` touched their half. */
  function act(player) {
    if (!canOperate) {
      return;
    }
    wakeAudio();
    keepAwake();
    if (pending) {
      if (state.status === "running" && state.running === player) {
        queued = player; // sent once the first tap's answer gives the version
      }
      return;
    }
    if (state.status === "ready") {
      send(data.startUrl, { player: player, version: state.version });
      return;
    }
    if (state.status !== "running" || state.running !== player) {
      return; // not this player's clock: nothing to end
    }
    var now = performance.now();
    var r = readings(now);
    var expected = state.version;
    // Show the other player's clock running at once; the server's answer confirms it.
    state = Object.assign({}, state, {
      running: 1 - player,
      turn: 1 - player,
      delay_left_ms: state.delay_ms,
      reserves_ms: r.reserves
    });
    anchor = now;
    send(data.tapUrl, { player: player, version: expected });
  }

  [0, 1].forEach(function (player) {
    var half = halves[player];
    if (!half || !half.form || !half.button) {
      return;
    }
    // pointerdown, not click: a turn ends when the finger lands.
    half.button.addEventListener("pointerdown", function (event) {
      if (event.button !== undefined && event.button > 0) {
        return;
      }
      lastPointer = performance.now();
      act(player);
    });
    half.form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (performance.now() - lastPointer > 1000) {
        act(player); // the keyboard (Enter, Space)
      }
    });
  });

  if (finishForm) {
    finishForm.addEventListener("submit", function (event) {
      if (!window.confirm(texts.confirm_finish)) {
        event.preventDefault();
      }
    });
  }

  if (fullscreen && document.documentElement.requestFullscreen) {
    fullscreen.hidden = false;
    fullscreen.addEventListener("click", function () {
      wakeAudio();
      keepAwake();
      if (document.fullscreenElement) {
        document.exitFullscreen();
      } else {
        document.documentElement.requestFullscreen().catch(function () {});
      }
    });
  }

  document.addEventListener("pointerdown", wakeAudio, { once: true });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      keepAwake();
      sync();
    }
  });
  // A change pushed over the live socket (games.clocks.live): read the clock again.
  document.addEventListener("live:swapped", function () {
    if (!pending) {
      sync();
    }
  });
  window.setInterval(function () {
    if (!pending) {
      sync();
    }
  }, SYNC_MS);

  root.classList.add("is-live");
  sync(); // anchor the rendered state properly (the page took a while to arrive)
  window.requestAnimationFrame(draw);
})();
