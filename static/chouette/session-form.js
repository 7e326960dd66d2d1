/* The new chouette session's form (templates/chouette/session_list.html): show only the
 * options of the rule profile chosen. A fieldset marked data-profile-only="individual"
 * is hidden and disabled (so its boxes are not sent) unless that profile is chosen.
 * Without this script every option shows, and the server refuses the individual-only
 * ones with one team cube: the form works either way (issue 18).
 * The rotation variant (issue 19): of the descriptions under its select
 * ([data-rotation]), only the chosen variant's shows; without the script all show. */
(function () {
  "use strict";

  var form = document.getElementById("session-form");
  if (!form) {
    return;
  }

  function chosenKind() {
    var checked = form.querySelector('input[name="kind"]:checked');
    return checked ? checked.value : "";
  }

  function update() {
    var kind = chosenKind();
    form.querySelectorAll("[data-profile-only]").forEach(function (part) {
      var shown = part.dataset.profileOnly === kind;
      part.hidden = !shown;
      part.disabled = !shown;
    });
    var rotation = form.querySelector('select[name="rotation"]');
    form.querySelectorAll("[data-rotation]").forEach(function (help) {
      help.hidden = !rotation || help.dataset.rotation !== rotation.value;
    });
  }

  form.addEventListener("change", function (event) {
    if (event.target && (event.target.name === "kind" || event.target.name === "rotation")) {
      update();
    }
  });
  update();
})();
