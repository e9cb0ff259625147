/* The organizer dashboard (templates/tournaments/organize/dashboard.html), progressively
 * enhanced. Everything works without this script (forms post, the server filters with
 * ?q=, the clock shows the time left when the page was rendered); here:
 *
 *  - the player filter: typing in #player-filter hides the rows of #registration-list
 *    whose data-search does not contain the text (no request); when the list is one
 *    page of many (data-partial), the server is asked as well (?q=, debounced) and its
 *    list swapped in, so that players on other pages are found; the address gets the
 *    ?q= too, so that a reload or a live refresh keeps that list;
 *  - check-in toggles post in the background (fetch) and swap the fresh list in, so
 *    the filter text and the scroll position stay; a copy older than the one shown
 *    (data-live-version, the audit log's length: live.js's refetch can cross the
 *    toggle's answer) is not swapped in;
 *  - the round clock: every [data-deadline] counts down each second (the server's
 *    deadline, ISO 8601; labels from data-label-left "Time left: %s" and
 *    data-label-over);
 *  - after a form is shown again with its errors (the URL of a POST-only action), the
 *    address becomes the dashboard's (data-dashboard-url) for reloads and live.js.
 *
 * Live updates (static/js/live.js) replace the regions; "tock:live-updated" re-applies
 * the filter and restarts the clocks. No build step, no dependencies. */
(function () {
  "use strict";
  var script = document.currentScript;

  // A form shown again with its errors has the action's URL (a POST-only one): give the
  // address bar the dashboard's, so that a reload and live.js's refetch get the page.
  var dashboardUrl = script && script.getAttribute("data-dashboard-url");
  if (dashboardUrl && window.history && history.replaceState && location.pathname !== dashboardUrl) {
    history.replaceState(null, "", dashboardUrl + location.hash);
  }

  // ---------------------------------------------------------------- the filter
  function filterRows() {
    var input = document.getElementById("player-filter");
    var list = document.getElementById("registration-list");
    if (!input || !list) return;
    var query = input.value.trim().toLowerCase();
    var shown = 0;
    Array.prototype.forEach.call(list.querySelectorAll("li[data-search]"), function (row) {
      var match = !query || row.getAttribute("data-search").indexOf(query) !== -1;
      row.hidden = !match;
      if (match) shown += 1;
    });
    var none = document.querySelector("#registrations .no-match");
    // A partial list does not know the other pages: the server's answer says "nobody".
    if (none) none.hidden = shown !== 0 || list.hasAttribute("data-partial");
  }

  // ---------------------------------------------------------------- server search
  var searchTimer = null;
  var searched = null; // the query whose server list is shown (null: the page's own)

  function searchServer() {
    var input = document.getElementById("player-filter");
    if (!input || !input.form || !window.fetch || !window.DOMParser) return;
    var query = input.value.trim();
    if (query === (searched === null ? input.defaultValue.trim() : searched)) return;
    searched = query;
    var url = input.form.action.split("#")[0] + (query ? "?q=" + encodeURIComponent(query) : "");
    fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        if (input.value.trim() !== query) return; // typed on meanwhile: a newer search follows
        swapFrom(html, ["#registrations"]);
        filterRows();
        // The address says what the list shows: a reload, and live.js's refetch after
        // the next change, get the same search (else its list would be page 1 again).
        if (window.history && history.replaceState) history.replaceState(null, "", url + location.hash);
      })
      .catch(function () { searched = null; }); // the Find button still works
  }

  function onFilterInput() {
    filterRows();
    var list = document.getElementById("registration-list");
    // Only a paged list (or the answer of an earlier server search) needs the server.
    if ((list && list.hasAttribute("data-partial")) || searched !== null) {
      clearTimeout(searchTimer);
      searchTimer = setTimeout(searchServer, 300);
    }
  }

  // ---------------------------------------------------------------- background toggles
  function swapFrom(html, selectors) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    if (!doc.querySelector(selectors[0])) return false; // not the dashboard (signed out...)
    // static/js/regions.js: not over a newer copy that live.js showed already
    if (!window.TockRegions.swapIn(doc, selectors)) return true;
    var messages = doc.querySelector(".messages");
    var shown = document.querySelector(".messages");
    if (shown) shown.remove();
    if (messages) {
      var main = document.getElementById("content");
      if (main) main.parentNode.insertBefore(messages, main);
    }
    return true;
  }

  function onSubmit(event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("toggle-form")) return;
    if (!window.fetch || !window.DOMParser || !window.FormData) return;
    event.preventDefault();
    var button = form.querySelector("button");
    if (button) button.disabled = true;
    var body = new FormData(form);
    if (button && button.name) body.append(button.name, button.value);
    fetch(form.action, { method: "POST", body: body, credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        if (!swapFrom(html, ["#registrations", "#overview", "#audit"])) throw new Error("not the dashboard");
        filterRows();
      })
      .catch(function () { form.submit(); }); // the page way: post and reload
  }

  // ---------------------------------------------------------------- the round clock
  var clockTimer = null;

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function tick() {
    var clocks = document.querySelectorAll("[data-deadline]");
    if (!clocks.length) { clearInterval(clockTimer); clockTimer = null; return; }
    Array.prototype.forEach.call(clocks, function (clock) {
      var deadline = Date.parse(clock.getAttribute("data-deadline"));
      if (isNaN(deadline)) return;
      var left = Math.round((deadline - Date.now()) / 1000);
      if (left <= 0) {
        clock.textContent = clock.getAttribute("data-label-over") || "0:00";
        clock.classList.add("over");
        return;
      }
      var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      var text = (h ? h + ":" + pad(m) : String(m)) + ":" + pad(s);
      var label = clock.getAttribute("data-label-left") || "%s";
      clock.textContent = label.replace("%s", text);
      clock.classList.toggle("soon", left < 300);
    });
  }

  function startClocks() {
    if (clockTimer === null && document.querySelector("[data-deadline]")) {
      clockTimer = setInterval(tick, 1000);
    }
    tick();
  }

  // ---------------------------------------------------------------- wiring
  function init() {
    var input = document.getElementById("player-filter");
    if (input) input.addEventListener("input", onFilterInput);
    document.addEventListener("submit", onSubmit);
    document.addEventListener("tock:live-updated", function () { filterRows(); startClocks(); });
    filterRows();
    startClocks();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
