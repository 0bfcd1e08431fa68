// Draws the plotly figures a page embeds as JSON (json_script id "plan-charts": element id -> figure).
// A figure inside a folded section is drawn when the section opens (plotly cannot size a hidden
// element); an element with data-figure="<id>" gets a small still copy of that figure (the lead's
// thumbnails). A link to a section (#plan-racks, or #racks) opens the folded sections around it.
(function () {
  "use strict";
  var charts = {};
  var THUMB_MARGIN = { l: 36, r: 8, t: 8, b: 28 };

  function isFolded(element) {
    for (var node = element.parentElement; node; node = node.parentElement) {
      if (node.tagName === "DETAILS" && !node.open) return true;
    }
    return false;
  }

  function drawOne(target) {
    if (target.dataset.drawn || isFolded(target)) return;
    var id = target.dataset.figure || target.id;
    var figure = charts[id];
    if (!figure) return;
    target.dataset.drawn = "1";
    if (target.dataset.figure) {
      var layout = JSON.parse(JSON.stringify(figure.layout || {}));
      layout.height = target.clientHeight || 220;
      layout.width = undefined;
      layout.margin = THUMB_MARGIN;
      layout.showlegend = false;
      layout.title = undefined;
      // A thumbnail's caption names it; axis titles would crowd its few pixels.
      Object.keys(layout).forEach(function (key) {
        if (/^[xy]axis\d*$/.test(key)) layout[key].title = { text: "" };
      });
      window.Plotly.newPlot(target, figure.data, layout, { staticPlot: true, responsive: true });
      return;
    }
    window.Plotly.newPlot(target, figure.data, figure.layout, {
      responsive: true,
      displaylogo: false,
      modeBarButtonsToRemove: ["lasso2d", "select2d"],
    });
  }

  function drawVisible(root) {
    if (!window.Plotly) return;
    (root || document).querySelectorAll(".plot").forEach(drawOne);
  }

  function sectionFor(hash) {
    var id = decodeURIComponent((hash || "").replace(/^#/, ""));
    if (!id) return null;
    return document.getElementById(id) || document.getElementById("plan-" + id);
  }

  function openFor(hash, scroll) {
    var target = sectionFor(hash);
    if (!target) return;
    for (var node = target; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
    }
    if (scroll) target.scrollIntoView({ block: "start" });
  }

  // -- what-if: the dashboard's sliders replan the saved revision without saving (htmx posts
  // the form); its answer carries the moved design's figures, drawn in place of the saved ones.
  var saved = {};

  function redrawAll(figures) {
    charts = figures;
    document.querySelectorAll(".plot").forEach(function (target) {
      if (!target.dataset.drawn) return;
      delete target.dataset.drawn;
      window.Plotly.purge(target);
    });
    drawVisible(document);
  }

  function startWhatIf() {
    var form = document.getElementById("what-if-form");
    var result = document.getElementById("what-if-result");
    if (!form || !result || !window.htmx) return;
    document.getElementById("what-if").hidden = false;
    function showValue(range) {
      var output = document.getElementById(range.id + "-shown");
      var decimals = Number(range.dataset.decimals || 0);
      if (output) {
        output.textContent = Number(range.value).toLocaleString("en-US", {
          minimumFractionDigits: decimals, maximumFractionDigits: decimals,
        });
      }
    }
    form.addEventListener("input", function (event) {
      if (event.target.type === "range") showValue(event.target);
    });
    form.addEventListener("reset", function () {
      window.setTimeout(function () {
        form.querySelectorAll("input[type=range]").forEach(showValue);
        result.replaceChildren();
        redrawAll(saved);
      }, 0);
    });
    document.body.addEventListener("htmx:afterSwap", function (event) {
      if (event.detail.target !== result) return;
      var source = document.getElementById("what-if-charts");
      var figures = source ? JSON.parse(source.textContent) : {};
      redrawAll(Object.keys(figures).length ? figures : saved);
    });
  }

  function start() {
    var source = document.getElementById("plan-charts");
    if (source) charts = JSON.parse(source.textContent);
    saved = charts;
    startWhatIf();
    document.querySelectorAll("details").forEach(function (details) {
      details.addEventListener("toggle", function () {
        if (details.open) drawVisible(details);
      });
    });
    // Before the browser follows an in-page link, so that it scrolls to an open section.
    document.addEventListener("click", function (event) {
      var link = event.target.closest && event.target.closest('a[href^="#"]');
      if (!link) return;
      var target = sectionFor(link.getAttribute("href"));
      if (target && target.id !== link.getAttribute("href").slice(1)) {
        event.preventDefault();
        history.pushState(null, "", "#" + target.id);
      }
      openFor("#" + (target ? target.id : ""), Boolean(target));
    });
    window.addEventListener("hashchange", function () {
      openFor(location.hash, true);
    });
    openFor(location.hash, true);
    drawVisible(document);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
