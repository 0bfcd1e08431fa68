// A link of the error banner opens the folded section of its field and puts the cursor in it.
document.addEventListener("click", (event) => {
  const link = event.target.closest(".error-summary a[href^='#']");
  if (!link) return;
  const target = document.getElementById(decodeURIComponent(link.hash.slice(1)));
  if (!target) return;
  event.preventDefault();
  for (let node = target.parentElement; node; node = node.parentElement) {
    if (node.tagName === "DETAILS") node.open = true;
  }
  target.scrollIntoView({ block: "center" });
  target.focus({ preventScroll: true });
  history.replaceState(null, "", link.hash);
});

// Rows of the editor's lists (storage tiers, NIC overrides, inline parts and their NICs): added
// and removed in place. A row's inputs are named by its position (storage.tiers.2.system) and
// the preview names errors by position, so the rows below a removed one move up a number: their
// names and ids are rewritten. Without this script the add and remove buttons post the form.
(() => {
  const form = document.getElementById("scenario-form");
  if (!form) return;
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const domId = (path) => path.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  const PATH_ATTRIBUTES = ["name", "data-row", "data-row-list"];
  const ID_ATTRIBUTES = ["id", "for", "aria-describedby", "list"];

  function rename(root, oldPath, newPath) {
    const path = new RegExp("^" + escape(oldPath) + "(?=\\.|$)");
    const id = new RegExp("(^|[-\\s])" + escape(domId(oldPath)) + "(?=-|\\s|$)", "g");
    const visit = (node) => {
      for (const name of PATH_ATTRIBUTES) {
        const value = node.getAttribute(name);
        if (value !== null) node.setAttribute(name, value.replace(path, newPath));
      }
      if (node.matches("[data-row-remove]")) node.value = node.value.replace(path, newPath);
      for (const name of ID_ATTRIBUTES) {
        const value = node.getAttribute(name);
        if (value !== null) node.setAttribute(name, value.replace(id, "$1" + domId(newPath)));
      }
      for (const child of node.children) visit(child);
      if (node.tagName === "TEMPLATE") for (const child of node.content.children) visit(child);
    };
    visit(root);
  }

  const rowsOf = (list) => [...list.querySelector(":scope > [data-rows]").children];

  function renumber(list) {
    rowsOf(list).forEach((row, position) => {
      const path = `${list.dataset.rowList}.${position}`;
      if (row.dataset.row !== path) rename(row, row.dataset.row, path);
      const legend = row.querySelector(":scope > fieldset > legend");
      legend.querySelector("[data-row-number]").textContent = String(position + 1);
      const remove = row.querySelector(":scope > fieldset > [data-row-remove]");
      remove.setAttribute("aria-label", `Remove ${legend.textContent.trim().toLowerCase()}`);
    });
  }

  const changed = () => form.dispatchEvent(new Event("input", { bubbles: true }));
  const firstInput = (root) => root.querySelector("input:not([type=hidden]), select, textarea");

  function addRow(list) {
    const template = list.querySelector(":scope > template[data-row-template]");
    const holder = document.createElement("ol");
    holder.innerHTML = template.innerHTML.replaceAll(list.dataset.placeholder, String(rowsOf(list).length));
    const row = holder.firstElementChild;
    list.querySelector(":scope > [data-rows]").append(row);
    renumber(list);
    for (let node = list.parentElement; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
    }
    // No preview yet: a blank row only has its required inputs to fill in; typing in it posts.
    (firstInput(row) || row).focus();
  }

  function removeRow(row) {
    const list = row.closest("[data-row-list]");
    const next = row.nextElementSibling || row.previousElementSibling;
    row.remove();
    renumber(list);
    ((next && firstInput(next)) || list.querySelector(":scope > [data-row-add]")).focus();
    changed();
  }

  // htmx posts the last submit button clicked with the form: a row's add or remove button,
  // already done here, must not be done again by the preview.
  document.body.addEventListener("htmx:configRequest", (event) => {
    if (event.detail.elt !== form) return;
    for (const name of ["row_add", "row_remove"]) event.detail.formData.delete(name);
  });

  // A phase row has one line per pool, drawn by the server for the pools it knows: a pool added
  // or renamed on the page since is not in the blank phase row, so "Add a phase" then posts the
  // form (as without script) and the page comes back with a line per pool in every phase row.
  const POOL_NAME = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;
  function poolsUnknownToPhases(list) {
    if (list.dataset.rowList !== "phases") return false;
    const pools = form.querySelector('[data-row-list="pools"]');
    if (!pools) return false;
    const template = list.querySelector(":scope > template[data-row-template]");
    const known = new Set(
      [...template.content.querySelectorAll(".pool-line:not(.tier-line) > .pool-line-name")].map((node) =>
        node.textContent.trim(),
      ),
    );
    return rowsOf(pools).some((row) => {
      const name = row.querySelector(`[name="${row.dataset.row}.name"]`);
      const value = name ? name.value.trim() : "";
      return POOL_NAME.test(value) && !known.has(value);
    });
  }

  form.addEventListener("click", (event) => {
    const add = event.target.closest("[data-row-add]");
    if (add) {
      const list = add.closest("[data-row-list]");
      if (poolsUnknownToPhases(list)) return;
      event.preventDefault();
      addRow(list);
      return;
    }
    const remove = event.target.closest("[data-row-remove]");
    if (remove) {
      event.preventDefault();
      removeRow(remove.closest("[data-row]"));
    }
  });
})();

// An optional part of a row the document leaves out (a pool's workload, inference, fabric) shows
// its inputs' defaults; the save writes it once an input differs from them: its badge says so.
(() => {
  const form = document.getElementById("scenario-form");
  if (!form) return;
  const changed = (input) => {
    if (input.type === "checkbox" || input.type === "radio") return input.checked !== input.defaultChecked;
    if (input.tagName === "SELECT") return [...input.options].some((option) => option.selected !== option.defaultSelected);
    return input.value !== input.defaultValue;
  };
  form.addEventListener("input", (event) => {
    const part = event.target.closest("details.row-part[data-left-out]");
    const badge = part && part.querySelector(":scope > summary > .badge");
    if (!badge) return;
    const inputs = part.querySelectorAll("input:not([type=hidden]), select, textarea");
    badge.textContent = [...inputs].some(changed) ? "included" : "optional: left out while empty";
  });
})();

// A pool row's summary line (name · system · size · fabric) follows its inputs as they are typed,
// as workspace/editor/rows.py's EditorRow.summary writes it.
(() => {
  const form = document.getElementById("scenario-form");
  if (!form) return;
  const words = (select) => {
    const option = select && select.value ? select.selectedOptions[0] : null;
    return option ? option.textContent.split(" — ")[0].trim() : "";
  };
  form.addEventListener("input", (event) => {
    const row = event.target.closest("[data-row^='pools.']");
    const summary = row && row.querySelector(":scope > fieldset > details.row-fold > summary > .row-summary");
    if (!summary) return;
    const field = (key) => row.querySelector(`[name="${row.dataset.row}.${key}"]:not([type=hidden])`);
    const shown = [];
    const name = field("name");
    if (name && name.value.trim()) shown.push(name.value.trim());
    const system = words(field("system"));
    if (system) shown.push(system);
    for (const [key, unit] of [["gpus", "GPUs"], ["nodes", "systems"]]) {
      const size = field(key);
      if (size && size.value.trim()) {
        shown.push(`${size.value.trim()} ${unit}`);
        break;
      }
    }
    const switchSelect = field("fabric.switch");
    if (switchSelect) shown.push(switchSelect.value ? `own fabric: ${words(switchSelect)}` : "on the site's compute fabric");
    summary.textContent = shown.join(" · ") || "New, not filled yet";
  });
})();

// A refused save: the keyboard and the screen reader start at the list of what to fix.
(function () {
  const refused = document.querySelector("#scenario-form #error-summary[role=alert]");
  if (!refused) return;
  refused.setAttribute("tabindex", "-1");
  refused.focus();
})();
