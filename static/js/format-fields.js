/* The tournament settings form (organizer "New tournament" and the dashboard's
 * settings): a field that only some formats use (its wrapper has data-formats, the
 * format values separated by spaces) is shown only while the form's format select
 * names one of them. The server renders the same choice (hidden attribute), and the
 * form ignores such a field for a format that does not use it, so without this script
 * nothing is lost. Listens on the document, so a form swapped in by live.js works too.
 * No build step, no dependencies. */
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    var select = event.target;
    if (!select || select.name !== "format" || !select.form) return;
    var fields = select.form.querySelectorAll("[data-formats]");
    for (var i = 0; i < fields.length; i++) {
      var formats = fields[i].getAttribute("data-formats").split(" ");
      fields[i].hidden = formats.indexOf(select.value) === -1;
    }
  });
})();
