/* "Find my table" on the tournament page: filters the seat list already in the page
 * as one types (no request per keystroke). Without this script the form is a plain
 * GET (?find=...) that the server answers with the same list, non-matches hidden.
 *
 * Markup (templates/tournaments/tournament_detail.html): the input #find-table, the
 * results #find-table-results holding a .find-status line (data-none / data-some:
 * translated texts with %s for the query and %d for the count) and li[data-search]
 * rows (the server's folded "name handle"). Folding here matches the server's
 * (tournaments.selectors.tournament_page.fold): case folded (\u00df -> ss), every
 * combining mark dropped (accents), spaces collapsed. After a live refresh (static/js/live.js swaps #content) what was typed,
 * the focus and the caret are put back. */
(function () {
  "use strict";
  var typed = null; // what the visitor typed last (null: nothing typed yet)
  var focus = null; // {caret} when the input had the focus as a live refresh began

  // Python's str.casefold() beyond toLowerCase(): the cases a name can hold.
  var CASEFOLD = { "\u00df": "ss", "\u1e9e": "ss", "\u03c2": "\u03c3", "\u017f": "s" };

  function fold(text) {
    var plain = text.normalize ? text.normalize("NFKD").replace(/\p{M}/gu, "") : text;
    plain = plain.toLowerCase().replace(/[\u00df\u1e9e\u03c2\u017f]/g, function (c) {
      return CASEFOLD[c];
    });
    return plain.split(/\s+/).filter(Boolean).join(" ");
  }
  // For the browser test that checks this agrees with the server's fold.
  window.TockFindTable = { fold: fold };

  function apply(value) {
    var results = document.getElementById("find-table-results");
    if (!results) return;
    var wanted = fold(value || "");
    var rows = results.querySelectorAll("li[data-search]");
    var shown = 0;
    for (var i = 0; i < rows.length; i++) {
      var match = rows[i].getAttribute("data-search").indexOf(wanted) !== -1;
      rows[i].hidden = !match;
      if (match) shown += 1;
    }
    var status = results.querySelector(".find-status");
    if (!status) return;
    var query = (value || "").trim();
    if (!wanted) status.textContent = "";
    else if (shown) status.textContent = (status.dataset.some || "").replace("%s", query).replace("%d", String(shown));
    else status.textContent = (status.dataset.none || "").replace("%s", query);
  }

  document.addEventListener("input", function (event) {
    if (event.target && event.target.id === "find-table") {
      typed = event.target.value;
      apply(typed);
    }
  });

  document.addEventListener("submit", function (event) {
    var input = event.target && event.target.querySelector && event.target.querySelector("#find-table");
    if (!input) return;
    event.preventDefault(); // the list is already filtered; no round trip needed
    typed = input.value;
    apply(typed);
    input.blur(); // closes a phone's keyboard so the answer shows
    var results = document.getElementById("find-table-results");
    if (results && results.scrollIntoView) results.scrollIntoView({ block: "nearest" });
  });

  document.addEventListener("tock:live-updated", function () {
    var input = document.getElementById("find-table");
    if (!input || typed === null) return;
    input.value = typed;
    apply(typed);
    if (focus) {
      input.focus();
      try { input.setSelectionRange(focus.caret, focus.caret); } catch (e) { /* not a text input */ }
    }
    focus = null;
  });

  // Remember the focus and caret before a refresh swaps the input out.
  document.addEventListener("tock:live", function () {
    var input = document.getElementById("find-table");
    focus = input && document.activeElement === input ? { caret: input.selectionStart || 0 } : null;
  });

  function start() {
    var input = document.getElementById("find-table");
    if (input && input.value) { typed = input.value; apply(typed); }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
