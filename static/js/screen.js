/* The venue screen (templates/tournaments/screen.html). The round clock counts down to
 * the server's deadline: the page carries the server's time when it was made
 * (data-server-now), so the offset to this computer's clock is taken once and a wrong
 * clock on the screen's computer does not shift the countdown. Pairings that do not fit
 * are pages shown in turn, one every 10 seconds. Both start again when live.js swaps a
 * fresh copy in (the next round seated). */
(function () {
  "use strict";
  var PAGE_MS = 10000;
  var offset = 0; // server time minus this computer's, in ms
  var pageTimer = null;

  function two(n) { return (n < 10 ? "0" : "") + n; }

  function tick() {
    var clock = document.getElementById("clock");
    if (!clock) return;
    var left = parseInt(clock.getAttribute("data-deadline"), 10) - (Date.now() + offset);
    if (left <= 0) { clock.textContent = clock.getAttribute("data-over") || "0:00"; clock.classList.add("over"); return; }
    var s = Math.floor(left / 1000);
    var h = Math.floor(s / 3600);
    clock.textContent = (h ? h + ":" + two(Math.floor(s / 60) % 60) : Math.floor(s / 60)) + ":" + two(s % 60);
    clock.classList.toggle("last-minutes", s < 300);
  }

  function start() {
    var clock = document.getElementById("clock");
    if (clock) offset = parseInt(clock.getAttribute("data-server-now"), 10) - Date.now();
    tick();
    clearInterval(pageTimer);
    var pages = document.querySelectorAll("[data-page]");
    var shown = 0;
    if (pages.length > 1) {
      pageTimer = setInterval(function () {
        pages[shown].hidden = true;
        shown = (shown + 1) % pages.length;
        pages[shown].hidden = false;
      }, PAGE_MS);
    }
  }

  setInterval(tick, 250);
  document.addEventListener("tock:live-updated", start);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
