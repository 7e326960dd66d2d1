/* A list of boxes narrowed by what is typed in its filter box (issue 29: adding players):
 * <input data-pick-filter="LIST-ID"> hides the list's items whose data-name does not hold
 * the typed text (case and accents folded). Ticked boxes stay ticked when hidden. */
(function () {
  "use strict";
  function fold(text) {
    return text.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }
  function apply(input) {
    var list = document.getElementById(input.dataset.pickFilter);
    if (!list) return;
    var wanted = fold(input.value.trim());
    list.querySelectorAll("li[data-name]").forEach(function (item) {
      item.hidden = wanted !== "" && fold(item.dataset.name).indexOf(wanted) === -1;
    });
  }
  document.querySelectorAll("input[data-pick-filter]").forEach(function (input) {
    input.addEventListener("input", function () { apply(input); });
    apply(input);
  });
})();
