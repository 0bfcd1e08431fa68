"""Lists of the scenario as repeatable rows of the editor: storage tiers, NIC overrides, inline
systems and switches (each system with its NICs as rows of its own).

A row's inputs are named by their dotted path with the row's index as a part
(`storage.tiers.0.system`, `components.systems.1.nics.0.gbps`). Each list also carries a blank
row whose index is a placeholder (`NEWROW0`, `NEWROW1` one list deeper) for the page's script
to copy; without a script, the list's add and remove buttons post the form and the page comes
back with the row added or removed (workspace/editor/post.py reads both).
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from workspace.editor.choices import help_in_form, part_attribute
from workspace.editor.fields import EditorField, ListField, item_fields
from workspace.editor.labels import humanize, in_sentence
from workspace.editor.paths import dom_id, general_path, path_get
from workspace.words import in_words, words_of

NEW_ROW = "NEWROW{depth}"
"""The index of a list's blank row, copied by the page's script (`NEWROW0`, then `NEWROW1` for a
list inside a row): letters and digits only, so that it reads the same in names and in ids."""

LIST_NAMES = {
    "compute.nics": ("NIC overrides", "NIC override"),
    "storage.tiers": ("Storage tiers", "storage tier"),
    "components.systems": ("GPU systems", "GPU system"),
    "components.switches": ("Switches", "switch"),
    "components.systems[].nics": ("NICs", "NIC"),
}
"""(title, one item) of each list; another list is titled by its key."""

LIST_HELP = {
    "storage.tiers": "The storage systems of the cluster: which serve the GPUs' reads and the checkpoint "
    "writes, and which hold the dataset and the checkpoints. One tier may serve each duty.",
    "components.systems": "GPU systems that are not in the catalog, or that replace the catalog's system of "
    "the same short name, for this scenario. Once saved, they are offered in the GPU system picker.",
    "components.switches": "Switches that are not in the catalog, or that replace the catalog's switch of "
    "the same short name, for this scenario. Once saved, they are offered in the fabrics' switch pickers.",
    "components.systems[].nics": "The system's network ports, one row per role.",
}
"""Help of a list in the form, where the spec's (written for the document) says less."""

ROW_LABELS = {
    "storage.tiers[].system": "Storage system",
    "storage.tiers[].other_tb": "Other data",
    "storage.tiers[].systems": "Fixed number of systems",
    "components.systems[].slug": "Short name",
    "components.switches[].slug": "Short name",
    "components.systems[].nics[].count": "Ports",
    "compute.nics[].count": "Ports",
    "components.systems[].nics[].gbps": "Rate",
    "compute.nics[].gbps": "Rate",
    "components.systems[].gpu_tdp_w": "GPU TDP",
    "storage.tiers[].protection.scheme": "Protection",
    "storage.tiers[].protection.copies": "Copies",
    "storage.tiers[].protection.data_shards": "Data shards",
    "storage.tiers[].protection.parity_shards": "Parity shards",
}
"""Labels of row inputs whose key alone reads badly there."""

NIC_ROLES = {
    "compute": "GPU back-end (compute)",
    "storage": "Storage",
    "inband": "In-band (front-end)",
    "oob": "Out-of-band",
}
CHOICE_LABELS = {
    "compute.nics[].role": NIC_ROLES,
    "components.systems[].nics[].role": NIC_ROLES,
}
"""Words of a row input's choices where the key's words are not what architects say."""

ROW_HELP = {
    "compute.nics[].role": "The network these ports connect to.",
    "components.systems[].nics[].role": "The network these ports connect to.",
    "compute.nics[].ports_per_cage": "2 where two ports share a cage and its module (twin-port OSFP).",
    "components.systems[].nics[].ports_per_cage": "2 where two ports share a cage and its module (twin-port OSFP).",
    "components.switches[].split": "Ways one port can be split, e.g. 1, 2 for 800G into 2 × 400G.",
}
"""Help of a row input where the spec's names the choices by their keys."""

SOURCE_FIELDS = ("vendor", "source_url", "source_date", "confidence", "notes")
"""Fields of an inline part that say where its figures come from: folded under the others."""

SUMMARY_SEPARATOR = " › "


@dataclass(frozen=True)
class ErrorLink:
    """One error of the form as the banner lists it: where, what, and the anchor of its input."""

    where: str
    message: str
    anchor: str


Fill = Callable[[EditorField, Any], None]
"""Puts a document value (or the field's default, when the document has none) into an input."""
MISSING = object()


FOLD_FIELDS = 16
"""Items with more inputs than this fold to one summary line, opened on demand."""


@dataclass
class RowPart:
    key: str
    title: str
    anchor: str
    fields: list[EditorField] = field(default_factory=list)
    given: bool = False
    """The item gives the part: its inputs hold its values, not only the defaults they show."""

    @property
    def has_value(self) -> bool:
        return self.given

    @property
    def has_errors(self) -> bool:
        return any(item.errors for item in self.fields)


@dataclass
class EditorRow:
    """One item of a list: its inputs, its own lists, and where it was in the document posted."""

    list_path: str
    index: int | str
    number: int
    """Position shown to people, from 1."""
    item_label: str
    fields: list[EditorField] = field(default_factory=list)
    source_fields: list[EditorField] = field(default_factory=list)
    lists: list["RowList"] = field(default_factory=list)
    base: str = ""
    """Index of this item in the form's hidden document, so that a post keeps what the row does
    not show; empty for a row added on the page."""
    errors: list[str] = field(default_factory=list)
    pool_lines: Any = ()
    """A phase row's lines, one per pool (workspace/editor/phase_pools.py)."""
    tier_lines: Any = ()
    """A phase row's lines, one per storage tier."""
    given_parts: frozenset[str] = frozenset()
    """The optional parts the item gives (a pool's `workload`), whose inputs are more than defaults."""

    @property
    def path(self) -> str:
        return f"{self.list_path}.{self.index}"

    @property
    def line_fields(self) -> list[EditorField]:
        return [item for line in [*self.pool_lines, *self.tier_lines] for item in line.fields]

    def _part(self, editor_field: EditorField) -> str:
        """The optional part of the item a field belongs to (`workload` of
        `pools.0.workload.days`), '' for the item's own fields."""
        relative = editor_field.path.removeprefix(self.path + ".")
        return relative.split(".", 1)[0] if "." in relative else ""

    @property
    def own_fields(self) -> list[EditorField]:
        return [item for item in self.fields if not self._part(item)]

    @property
    def parts(self) -> list["RowPart"]:
        """The item's optional parts (a pool's workload, inference, fabric), each folded until
        it has a value or an error: left empty, the part is left out of the document."""
        parts: dict[str, RowPart] = {}
        for item in self.fields:
            name = self._part(item)
            if name:
                parts.setdefault(name, RowPart(name, words_of(name), dom_id("part", f"{self.path}.{name}"),
                                               given=name in self.given_parts)).fields.append(item)
        return list(parts.values())

    @property
    def folds(self) -> bool:
        """A long item (a pool: dozens of inputs) folds to its summary line."""
        return len(self.fields) > FOLD_FIELDS

    @property
    def unfolded(self) -> bool:
        return self.base == "" or self.has_errors

    @property
    def summary(self) -> str:
        """The item in one line: name, system, size, fabric ("training · NVIDIA DGX H100 · 1,024
        GPUs · QM9700 fat tree")."""
        by_key = {item.path.removeprefix(self.path + "."): item for item in self.fields}
        shown = []
        for key in ("name", "system"):
            item = by_key.get(key)
            if item is not None and item.value:
                shown.append(dict(item.choices).get(item.value, item.value).split(" — ")[0])
        for key, unit in (("gpus", "GPUs"), ("nodes", "systems")):
            item = by_key.get(key)
            if item is not None and item.value:
                shown.append(f"{item.value} {unit}")
                break
        fabric = by_key.get("fabric.switch")
        if fabric is not None and fabric.value:
            shown.append("own fabric: " + dict(fabric.choices).get(fabric.value, fabric.value).split(" — ")[0])
        elif fabric is not None:
            shown.append("on the site's compute fabric")
        return " · ".join(shown)

    @property
    def title(self) -> str:
        return f"{self.item_label[:1].upper()}{self.item_label[1:]} {self.number}"

    @property
    def anchor(self) -> str:
        return dom_id("row", self.path)

    @property
    def error_id(self) -> str:
        return dom_id("err-row", self.path)

    @property
    def has_errors(self) -> bool:
        return bool(self.errors) or any(
            item.errors for item in [*self.fields, *self.source_fields, *self.line_fields]
        ) or any(inner.has_errors for inner in self.lists)

    def error_links(self, where: str) -> list[ErrorLink]:
        """The banner's links to the errors of this row, its inputs and its lists."""
        where = f"{where}{SUMMARY_SEPARATOR}{self.title}"
        links = [ErrorLink(where, message, self.anchor) for message in self.errors]
        for item in [*self.fields, *self.line_fields, *self.source_fields]:
            links.extend(
                ErrorLink(f"{where}{SUMMARY_SEPARATOR}{item.label}", message, item.input_id) for message in item.errors
            )
        for inner in self.lists:
            links.extend(inner.error_links(where))
        return links

    @property
    def source_open(self) -> bool:
        return any(item.errors for item in self.source_fields)

    def all_fields(self):
        yield from self.fields
        yield from self.line_fields
        yield from self.source_fields
        for row_list in self.lists:
            yield from row_list.all_fields()


@dataclass
class RowList:
    """A list of the scenario shown as rows, with a blank row for the page's script to copy."""

    path: str
    title: str
    item_label: str
    help: str
    depth: int
    rows: list[EditorRow] = field(default_factory=list)
    template: EditorRow | None = None
    errors: list[str] = field(default_factory=list)
    focus: bool = False
    """Put the cursor on the add button (the page came back after a row was removed)."""
    note: str = ""
    """What the rows change, in words (the chosen system's own NICs, for the NIC overrides)."""

    @property
    def anchor(self) -> str:
        return dom_id("rows", self.path)

    @property
    def error_id(self) -> str:
        return dom_id("err-rows", self.path)

    @property
    def help_text(self) -> str:
        return in_words(help_in_form(LIST_HELP.get(general_path(self.path), self.help)))

    @property
    def add_label(self) -> str:
        return f"Add a {self.item_label}"

    @property
    def placeholder(self) -> str:
        return NEW_ROW.format(depth=self.depth)

    @property
    def has_errors(self) -> bool:
        return bool(self.errors) or any(row.has_errors for row in self.rows)

    def error_links(self, where: str) -> list[ErrorLink]:
        """The banner's links to the errors of this list and of its rows, `where` it is."""
        where = f"{where}{SUMMARY_SEPARATOR}{self.title}"
        links = [ErrorLink(where, message, self.anchor) for message in self.errors]
        for row in self.rows:
            links.extend(row.error_links(where))
        return links

    def all_rows(self):
        for row in self.rows:
            yield row
            for row_list in row.lists:
                yield from row_list.all_rows()

    def all_fields(self):
        for row in self.rows:
            yield from row.all_fields()


def row_list(spot: ListField, items: Any, catalog_kinds: set[str], fill: Fill, depth: int = 0) -> RowList:
    """The rows of the list at `spot` (its path with the indices of the rows it is in) for the
    `items` a document has there; `fill` puts each value into its input."""
    title, item_label = list_names(spot.path)
    rows_of = RowList(spot.path, title, item_label, spot.help, depth)
    for index, item in enumerate(items if isinstance(items, list) else ()):
        rows_of.rows.append(
            _row(spot, index, index + 1, item if isinstance(item, dict) else {}, catalog_kinds, fill, depth)
        )
    rows_of.template = _row(spot, NEW_ROW.format(depth=depth), len(rows_of.rows) + 1, MISSING, catalog_kinds,
                            fill, depth)
    return rows_of


def nics_in_words(system_name: str, nics: Any) -> str:
    """A system's own NICs, for the note of the NIC overrides: "NVIDIA DGX H100 as in the
    catalog: 8 × 400 Gb/s GPU back-end (compute), 2 × 400 Gb/s storage"."""
    ports = []
    for nic in nics or ():
        count, gbps, role = (part_attribute(nic, key) for key in ("count", "gbps", "role"))
        if isinstance(count, int) and isinstance(gbps, (int, float)):
            ports.append(f"{count} × {gbps:,g} Gb/s {in_sentence(NIC_ROLES.get(role, str(role)))}")
    if not ports:
        return f"{system_name} has no NICs of its own."
    return f"{system_name} as in the catalog: {', '.join(ports)}."


def nic_overrides_in_words(document: dict) -> list[str]:
    """The NIC overrides of a scenario, one line per pool that has them: "compute: 2 × 200 Gb/s
    storage (replacing the system's own)"; [] when no pool overrides its NICs."""
    parts = [("", document.get("compute"))] if isinstance(document.get("compute"), dict) else []
    parts += [(str(pool.get("name", "")), pool) for pool in document.get("pools") or () if isinstance(pool, dict)]
    lines = []
    for name, part in parts:
        ports = []
        for nic in part.get("nics") or ():
            if isinstance(nic, dict) and isinstance(nic.get("count"), int) and isinstance(nic.get("gbps"), (int, float)):
                role = nic.get("role", "")
                ports.append(f"{nic['count']} × {nic['gbps']:,g} Gb/s {in_sentence(NIC_ROLES.get(role, str(role)))}")
        if ports:
            lines.append(f"{f'Pool {name}: ' if name else ''}{', '.join(ports)}, in place of the system's own")
    return lines


def list_names(path: str) -> tuple[str, str]:
    """(title, one item) of the list at `path`."""
    general = general_path(path)
    if general in LIST_NAMES:
        return LIST_NAMES[general]
    title = humanize(path.rsplit(".", 1)[-1])
    return title, title.lower().removesuffix("s")


def _row(spot: ListField, index: int | str, number: int, item: Any, catalog_kinds: set[str], fill: Fill,
         depth: int) -> EditorRow:
    path = f"{spot.path}.{index}"
    fields, lists, nested = item_fields(spot.item_class, path, catalog_kinds)
    row = EditorRow(spot.path, index, number, list_names(spot.path)[1],
                    base="" if item is MISSING else str(index))
    values = _expanded(item if isinstance(item, dict) else {}, path, nested)
    row.given_parts = frozenset(key for key, value in values.items() if value is not None)
    for editor_field in fields:
        relative = editor_field.path.removeprefix(path + ".")
        general = general_path(editor_field.path)
        editor_field.label = ROW_LABELS.get(general, editor_field.label)
        editor_field.help = ROW_HELP.get(general, editor_field.help)
        if general in CHOICE_LABELS:
            words = CHOICE_LABELS[general]
            editor_field.choices = [(value, words.get(value, text)) for value, text in editor_field.choices]
        value = path_get(values, relative, MISSING) if item is not MISSING else MISSING
        fill(editor_field, editor_field.default if value is MISSING else value)
        if "." in relative and spot.item_class.__dataclass_fields__[relative.split(".")[0]].default is None:
            # Inside a part the item may leave out (a pool's workload): required only once the
            # part is given, which the save's errors then say; no star while it is optional.
            editor_field.required = False
        if relative in SOURCE_FIELDS:
            row.source_fields.append(editor_field)
        else:
            row.fields.append(editor_field)
    for inner in lists:
        name = inner.path.removeprefix(path + ".")
        inner_items = values.get(name) if item is not MISSING else None
        row.lists.append(row_list(inner, inner_items, catalog_kinds, fill, depth + 1))
    return row


def _expanded(item: dict, path: str, nested: list[tuple[str, Any]]) -> dict:
    """The item with the shorthands of its nested dataclasses written out (`protection:
    replication` -> `protection: {scheme: replication}`), to fill the nested inputs."""
    expanded = dict(item)
    for nested_path, before in nested:
        key = nested_path.removeprefix(path + ".")
        raw = expanded.get(key)
        if raw is not None and not isinstance(raw, dict) and before:
            full = before(raw)
            expanded[key] = full if isinstance(full, dict) else {}
    return expanded
