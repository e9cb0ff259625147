/* The scorekeeper's page (templates/games/score.html), enhanced: each move form is sent
 * to the API (POST /api/games/<id>/events, docs/api.md) instead of reloading the page,
 * and the page's regions are swapped with a fresh copy of the page. Without this script
 * every form still works (a POST to the page, then a redirect).
 *
 * Phones at a venue lose answers: each form carries an idempotency key made when the
 * page was rendered (the hidden "key" input), sent as the Idempotency-Key header. When
 * the answer does not arrive, or a proxy answers for a server that is restarting (502,
 * 503, 504), the same request is sent again with the same key (1 s, 2 s, 4 s), so the
 * event is stored once whatever happened to the first answer (a retry of a stored
 * event answers 200 with that event).
 *
 * A stale page (someone else recorded first: 409 stale_sequence) shows the translated
 * message with a reload link instead of storing anything; other refusals show the
 * server's reason (the engine's one-line reason for an illegal move). live.js (its own
 * <script>) refreshes the same regions when another scorekeeper records, which can
 * happen while an event is being sent: the buttons it swaps in stay disabled until the
 * answer is in (a tap is never silently dropped), and a copy of the page older than the
 * one shown (data-live-version, the last sequence) is not swapped in by either script.
 *
 * Translated texts come from data attributes on this <script>: data-msg-stale,
 * data-msg-reload, data-msg-sending, data-msg-retrying, data-msg-offline,
 * data-msg-recorded, data-msg-already. No build step, no dependencies. */
(function () {
  "use strict";
  var script = document.currentScript;
  var page = document.getElementById("score-page");
  if (!page || !window.fetch || !window.DOMParser || !window.Promise) return;
  var cfg = (script && script.dataset) || {};
  var REGIONS = ["#score-head", "#score-moves", "#score-state", "#score-result"];
  var RETRIES = 3;
  var GATEWAY = { 502: true, 503: true, 504: true }; // a proxy's answer: worth retrying
  var busy = false;

  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form || !form.matches || !form.matches("form[data-score-event]")) return;
    var event;
    try { event = JSON.parse(form.elements.event.value); } catch (err) { return; } // the server words it
    if (!event || typeof event !== "object" || Array.isArray(event)) return;
    e.preventDefault();
    if (busy) return; // one event at a time: the next one needs the new sequence number
    send(form, event);
  });

  document.addEventListener("tock:live-updated", function () {
    if (busy) setBusy(true); // live.js swapped in fresh, enabled buttons mid-send
  });

  function send(form, event) {
    var key = form.elements.key && form.elements.key.value;
    var button = form.querySelector("button");
    var label = button ? button.textContent.trim() : "";
    var headers = {
      "Content-Type": "application/json",
      Accept: "application/json",
      "X-CSRFToken": form.elements.csrfmiddlewaretoken.value
    };
    if (key) headers["Idempotency-Key"] = key;
    var body = JSON.stringify({ event: event, sequence: parseInt(form.elements.sequence.value, 10) });
    setBusy(true);
    say(cfg.msgSending || "…", "");
    attempt(0).then(function () { setBusy(false); });

    function attempt(n) {
      return fetch(page.dataset.apiEvents, { method: "POST", credentials: "same-origin", headers: headers, body: body })
        .then(function (response) {
          return response.json().catch(function () { return {}; }).then(function (data) {
            return { status: response.status, data: data };
          });
        })
        .then(function (answer) {
          var data = answer.data || {};
          if (answer.status === 200 || answer.status === 201) {
            var seq = data.event ? data.event.sequence : "";
            var text = (data.replayed ? cfg.msgAlready : cfg.msgRecorded) + " " + seq + (label && !form.classList.contains("raw") ? ": " + label : "");
            return refresh().then(function () { say(text, "ok"); });
          }
          if (answer.status === 409 && data.code === "stale_sequence") return stale();
          if (GATEWAY[answer.status]) return again(n); // the server behind it is down
          say(data.detail || "HTTP " + answer.status, "error");
        }, function () {
          return again(n); // no answer (network lost, server restarting)
        });
    }

    // The same request again, with the same key, after 1 s, 2 s, 4 s; then give up
    // (the button, pressed again, sends the same key once more).
    function again(n) {
      if (n >= RETRIES) {
        say(cfg.msgOffline || "", "error");
        return;
      }
      say(cfg.msgRetrying || "…", "");
      return new Promise(function (resolve) {
        setTimeout(function () { resolve(attempt(n + 1)); }, 1000 * Math.pow(2, n));
      });
    }
  }

  function setBusy(on) {
    busy = on;
    page.classList.toggle("busy", on);
    Array.prototype.forEach.call(page.querySelectorAll(".move-button"), function (b) { b.disabled = on; });
  }

  function say(text, kind) {
    var region = document.getElementById("score-status");
    if (!region) return;
    region.textContent = "";
    if (!text) return;
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

  function refresh() {
    return fetch(page.dataset.scoreUrl, { headers: { Accept: "text/html" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        // (static/js/regions.js: an older copy than the one live.js showed is left out;
        // what was typed goes: it was this scorekeeper's own event)
        var doc = new DOMParser().parseFromString(html, "text/html");
        window.TockRegions.swapIn(doc, REGIONS, { keepTyping: false });
      })
      .catch(function () { window.location.reload(); });
  }
})();
