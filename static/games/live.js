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

  function swap(html, submitted) {
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
      watchAll();
    } else if (freshTopic) {
      watchAll();
    }
    Object.keys(vs).forEach(function (topic) {
      var since = vs[topic].since;
      if (since && (!positions[topic] || later(since, positions[topic]))) positions[topic] = since;
    });
    document.dispatchEvent(new CustomEvent("live:swapped"));
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

  connect();
})();
