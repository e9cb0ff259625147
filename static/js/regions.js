/* Swapping a page's regions with a fresh copy of the same page: the one way live.js
 * (a change announced on the socket), score.js (after the scorekeeper's own event) and
 * organize.js (after a check-in toggle) do it. No build step, no dependencies.
 *
 *   TockRegions.swapIn(doc, selectors, options)
 *
 * swaps each region (a CSS selector) found both in the page and in ``doc`` (the fresh
 * copy, parsed) and answers the swapped elements, or null when ``doc`` is older than
 * the page shown: answers can cross (two scripts, slow Wi-Fi), and an element with
 * data-live-version (a game's last sequence, a dashboard's audit-log length) in both
 * says which is newer. Without that element in both, nothing counts as older.
 *
 * A swapped region keeps its element (other scripts hold it) and takes the fresh
 * attributes and content; what the reader opened stays open (details: by id when they
 * have one, else by their class and their position among those of that class, so that
 * one more of another kind above does not move what is open).
 * What the reader was typing (a field with an id whose value differs from the page's)
 * is put back in the fresh field of the same id, with the focus and the caret, and what
 * they had chosen (a radio group, a select, by form and name) is chosen again where the
 * fresh copy still starts that group from the same choice (a fresh copy that changed it
 * shows someone else's answer, which wins) -- unless ``options.keepTyping`` is false
 * (score.js: its refresh follows the scorekeeper's own event, and what they sent must
 * not stay in the box). A late message about the position already shown thus never
 * clears a winner tapped a moment before. */
(function () {
  "use strict";

  var TEXT_FIELDS = "textarea[id], input[id]:not([type]), input[id][type=text], input[id][type=search], input[id][type=number]";

  function version(root) {
    var el = root.querySelector("[data-live-version]");
    return el ? parseInt(el.getAttribute("data-live-version"), 10) : NaN; // NaN: never older
  }

  function swapIn(doc, selectors, options) {
    if (version(doc) < version(document)) return null;
    var keepTyping = !options || options.keepTyping !== false;
    var swapped = [];
    selectors.forEach(function (selector) {
      var current = document.querySelector(selector);
      var fresh = doc.querySelector(selector);
      if (!current || !fresh) return;
      swap(current, fresh, keepTyping);
      swapped.push(current);
    });
    // for scripts that enhance what was swapped in (sheet.js's pad)
    if (swapped.length && window.CustomEvent) {
      document.dispatchEvent(new CustomEvent("tock:regions-swapped", { detail: swapped }));
    }
    return swapped;
  }

  function swap(current, fresh, keepTyping) {
    var open = {};
    folds(current).forEach(function (fold) { open[fold.key] = fold.details.open; });
    var typing = keepTyping ? typed(current) : [];
    var choices = keepTyping ? chosen(current) : [];
    for (var i = 0; i < fresh.attributes.length; i++) {
      var attr = fresh.attributes[i];
      if (current.getAttribute(attr.name) !== attr.value) current.setAttribute(attr.name, attr.value);
    }
    current.innerHTML = fresh.innerHTML;
    folds(current).forEach(function (fold) {
      if (Object.prototype.hasOwnProperty.call(open, fold.key)) fold.details.open = open[fold.key];
    });
    typing.forEach(putBack);
    if (choices.length) {
      var fresh = {}; // the fresh copy's groups, read once for every choice put back
      groups(current).forEach(function (g) { fresh[g.key] = g; });
      choices.forEach(function (choice) { chooseAgain(current, choice, fresh[choice.key]); });
    }
  }

  // Each <details> of a region with its key: "#id", else its class and its position
  // among the details of that class.
  function folds(region) {
    var seen = {};
    return Array.prototype.map.call(region.querySelectorAll("details"), function (d) {
      if (d.id) return { key: "#" + d.id, details: d };
      var cls = "." + d.className;
      seen[cls] = (seen[cls] || 0) + 1;
      return { key: cls + ":" + seen[cls], details: d };
    });
  }

  function typed(region) {
    return Array.prototype.filter.call(region.querySelectorAll(TEXT_FIELDS), function (f) {
      return f.value !== f.defaultValue;
    }).map(function (f) {
      var focused = document.activeElement === f;
      return { id: f.id, value: f.value, focused: focused, start: focused ? f.selectionStart : null, end: focused ? f.selectionEnd : null };
    });
  }

  function putBack(field) {
    var f = document.getElementById(field.id);
    if (!f || !("value" in f)) return; // gone from the fresh copy: let go
    f.value = field.value;
    if (!field.focused) return;
    f.focus();
    try { f.setSelectionRange(field.start, field.end); } catch (e) { /* number inputs have no caret */ }
  }

  // A choice's group: its form (by id) and its name.
  function groupKey(field) {
    return (field.form && field.form.id ? field.form.id : "") + "\u0000" + field.name;
  }

  // The radio groups and selects of a region, each with the choice the page was served
  // with and the one shown now: {key, group, initial, now}.
  function groups(region) {
    var found = {};
    Array.prototype.forEach.call(region.querySelectorAll("input[type=radio][name], select[name]"), function (f) {
      var key = groupKey(f);
      var group = found[key] || (found[key] = { key: key, initial: "", now: "" });
      if (f.tagName === "SELECT") {
        var first = f.options.length ? f.options[0].value : "";
        var initial = Array.prototype.filter.call(f.options, function (o) { return o.defaultSelected; });
        group.initial = initial.length ? initial[0].value : first;
        group.now = f.value;
        group.select = true;
      } else {
        if (f.defaultChecked) group.initial = f.value;
        if (f.checked) group.now = f.value;
      }
    });
    return Object.keys(found).map(function (key) { return found[key]; });
  }

  function chosen(region) {
    return groups(region).filter(function (g) { return g.now !== g.initial; });
  }

  function chooseAgain(region, choice, fresh) {
    if (!fresh || fresh.initial !== choice.initial) return; // gone, or answered since
    Array.prototype.forEach.call(region.querySelectorAll(choice.select ? "select[name]" : "input[type=radio][name]"), function (f) {
      if (groupKey(f) !== choice.key) return;
      if (choice.select) {
        if (Array.prototype.some.call(f.options, function (o) { return o.value === choice.now; })) f.value = choice.now;
      } else {
        f.checked = f.value === choice.now;
      }
    });
  }

  window.TockRegions = { swapIn: swapIn };
})();
