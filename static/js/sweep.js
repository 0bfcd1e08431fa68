// The sweep page. The form: a field's values as a list of its choices (catalog parts, choices)
// or typed, and the number of designs as the axes change. The result: the Pareto scatter drawn
// from its JSON (plotly, served by this site), tables sorted by a click on a heading, and a click
// on a point showing its row.
(function () {
  "use strict";
  // As sweeps/forms.py splits a list: 1,024 is one number, "1, 2" two.
  var ITEM = /\s*([+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?=\s*(?:[,;\n]|$))|[^,;\n]+)\s*/g;

  function readJSON(id) {
    var element = document.getElementById(id);
    return element ? JSON.parse(element.textContent) : null;
  }

  function number(text) {
    text = (text || "").trim().replace(/%$/, "");
    if (/^[+-]?\d{1,3}([, ]\d{3})+(\.\d+)?$/.test(text)) text = text.replace(/[, ]/g, "");
    return text === "" ? NaN : Number(text);
  }

  function valueCount(row) {
    var key = row.querySelector(".axis-key select").value;
    if (!key) return null;
    if (!row.querySelector(".axis-choices").hidden) {
      return row.querySelectorAll(".axis-choices input[type=checkbox]:checked").length;
    }
    var typed = row.querySelector(".axis-values input").value;
    if (typed.trim()) {
      var items = typed.match(ITEM) || [];
      return items.filter(function (item) { return item.replace(/[,;\s]/g, "") !== ""; }).length;
    }
    var parts = ["from", "to", "step"].map(function (part) {
      return number(row.querySelector("[name$='-" + part + "']").value);
    });
    if (parts.some(isNaN) || parts[2] <= 0 || parts[1] < parts[0]) return NaN;
    return Math.floor((parts[1] - parts[0]) / parts[2] + 1e-9) + 1;
  }

  function showCount(form) {
    var output = document.getElementById("design-count");
    var total = 1, any = false, unknown = false;
    form.querySelectorAll(".axis-row").forEach(function (row) {
      var count = valueCount(row);
      if (count === null) return;
      any = true;
      if (isNaN(count)) unknown = true; else total *= count;
    });
    output.textContent = !any || unknown ? "—" : total.toLocaleString("en-US");
  }

  function fillChoices(row, choices, units, keepSelected) {
    var key = row.querySelector(".axis-key select").value;
    var fieldset = row.querySelector(".axis-choices");
    var list = fieldset.querySelector("[data-choice-list]");
    var options = choices[key];
    if (!keepSelected) {
      list.textContent = "";
      (options || []).forEach(function (pair) {
        var label = document.createElement("label");
        label.className = "choice";
        var box = document.createElement("input");
        box.type = "checkbox";
        box.name = fieldset.dataset.name;
        box.value = pair[0];
        label.append(box, " " + pair[1]);
        list.append(label);
      });
    }
    var hasChoices = Boolean(options && options.length);
    row.querySelector(".axis-choices").hidden = !hasChoices;
    row.querySelectorAll("[data-part='values']").forEach(function (part) { part.hidden = hasChoices; });
    var unit = row.querySelector("[data-unit]");
    if (unit) unit.textContent = units[key] || "";
  }

  function setUpForm(form) {
    var choices = readJSON("sweep-choices") || {};
    var units = readJSON("sweep-units") || {};
    form.querySelectorAll(".axis-row").forEach(function (row) {
      fillChoices(row, choices, units, true);
      row.querySelector(".axis-key select").addEventListener("change", function () {
        fillChoices(row, choices, units, false);
        showCount(form);
      });
    });
    form.addEventListener("input", function () { showCount(form); });
    form.addEventListener("change", function () { showCount(form); });
    showCount(form);
    var summary = document.getElementById("error-summary");
    if (summary) summary.focus();
  }

  function sortTable(table, button) {
    var column = Number(button.dataset.column);
    var numeric = button.dataset.numeric === "1";
    var header = button.closest("th");
    var ascending = header.getAttribute("aria-sort") !== "ascending";
    table.querySelectorAll("th[aria-sort]").forEach(function (th) { th.setAttribute("aria-sort", "none"); });
    header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[column].dataset.sort, y = b.cells[column].dataset.sort;
      var order;
      if (numeric) {
        // A design without the figure goes last, whichever the direction.
        if (x === "" || y === "") return (x === "") - (y === "");
        order = Number(x) - Number(y);
      } else {
        order = x.localeCompare(y);
      }
      return ascending ? order : -order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }

  function drawScatter() {
    var figure = readJSON("sweep-chart");
    var target = document.getElementById("sweep-scatter");
    if (!figure || !target || !window.Plotly) return;
    window.Plotly.newPlot(target, figure.data, figure.layout, {
      responsive: true, displaylogo: false, modeBarButtonsToRemove: ["lasso2d", "select2d"],
    });
    target.on("plotly_click", function (event) {
      var design = event.points[0].customdata;
      var row = document.querySelector("#front-table tr[data-design='" + design + "']") ||
        document.querySelector("#feasible-table tr[data-design='" + design + "']");
      if (!row) return;
      var details = row.closest("details");
      if (details) details.open = true;
      document.querySelectorAll("tr.picked").forEach(function (other) { other.classList.remove("picked"); });
      row.classList.add("picked");
      row.scrollIntoView({ block: "center" });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("sweep-form");
    if (form) setUpForm(form);
    document.querySelectorAll("table[data-sortable]").forEach(function (table) {
      table.addEventListener("click", function (event) {
        var button = event.target.closest("button.sort");
        if (button) sortTable(table, button);
      });
    });
    drawScatter();
  });
})();
