/* Live pages: listen on the page's WebSocket (docs/api.md, "Live updates") and, when
 * something changed, swap the page's live regions in: from the message itself when it
 * carries them (the game page: "regions", rendered by the server for this visitor's
 * audience in the page's language), else from a fresh copy of this same page, fetched.
 * The server renders everything, so the page is complete without this script; here it
 * only stays current. The swap itself (what the reader opened or was typing is kept, an
 * older copy is never swapped over a newer one) is static/js/regions.js's, loaded
 * before this script. No build step, no dependencies.
 *
 * Configured by data attributes on its own <script> tag:
 *   data-live-socket        the socket's path, e.g. "/ws/games/7/"
 *   data-live-after         (game pages) the last event sequence the page shows
 *   data-live-regions       CSS selectors (comma-separated) of what is swapped;
 *                           default "#content"
 *   data-live-lang          (game pages) the page's language: the socket's messages
 *                           then carry the regions (each selector an "#id"), and a
 *                           message with all of them is swapped in without a fetch
 *   data-live-hold          selectors of regions left alone while the URL has
 *   data-live-hold-param    this query parameter (the replay viewer's ?at=N)
 *   data-live-label         text of the indicator while connected (translated)
 *   data-live-label-offline text while reconnecting or refused (translated)
 *
 * Events for other scripts: "tock:live" (cancelable, detail: the message) before a
 * refresh or a swap from the message, "tock:live-updated" (detail: the swapped
 * elements) after one. */
(function () {
  "use strict";
  var script = document.currentScript || document.querySelector("script[data-live-socket]");
  if (!script || !window.WebSocket || !window.fetch || !window.DOMParser) return;
  var cfg = script.dataset;
  if (!cfg.liveSocket) return;

  var FINAL_CODES = { 4400: true, 4403: true, 4404: true }; // refused: do not retry
  var REFRESH_DELAY = 250; // ms: let a burst of messages make one refresh
  var after = cfg.liveAfter !== undefined ? parseInt(cfg.liveAfter, 10) : null;
  var regions = split(cfg.liveRegions || "#content");
  var hold = split(cfg.liveHold || "");
  var retries = 0;
  var opened = false;
  var socket = null;
  var refreshTimer = null;
  var fetching = false;
  var again = false;
  var indicator = makeIndicator();

  function split(text) {
    return text.split(",").map(function (s) { return s.trim(); }).filter(Boolean);
  }

  // ---------------------------------------------------------------- the indicator
  function makeIndicator() {
    var el = document.createElement("span");
    el.className = "live-indicator";
    el.setAttribute("role", "status");
    el.style.cssText = "display:inline-block;margin-left:.5rem;font-size:.8rem;font-weight:normal;vertical-align:middle";
    var dot = document.createElement("span");
    dot.setAttribute("aria-hidden", "true");
    dot.textContent = "\u25CF ";
    var text = document.createElement("span");
    el.appendChild(dot);
    el.appendChild(text);
    return el;
  }

  function showState(live) {
    indicator.lastChild.textContent = live ? cfg.liveLabel || "" : cfg.liveLabelOffline || "";
    indicator.firstChild.style.color = live ? "#1a8f3c" : "#999";
    placeIndicator();
  }

  function placeIndicator() {
    if (document.body.contains(indicator)) return;
    var heading = document.querySelector("#content h1") || document.querySelector("h1");
    if (heading) heading.appendChild(indicator);
  }

  // ---------------------------------------------------------------- the socket
  function socketUrl() {
    var url = new URL(cfg.liveSocket, window.location.href);
    url.protocol = window.location.protocol === "https:" ? "wss:" : "ws:";
    if (after !== null && !isNaN(after)) url.searchParams.set("after", String(after));
    if (cfg.liveLang) url.searchParams.set("lang", cfg.liveLang);
    return url.toString();
  }

  function connect() {
    socket = new WebSocket(socketUrl());
    socket.onopen = function () {
      retries = 0;
      showState(true);
      if (opened) scheduleRefresh(); // changes may have been missed while away
      opened = true;
    };
    socket.onmessage = function (msg) {
      var data;
      try { data = JSON.parse(msg.data); } catch (e) { return; }
      if (!data || typeof data !== "object") return;
      if (data.type === "event" || data.type === "resync") {
        if (typeof data.sequence === "number") after = data.sequence;
      }
      if (data.type === "hello" || data.type === "pong") return;
      var proceed = document.dispatchEvent(new CustomEvent("tock:live", { detail: data, cancelable: true }));
      if (!proceed) return;
      if (swapFromMessage(data)) clearTimeout(refreshTimer); // what earlier messages asked for too
      else scheduleRefresh();
    };
    socket.onclose = function (event) {
      showState(false);
      socket = null;
      if (FINAL_CODES[event.code]) return;
      // Back off: 1 s, 2 s, 4 s ... at most 30 s, with jitter (a venue's Wi-Fi coming
      // back must not bring every phone back in the same second).
      var delay = Math.min(30000, 1000 * Math.pow(2, retries)) * (0.75 + Math.random() / 2);
      retries += 1;
      setTimeout(connect, delay);
    };
  }

  // ---------------------------------------------------------------- the refresh
  function scheduleRefresh() {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(refresh, REFRESH_DELAY);
  }

  function holding() {
    var param = cfg.liveHoldParam;
    return !!param && new URL(window.location.href).searchParams.has(param);
  }

  // The message's regions (element id -> its HTML), when it has every region of the
  // page: swapped in as a fetched copy would be (an older one is dropped by its version).
  function swapFromMessage(data) {
    var fresh = data.regions;
    if (!fresh || typeof fresh !== "object") return false;
    var html = [];
    for (var i = 0; i < regions.length; i++) {
      var id = /^#([\w-]+)$/.exec(regions[i]);
      if (!id || typeof fresh[id[1]] !== "string") return false; // not all of them: fetch
      html.push(fresh[id[1]]);
    }
    show(new DOMParser().parseFromString("<!DOCTYPE html><body>" + html.join("") + "</body>", "text/html"));
    return true;
  }

  function show(doc) {
    var held = holding() ? hold : [];
    var swapped = window.TockRegions.swapIn(doc, regions.filter(function (selector) {
      return held.indexOf(selector) === -1;
    }));
    if (!swapped) return; // a copy older than the page shown
    placeIndicator();
    document.dispatchEvent(new CustomEvent("tock:live-updated", { detail: swapped }));
  }

  function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    var asked = window.location.href;
    fetch(asked, { headers: { Accept: "text/html" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        // The address changed on the way (the organizer's search, the replay's ?at=):
        // this copy shows another list or point; fetch the one the page is at now.
        if (window.location.href !== asked) { again = true; return; }
        show(new DOMParser().parseFromString(html, "text/html"));
      })
      .catch(function () { /* best effort: the next message or a reload shows the state */ })
      .finally(function () {
        fetching = false;
        if (again) { again = false; scheduleRefresh(); }
      });
  }

  showState(false);
  connect();
})();
