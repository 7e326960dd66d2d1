/* Arrange a play one die at a time on the match page (docs/rules.md R14: a play can be
 * changed until it is submitted). Progressive enhancement: without this script the
 * page's list of legal plays does the same job.
 *
 * The page carries, as JSON (#play-steps), every way of building a legal play of the
 * roll step by step (games/engine/steps.py): nodes[i] = {id: Position ID, dice: dice
 * left, steps: [[die, from, to, hit, next node], ...], play: notation or null}; node 0
 * is the position before the play, points are the mover's (25 the bar, 0 off). The
 * player walks it with the step buttons or by clicking a checker and then its
 * destination on the board; after each step the board of the new position is fetched
 * from the server (data-board-url), so the drawing is always the server's. All texts
 * come translated from the template's data-text-* attributes. The match page redraws
 * itself live (static/games/live.js): on each "live:swapped" the panel is new and this
 * sets itself up again. */
(function () {
  "use strict";

  function init() {
    var panel = document.getElementById("arrange");
    var source = document.getElementById("play-steps");
    var boardBox = document.querySelector(".board");
    if (!panel || !source || !boardBox || !window.fetch || !window.DOMParser) {
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
    var selected = null; // the point whose checker was picked on the board
    var boards = new Map(); // Position ID -> <svg> already drawn
    var showing = 0; // the latest board request: older answers are dropped
    var failed = false;
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

    // ------------------------------------------------------------------ the board

    /* The point a click on the board means (the viewer is the mover, so the board's
     * numbers are the mover's): 25 for the bar or unentered checkers, 0 for the tray. */
    function pointAt(target) {
      var el = target.closest("[data-point], .bar, .tray, .off, .unentered");
      if (!el || !boardBox.contains(el)) {
        return null;
      }
      var point = el.getAttribute("data-point");
      if (point === "bar" || el.classList.contains("bar") || el.classList.contains("unentered")) {
        return 25;
      }
      if (point) {
        return Number(point);
      }
      return 0;
    }

    function boardElements(point) {
      var svg = boardBox.querySelector("svg");
      if (!svg) {
        return [];
      }
      if (point === 25) {
        return Array.prototype.slice.call(svg.querySelectorAll("rect.bar"));
      }
      if (point === 0) {
        return Array.prototype.slice.call(svg.querySelectorAll("rect.tray"));
      }
      return Array.prototype.slice.call(svg.querySelectorAll('polygon.point[data-point="' + point + '"]'));
    }

    /* Marks on the board, styled by site.css: the checkers that can move, the one
     * picked and where it can go, and the last step. */
    function markBoard() {
      var svg = boardBox.querySelector("svg");
      if (!svg) {
        return;
      }
      var marks = ["arrange-source", "arrange-selected", "arrange-target", "arrange-last"];
      // (dice are marked below, each one every time)
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
        var last = taken[taken.length - 1];
        mark(last[1], "arrange-last");
        mark(last[2], "arrange-last");
      }
      node.steps.forEach(function (step) {
        if (selected === null) {
          mark(step[1], "arrange-source");
        } else if (step[1] === selected) {
          mark(step[2], "arrange-target");
        }
      });
      if (selected !== null) {
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
          take(step);
        });
        return button;
      });
      stepsBox.replaceChildren.apply(stepsBox, buttons);
      stepsBox.hidden = buttons.length === 0;

      undoButton.disabled = path.length === 1;
      resetButton.disabled = path.length === 1;
      submitButton.disabled = !complete;
      form.elements.position_id.value = complete ? node.id : "";
      if (complete && list) {
        list.value = node.id; // the list shows the same play
      }
      markBoard();
    }

    /* Redraw after a step, Undo or Reset. A keyboard user whose button went away (the
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

    function take(step) {
      path.push(step[4]);
      taken.push(step);
      moved();
    }

    function undo() {
      if (path.length > 1) {
        path.pop();
        taken.pop();
        moved();
      }
    }

    function reset() {
      path = [0];
      taken = [];
      moved();
    }

    boardBox.addEventListener("click", function (event) {
      var point = pointAt(event.target);
      var node = here();
      if (point === null || !node.steps.length) {
        return;
      }
      if (selected !== null) {
        var chosen = node.steps.filter(function (s) {
          return s[1] === selected && s[2] === point;
        });
        if (chosen.length) {
          take(chosen[0]); // the larger die when two reach the same point
          return;
        }
      }
      var from = node.steps.filter(function (s) {
        return s[1] === point;
      });
      var targets = new Set(
        from.map(function (s) {
          return s[2];
        })
      );
      if (targets.size === 1) {
        take(from[0]); // one place to go: no need to ask
        return;
      }
      selected = from.length && selected !== point ? point : null;
      render();
    });

    undoButton.addEventListener("click", undo);
    resetButton.addEventListener("click", reset);
    form.addEventListener("submit", function (event) {
      if (here().play === null) {
        event.preventDefault();
        return;
      }
      submitButton.disabled = true; // one submission
    });

    var listLabel = list && document.querySelector('label[for="play"]');
    if (listLabel && text.textList) {
      listLabel.textContent = text.textList;
    }
    panel.hidden = false;
    render();
  }

  init();
  document.addEventListener("live:swapped", init);
})();
