// The editor's preview panel: sliders bound to form fields, the preview's charts redrawn in
// place (Plotly.react) after each recompute, and the edited scenario's id on every preview post
// so that the figures show their change against its saved revision.
(function () {
  "use strict";
  const form = document.getElementById("scenario-form");
  const panel = document.querySelector(".preview-panel");
  if (!form || !panel || !window.htmx) return;
  const previewUrl = form.getAttribute("hx-post");
  const scenarioId = panel.dataset.scenario;
  const readJson = (id, fallback) => {
    const node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : fallback;
  };
  const gpusPerSystem = readJson("gpus-per-system", {});
  const defaults = readJson("slider-defaults", {});
  const field = (path) => form.querySelector(`[name="${path}"]:not([type=hidden])`);

  document.body.addEventListener("htmx:configRequest", (event) => {
    if (scenarioId && event.detail.path === previewUrl) event.detail.parameters.scenario = scenarioId;
  });

  // -- charts

  const CHART_CONFIG = { responsive: true, displaylogo: false, displayModeBar: false };
  function drawCharts() {
    const charts = readJson("preview-charts", null);
    if (!charts || !window.Plotly) return;
    panel.querySelectorAll(".preview-chart .chart").forEach((target) => {
      const figure = charts[target.id];
      target.closest("figure").hidden = !figure;
      if (figure) window.Plotly.react(target, figure.data, figure.layout, CHART_CONFIG);
    });
  }

  // -- the preview request while a slider moves: one in flight, then the latest value

  let inFlight = false;
  let again = false;
  function requestPreview() {
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = true;
    const done = () => {
      inFlight = false;
      if (again) {
        again = false;
        requestPreview();
      }
    };
    window.htmx
      .ajax("POST", previewUrl, { source: form, target: "#preview", swap: "innerHTML" })
      .then(done, done);
  }

  // -- numbers as typed and as shown

  function parseNumber(text) {
    const cleaned = String(text || "").replace(/[\s,\u202f]/g, "");
    if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(cleaned)) return null;
    return Number(cleaned);
  }
  const plain = (value, decimals) => String(Number(value.toFixed(decimals)));
  const shown = (value, decimals) =>
    value.toLocaleString("en-US", { maximumFractionDigits: decimals });

  // -- GPUs: whole systems on a log-like scale of round numbers

  const GPU_MINIMUM = 8;
  const GPU_MAXIMUM = 100000;
  function gpuSteps(perSystem) {
    const wanted = new Set();
    for (let count = 1; count <= 16; count += 1) wanted.add(count * perSystem);
    for (let power = 3; power <= 17; power += 1) wanted.add(2 ** power);
    for (let decade = 10; decade <= GPU_MAXIMUM; decade *= 10) {
      [1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8].forEach((mantissa) => wanted.add(mantissa * decade));
    }
    const steps = new Set();
    wanted.forEach((gpus) => {
      if (gpus < GPU_MINIMUM || gpus > GPU_MAXIMUM) return;
      steps.add(Math.max(1, Math.round(gpus / perSystem)) * perSystem);
    });
    return [...steps].filter((gpus) => gpus <= GPU_MAXIMUM || gpus === perSystem).sort((a, b) => a - b);
  }
  const nearest = (steps, value) =>
    steps.reduce(
      (best, step, index) =>
        Math.abs(Math.log(step / value)) < Math.abs(Math.log(steps[best] / value)) ? index : best,
      0,
    );

  function gpuSlider(range, box, note) {
    const gpusField = field("compute.gpus");
    const nodesField = field("compute.nodes");
    const systemField = field("compute.system");
    if (!gpusField) return null;
    let steps = [];
    let perSystem = 8;
    const mode = () =>
      nodesField && nodesField.value.trim() ? "nodes" : gpusField.value.trim() ? "gpus" : "workload";
    function describe(gpus) {
      const systems = Math.ceil(gpus / perSystem);
      range.setAttribute("aria-valuetext", `${shown(gpus, 0)} GPUs, ${shown(systems, 0)} systems`);
      note.textContent =
        `${shown(systems, 0)} system${systems === 1 ? "" : "s"} of ${perSystem} GPUs` +
        (mode() === "nodes" ? " · sets Nodes" : "");
    }
    function sync() {
      perSystem = gpusPerSystem[systemField ? systemField.value : ""] || 8;
      steps = gpuSteps(perSystem);
      range.min = 0;
      range.max = steps.length - 1;
      range.step = 1;
      const current = mode();
      range.disabled = box.disabled = current === "workload";
      if (current === "workload") {
        note.textContent = "The workload's days size the GPUs.";
        box.value = "";
        return;
      }
      const gpus =
        current === "nodes" ? (parseNumber(nodesField.value) || 0) * perSystem : parseNumber(gpusField.value);
      if (gpus === null || gpus <= 0) return;
      range.value = nearest(steps, gpus);
      if (document.activeElement !== box) box.value = shown(gpus, 0);
      describe(gpus);
    }
    function write(gpus) {
      if (mode() === "nodes") nodesField.value = String(Math.ceil(gpus / perSystem));
      else gpusField.value = String(gpus);
    }
    return {
      fields: [gpusField, nodesField, systemField].filter(Boolean),
      sync,
      slid() {
        const gpus = steps[Number(range.value)];
        write(gpus);
        box.value = shown(gpus, 0);
        describe(gpus);
      },
      typed() {
        const gpus = parseNumber(box.value);
        if (gpus === null || gpus <= 0) return null;
        write(Math.round(gpus));
        range.value = nearest(steps, gpus);
        describe(gpus);
        return mode() === "nodes" ? nodesField : gpusField;
      },
    };
  }

  // -- a number field; PUE may also be "auto" (the slider then shows the modelled PUE)

  function numberSlider(element, range, box, note) {
    const path = element.dataset.path;
    const target = field(path);
    if (!target) return null;
    const decimals = Number(element.dataset.decimals);
    const unit = element.dataset.unit;
    const isPue = element.dataset.key === "pue";
    const reset = element.querySelector("#pue-use-modelled");
    const list = target.getAttribute("list") && document.getElementById(target.getAttribute("list"));
    const autoText = (list && list.options.length && list.options[0].value) || "auto";
    const isAuto = () =>
      isPue && (target.value.trim() === "" ? String(defaults[path]) : target.value.trim()).toLowerCase() === "auto";
    function describe(value, modelled) {
      const text = shown(value, decimals) + (unit ? ` ${unit}` : "");
      range.setAttribute("aria-valuetext", modelled ? `${text}, modelled` : text);
    }
    function sync() {
      if (isAuto()) {
        const state = document.getElementById("preview-state");
        const modelled = state ? parseNumber(state.dataset.pue) : null;
        if (modelled !== null) {
          range.value = modelled;
          describe(modelled, true);
        }
        if (document.activeElement !== box) box.value = autoText;
        note.textContent =
          modelled !== null ? `Modelled: ${modelled.toFixed(decimals)}; slide to set a number.` : "Modelled.";
        if (reset) reset.hidden = true;
        return;
      }
      const typed = parseNumber(target.value);
      const value = typed !== null ? typed : parseNumber(defaults[path]);
      if (value === null) return;
      range.value = value;
      describe(value, false);
      if (document.activeElement !== box) box.value = typed !== null ? shown(typed, decimals) : "";
      box.placeholder = shown(value, decimals);
      note.textContent = typed === null ? "Default." : "";
      if (reset) reset.hidden = false;
    }
    if (reset) {
      reset.addEventListener("click", () => {
        target.value = autoText;
        sync();
        requestPreview();
      });
    }
    return {
      fields: [target],
      sync,
      slid() {
        const value = Number(range.value);
        target.value = plain(value, decimals);
        box.value = shown(value, decimals);
        describe(value, false);
        note.textContent = "";
        if (reset) reset.hidden = false;
      },
      typed() {
        const text = box.value.trim();
        if (isPue && text.toLowerCase() === "auto") {
          target.value = autoText;
          return target;
        }
        const value = parseNumber(text);
        if (value === null) return null;
        target.value = text;
        range.value = value;
        describe(value, false);
        return target;
      },
    };
  }

  // -- wiring

  const sliders = [];
  panel.querySelectorAll(".slider").forEach((element) => {
    const range = element.querySelector("input[type=range]");
    const box = element.querySelector(".slider-value");
    const note = element.querySelector(".note-text");
    const slider =
      element.dataset.key === "gpus"
        ? gpuSlider(range, box, note)
        : numberSlider(element, range, box, note);
    if (!slider) {
      element.hidden = true;
      return;
    }
    range.addEventListener("input", () => {
      slider.slid();
      requestPreview();
    });
    box.addEventListener("input", () => {
      const changed = slider.typed();
      // As if typed in the form: the form's own (debounced) recompute follows.
      if (changed) changed.dispatchEvent(new Event("input", { bubbles: true }));
    });
    box.addEventListener("blur", slider.sync);
    sliders.push(slider);
  });
  const syncAll = () => sliders.forEach((slider) => slider.sync());
  form.addEventListener("input", (event) => {
    if (sliders.some((slider) => slider.fields.includes(event.target))) syncAll();
  });
  form.addEventListener("change", syncAll);
  // On the preview itself only: the fields' error boxes swapped out of band fire it too.
  const preview = document.getElementById("preview");
  if (preview) {
    // The response carries only the error boxes that have messages (out of band): the others
    // are emptied first, so that a fixed error disappears.
    document.body.addEventListener("htmx:beforeSwap", (event) => {
      if (event.detail.target !== preview) return;
      // An error box of a part the page does not show (a folded or hidden section) has no
      // place to go: dropped here (its message is in the summary) rather than an htmx error.
      const response = new DOMParser().parseFromString(event.detail.serverResponse, "text/html");
      const homeless = [...response.querySelectorAll("[hx-swap-oob]")].filter((node) => !document.getElementById(node.id));
      if (homeless.length) {
        homeless.forEach((node) => node.remove());
        event.detail.serverResponse = response.body.innerHTML;
      }
      if (!event.detail.shouldSwap) return;
      form.querySelectorAll(".field-errors:not(:empty)").forEach((box) => {
        box.replaceChildren();
        box.removeAttribute("role");
      });
    });
    preview.addEventListener("htmx:afterSwap", (event) => {
      if (event.target !== preview) return;
      drawCharts();
      syncAll();
    });
  }
  // On a phone the panel comes before the form: its charts start folded.
  const charts = panel.querySelector(".preview-charts");
  if (charts && window.matchMedia("(max-width: 640px)").matches) charts.open = false;
  charts?.addEventListener("toggle", () => {
    if (!charts.open || !window.Plotly) return;
    drawCharts();
    charts.querySelectorAll(".chart").forEach((target) => target.data && window.Plotly.Plots.resize(target));
  });
  const sliderPanel = document.getElementById("sliders");
  if (sliderPanel && sliders.length) sliderPanel.hidden = false;
  syncAll();
  drawCharts();
})();
