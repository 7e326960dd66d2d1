/* The one board of the match page and the online chouette table (issue 27): a play is
 * arranged on the board by tapping or dragging, one checker at a time, and can be
 * undone or reset until it is submitted (docs/rules.md R14: final once submitted).
 * Progressive enhancement: without this script the page's list of legal plays does the
 * same job.
 *
 * What a page gives it:
 *   <div class="board" data-auto-roll="1" data-auto-confirm="1"> the drawing
 *       (games/play/boardsvg.py: rect.hit[data-point] tap areas over each point's whole
 *       column, the bar and the tray) and the viewer's settings (games/players);
 *   <div id="arrange" data-board-url=... data-text-*=...> the panel: status line, dice
 *       left, moves so far, step buttons, Undo, Reset and the form (data-role="form")
 *       whose hidden position_id is what is submitted;
 *   #play-steps, JSON: every way of building a legal play of the roll step by step
 *       (games/play/boardplay.py: nodes[i] = {id: Position ID, dice: dice left, steps:
 *       [[die, from, to, hit, next node], ...], play: notation or null}; node 0 is the
 *       position before the play; points are the mover's, 25 the bar, 0 off);
 *   #team-suggestions, JSON (the chouette team only): [{name, moves: [[from, to], ...]}],
 *       drawn as arrows, coloured as the page's legend (.suggestion-N).
 *
 * Picking a checker (a tap on its column, or the start of a drag) marks where it can
 * go: each point one die away and each point the same checker reaches with more dice
 * (24 then 13 with a 6-5 is one move of one checker: 24/18/13 or 24/19/13, the one
 * hitting nothing on the way first). A tap on a marked point, or a drop on it, moves
 * the checker there; a tap anywhere else picks another checker or nothing. A checker is
 * never moved by the tap that picks it, so a tap on the point a checker just reached, or
 * on another checker's point, is read as what it is and nothing moves by surprise.
 * After each move the board of the new position is fetched from the server
 * (data-board-url), so the drawing is always the server's.
 *
 * The two settings, decided here (the server renders them as data attributes):
 *   data-auto-roll: when the page offers Roll and no double (the cube is not the
 *       player's to turn, or the Crawford game), Roll is pressed for them;
 *   data-auto-confirm: when the roll has exactly one legal play, it is submitted.
 * Each is done once per position (sessionStorage), so a refused roll is not retried.
 * The pages redraw themselves live (static/games/live.js): on each "live:swapped" this
 * sets itself up again. */
(function () {
  "use strict";

  var SVGNS = "http://www.w3.org/2000/svg";

  function onceFor(key) {
    try {
      if (window.sessionStorage.getItem(key)) {
        return false;
      }
      window.sessionStorage.setItem(key, "1");
    } catch (e) {
      /* no storage: act anyway, the server refuses what is out of turn */
    }
    return true;
  }

  function versionOf(form) {
    var field = form.querySelector('input[name="version"], input[name="expected_version"]');
    return field ? field.value : "";
  }

  /* Roll for the player when Roll is offered and no double is. */
  function autoRoll(boardBox) {
    if (boardBox.dataset.autoRoll !== "1") {
      return;
    }
    var roll = document.querySelector('button[name="do"][value="roll"], button[data-action="roll"]');
    if (!roll || !roll.form || roll.disabled) {
      return;
    }
    var doubling = document.querySelector(
      'button[name="do"][value="double"], button[data-action="double"], ' +
        'button[data-action="propose_double"], button[data-action="box_double"]'
    );
    if (doubling) {
      return;
    }
    if (onceFor("board:roll:" + location.pathname + ":" + versionOf(roll.form))) {
      roll.form.requestSubmit(roll);
    }
  }

  /* The board's point a pointer event or element means: 1-24, 25 the bar, 0 the tray. */
  function pointOf(el, boardBox) {
    var hit = el && el.closest ? el.closest("[data-point], .bar, .tray, .off, .unentered") : null;
    if (!hit || !boardBox.contains(hit)) {
      return null;
    }
    var point = hit.getAttribute("data-point");
    if (point === "bar" || hit.classList.contains("bar") || hit.classList.contains("unentered")) {
      return 25;
    }
    if (point === "off" || !point) {
      return 0;
    }
    return Number(point);
  }

  /* Where a point is drawn, for the suggestions' arrows: its tap area's centre line. */
  function anchor(svg, point, low) {
    var name = point === 25 ? "bar" : point === 0 ? "off" : String(point);
    var hit = svg.querySelector('rect.hit[data-point="' + name + '"]');
    if (!hit) {
      return null;
    }
    var x = Number(hit.getAttribute("x")) + Number(hit.getAttribute("width")) / 2;
    var y = Number(hit.getAttribute("y"));
    var h = Number(hit.getAttribute("height"));
    if (point === 25 || point === 0) {
      return { x: x, y: y + h / 2 + (low ? 60 : -60) };
    }
    return { x: x, y: point <= 12 ? y + h * 0.45 : y + h * 0.55 };
  }

  function drawSuggestions(svg, suggestions) {
    var old = svg.querySelector("g.suggestions");
    if (old) {
      old.remove();
    }
    if (!suggestions || !suggestions.length) {
      return;
    }
    var group = document.createElementNS(SVGNS, "g");
    group.setAttribute("class", "suggestions");
    group.setAttribute("pointer-events", "none");
    suggestions.forEach(function (s, i) {
      s.moves.forEach(function (move) {
        var from = anchor(svg, move[0], true);
        var to = anchor(svg, move[1], false);
        if (!from || !to) {
          return;
        }
        var line = document.createElementNS(SVGNS, "line");
        line.setAttribute("class", "suggestion suggestion-" + (i % 4));
        line.setAttribute("x1", from.x);
        line.setAttribute("y1", from.y);
        line.setAttribute("x2", to.x);
        line.setAttribute("y2", to.y);
        group.appendChild(line);
        var head = document.createElementNS(SVGNS, "circle");
        head.setAttribute("class", "suggestion-end suggestion-" + (i % 4));
        head.setAttribute("cx", to.x);
        head.setAttribute("cy", to.y);
        head.setAttribute("r", 12);
        group.appendChild(head);
      });
    });
    var hits = svg.querySelector("g.hits");
    svg.insertBefore(group, hits);
  }

  function init() {
    var boardBox = document.querySelector(".board");
    if (!boardBox) {
      return;
    }
    var suggestionSource = document.getElementById("team-suggestions");
    var suggestions = suggestionSource ? JSON.parse(suggestionSource.textContent) : [];
    if (boardBox.querySelector("svg")) {
      drawSuggestions(boardBox.querySelector("svg"), suggestions);
    }
    autoRoll(boardBox);
    var panel = document.getElementById("arrange");
    var source = document.getElementById("play-steps");
    if (!panel || !source || !window.fetch || !window.DOMParser) {
      return; // the list of legal plays stays the way to play
    }
    var nodes = JSON.parse(source.textContent).nodes;
    var text = panel.dataset;
    function part(role) {
      return panel.querySelector('[data-role="' + role + '"]');
    }
    var statusLine = part("status");
    var diceLine = part("dice");
    var playedLine = part("played");
    var stepsBox = part("steps");
    var undoButton = part("undo");
    var resetButton = part("reset");
    var form = part("form");
    var submitButton = part("submit");
    var list = document.getElementById("play"); // the no-script <select>

    var path = [0]; // the nodes walked through, from the start
    var taken = []; // the steps taken, one per node after the first
    var moves = []; // how many steps each move (tap or drop) took: Undo takes it back
    var selected = null; // the point whose checker was picked on the board
    var boards = new Map(); // Position ID -> <svg> already drawn
    var showing = 0; // the latest board request: older answers are dropped
    var failed = false;
    var submitted = false;
    boards.set(nodes[0].id, boardBox.querySelector("svg"));

    function here() {
      return nodes[path[path.length - 1]];
    }

    function pointName(point) {
      return point === 25 ? "bar" : point === 0 ? "off" : String(point);
    }

    function label(step) {
      return pointName(step[1]) + "/" + pointName(step[2]) + (step[3] ? "*" : "");
    }

    /* Every point the checker on ``from`` can reach from the current node, each with
     * the steps that take it there: the fewest steps, then the fewest blots hit on the
     * way (the steps come larger die first). */
    function routes(from) {
      var found = new Map();
      var queue = [[path[path.length - 1], from, []]];
      while (queue.length) {
        var item = queue.shift();
        nodes[item[0]].steps.forEach(function (step) {
          if (step[1] !== item[1]) {
            return;
          }
          var route = item[2].concat([step]);
          var old = found.get(step[2]);
          if (!old || (old.length === route.length && hitsOnTheWay(route) < hitsOnTheWay(old))) {
            found.set(step[2], route);
          }
          if (step[2] !== 0) {
            queue.push([step[4], step[2], route]);
          }
        });
      }
      return found;
    }

    function hitsOnTheWay(route) {
      return route.slice(0, -1).filter(function (step) {
        return step[3];
      }).length;
    }

    // ------------------------------------------------------------------ the board

    function boardElements(point) {
      var svg = boardBox.querySelector("svg");
      if (!svg) {
        return [];
      }
      var selector =
        point === 25
          ? "rect.bar"
          : point === 0
            ? "rect.tray"
            : 'polygon.point[data-point="' + point + '"]';
      var name = point === 25 ? "bar" : point === 0 ? "off" : String(point);
      selector += ', rect.hit[data-point="' + name + '"]';
      return Array.prototype.slice.call(svg.querySelectorAll(selector));
    }

    /* Marks on the board, styled by site.css and games.css: the checkers that can move,
     * the one picked and where it can go, and the last move. */
    function markBoard() {
      var svg = boardBox.querySelector("svg");
      if (!svg) {
        return;
      }
      drawSuggestions(svg, suggestions);
      var marks = ["arrange-source", "arrange-selected", "arrange-target", "arrange-last"];
      marks.forEach(function (mark) {
        Array.prototype.forEach.call(svg.querySelectorAll("." + mark), function (el) {
          el.classList.remove(mark);
        });
      });
      function mark(point, name) {
        boardElements(point).forEach(function (el) {
          el.classList.add(name);
        });
      }
      var node = here();
      if (taken.length) {
        var last = taken.slice(taken.length - moves[moves.length - 1]);
        mark(last[0][1], "arrange-last");
        mark(last[last.length - 1][2], "arrange-last");
      }
      if (selected === null) {
        node.steps.forEach(function (step) {
          mark(step[1], "arrange-source");
        });
      } else {
        routes(selected).forEach(function (route, point) {
          mark(point, "arrange-target");
        });
        mark(selected, "arrange-selected");
      }
      // The dice played so far are dimmed (a double's two dice stand for two moves each).
      var dice = svg.querySelectorAll("g.die");
      var played = taken.map(function (step) {
        return step[0];
      });
      Array.prototype.forEach.call(dice, function (die, i) {
        var used;
        if (nodes[0].dice.length === 4) {
          used = played.length >= 2 * (i + 1);
        } else {
          used = played.indexOf(Number(die.getAttribute("data-value"))) !== -1;
        }
        die.classList.toggle("arrange-used", used);
      });
      boardBox.classList.toggle("arranging", node.steps.length > 0);
      boardBox.classList.toggle("picked", selected !== null);
    }

    function showBoard() {
      var node = here();
      var ticket = ++showing;
      var known = boards.get(node.id);
      if (known) {
        boardBox.replaceChildren(known);
        markBoard();
        return;
      }
      var url = new URL(text.boardUrl, window.location.href);
      url.searchParams.set("position", node.id);
      fetch(url.toString(), { credentials: "same-origin", headers: { Accept: "image/svg+xml" } })
        .then(function (response) {
          if (!response.ok) {
            throw new Error("HTTP " + response.status);
          }
          return response.text();
        })
        .then(function (body) {
          var drawn = new DOMParser().parseFromString(body, "image/svg+xml").documentElement;
          if (drawn.nodeName !== "svg") {
            throw new Error("not an SVG image");
          }
          var svg = document.importNode(drawn, true);
          boards.set(node.id, svg);
          if (ticket === showing) {
            boardBox.replaceChildren(svg);
            if (failed) {
              failed = false;
              render();
            }
            markBoard();
          }
        })
        .catch(function () {
          if (ticket === showing) {
            failed = true;
            render();
          }
        });
    }

    // ------------------------------------------------------------------ the panel

    function render() {
      var node = here();
      var complete = node.play !== null;
      if (failed) {
        statusLine.textContent = text.textBoardError;
      } else if (complete) {
        statusLine.textContent =
          text.textComplete + (node.dice.length ? " " + text.textForfeit : "");
      } else {
        statusLine.textContent = selected === null ? text.textNext : text.textTarget;
      }
      diceLine.textContent = node.dice.length ? node.dice.join(" ") : "–";
      playedLine.textContent = complete
        ? node.play
        : taken.length
          ? taken.map(label).join(", ")
          : text.textNone;

      var labels = node.steps.map(label);
      var buttons = node.steps.map(function (step, i) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "step";
        // Two steps alike but for the die (bearing off 3 with a 6 or a 5): name the die.
        var alike = labels.indexOf(labels[i]) !== labels.lastIndexOf(labels[i]);
        button.textContent = labels[i] + (alike ? " (" + step[0] + ")" : "");
        button.dataset.die = step[0];
        button.dataset.from = step[1];
        button.dataset.to = step[2];
        if (selected !== null && step[1] === selected) {
          button.classList.add("is-candidate");
        }
        button.addEventListener("click", function () {
          take([step]);
        });
        return button;
      });
      stepsBox.replaceChildren.apply(stepsBox, buttons);
      stepsBox.hidden = buttons.length === 0;

      undoButton.disabled = path.length === 1 || submitted;
      resetButton.disabled = path.length === 1 || submitted;
      submitButton.disabled = !complete || submitted;
      form.elements.position_id.value = complete ? node.id : "";
      if (complete && list) {
        list.value = node.id; // the list shows the same play
      }
      markBoard();
    }

    /* Redraw after a move, Undo or Reset. A keyboard user whose button went away (the
     * step buttons are rebuilt, Undo and Reset are disabled at the start) lands on the
     * next thing to press: the first step button, or Submit. */
    function moved() {
      var active = document.activeElement;
      var lost = active && panel.contains(active) && active !== submitButton;
      selected = null;
      render();
      showBoard();
      if (lost && (!document.body.contains(active) || active.disabled)) {
        var next = here().play !== null ? submitButton : stepsBox.querySelector("button");
        if (next) {
          next.focus();
        }
      }
    }

    function take(route) {
      if (submitted) {
        return;
      }
      route.forEach(function (step) {
        path.push(step[4]);
        taken.push(step);
      });
      moves.push(route.length);
      moved();
    }

    function undo() {
      if (path.length > 1 && !submitted) {
        var count = moves.pop() || 1;
        path.splice(path.length - count, count);
        taken.splice(taken.length - count, count);
        moved();
      }
    }

    function reset() {
      if (!submitted) {
        path = [0];
        taken = [];
        moves = [];
        moved();
      }
    }

    /* A tap on a point: a marked point takes the picked checker there; a point with a
     * checker that can move picks it (a second tap lets it go); anything else lets go. */
    function tap(point) {
      var node = here();
      if (point === null || !node.steps.length || submitted) {
        return;
      }
      if (selected !== null && point !== selected) {
        var route = routes(selected).get(point);
        if (route) {
          take(route);
          return;
        }
      }
      var movable = node.steps.some(function (s) {
        return s[1] === point;
      });
      selected = movable && selected !== point ? point : null;
      render();
    }

    // Taps and drags, by mouse, pen or finger alike (pointer events).
    var press = null;
    boardBox.addEventListener("pointerdown", function (event) {
      if (event.button !== 0 || submitted) {
        return;
      }
      press = { point: pointOf(event.target, boardBox), x: event.clientX, y: event.clientY, drag: false };
    });
    boardBox.addEventListener("pointermove", function (event) {
      if (!press || press.drag) {
        return;
      }
      if (Math.abs(event.clientX - press.x) + Math.abs(event.clientY - press.y) > 12) {
        var movable = here().steps.some(function (s) {
          return s[1] === press.point;
        });
        if (movable) {
          press.drag = true; // a drag from a movable checker: show where it can go
          selected = press.point;
          render();
        }
      }
    });
    boardBox.addEventListener("pointercancel", function () {
      press = null;
    });
    boardBox.addEventListener("pointerup", function (event) {
      var started = press;
      press = null;
      if (!started) {
        return;
      }
      var under = document.elementFromPoint(event.clientX, event.clientY);
      var point = pointOf(under, boardBox);
      if (started.drag) {
        var route = point === null ? null : routes(started.point).get(point);
        if (route) {
          take(route);
        } else {
          selected = null; // dropped where it cannot go: nothing moves
          render();
        }
        return;
      }
      tap(point);
    });

    undoButton.addEventListener("click", undo);
    resetButton.addEventListener("click", reset);
    form.addEventListener("submit", function (event) {
      if (here().play === null || submitted) {
        event.preventDefault();
        return;
      }
      submitted = true; // one submission, final (R14): Undo and Reset are gone too
      undoButton.disabled = resetButton.disabled = submitButton.disabled = true;
    });

    var listLabel = list && document.querySelector('label[for="play"]');
    if (listLabel && text.textList) {
      listLabel.textContent = text.textList;
    }
    panel.hidden = false;
    render();

    // A forced play (one legal play of the roll) is submitted by itself when asked for:
    // it is walked on the board (the player sees it) and sent.
    var ends = nodes.filter(function (n) {
      return n.play !== null;
    });
    var onlyOne = ends.every(function (n) {
      return n.id === ends[0].id;
    });
    if (boardBox.dataset.autoConfirm === "1" && ends.length && onlyOne) {
      var way = wayTo(nodes.indexOf(ends[0]));
      if (way && onceFor("board:play:" + location.pathname + ":" + versionOf(form))) {
        take(way);
        form.requestSubmit(submitButton);
      }
    }

    /* The steps from the start to node ``target`` (breadth first). */
    function wayTo(target) {
      var queue = [[0, []]];
      var seen = new Set([0]);
      while (queue.length) {
        var item = queue.shift();
        if (item[0] === target) {
          return item[1];
        }
        nodes[item[0]].steps.forEach(function (step) {
          if (!seen.has(step[4])) {
            seen.add(step[4]);
            queue.push([step[4], item[1].concat([step])]);
          }
        });
      }
      return null;
    }
  }

  init();
  document.addEventListener("live:swapped", init);
})();
