/* The round settings grid (issue 29): a row's "Fill down" button copies its match length,
 * clock preset and clock use into the rows below it in the same part (the rounds not
 * played yet: a played round has no inputs). Nothing is saved until the form is. */
(function () {
  "use strict";
  var FIELDS = ["match_length", "clock_preset", "clock_policy"];
  function field(row, name) {
    return row.querySelector("[name$='-" + name + "']");
  }
  document.querySelectorAll("button[data-fill-down]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var row = button.closest("tr");
      var part = row.dataset.part;
      var next = row.nextElementSibling;
      for (; next && next.dataset.part === part; next = next.nextElementSibling) {
        FIELDS.forEach(function (name) {
          var from = field(row, name), to = field(next, name);
          if (from && to) { to.value = from.value; }
        });
      }
    });
  });
})();
