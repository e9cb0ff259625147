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
 * one more of another kind above does not move what is open). A target pressed at that
 * moment (a tap under way) stays the same element where the fresh copy has it unchanged,
 * so that the tap's release lands on what was pressed.
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

  // The target under a pointer pressed now (a tap under way). A swap between the press
  // and the release took it out of the page, and the browser, its press gone with it,
  // fired no click on the release: the tap was lost (a phone's tap lasts a tenth of a
  // second, and live copies come when they come). Where the fresh copy has the same
  // target (the same markup but for its key; every target names its position,
  // data-sequence), the swap leaves it in place and swaps the rest around it
  // (:func:`swapAround`), so the tap lands; a target that changed is replaced (the page
  // moved under the finger, and that tap is not the one meant).
  var pressed = null;
  document.addEventListener("pointerdown", function (e) {
    var t = e.target;
    pressed = t && t.closest ? t.closest("button, a, summary, label, [data-event]") : null;
  }, true);
  function released() {
    setTimeout(function () { pressed = null; }, 0); // after the click it makes
  }
  document.addEventListener("pointerup", released, true);
  document.addEventListener("pointercancel", released, true);

  // An element's markup but for its idempotency key (data-key: every rendering of a
  // target makes its own; the tap under way goes with the pressed one's).
  function markup(el) {
    if (!el.hasAttribute("data-key")) return el.outerHTML;
    var copy = el.cloneNode(true);
    copy.removeAttribute("data-key");
    return copy.outerHTML;
  }

  // The fresh copy's one element with the pressed target's markup, or null.
  function counterpart(fresh) {
    var was = markup(pressed);
    var same = Array.prototype.filter.call(fresh.querySelectorAll(pressed.tagName), function (el) {
      return markup(el) === was;
    });
    return same.length === 1 ? same[0] : null;
  }

  // Swap ``fresh``'s content into ``current`` leaving the pressed element attached: its
  // ancestors below the region keep their elements and take the fresh attributes, each
  // one's other children are the fresh copy's; false (nothing changed) when the two
  // paths from the region differ in depth or tags.
  function swapAround(current, fresh, twin) {
    var mine = [], theirs = [];
    for (var a = pressed; a && a !== current; a = a.parentNode) mine.unshift(a);
    for (var b = twin; b && b !== fresh; b = b.parentNode) theirs.unshift(b);
    if (mine.length !== theirs.length) return false;
    for (var i = 0; i < mine.length; i++) {
      if (mine[i].tagName !== theirs[i].tagName) return false;
    }
    var parent = current, freshParent = fresh;
    for (var j = 0; j < mine.length; j++) {
      var keep = mine[j], want = theirs[j];
      while (keep.previousSibling) parent.removeChild(keep.previousSibling);
      while (keep.nextSibling) parent.removeChild(keep.nextSibling);
      while (freshParent.firstChild !== want) parent.insertBefore(freshParent.firstChild, keep);
      while (want.nextSibling) parent.appendChild(want.nextSibling);
      if (keep !== pressed) takeAttributes(keep, want);
      parent = keep;
      freshParent = want;
    }
    return true;
  }

  function takeAttributes(el, fresh) {
    Array.prototype.slice.call(el.attributes).forEach(function (attr) {
      if (!fresh.hasAttribute(attr.name)) el.removeAttribute(attr.name);
    });
    for (var i = 0; i < fresh.attributes.length; i++) {
      var attr = fresh.attributes[i];
      if (el.getAttribute(attr.name) !== attr.value) el.setAttribute(attr.name, attr.value);
    }
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
    // (a copy to take nodes from: the parsed page may serve other regions and scripts)
    var around = pressed && current.contains(pressed) ? fresh.cloneNode(true) : null;
    var twin = around && counterpart(around);
    if (!twin || !swapAround(current, around, twin)) current.innerHTML = fresh.innerHTML;
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
