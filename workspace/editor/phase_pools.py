"""A phase's pools in the editor: one line per pool with its size at the end of the phase, and
what the phase changes of it (its GPU system, its fabric's switch) or that it retires it.

`phases[].pools` is a mapping of pool name to `PhasePoolSpec` ({gpus|nodes, system, fabric,
retire}). Each phase row of the form shows one line per pool of the scenario (and per pool the
phase names beside them), its inputs named `phases.<row>.pools.<pool>.<input>`:

- `size` and `unit` (GPUs or systems) write `gpus` or `nodes`;
- `system` (blank: the pool's own) writes `system`;
- `switch` (blank: the pool's own) writes `fabric.switch`, keeping the other keys of a phase's
  fabric (topology, tiers) that the line does not show;
- `retire` writes `retire: true` in place of the others.

A line left blank leaves the pool out of the phase (not built yet). A post keeps the keys of the
base document's phase in their order, so a document read and posted unchanged is unchanged.
"""

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from planner.solver.scenario import POOL_NAME, SHORTHAND_POOL
from workspace.editor.fields import EditorField
from workspace.editor.form_input import InputError, read_number
from workspace.editor.paths import path_get

PHASES_PATH = "phases"
UNITS = (("gpus", "GPUs"), ("nodes", "systems"))
"""The two ways a pool's size is given, as the line's unit choice."""
OWN_CHOICE = "— the pool's own —"
POOL_KEY = POOL_NAME
INPUTS = ("size", "unit", "system", "switch", "retire")
SIZE_KEYS = {"gpus", "nodes"}


@dataclass
class PoolLine:
    """One pool's line of a phase row."""

    phase_path: str
    pool: str
    size: EditorField
    unit: EditorField
    system: EditorField
    switch: EditorField
    retire: EditorField
    in_phase: bool = False
    """The phase names the pool (a line of a pool not built yet is blank)."""

    @property
    def fields(self) -> list[EditorField]:
        return [self.size, self.unit, self.system, self.switch, self.retire]

    @property
    def has_errors(self) -> bool:
        return any(item.errors for item in self.fields)


@dataclass
class PoolLines:
    """The pool lines of one phase row, with the words of its table."""

    lines: list[PoolLine] = field(default_factory=list)

    def __iter__(self):
        return iter(self.lines)

    def __bool__(self) -> bool:
        return bool(self.lines)


def scenario_pools(document: dict) -> list[str]:
    """The pools a phase may size, in the order the scenario gives them: its `pools:` names, or
    `compute` for the one-pool shorthand, then any other name its phases use."""
    names: list[str] = []
    if isinstance(document.get("compute"), dict):
        names.append(SHORTHAND_POOL)
    for pool in document.get("pools") or ():
        if isinstance(pool, dict) and isinstance(pool.get("name"), str) and pool["name"]:
            names.append(pool["name"])
    for phase in document.get(PHASES_PATH) or ():
        pools = phase.get("pools") if isinstance(phase, dict) else None
        names.extend(name for name in (pools if isinstance(pools, dict) else ()) if isinstance(name, str))
    return [name for index, name in enumerate(names) if name not in names[:index] and POOL_KEY.fullmatch(name)]


def pool_unit(document: dict, pool: str) -> str:
    """The unit the scenario gives a pool in (`nodes` when it counts systems), GPUs otherwise."""
    if pool == SHORTHAND_POOL and isinstance(document.get("compute"), dict):
        return "nodes" if "nodes" in document["compute"] and "gpus" not in document["compute"] else "gpus"
    for item in document.get("pools") or ():
        if isinstance(item, dict) and item.get("name") == pool:
            return "nodes" if "nodes" in item and "gpus" not in item else "gpus"
    return "gpus"


def _field(path: str, label: str, widget: str, value: str = "", choices=(), help_text: str = "") -> EditorField:
    editor_field = EditorField(path=path, label=label, widget=widget, annotation=str, default=None,
                               required=False, help=help_text)
    editor_field.value = value
    editor_field.choices = list(choices)
    return editor_field


def pool_lines(document: dict, phase_path: str, phase: Any, number: int, system_choices, switch_choices) -> PoolLines:
    """The lines of the phase row at `phase_path` (`phases.1`) for the document's `phase` (None
    for the blank row the page copies); the choices are (slug, words) of the parts."""
    pools = phase.get("pools") if isinstance(phase, dict) else None
    pools = pools if isinstance(pools, dict) else {}
    lines = PoolLines()
    for pool in scenario_pools(document):
        entry = pools.get(pool) if isinstance(pools.get(pool), dict) else {}
        base = f"{phase_path}.pools.{pool}"
        unit = next((key for key in ("gpus", "nodes") if key in entry), pool_unit(document, pool))
        size = entry.get(unit)
        where = f"of pool {pool} in phase {number}"
        system = entry.get("system") if isinstance(entry.get("system"), str) else ""
        switch = path_get(entry, "fabric.switch", "")
        switch = switch if isinstance(switch, str) else ""
        line = PoolLine(
            phase_path, pool,
            size=_field(f"{base}.size", f"Size {where}", "number",
                        f"{size:,}" if isinstance(size, int) and not isinstance(size, bool) else
                        ("" if size is None else str(size))),
            unit=_field(f"{base}.unit", f"Unit of the size {where}", "select", unit, UNITS),
            system=_field(f"{base}.system", f"GPU system {where}", "select", system,
                          _with_value([("", OWN_CHOICE), *system_choices], system)),
            switch=_field(f"{base}.switch", f"Fabric switch {where}", "select", switch,
                          _with_value([("", OWN_CHOICE), *switch_choices], switch)),
            retire=_field(f"{base}.retire", f"Retire pool {pool} in phase {number}", "checkbox"),
            in_phase=pool in pools,
        )
        line.retire.checked = entry.get("retire") is True
        lines.lines.append(line)
    return lines


def _with_value(choices: list[tuple[str, str]], value: str) -> list[tuple[str, str]]:
    if value and value not in {slug for slug, _ in choices}:
        choices.append((value, f"{value} (not in the catalog)"))
    return choices


SIZE_ERROR = re.compile(r"^(phases\.\d+\.pools\.[^.]+)\.(?:gpus|nodes)$")
SWITCH_ERROR = re.compile(r"^(phases\.\d+\.pools\.[^.]+)\.fabric\.switch$")


def input_path(path: str) -> str:
    """A problem's form path as the input that shows it: a phase pool's `gpus` or `nodes` is
    its size, its `fabric.switch` its switch."""
    path = SIZE_ERROR.sub(r"\1.size", path)
    return SWITCH_ERROR.sub(r"\1.switch", path)


def _set_in_place(entry: dict, key: str, value: Any) -> None:
    """Set `key`, in the place of the size key it replaces (gpus for nodes) when there was one."""
    if key in entry or key not in SIZE_KEYS:
        entry[key] = value
        return
    other = next((name for name in SIZE_KEYS if name in entry), None)
    if other is None:
        entry[key] = value
        return
    rebuilt = {(key if name == other else name): (value if name == other else item) for name, item in entry.items()}
    entry.clear()
    entry.update(rebuilt)


def _posted_names(data, pattern: str) -> list[str]:
    """The names (the pattern's first group) of the posted inputs the pattern matches, each
    once, in the order posted."""
    matcher = re.compile(pattern)
    return list(dict.fromkeys(match[1] for name in data for match in [matcher.match(name)] if match))


def _ticked(data, name: str) -> bool:
    """Whether the checkbox `name` was ticked (its last posted value: a hidden input may come first)."""
    return data.getlist(name)[-1:] in (["true"], ["on"])


def posted_pools(data, row_path: str, base_pools: Any, input_errors: dict[str, list[str]],
                 error_path: str) -> Any:
    """The phase's `pools:` the posted lines of the row at `row_path` describe, or `base_pools`
    when the form posted no line (a page older than the lines)."""
    names = _posted_names(data, rf"{re.escape(row_path)}\.pools\.([a-z0-9_-]+)\.({'|'.join(INPUTS)})$")
    if not names:
        return base_pools
    base_pools = base_pools if isinstance(base_pools, dict) else {}
    order = [name for name in base_pools if name in names] + [name for name in names if name not in base_pools]
    pools: dict[str, Any] = {}
    for pool in order:
        prefix = f"{row_path}.pools.{pool}"
        where = f"{error_path}.pools.{pool}"
        entry = _posted_entry(data, prefix, base_pools.get(pool), input_errors, where)
        if entry is not None:
            pools[pool] = entry
    for pool, entry in base_pools.items():
        if pool not in names:
            pools[pool] = entry
    return pools


def _posted_entry(data, prefix: str, base: Any, input_errors: dict[str, list[str]], where: str) -> dict | None:
    """One pool's entry from its line, or None when the line is blank (the pool not built)."""
    retired = _ticked(data, f"{prefix}.retire")
    size_text = (data.get(f"{prefix}.size") or "").strip()
    system = (data.get(f"{prefix}.system") or "").strip()
    switch = (data.get(f"{prefix}.switch") or "").strip()
    base = base if isinstance(base, dict) else {}
    if retired:
        return {"retire": True}
    if not (size_text or system or switch):
        return None
    entry = copy.deepcopy({key: value for key, value in base.items() if key != "retire"})
    unit = data.get(f"{prefix}.unit") or next((key for key in SIZE_KEYS if key in base), "gpus")
    unit = unit if unit in SIZE_KEYS else "gpus"
    if size_text:
        try:
            size: Any = read_number(size_text)
        except InputError as error:
            input_errors.setdefault(f"{where}.{unit}", []).append(str(error))
            size = size_text
        _set_in_place(entry, unit, size)
        entry.pop(next(iter(SIZE_KEYS - {unit})), None)
    else:
        for key in SIZE_KEYS:
            entry.pop(key, None)
    if system:
        entry["system"] = system
    else:
        entry.pop("system", None)
    fabric = entry.get("fabric") if isinstance(entry.get("fabric"), dict) else None
    if switch:
        if fabric is None:
            entry["fabric"] = {"switch": switch}
        else:
            fabric["switch"] = switch
    elif fabric is not None:
        fabric.pop("switch", None)
        if not fabric:
            entry.pop("fabric")
    return entry


# ---------------------------------------------------------------------------------------------
# A phase's storage tiers: one line per tier of `storage.tiers`, its inputs named
# `phases.<row>.storage.<tier>.<input>`: `systems` and `other_tb` (its size), `system` (blank:
# the tier's own) and `built` (unticked: `built: false`, the tier not in the site in the phase).
# A line left as it came (blank, built) leaves the tier out of the phase: the scenario's.

TIER_INPUTS = ("systems", "other_tb", "system", "built")


@dataclass
class TierLine:
    phase_path: str
    tier: str
    systems: EditorField
    other_tb: EditorField
    system: EditorField
    built: EditorField
    in_phase: bool = False

    @property
    def fields(self) -> list[EditorField]:
        return [self.systems, self.other_tb, self.system, self.built]


def scenario_tiers(document: dict) -> list[str]:
    """The storage tiers a phase may change, by the names `storage.tiers` gives them, then any
    other key its phases use (a tier's index). A name with a dot cannot name an input: its
    entries are kept as written, without a line."""
    names: list[str] = []
    storage = document.get("storage")
    for tier in (storage.get("tiers") or ()) if isinstance(storage, dict) else ():
        if isinstance(tier, dict) and isinstance(tier.get("name"), str) and tier["name"]:
            names.append(tier["name"])
    for phase in document.get(PHASES_PATH) or ():
        tiers = phase.get("storage") if isinstance(phase, dict) else None
        names.extend(str(name) for name in (tiers if isinstance(tiers, dict) else ()))
    return [name for index, name in enumerate(names)
            if name not in names[:index] and TIER_KEY.fullmatch(name)]


TIER_KEY = re.compile(r"[^.\s]+")


def _number_text(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return ""
    return f"{value:,g}" if isinstance(value, (int, float)) else str(value)


def tier_lines(document: dict, phase_path: str, phase: Any, number: int, storage_choices) -> list[TierLine]:
    """The storage lines of the phase row at `phase_path` for the document's `phase`."""
    tiers = phase.get("storage") if isinstance(phase, dict) else None
    tiers = tiers if isinstance(tiers, dict) else {}
    lines = []
    for tier in scenario_tiers(document):
        entry = tiers.get(tier) if isinstance(tiers.get(tier), dict) else {}
        base = f"{phase_path}.storage.{tier}"
        where = f"of storage tier {tier} in phase {number}"
        system = entry.get("system") if isinstance(entry.get("system"), str) else ""
        line = TierLine(
            phase_path, tier,
            systems=_field(f"{base}.systems", f"Systems {where}", "number", _number_text(entry.get("systems"))),
            other_tb=_field(f"{base}.other_tb", f"Other data {where}", "number", _number_text(entry.get("other_tb"))),
            system=_field(f"{base}.system", f"Storage system {where}", "select", system,
                          _with_value([("", "— the tier's own —"), *storage_choices], system)),
            built=_field(f"{base}.built", f"Storage tier {tier} built in phase {number}", "checkbox"),
            in_phase=tier in tiers,
        )
        line.built.checked = entry.get("built") is not False
        lines.append(line)
    return lines


def posted_storage(data, row_path: str, base_storage: Any, input_errors: dict[str, list[str]],
                   error_path: str) -> Any:
    """The phase's `storage:` the posted lines describe, or `base_storage` when none was posted."""
    names = _posted_names(data, rf"{re.escape(row_path)}\.storage\.([^.]+)\.({'|'.join(TIER_INPUTS)})$")
    if not names:
        return base_storage
    base_storage = base_storage if isinstance(base_storage, dict) else {}
    order = [name for name in base_storage if name in names] + [name for name in names if name not in base_storage]
    storage: dict[str, Any] = {}
    for tier in order:
        prefix = f"{row_path}.storage.{tier}"
        base = base_storage.get(tier) if isinstance(base_storage.get(tier), dict) else {}
        if not _ticked(data, f"{prefix}.built"):
            storage[tier] = {"built": False}
            continue
        entry = copy.deepcopy(base)
        if entry.get("built") is False:
            entry.pop("built")
        for key in ("systems", "other_tb"):
            text = (data.get(f"{prefix}.{key}") or "").strip()
            if not text:
                entry.pop(key, None)
                continue
            try:
                entry[key] = read_number(text)
            except InputError as error:
                input_errors.setdefault(f"{error_path}.storage.{tier}.{key}", []).append(str(error))
                entry[key] = text
        system = (data.get(f"{prefix}.system") or "").strip()
        if system:
            entry["system"] = system
        else:
            entry.pop("system", None)
        if entry:
            storage[tier] = entry
    for tier, entry in base_storage.items():
        if tier not in names:
            storage[tier] = entry
    return storage
