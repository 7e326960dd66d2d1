/* The wall displays: a flight's (templates/tournaments/flight_wall.html, ?wall=1 of a
 * flight page) and an event's (templates/tournaments/event_wall.html: each running
 * flight in turn). Everything on one screen, no scrolling, and names a room reads.
 *
 * The root ([data-wall]) holds one .wall-display per flight; one is shown at a time.
 * Each .wall-part of it (a bracket part's SVG, the standings, the current round's
 * pairings) has a natural size (the SVG's viewBox, a table's own box) and a name height
 * at that size (a text.name's box, a table's span.name). Sizes are counted in name
 * heights, so that one "scale" is the names' height in CSS px for every part: the parts
 * are laid out together at the largest such scale, in order, in rows (side by side) or
 * columns (stacked), trying every way to split them; names are never drawn smaller than
 * MIN_NAME of the screen's height (issue 29: 2.5 %, 27 px at 1080p, 54 px at 4K,
 * readable from 5 m) nor larger than MAX_NAME. When the parts cannot all fit with names
 * that large, the wall turns through them: one part at a time, each as large as the
 * screen allows, and a part still too big in windows of a screen (top and bottom halves,
 * left and right rounds) rather than shrinking it.
 *
 * It turns every data-turn-seconds (a page of a flight, then the next flight), or at
 * the arrow keys / Page keys / space. static/games/live.js swaps the root when the
 * flight or event changes: the layout is made again on "live:swapped", on the same
 * flight (found by data-flight) and page, and on every resize. */
(function () {
  "use strict";

  var MIN_NAME = 0.025 * 1.04; // of the screen's height (with a little margin for rounding)
  var MAX_NAME = 0.06;
  var GAP = 24; // px between parts
  var pages = []; // the shown flight's pages (one when everything fits)
  var flight = 0; // which .wall-display
  var current = 0; // which page of it
  var timer = null;
  var shownFlight = ""; // its data-flight, to find it again after a live swap

  function root() {
    return document.querySelector("[data-wall]");
  }

  function displays() {
    var r = root();
    if (!r) return [];
    if (r.classList.contains("wall-display")) return [r];
    return Array.prototype.slice.call(r.querySelectorAll(".wall-display"));
  }

  function px(value) {
    return Math.round(value * 100) / 100 + "px";
  }

  function measure(part, screen) {
    var fit = part.querySelector(".wall-fit");
    var content = fit && fit.firstElementChild;
    if (!content) return null;
    var head = part.querySelector("h2");
    var title = 0;
    if (head) {
      var style = window.getComputedStyle(head);
      title = head.offsetHeight + parseFloat(style.marginTop) + parseFloat(style.marginBottom);
    }
    var item = { part: part, fit: fit, content: content, title: title, svg: false };
    var w, h, unit;
    if (content.tagName.toLowerCase() === "svg") {
      var box = content.viewBox && content.viewBox.baseVal;
      if (!box || !box.width || !box.height) return null;
      item.svg = true;
      w = box.width;
      h = box.height;
      var name = content.querySelector("text.name");
      unit = name ? name.getBBox().height : 0;
      if (!unit) unit = 17; // bracketview's 14-unit font
    } else {
      content.style.transform = "";
      w = content.offsetWidth;
      h = content.offsetHeight;
      var span = content.querySelector(".name");
      unit = span ? span.getBoundingClientRect().height : 0;
      if (!unit) unit = 0.035 * screen;
    }
    if (!w || !h) return null;
    // In name heights: at scale s (the names' height in px) the part is w * s wide.
    item.unit = unit;
    item.w = w / unit;
    item.h = h / unit;
    return item;
  }

  function compositions(n) {
    // Every way to cut n parts, in order, into groups: [[3], [1, 2], [2, 1], [1, 1, 1]].
    if (n === 0) return [[]];
    var out = [];
    for (var k = 1; k <= n; k++) {
      compositions(n - k).forEach(function (rest) {
        out.push([k].concat(rest));
      });
    }
    return out;
  }

  function plan(items, width, height, largest) {
    var best = null;
    compositions(Math.min(items.length, 8)).forEach(function (sizes) {
      ["rows", "columns"].forEach(function (direction) {
        var groups = [];
        var start = 0;
        sizes.forEach(function (k) {
          groups.push(items.slice(start, start + k));
          start += k;
        });
        var scale = largest;
        var across = 0;
        var fixed = GAP * (groups.length - 1);
        groups.forEach(function (group) {
          var w = 0, h = 0, t = 0;
          group.forEach(function (it) {
            if (direction === "rows") {
              w += it.w;
              h = Math.max(h, it.h);
              t = Math.max(t, it.title);
            } else {
              w = Math.max(w, it.w);
              h += it.h;
              t += it.title;
            }
          });
          var gaps = GAP * (group.length - 1);
          if (direction === "rows") {
            scale = Math.min(scale, (width - gaps) / w);
            across += h;
            fixed += t;
          } else {
            scale = Math.min(scale, (height - t - gaps) / h);
            across += w;
          }
        });
        var room = direction === "rows" ? height - fixed : width - fixed;
        scale = Math.min(scale, room / across);
        if (!best || scale > best.scale + 1e-9) {
          best = { scale: scale, direction: direction, groups: groups };
        }
      });
    });
    return best;
  }

  function size(item, scale, visibleW, visibleH, offsetX, offsetY) {
    // The part with names `scale` px high, showing visibleW x visibleH px of it from
    // (offsetX, offsetY).
    var s = scale / item.unit; // CSS px per natural unit
    var w = item.w * scale;
    var h = item.h * scale;
    item.fit.style.width = px(Math.min(w, visibleW));
    item.fit.style.height = px(Math.min(h, visibleH));
    if (item.svg) {
      item.content.style.width = px(w);
      item.content.style.height = px(h);
      item.content.style.marginTop = px(-offsetY);
      item.content.style.marginLeft = px(-offsetX);
    } else {
      item.content.style.transform =
        "translate(" + px(-offsetX) + ", " + px(-offsetY) + ") scale(" + s + ")";
    }
    item.part.style.width = px(Math.min(w, visibleW));
  }

  function place(item, left, top) {
    item.part.hidden = false;
    item.part.style.left = px(left);
    item.part.style.top = px(top);
  }

  function layOut(best, width, height) {
    var s = best.scale;
    var extent = function (group, key) {
      return group.reduce(function (m, it) {
        return Math.max(m, key(it));
      }, 0);
    };
    if (best.direction === "rows") {
      var used = GAP * (best.groups.length - 1);
      best.groups.forEach(function (group) {
        used += extent(group, function (it) { return it.h * s; }) +
          extent(group, function (it) { return it.title; });
      });
      var top = Math.max(0, (height - used) / 2);
      best.groups.forEach(function (group) {
        var rowWidth = GAP * (group.length - 1);
        group.forEach(function (it) {
          rowWidth += it.w * s;
        });
        var left = Math.max(0, (width - rowWidth) / 2);
        group.forEach(function (it) {
          size(it, s, Infinity, Infinity, 0, 0);
          place(it, left, top);
          left += it.w * s + GAP;
        });
        top += extent(group, function (it) { return it.h * s; }) +
          extent(group, function (it) { return it.title; }) + GAP;
      });
    } else {
      var total = GAP * (best.groups.length - 1);
      best.groups.forEach(function (group) {
        total += extent(group, function (it) { return it.w * s; });
      });
      var x = Math.max(0, (width - total) / 2);
      best.groups.forEach(function (group) {
        var y = 0;
        group.forEach(function (it) {
          size(it, s, Infinity, Infinity, 0, 0);
          place(it, x, y);
          y += it.h * s + it.title + GAP;
        });
        x += extent(group, function (it) { return it.w * s; }) + GAP;
      });
    }
  }

  function spread(total, room) {
    // Windows of `room` over `total` px, spread so that the last ends at the end.
    var count = Math.max(1, Math.ceil(total / room - 0.001));
    var out = [];
    for (var k = 0; k < count; k++) {
      out.push(count > 1 ? (k * (total - room)) / (count - 1) : 0);
    }
    return out;
  }

  function turnPages(items, width, height, smallest, largest) {
    var out = [];
    items.forEach(function (it) {
      var room = height - it.title;
      var scale = Math.min(width / it.w, room / it.h, largest);
      if (scale < smallest) scale = smallest; // windows of it rather than smaller names
      // Top to bottom (halves of a draw), each from the first rounds to the last.
      spread(it.h * scale, room).forEach(function (y) {
        spread(it.w * scale, width).forEach(function (x) {
          out.push({ item: it, scale: scale, width: width, room: room, x: x, y: y });
        });
      });
    });
    return out;
  }

  function showPage(display) {
    if (!pages.length) return;
    current = ((current % pages.length) + pages.length) % pages.length;
    var p = pages[current];
    pages.forEach(function (q) {
      q.item.part.hidden = q.item !== p.item;
    });
    size(p.item, p.scale, p.width, p.room, p.x, p.y);
    place(p.item, Math.max(0, (p.width - p.item.w * p.scale) / 2), 0);
    var label = display.querySelector(".wall-turn");
    if (label) label.textContent = current + 1 + " / " + pages.length;
  }

  function arrange() {
    var all = displays();
    if (!all.length) return;
    flight = ((flight % all.length) + all.length) % all.length;
    all.forEach(function (d, i) {
      d.hidden = i !== flight;
    });
    var display = all[flight];
    var holder = display.querySelector(".wall-parts");
    pages = [];
    if (!holder) return;
    var parts = Array.prototype.slice.call(holder.querySelectorAll(".wall-part"));
    parts.forEach(function (part) {
      part.hidden = false;
    });
    var screen = window.innerHeight;
    var items = parts.map(function (part) {
      return measure(part, screen);
    }).filter(Boolean);
    var width = holder.clientWidth;
    var height = holder.clientHeight;
    holder.classList.add("is-laid-out");
    display.classList.remove("is-turning");
    var label = display.querySelector(".wall-turn");
    if (label) label.textContent = "";
    if (!items.length || width <= 0 || height <= 0) {
      current = 0;
      return;
    }
    var smallest = MIN_NAME * screen;
    var largest = MAX_NAME * screen;
    var best = plan(items, width, height, largest);
    if (best && best.scale >= smallest) {
      layOut(best, width, height);
      pages = [null];
      current = 0;
      return;
    }
    display.classList.add("is-turning");
    pages = turnPages(items, width, height, smallest, largest);
    if (current < 0) current = pages.length - 1;
    current = Math.min(current, pages.length - 1);
    showPage(display);
  }

  function turn(step) {
    var all = displays();
    if (!all.length) return;
    var next = current + step;
    if (next >= 0 && next < pages.length && pages.length > 1) {
      current = next;
      showPage(all[flight]);
      return;
    }
    if (all.length === 1) {
      // One flight: round its pages.
      if (pages.length > 1) {
        current = next < 0 ? pages.length - 1 : 0;
        showPage(all[0]);
      }
      return;
    }
    flight += step > 0 ? 1 : -1;
    current = step > 0 ? 0 : -1; // -1: the last page of the flight before
    arrange();
  }

  function swapped() {
    // The root was replaced: stay on the flight that was shown if it is still there.
    var found = -1;
    displays().forEach(function (d, i) {
      if (shownFlight && d.dataset.flight === shownFlight) found = i;
    });
    if (found >= 0) {
      flight = found;
    } else {
      current = 0;
    }
    arrange();
    remember();
  }

  function remember() {
    var d = displays()[flight];
    shownFlight = d ? d.dataset.flight || "" : "";
  }

  function start() {
    arrange();
    remember();
    var seconds = parseFloat((root() && root().dataset.turnSeconds) || "12");
    if (timer) window.clearInterval(timer);
    timer = window.setInterval(function () {
      turn(1);
      remember();
    }, Math.max(seconds, 1) * 1000);
  }

  var resizing = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(resizing);
    resizing = window.setTimeout(arrange, 100);
  });
  document.addEventListener("live:swapped", swapped);
  document.addEventListener("keydown", function (event) {
    var next = { ArrowRight: 1, ArrowDown: 1, PageDown: 1, " ": 1, ArrowLeft: -1, ArrowUp: -1, PageUp: -1 };
    if (event.key in next) {
      event.preventDefault();
      turn(next[event.key]);
      remember();
    }
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
  // Web fonts or late layout can change the titles' heights: once more when all loaded.
  window.addEventListener("load", arrange);
})();
