/* The director's night view (templates/tournaments/night.html): the search box filters
 * the rows as one types (by a player's name, or a table number), and the order links
 * put the rows in table or name order, both without a round trip; the address keeps the
 * order, so the live redraws (static/games/live.js, which fetches the page again) come
 * in it too. After every redraw the filter is applied again. Without this script the
 * search form and the links ask the server (?q=, ?sort=). */
(function () {
  "use strict";

  var box = document.querySelector("[data-night-search]");

  function fold(text) {
    // Case and accents do not matter: "kovacs" finds "Kovács".
    return (text || "").toLocaleLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }

  function matches(row, query) {
    if (!query) return true;
    if (/^\d+$/.test(query)) return row.dataset.table === String(parseInt(query, 10));
    var names = fold(row.dataset.names).split("|");
    var words = fold(query).split(/\s+/).filter(Boolean);
    return names.some(function (name) {
      return name && words.every(function (w) {
        return name.indexOf(w) !== -1;
      });
    });
  }

  function filter() {
    var query = box ? box.value.trim() : "";
    var shown = 0;
    document.querySelectorAll("[data-night-row]").forEach(function (row) {
      var on = matches(row, query);
      row.hidden = !on;
      if (on) shown += 1;
    });
    var nothing = document.querySelector("[data-night-nothing]");
    if (nothing) nothing.hidden = shown > 0 || !query;
  }

  function keyOf(row, sort) {
    var table = row.dataset.table ? parseInt(row.dataset.table, 10) : Infinity;
    var names = fold(row.dataset.names);
    return sort === "name" ? [names.charAt(0) === "|" ? 1 : 0, names, table] : [table === Infinity ? 1 : 0, table, names];
  }

  function compare(a, b) {
    for (var i = 0; i < a.length; i++) {
      if (a[i] < b[i]) return -1;
      if (a[i] > b[i]) return 1;
    }
    return 0;
  }

  function order(sort) {
    // The open and waiting matches; the results stay latest first.
    document.querySelectorAll("[data-night-rows]:not(.is-done)").forEach(function (list) {
      var rows = Array.prototype.slice.call(list.querySelectorAll("[data-night-row]"));
      rows.sort(function (a, b) {
        return compare(keyOf(a, sort), keyOf(b, sort)) || a.dataset.order - b.dataset.order;
      });
      rows.forEach(function (row) {
        list.appendChild(row);
      });
    });
    document.querySelectorAll("[data-night-sort] [data-sort]").forEach(function (link) {
      if (link.dataset.sort === sort) link.setAttribute("aria-current", "true");
      else link.removeAttribute("aria-current");
    });
    var hidden = document.querySelector("[data-night-search-form] input[name=sort]");
    if (hidden) hidden.value = sort;
    document.querySelectorAll(".night-form input[name=sort]").forEach(function (input) {
      input.value = sort;
    });
  }

  if (box) box.addEventListener("input", filter);

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("[data-night-sort] [data-sort]");
    if (!link) return;
    event.preventDefault();
    order(link.dataset.sort);
    history.replaceState(null, "", link.href);
  });

  document.addEventListener("live:swapped", filter);
  filter();
})();
