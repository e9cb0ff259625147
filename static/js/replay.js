/* Replay viewer of the game page: keyboard arrows and a slider over the server-rendered
 * controls. The page works without this script (plain links and a form with ?at=N);
 * here the page at ?at=N is fetched and only its #replay-region is swapped in, so the
 * table always comes from the engine on the server, never from rules re-implemented here. */
(function () {
  "use strict";
  var region = document.getElementById("replay-region");
  if (!region || !window.fetch || !window.DOMParser) return;
  var last = parseInt(region.dataset.last, 10);
  if (!last) return;
  var pending = null;
  var wanted = null; // the event asked for while its page is on the way
  var timer = null;

  function current() {
    return parseInt(region.dataset.at, 10) || last;
  }

  function markLog(at) {
    var lines = document.querySelectorAll(".events li");
    for (var i = 0; i < lines.length; i++) {
      lines[i].classList.toggle("current", lines[i].value === at);
    }
  }

  function bindSlider() {
    var label = region.querySelector(".replay-slider");
    if (!label) return;
    label.hidden = false;
    var input = label.querySelector("input");
    input.addEventListener("input", function () {
      clearTimeout(timer);
      var at = parseInt(input.value, 10);
      timer = setTimeout(function () { show(at, true); }, 120);
    });
  }

  function show(at, fromSlider) {
    at = Math.max(1, Math.min(last, at));
    if (at === current() && !fromSlider) return;
    var url = new URL(window.location.href);
    url.searchParams.set("at", String(at));
    url.hash = "";
    if (pending) pending.abort();
    pending = new AbortController();
    wanted = at;
    region.classList.add("loading");
    fetch(url.toString(), { headers: { Accept: "text/html" }, signal: pending.signal, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("replay-region");
        if (!fresh) throw new Error("no replay region");
        var slider = region.querySelector(".replay-slider input");
        var focused = fromSlider && slider && document.activeElement === slider;
        region.innerHTML = fresh.innerHTML;
        region.dataset.at = fresh.dataset.at;
        last = parseInt(fresh.dataset.last, 10) || last;
        region.dataset.last = String(last);
        bindSlider();
        if (focused) region.querySelector(".replay-slider input").focus();
        markLog(parseInt(fresh.dataset.at, 10));
        window.history.replaceState({ at: at }, "", url.toString());
      })
      .catch(function (error) {
        if (error && error.name === "AbortError") return;
        window.location.href = url.toString(); // fall back to a plain page load
      })
      .finally(function () {
        if (wanted === at) wanted = null;
        region.classList.remove("loading");
      });
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-at]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    show(parseInt(link.dataset.at, 10), false);
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("replay-jump")) return;
    var value = parseInt(form.elements.at.value, 10);
    if (!value) return; // let the server explain
    event.preventDefault();
    show(value, false);
  });

  document.addEventListener("keydown", function (event) {
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" && event.target.type !== "range") return;
    if (tag === "textarea" || tag === "select" || event.altKey || event.ctrlKey || event.metaKey) return;
    // Quick presses count from the event already asked for, not from the one shown:
    // three presses of the right arrow move three events even before any page arrives.
    var at = wanted !== null ? wanted : current();
    var next = null;
    if (event.key === "ArrowLeft") next = at - 1;
    else if (event.key === "ArrowRight") next = at + 1;
    else if (event.key === "Home") next = 1;
    else if (event.key === "End") next = last;
    if (next === null || event.target.type === "range") return;
    event.preventDefault();
    show(next, false);
  });

  // A live update (static/js/live.js) swaps the region's content and attributes in
  // place: read the new last event and bind the new slider.
  document.addEventListener("tock:live-updated", function () {
    last = parseInt(region.dataset.last, 10) || last;
    bindSlider();
  });

  bindSlider();
})();
