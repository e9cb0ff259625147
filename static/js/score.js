/* The scorekeeper's page (templates/games/score.html), enhanced. The server renders
 * everything; this script only posts taps, swaps the page's regions (regions.js) and
 * handles keys. No rules of any game are restated here. Without it every target still
 * works (a small form POST to the page, then a redirect).
 *
 * The contract, for every kind's play area:
 *   - any element with data-event records exactly that event (JSON) when tapped, sent
 *     to POST /api/games/<id>/events (docs/api.md) with its idempotency key: the
 *     element's data-key, else its form's "key" input, else one made here; with the
 *     expected sequence: the element's data-sequence, else its form's, else the page's
 *     (#score-head .sequence); a form[data-score-event] without such a button (the raw
 *     box) sends its "event" field;
 *   - data-pick="<id>" opens the hidden element <id> (a choice: the destinations of a
 *     card, each with its data-event) in place of the pad; data-pick-close closes it;
 *   - keys on a desktop: digits type a data-pad-key (a short buffer: 1, 2, 21 wait for
 *     a second digit while a longer key starts with them), Enter taps the one
 *     data-expected target, Backspace taps the undo target (data-event of type
 *     "undo"), Escape closes a choice or "Something else"; a key pressed while an
 *     event is being sent acts on the page shown once its answer is in.
 *
 * Phones at a venue lose answers and connections. Every tap goes through a queue, in
 * order, kept in localStorage: sent at once while online, one at a time; a tap made
 * while the connection is down waits there with its Idempotency-Key and is sent when it
 * returns ("N waiting to be sent" shows meanwhile). A lost answer or a proxy's 502,
 * 503, 504 is asked again with the same key (1 s, 2 s, 4 s; then the tap waits for the
 * connection), so the server stores it once (a retry of a stored event answers 200 with
 * that event). The same target tapped twice while waiting is one tap. A queued tap the
 * server refuses (409: someone else recorded first; 422: not legal any more) is shown
 * with the taps queued after it (they were tapped on the same, now outdated, page),
 * never lost silently; nothing after a refused tap is sent.
 *
 * A stale page (409 stale_sequence) shows the translated message with a reload link;
 * other refusals show the server's reason. live.js (its own <script>) refreshes the
 * same regions when another scorekeeper records, which can happen while an event is
 * being sent: the targets it swaps in stay disabled until the answer is in (a tap is
 * never silently dropped), and a copy of the page older than the one shown
 * (data-live-version) is not swapped in by either script.
 *
 * Texts come from data attributes on this <script>: data-msg-stale, -reload,
 * -sending, -retrying, -offline, -waiting-one, -waiting-other ("%(n)s"), -refused,
 * -dismiss, -recorded, -already; data-regions lists the swapped regions. */
(function () {
  "use strict";
  var script = document.currentScript;
  var page = document.getElementById("score-page");
  if (!page || !window.fetch || !window.DOMParser || !window.Promise) return;
  var cfg = (script && script.dataset) || {};
  var REGIONS = (cfg.regions || "#score-head, #score-moves, #score-state, #score-result")
    .split(",").map(function (s) { return s.trim(); }).filter(Boolean);
  var RETRIES = 3;
  var GATEWAY = { 502: true, 503: true, 504: true }; // a proxy's answer: worth retrying
  var TYPING_MS = 700; // how long a typed digit waits for a second one
  var STORE = "tock-score-queue:" + (page.dataset.game || "");
  var queue = load(); // taps not yet stored: {event, key, sequence, label}, in order
  var refused = []; // taps the server refused, shown until dismissed
  var busy = false; // queue[0] is being sent
  var laterTimer = null;
  var typed = "";
  var typedTimer = null;
  var sentLine = 0; // the sequence of the score sheet's line sent, until a page past it shows

  // ------------------------------------------------------------------ taps
  document.addEventListener("click", function (e) {
    var el = e.target && e.target.closest ? e.target.closest("[data-event], [data-pick], [data-pick-close]") : null;
    if (!el || !page.contains(el)) return;
    if (el.hasAttribute("data-pick")) { e.preventDefault(); if (!busy) openPick(el); return; }
    if (el.hasAttribute("data-pick-close")) { e.preventDefault(); closePick(); return; }
    var event = parse(el.getAttribute("data-event"));
    if (!event) return; // the form posts it; the server words the problem
    e.preventDefault();
    if (busy || el.disabled) return; // one event at a time: the next needs the new page
    var form = el.closest("form");
    // the sheet's Record: what its form holds goes once a page past the line shows
    if (el.form && el.form.hasAttribute("data-sheet")) sentLine = parseInt(el.getAttribute("data-sequence"), 10) || pageSequence();
    tap(event, {
      key: el.getAttribute("data-key") || field(form, "key"),
      sequence: el.getAttribute("data-sequence") || field(form, "sequence"),
      // data-label: the words for the status line ("" for the sheet's Record: the
      // event number alone), else the accessible name
      label: el.hasAttribute("data-label") ? el.getAttribute("data-label") : el.getAttribute("aria-label") || el.textContent.trim()
    });
  });

  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form || !form.matches || !form.matches("form[data-score-event]")) return;
    var event = parse(field(form, "event"));
    if (!event) return; // the server words it
    e.preventDefault();
    if (busy) return;
    tap(event, { key: field(form, "key"), sequence: field(form, "sequence"), label: "", raw: true });
  });

  document.addEventListener("tock:live-updated", function () {
    if (busy) setBusy(true); // live.js swapped in fresh, enabled targets mid-send
    keepPick();
    clearSentLine();
  });

  // The first page past the sheet's line sent (live.js's copy, which keeps what the
  // reader typed, or this script's own refresh): the line's entries were sent and go;
  // what is typed or chosen on that page is the next line's and stays.
  function clearSentLine() {
    if (!sentLine || pageSequence() <= sentLine) return;
    sentLine = 0;
    Array.prototype.forEach.call(document.querySelectorAll("form[data-sheet]"), function (form) {
      form.reset();
      form.dispatchEvent(new Event("change", { bubbles: true })); // sheet.js: the Record's event
    });
  }

  // After a swap (live.js's or this script's own refresh): the fresh copy has every
  // choice closed. A copy of the position the choice was opened on (a late message
  // about the event already shown, or the refresh after the scorekeeper's own event
  // when live.js showed that page first) keeps the choice just opened; a new position
  // closes it.
  function keepPick() {
    page.classList.remove("picking");
    if (picked && picked.sequence === pageSequence()) {
      var key = page.querySelector('[data-pick="' + picked.id + '"]');
      if (key) { openPick(key); return; }
    }
    picked = null;
  }
  window.addEventListener("online", function () { flush(); });
  window.addEventListener("offline", function () { showQueue(); });

  function tap(event, how) {
    var key = how.key || newKey();
    if (queue.some(function (item) { return item.key === key; })) return; // a double tap
    var last = queue[queue.length - 1];
    var sequence = last ? last.sequence + 1 : parseInt(how.sequence, 10) || pageSequence();
    queue.push({ event: event, key: key, sequence: sequence, label: how.label || "", raw: !!how.raw });
    save();
    showQueue();
    flush();
  }

  // ------------------------------------------------------------------ the queue
  function flush() {
    clearTimeout(laterTimer);
    if (busy || !queue.length) return;
    if (navigator.onLine === false) { offline(); return; }
    busy = true;
    setBusy(true);
    showQueue();
    say(cfg.msgSending || "…", "");
    send(queue[0], 0);
  }

  function send(item, n) {
    var headers = {
      "Content-Type": "application/json",
      Accept: "application/json",
      "X-CSRFToken": csrf(),
      "Idempotency-Key": item.key
    };
    var body = JSON.stringify({ event: item.event, sequence: item.sequence });
    fetch(page.dataset.apiEvents, { method: "POST", credentials: "same-origin", headers: headers, body: body })
      .then(function (response) {
        return response.json().catch(function () { return {}; }).then(function (data) {
          answered(item, n, response.status, data || {});
        });
      }, function () {
        again(item, n); // no answer (network lost, server restarting)
      });
  }

  function answered(item, n, status, data) {
    if (status === 200 || status === 201) {
      queue.shift();
      save();
      var seq = data.event ? data.event.sequence : "";
      var text = (data.replayed ? cfg.msgAlready : cfg.msgRecorded) + " " + seq + (item.label && !item.raw ? ": " + item.label : "");
      if (queue.length) { send(queue[0], 0); showQueue(); say(text, "ok"); return; }
      done();
      refresh(item.sequence).then(function () { say(text, "ok"); actHeld(); });
      return;
    }
    if (GATEWAY[status]) { again(item, n); return; } // the server behind it is down
    // Refused: this tap and the ones tapped after it on the same page are not sent.
    held = null;
    sentLine = 0; // a refused line's entries stay in the form, to be put right
    var dropped = queue.splice(0, queue.length);
    save();
    if (dropped.length > 1 || dropped[0].waited) refused = refused.concat(dropped);
    done();
    if (status === 409 && data.code === "stale_sequence") stale();
    else say(data.detail || "HTTP " + status, "error");
    refresh(0);
  }

  // The same request again, with the same key, after 1 s, 2 s, 4 s; then the tap waits
  // for the connection (and is tried again now and then).
  function again(item, n) {
    item.waited = true;
    if (n >= RETRIES || navigator.onLine === false) {
      done();
      offline();
      actHeld(); // waits in the queue with the tap before it
      laterTimer = setTimeout(flush, 15000);
      return;
    }
    say(cfg.msgRetrying || "…", "");
    setTimeout(function () {
      if (navigator.onLine === false) { again(item, RETRIES); return; }
      send(item, n + 1);
    }, 1000 * Math.pow(2, n));
  }

  function done() {
    busy = false;
    setBusy(false);
    showQueue();
  }

  function offline() {
    queue.forEach(function (item) { item.waited = true; });
    save();
    say(cfg.msgOffline || "", "error");
    showQueue();
  }

  function showQueue() {
    var box = document.getElementById("score-queue");
    if (!box) return;
    box.textContent = "";
    var waiting = queue.slice(busy ? 1 : 0);
    if (waiting.length) {
      var p = document.createElement("p");
      p.className = "message waiting";
      p.setAttribute("data-waiting", String(waiting.length));
      var words = waiting.length === 1 ? cfg.msgWaitingOne : (cfg.msgWaitingOther || "%(n)s").replace("%(n)s", waiting.length);
      p.appendChild(document.createTextNode(words || String(waiting.length)));
      p.appendChild(list(waiting));
      box.appendChild(p);
    }
    if (refused.length) {
      var r = document.createElement("p");
      r.className = "message error refused";
      r.setAttribute("data-refused", String(refused.length));
      r.appendChild(document.createTextNode(cfg.msgRefused || ""));
      r.appendChild(list(refused));
      var dismiss = document.createElement("button");
      dismiss.type = "button";
      dismiss.textContent = cfg.msgDismiss || "×";
      dismiss.addEventListener("click", function () { refused = []; showQueue(); });
      r.appendChild(dismiss);
      box.appendChild(r);
    }
  }

  function list(items) {
    var ol = document.createElement("ol");
    items.forEach(function (item) {
      var li = document.createElement("li");
      li.textContent = item.label || JSON.stringify(item.event);
      ol.appendChild(li);
    });
    return ol;
  }

  function load() {
    try {
      var saved = JSON.parse(window.localStorage.getItem(STORE) || "[]");
      return Array.isArray(saved) ? saved.filter(function (item) { return item && item.key && item.event; }) : [];
    } catch (e) { return []; }
  }

  function save() {
    try {
      if (queue.length) window.localStorage.setItem(STORE, JSON.stringify(queue));
      else window.localStorage.removeItem(STORE);
    } catch (e) { /* private mode: the queue lives as long as the page */ }
  }

  // ------------------------------------------------------------------ the page
  function setBusy(on) {
    page.classList.toggle("busy", on);
    Array.prototype.forEach.call(page.querySelectorAll("button[data-event], .move-button"), function (b) { b.disabled = on; });
    Array.prototype.forEach.call(page.querySelectorAll("[data-pick]"), function (a) {
      if (on) a.setAttribute("aria-disabled", "true"); else a.removeAttribute("aria-disabled");
    });
  }

  function say(text, kind) {
    var region = document.getElementById("score-status");
    if (!region) return null;
    region.textContent = "";
    if (!text) return null;
    var p = document.createElement("p");
    p.className = "message" + (kind ? " " + kind : "");
    p.textContent = text;
    region.appendChild(p);
    return p;
  }

  function stale() {
    var p = say(cfg.msgStale || "", "error stale");
    if (!p) return;
    p.setAttribute("data-error", "stale_sequence");
    var link = document.createElement("a");
    link.className = "reload button";
    link.href = page.dataset.scoreUrl;
    link.textContent = cfg.msgReload || "↻";
    p.appendChild(document.createTextNode(" "));
    p.appendChild(link);
  }

  // A fresh copy of the page, its regions swapped in (regions.js: an older copy than the
  // one live.js showed is left out). After the scorekeeper's own event (``own``: its
  // sequence) what was typed and chosen goes (it was sent), and what closes after an
  // event (data-close-on-event: "Something else") closes, unless live.js already showed
  // the page after that event: what was typed, chosen or opened since is the next
  // event's and stays.
  function refresh(own) {
    return fetch(page.dataset.scoreUrl, { headers: { Accept: "text/html" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var sent = own && pageSequence() <= own; // the page still shows the event sent
        if (sent) {
          Array.prototype.forEach.call(page.querySelectorAll("details[data-close-on-event]"), function (d) { d.open = false; });
        }
        if (window.TockRegions.swapIn(doc, REGIONS, { keepTyping: !sent })) { keepPick(); clearSentLine(); }
        if (busy) setBusy(true);
      })
      .catch(function () { if (navigator.onLine !== false) window.location.reload(); });
  }

  function pageSequence() {
    var el = page.querySelector("#score-head [data-sequence]") || page.querySelector("[data-sequence]");
    return el ? parseInt(el.getAttribute("data-sequence"), 10) : 1;
  }

  function csrf() {
    var input = page.querySelector("input[name=csrfmiddlewaretoken]");
    if (input) return input.value;
    var m = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie);
    return m ? decodeURIComponent(m[1]) : "";
  }

  function field(form, name) {
    return form && form.elements && form.elements[name] ? form.elements[name].value : "";
  }

  function parse(text) {
    if (!text) return null;
    try {
      var value = JSON.parse(text);
      return value && typeof value === "object" && !Array.isArray(value) ? value : null;
    } catch (e) { return null; }
  }

  function newKey() {
    var bytes = new Uint8Array(12);
    if (window.crypto && window.crypto.getRandomValues) window.crypto.getRandomValues(bytes);
    else for (var i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
    return "js-" + Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  // ------------------------------------------------------------------ choices
  var picked = null; // the choice open now: {id, sequence}, kept across a same-position refresh

  function openPick(key) {
    closePick();
    var choice = document.getElementById(key.getAttribute("data-pick"));
    if (!choice) return;
    picked = { id: key.getAttribute("data-pick"), sequence: pageSequence() };
    choice.hidden = false;
    key.setAttribute("aria-expanded", "true");
    page.classList.add("picking");
    var first = choice.querySelector("[data-event]");
    if (first) first.focus();
  }

  function closePick() {
    picked = null;
    var opened = null;
    Array.prototype.forEach.call(page.querySelectorAll("[data-pick]"), function (key) {
      var choice = document.getElementById(key.getAttribute("data-pick"));
      if (choice && !choice.hidden) { choice.hidden = true; opened = key; }
      key.setAttribute("aria-expanded", "false");
    });
    page.classList.remove("picking");
    var area = page.querySelector(".picking");
    if (area) area.classList.remove("picking"); // opened by the server (?pick=N)
    if (opened) opened.focus();
  }

  // ------------------------------------------------------------------ keys
  document.addEventListener("keydown", function (e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var onTarget = t && t !== document.body && t.matches && t.matches("a, button, summary");
    if (/^[0-9]$/.test(e.key)) {
      if (!visible("[data-pad-key]").length) return;
      e.preventDefault();
      digit(e.key);
    } else if (e.key === "Enter") {
      if (typed) { e.preventDefault(); fire(); return; }
      if (onTarget) return; // Enter on a focused target taps that one
      if (visible("[data-expected]").length === 1) {
        e.preventDefault();
        act(function () {
          var expected = visible("[data-expected]");
          if (expected.length === 1) expected[0].click();
        });
      }
    } else if (e.key === "Backspace") {
      e.preventDefault();
      if (typed) { setTyped(typed.slice(0, -1)); return; }
      act(function () {
        var undo = visible("[data-event]").filter(function (el) {
          var ev = parse(el.getAttribute("data-event"));
          return ev && ev.type === "undo";
        });
        if (undo.length) undo[0].click();
      });
    } else if (e.key === "Escape") {
      setTyped("");
      closePick();
      Array.prototype.forEach.call(page.querySelectorAll("details[data-close-on-event][open]"), function (d) { d.open = false; });
    }
  });

  function digit(d) {
    var buffer = typed + d;
    var keys = visible("[data-pad-key]").map(function (el) { return el.getAttribute("data-pad-key"); });
    if (!keys.some(function (k) { return k.indexOf(buffer) === 0; })) buffer = d; // start again
    var longer = keys.some(function (k) { return k !== buffer && k.indexOf(buffer) === 0; });
    setTyped(buffer);
    if (longer) { typedTimer = setTimeout(fire, TYPING_MS); return; }
    fire();
  }

  function fire() {
    var value = typed;
    setTyped("");
    if (!value) return;
    act(function () {
      var key = visible('[data-pad-key="' + value + '"]')[0];
      if (key && !key.classList.contains("off")) key.click();
    });
  }

  // A key pressed while an event is being sent is not dropped: the targets are disabled
  // until the answer is in (a disabled button ignores click()), even when live.js has
  // already shown the next position, where the key was meant. It acts once the answer
  // is in and the page after it shown; a refused event drops it with the taps after it.
  var held = null;

  function act(action) {
    if (busy) held = action;
    else action();
  }

  function actHeld() {
    var action = held;
    held = null;
    if (action && !busy) action();
  }

  function setTyped(value) {
    clearTimeout(typedTimer);
    typed = value;
    Array.prototype.forEach.call(page.querySelectorAll("[data-pad-key]"), function (el) {
      el.classList.toggle("typed", !!value && el.getAttribute("data-pad-key") === value);
    });
  }

  function visible(selector) {
    return Array.prototype.filter.call(page.querySelectorAll(selector), function (el) {
      // (closed <details> keep their content's boxes in Chromium: ask the browser)
      return el.checkVisibility ? el.checkVisibility() : el.getClientRects().length > 0;
    });
  }

  // Taps left from an earlier visit (the tab was closed while offline): send them now.
  if (queue.length) { showQueue(); flush(); }
})();
