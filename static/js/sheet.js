/* The score sheet's pad (templates/games/score/sheet.html; games/sheet.py says the
 * contract). Loaded before score.js. It restates no rule of any game: it builds the
 * line's event from the form's description -- data-base (the event a line starts
 * from), each input's data-path (where its value goes; "{}" is the chosen value) and
 * data-award (what a choice writes there) -- and keeps it on the Record button's
 * data-event, which score.js sends like any tap (the engine judges it). Until the
 * line is complete enough to build, data-event stays empty and the form posts itself
 * (action=sheet) when Record is tapped.
 *
 * The digit pad (shown only with this script) types into its number field; on a
 * desktop digits type into the pad's field when no other field has the focus,
 * Backspace deletes a digit (when the field has none, score.js's Backspace = Undo
 * applies), Enter records the line. */
(function () {
  "use strict";

  function forms() { return document.querySelectorAll("form[data-sheet]"); }

  function set(event, path, value) {
    var keys = path.split(".");
    var here = event;
    for (var i = 0; i < keys.length - 1; i++) {
      if (typeof here[keys[i]] !== "object" || here[keys[i]] === null) here[keys[i]] = {};
      here = here[keys[i]];
    }
    here[keys[keys.length - 1]] = value;
  }

  function build(form) {
    var event;
    try { event = JSON.parse(form.getAttribute("data-base") || "{}"); } catch (e) { return null; }
    var complete = true;
    Array.prototype.forEach.call(form.querySelectorAll("[data-path]"), function (input) {
      if (input.type === "radio" && !input.checked) return;
      var value = input.value.trim();
      if (input.type !== "radio" && !value) { complete = false; return; }
      if (!value) return; // "nobody": nothing written
      var path = input.getAttribute("data-path");
      if (input.hasAttribute("data-award")) {
        set(event, path.replace("{}", value), JSON.parse(input.getAttribute("data-award")));
      } else if (input.hasAttribute("data-int")) {
        if (!/^[0-9]{1,6}$/.test(value)) { complete = false; return; }
        set(event, path, parseInt(value, 10));
      } else {
        set(event, path, value);
      }
    });
    // every choice row answered (a radio group with nothing checked is incomplete)
    var groups = {};
    Array.prototype.forEach.call(form.querySelectorAll("input[type=radio][data-path]"), function (r) {
      groups[r.name] = groups[r.name] || r.checked;
    });
    Object.keys(groups).forEach(function (name) { if (!groups[name]) complete = false; });
    return complete ? event : null;
  }

  function refresh(form) {
    var record = document.querySelector("[data-sheet-record][form=\"" + form.id + "\"]") || form.querySelector("[data-sheet-record]");
    if (!record) return;
    var event = build(form);
    record.setAttribute("data-event", event ? JSON.stringify(event) : "");
  }

  function init() {
    Array.prototype.forEach.call(forms(), function (form) {
      if (form.getAttribute("data-sheet-ready")) return;
      form.setAttribute("data-sheet-ready", "1");
      Array.prototype.forEach.call(form.querySelectorAll(".digit-pad"), function (pad) { pad.hidden = false; });
      refresh(form);
    });
  }

  function target(form) { return form && form.querySelector("[data-pad-target]"); }

  function type(form, key) {
    var field = target(form);
    if (!field) return false;
    if (key === "back") field.value = field.value.slice(0, -1);
    else if (key === "clear") field.value = "";
    else if (field.value.length < 6) field.value = field.value.replace(/^0+(?=\d)/, "") + key;
    refresh(form);
    return true;
  }

  document.addEventListener("input", function (e) {
    var form = e.target && e.target.closest && e.target.closest("form[data-sheet]");
    if (form) refresh(form);
  });
  document.addEventListener("change", function (e) {
    var form = e.target && e.target.closest && e.target.closest("form[data-sheet]");
    if (form) refresh(form);
  });
  document.addEventListener("click", function (e) {
    var key = e.target && e.target.closest && e.target.closest("[data-digit]");
    if (!key) return;
    e.preventDefault();
    type(key.closest("form[data-sheet]"), key.getAttribute("data-digit"));
  });
  document.addEventListener("keydown", function (e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    var form = forms()[0];
    if (!form) return;
    var t = e.target;
    var typing = t && /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName) && t.type !== "radio";
    if (/^[0-9]$/.test(e.key) && !typing) {
      e.preventDefault();
      type(form, e.key);
    } else if (e.key === "Backspace" && !typing) {
      var field = target(form);
      if (field && field.value) { e.preventDefault(); type(form, "back"); }
    } else if (e.key === "Enter" && (!t || t === document.body || form.contains(t))) {
      var record = document.querySelector("[data-sheet-record][form=\"" + form.id + "\"]") || form.querySelector("[data-sheet-record]");
      if (record && record.getAttribute("data-event")) { e.preventDefault(); record.click(); }
    }
  });
  // the pad is swapped in by score.js and live.js after every line
  document.addEventListener("tock:live-updated", init);
  document.addEventListener("tock:regions-swapped", init);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
