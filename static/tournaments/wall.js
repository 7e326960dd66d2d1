/* The wall display (templates/tournaments/flight_wall.html, ?wall=1 of a flight page):
 * everything the wall holds on one screen, and no scrolling.
 *
 * Each .wall-part (a bracket part's SVG, the standings, the current round's pairings) has
 * a natural size: the SVG's viewBox, a table's own width and height. The parts are laid
 * out at one common scale, in order, in rows (side by side) or in columns (stacked),
 * trying every way to split them into rows or columns and keeping the one with the
 * largest scale. When even that scale is below MIN_SCALE (text smaller than about
 * 10 px), the wall turns through the parts instead: one part at a time, each as large
 * as the screen allows, and a part still too tall at MIN_SCALE in pages of a screen's
 * height; it turns every data-turn-seconds, or at the arrow keys / Page keys / space.
 *
 * static/games/live.js swaps #flight-wall when the flight changes: the layout is made
 * again on "live:swapped" (keeping the page it was on), and on every resize. */
(function () {
  "use strict";

  var MIN_SCALE = 0.75; // CSS px per unit: a bracket's 14-unit names at 10.5 px
  var MAX_SCALE = 3;
  var GAP = 24; // px between parts
  var pages = [];
  var current = 0;
  var timer = null;

  function wall() {
    return document.getElementById("flight-wall");
  }

  function px(value) {
    return Math.round(value * 100) / 100 + "px";
  }

  function measure(part) {
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
    if (content.tagName.toLowerCase() === "svg") {
      var box = content.viewBox && content.viewBox.baseVal;
      if (!box || !box.width || !box.height) return null;
      item.svg = true;
      item.w = box.width;
      item.h = box.height;
    } else {
      item.w = content.offsetWidth;
      item.h = content.offsetHeight;
    }
    return item.w && item.h ? item : null;
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

  function plan(items, width, height) {
    var best = null;
    compositions(Math.min(items.length, 8)).forEach(function (sizes) {
      ["rows", "columns"].forEach(function (direction) {
        var groups = [];
        var start = 0;
        sizes.forEach(function (k) {
          groups.push(items.slice(start, start + k));
          start += k;
        });
        var scale = MAX_SCALE;
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

  function size(item, scale, visible, offset) {
    // The part's content at `scale`, showing `visible` px of its height from `offset`.
    var w = item.w * scale;
    var h = item.h * scale;
    item.fit.style.width = px(w);
    item.fit.style.height = px(Math.min(h, visible));
    if (item.svg) {
      item.content.style.width = px(w);
      item.content.style.height = px(h);
      item.content.style.marginTop = px(-offset);
    } else {
      item.content.style.transform =
        "translate(0, " + px(-offset) + ") scale(" + scale + ")";
    }
    item.part.style.width = px(w);
  }

  function place(item, left, top) {
    item.part.hidden = false;
    item.part.style.left = px(left);
    item.part.style.top = px(top);
  }

  function layOut(items, best, width) {
    var s = best.scale;
    var extent = function (group, key) {
      return group.reduce(function (m, it) {
        return Math.max(m, key(it));
      }, 0);
    };
    if (best.direction === "rows") {
      var top = 0;
      best.groups.forEach(function (group) {
        var rowWidth = GAP * (group.length - 1);
        group.forEach(function (it) {
          rowWidth += it.w * s;
        });
        var left = Math.max(0, (width - rowWidth) / 2);
        group.forEach(function (it) {
          size(it, s, Infinity, 0);
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
          size(it, s, Infinity, 0);
          place(it, x, y);
          y += it.h * s + it.title + GAP;
        });
        x += extent(group, function (it) { return it.w * s; }) + GAP;
      });
    }
  }

  function turnPages(items, width, height) {
    var out = [];
    items.forEach(function (it) {
      var room = height - it.title;
      var scale = Math.min(width / it.w, room / it.h, MAX_SCALE);
      if (scale < MIN_SCALE) scale = Math.min(width / it.w, MIN_SCALE);
      var tall = it.h * scale;
      var count = Math.max(1, Math.ceil(tall / room - 0.001));
      for (var k = 0; k < count; k++) {
        // Pages spread so that the last one ends at the part's bottom.
        var offset = count > 1 ? (k * (tall - room)) / (count - 1) : 0;
        out.push({ item: it, scale: scale, room: room, offset: offset });
      }
    });
    return out;
  }

  function show(index, width) {
    if (!pages.length) return;
    current = ((index % pages.length) + pages.length) % pages.length;
    var p = pages[current];
    pages.forEach(function (q) {
      q.item.part.hidden = q.item !== p.item;
    });
    size(p.item, p.scale, p.room, p.offset);
    place(p.item, Math.max(0, (width - p.item.w * p.scale) / 2), 0);
    var label = wall().querySelector(".wall-turn");
    if (label) label.textContent = current + 1 + " / " + pages.length;
  }

  function arrange() {
    var root = wall();
    var holder = root && root.querySelector(".wall-parts");
    if (!holder) return;
    var parts = Array.prototype.slice.call(holder.querySelectorAll(".wall-part"));
    parts.forEach(function (part) {
      part.hidden = false;
    });
    var items = parts.map(measure).filter(Boolean);
    var width = holder.clientWidth;
    var height = holder.clientHeight;
    holder.classList.add("is-laid-out");
    root.classList.remove("is-turning");
    pages = [];
    if (!items.length || width <= 0 || height <= 0) return;
    var best = plan(items, width, height);
    if (best && best.scale >= MIN_SCALE) {
      layOut(items, best, width);
      var label = root.querySelector(".wall-turn");
      if (label) label.textContent = "";
      return;
    }
    root.classList.add("is-turning");
    pages = turnPages(items, width, height);
    show(Math.min(current, pages.length - 1), width);
  }

  function turn(step) {
    var holder = wall() && wall().querySelector(".wall-parts");
    if (pages.length > 1 && holder) show(current + step, holder.clientWidth);
  }

  function start() {
    arrange();
    var seconds = parseFloat((wall() && wall().dataset.turnSeconds) || "12");
    if (timer) window.clearInterval(timer);
    timer = window.setInterval(function () {
      turn(1);
    }, Math.max(seconds, 2) * 1000);
  }

  var resizing = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(resizing);
    resizing = window.setTimeout(arrange, 100);
  });
  document.addEventListener("live:swapped", arrange);
  document.addEventListener("keydown", function (event) {
    var next = { ArrowRight: 1, ArrowDown: 1, PageDown: 1, " ": 1, ArrowLeft: -1, ArrowUp: -1, PageUp: -1 };
    if (event.key in next) {
      event.preventDefault();
      turn(next[event.key]);
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
