// Draws the plotly figures a page embeds as JSON (json_script id "plan-charts": element id -> figure).
(function () {
  "use strict";
  function draw() {
    var source = document.getElementById("plan-charts");
    if (!source || !window.Plotly) return;
    var charts = JSON.parse(source.textContent);
    Object.keys(charts).forEach(function (id) {
      var target = document.getElementById(id);
      if (!target) return;
      var figure = charts[id];
      window.Plotly.newPlot(target, figure.data, figure.layout, {
        responsive: true,
        displaylogo: false,
        modeBarButtonsToRemove: ["lasso2d", "select2d"],
      });
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", draw);
  } else {
    draw();
  }
})();
