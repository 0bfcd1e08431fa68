"""The sweep page's form: rows of axes (a scenario field and its values), constraints (a plan
figure and its bounds) and objectives (a plan figure to minimise or maximise), read into a sweep
document (sweeps/solver/spec.py), and the sweep's errors by dotted path put back next to the
inputs they are about.

The fields a sweep may vary are the editor's (workspace/editor/fields.py) that
`scenario_key_problem` accepts, with the editor's labels, units and catalog choices, so values
are typed as in the editor ("1,024", "8 %", a choice by its words).
"""

import math
import re
from dataclasses import dataclass, field
from typing import Any

from core.solver.errors import ScenarioError
from sweeps.solver.keys import scenario_key_problem
from workspace.editor.fields import EditorField
from workspace.editor.form import ScenarioEditor
from workspace.editor.form_input import InputError, read_number
from workspace.editor.values import display_value
from workspace.words import words_of

AXIS_ROWS = 4
CONSTRAINT_ROWS = 3
OBJECTIVE_ROWS = 3
MAX_PAGE_DESIGNS = 100_000
"""Designs a sweep started from the page may have (a few minutes of the worker); larger sweeps
run with `manage.py sweep` or the API."""
GENERAL = "__all__"
AXES = "axes"
CONSTRAINTS = "constraints"
OBJECTIVES = "objectives"
GOAL_LABELS = {"minimise": "Minimise", "maximise": "Maximise"}

PLAN_KEYS = {
    "cost.tco_usd": "TCO (USD)",
    "cost.capex_usd": "Capex (USD)",
    "cost.opex_usd_per_year": "Opex per year (USD)",
    "cost.usd_per_gpu_hour": "Cost per GPU-hour (USD)",
    "cost.usd_per_pflop_hour": "Cost per PFLOP-hour (USD)",
    "power.facility_kw": "Facility power (kW)",
    "power.it_kw": "IT power (kW)",
    "power.pue": "PUE",
    "racks.total": "Racks",
    "compute.gpus": "GPUs",
    "workload.training_days": "Training time (days)",
}
"""The plan figures offered as constraints and objectives, in words (each a `plan_key_problem`-
free key; tests/sweeps/test_sweep_page.py checks them)."""
DEFAULT_OBJECTIVES = (("cost.tco_usd", "minimise"), ("power.facility_kw", "minimise"))
DEFAULT_AXES = ("compute.system", "racks.cooling")

# A value list: items split at commas, except a comma inside a number grouped by thousands
# (1,024 or 16,384, also as "1,024, 2,048"); semicolons and line breaks also split.
LIST_ITEM = re.compile(r"\s*([+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?=\s*(?:[,;\n]|$))|[^,;\n]+)\s*")


def plan_key_label(key: str) -> str:
    return PLAN_KEYS.get(key) or " › ".join(words_of(part) for part in key.split("."))


def split_values(text: str) -> list[str]:
    """"8192, 16,384; 32768" -> ["8192", "16,384", "32768"]."""
    return [match.group(1).strip() for match in LIST_ITEM.finditer(text) if match.group(1).strip()]


@dataclass
class SweepField:
    """A scenario field a sweep can vary: its key, its words and the choices it takes."""

    key: str
    section: str
    label: str
    unit: str
    choices: list[tuple[str, str]]
    editor_field: EditorField

    @property
    def full_label(self) -> str:
        return f"{self.section} › {self.label}" + (f" ({self.unit})" if self.unit else "")

    def read(self, text: str) -> Any:
        return self.editor_field.read(text)

    def value_label(self, value: Any) -> str:
        shown = display_value(value)
        for choice, label in self.choices:
            if choice == shown:
                return label.split(" — ")[0]
        return self.editor_field.shown(value) + (f" {self.unit}" if self.unit else "")


def sweep_fields(document: dict, catalog) -> dict[str, SweepField]:
    """The fields a sweep of `document` can vary, by key, in the editor's order."""
    editor = ScenarioEditor(document, catalog)
    fields = {}
    for section in editor.sections:
        for editor_field in section.fields:
            if editor_field.widget not in ("number", "select", "choice_text", "checkbox"):
                continue
            if scenario_key_problem(editor_field.path):
                continue
            choices = [(value, label) for value, label in editor_field.choices if value != ""]
            if editor_field.widget == "checkbox":
                choices = [("true", "Yes"), ("false", "No")]
            fields[editor_field.path] = SweepField(
                editor_field.path, section.title, editor_field.label, editor_field.unit, choices, editor_field
            )
    return fields


@dataclass
class AxisRow:
    index: int
    key: str = ""
    values: str = ""
    start: str = ""
    stop: str = ""
    step: str = ""
    chosen: list[str] = field(default_factory=list)
    errors: dict[str, list[str]] = field(default_factory=dict)

    def name(self, part: str) -> str:
        return f"axis-{self.index}-{part}"

    @property
    def filled(self) -> bool:
        return bool(self.key or self.values.strip() or self.chosen or self.start or self.stop or self.step)

    @property
    def range_parts(self) -> list[tuple[str, str, str]]:
        return [("from", "or from", self.start), ("to", "to", self.stop), ("step", "step", self.step)]

    def value_count(self) -> int | None:
        """How many values the row gives as typed (None when it cannot tell)."""
        if self.chosen:
            return len(self.chosen)
        if self.values:
            return len(split_values(self.values))
        try:
            start, stop, step = (read_number(text) for text in (self.start, self.stop, self.step))
        except InputError:
            return None
        if not (step > 0 and stop >= start):
            return None
        steps = (stop - start) / step
        # from 1 to 1e308 step 1e-308 is an infinity of steps, which int() cannot take
        return math.floor(steps + 1e-9) + 1 if math.isfinite(steps) else None


@dataclass
class ConstraintRow:
    index: int
    key: str = ""
    minimum: str = ""
    maximum: str = ""
    errors: dict[str, list[str]] = field(default_factory=dict)

    def name(self, part: str) -> str:
        return f"constraint-{self.index}-{part}"


@dataclass
class ObjectiveRow:
    index: int
    key: str = ""
    goal: str = "minimise"
    errors: dict[str, list[str]] = field(default_factory=dict)

    def name(self, part: str) -> str:
        return f"objective-{self.index}-{part}"


class SweepForm:
    """The rows as posted (or the defaults for a scenario), the document they make, and the
    errors by row and input; `errors` holds those of a whole group (AXES, ...) or GENERAL."""

    def __init__(self, fields: dict[str, SweepField], base: dict, name: str, data=None):
        self.fields = fields
        self.base = base
        self.name = name
        self.errors: dict[str, list[str]] = {}
        self.document: dict | None = None
        if data is None:
            self._defaults()
        else:
            self._read_rows(data)
            self.document = self._document()

    # -- rows

    def _defaults(self) -> None:
        self.axes = [AxisRow(index) for index in range(AXIS_ROWS)]
        for row, key in zip(self.axes, DEFAULT_AXES):
            if key in self.fields:
                row.key = key
                current = self.fields[key].editor_field.value
                if current:
                    row.chosen = [current]
        self.constraints = [ConstraintRow(index) for index in range(CONSTRAINT_ROWS)]
        self.objectives = [ObjectiveRow(index) for index in range(OBJECTIVE_ROWS)]
        for row, (key, goal) in zip(self.objectives, DEFAULT_OBJECTIVES):
            row.key, row.goal = key, goal

    def _read_rows(self, data) -> None:
        def text(name: str) -> str:
            return str(data.get(name, ""))[:2000].strip()

        self.axes = []
        for index in range(AXIS_ROWS):
            row = AxisRow(index)
            row.key, row.values = text(row.name("key")), text(row.name("values"))
            row.start, row.stop, row.step = text(row.name("from")), text(row.name("to")), text(row.name("step"))
            row.chosen = [str(value) for value in data.getlist(row.name("choices"))] if hasattr(data, "getlist") else []
            self.axes.append(row)
        self.constraints = []
        for index in range(CONSTRAINT_ROWS):
            row = ConstraintRow(index)
            row.key, row.minimum, row.maximum = text(row.name("key")), text(row.name("min")), text(row.name("max"))
            self.constraints.append(row)
        self.objectives = []
        for index in range(OBJECTIVE_ROWS):
            row = ObjectiveRow(index)
            row.key, row.goal = text(row.name("key")), text(row.name("goal")) or "minimise"
            self.objectives.append(row)

    # -- the document

    def _document(self) -> dict:
        axes: dict[str, Any] = {}
        self._axis_rows: dict[str, AxisRow] = {}
        for row in self.axes:
            if not row.filled:
                continue
            if not row.key:
                _add(row.errors, "key", "choose the field to vary")
                continue
            if row.key in self._axis_rows:
                _add(row.errors, "key", "is already varied above")
                continue
            values = self._axis_values(row)
            if values is not None:
                axes[row.key] = values
                self._axis_rows[row.key] = row
        constraints: dict[str, dict] = {}
        self._constraint_rows: dict[str, ConstraintRow] = {}
        for row in self.constraints:
            if not (row.key or row.minimum or row.maximum):
                continue
            if not row.key:
                _add(row.errors, "key", "choose the figure to bound")
                continue
            if row.key in self._constraint_rows:
                _add(row.errors, "key", "is already bounded above")
                continue
            bounds = {}
            for bound, typed in (("min", row.minimum), ("max", row.maximum)):
                if typed:
                    try:
                        bounds[bound] = read_number(typed)
                    except InputError as error:
                        _add(row.errors, bound, str(error))
            if not (row.minimum or row.maximum):
                _add(row.errors, "min", "give a minimum, a maximum or both")
            if bounds and not row.errors:
                constraints[row.key] = bounds
                self._constraint_rows[row.key] = row
        objectives = []
        self._objective_rows: list[ObjectiveRow] = []
        for row in self.objectives:
            if row.key:
                objectives.append({"key": row.key, "goal": row.goal})
                self._objective_rows.append(row)
        return {"name": self.name, "base": self.base, "axes": axes, "constraints": constraints,
                "objectives": objectives}

    def _axis_values(self, row: AxisRow) -> Any:
        sweep_field = self.fields.get(row.key)
        if sweep_field is None:
            # Not a field the page offers: the sweep's own check says why (axes.<key>).
            return split_values(row.values) or row.chosen or ["?"]
        if not sweep_field.choices:
            # Choices of the field chosen before (a page without script keeps them): not this one's.
            row.chosen = []
        typed = row.chosen or split_values(row.values)
        if typed:
            values = []
            for item in typed:
                try:
                    values.append(sweep_field.read(item))
                except InputError as error:
                    _add(row.errors, "choices" if row.chosen else "values", str(error))
                    return None
            return values
        if row.start or row.stop or row.step:
            bounds = {}
            for part, typed in (("from", row.start), ("to", row.stop), ("step", row.step)):
                if not typed:
                    _add(row.errors, part, "is needed for a range")
                    continue
                try:
                    bounds[part] = sweep_field.read(typed)
                except InputError as error:
                    _add(row.errors, part, str(error))
            return bounds if len(bounds) == 3 else None
        where = "choose its values" if sweep_field.choices else "type its values, or from, to and step"
        _add(row.errors, "choices" if sweep_field.choices else "values", where)
        return None

    @property
    def design_count_text(self) -> str:
        counts = [row.value_count() for row in self.axes if row.key]
        if not counts or None in counts:
            return "—"
        return f"{math.prod(counts):,}"

    @property
    def has_errors(self) -> bool:
        return bool(self.errors) or any(row.errors for row in (*self.axes, *self.constraints, *self.objectives))

    # -- the sweep's errors, by dotted path, next to their inputs

    def add_sweep_errors(self, error: ScenarioError) -> None:
        for problem in error.errors:
            self._place(problem.path, problem.message)

    def _place(self, path: str, message: str) -> None:
        for key, row in self._axis_rows.items():
            prefix = f"axes.{key}"
            if path == prefix or path.startswith((prefix + ".", prefix + "[")):
                rest = path[len(prefix):]
                if scenario_key_problem(key):
                    _add(row.errors, "key", message)
                elif rest.endswith((".from", ".to", ".step")):
                    _add(row.errors, rest.rsplit(".", 1)[1], message)
                else:
                    position = re.search(r"\[(\d+)\]$", rest)
                    value = self._axis_value_text(row, int(position.group(1))) if position else ""
                    _add(row.errors, "choices" if row.chosen else "values", f"{value}{message}")
                return
        for key, row in self._constraint_rows.items():
            prefix = f"constraints.{key}"
            if path == prefix or path.startswith(prefix + "."):
                part = path[len(prefix) + 1:] or "key"
                _add(row.errors, part if part in ("min", "max") else "key", message)
                return
        match = re.fullmatch(r"objectives\[(\d+)\](?:\.(key|goal))?", path)
        if match and int(match.group(1)) < len(self._objective_rows):
            _add(self._objective_rows[int(match.group(1))].errors, match.group(2) or "key", message)
            return
        if path.startswith("base"):
            where = path.removeprefix("base").lstrip(".")
            _add(self.errors, GENERAL, f"The scenario itself{f' ({where})' if where else ''}: {message}")
            return
        group = next((group for group in (AXES, CONSTRAINTS, OBJECTIVES) if path.startswith(group)), GENERAL)
        _add(self.errors, group, message if group != GENERAL else f"{path}: {message}")

    def _axis_value_text(self, row: AxisRow, position: int) -> str:
        items = row.chosen or split_values(row.values)
        if position >= len(items):
            return ""
        sweep_field = self.fields.get(row.key)
        shown = items[position]
        if sweep_field:
            shown = next((label.split(" — ")[0] for value, label in sweep_field.choices if value == shown), shown)
        return f"“{shown}”: "

    def error_list(self) -> list[tuple[str, str]]:
        """Every error as (the id of its input, message), for the summary at the top."""
        found = [(f"sweep-{group}", message) for group, messages in self.errors.items() for message in messages]
        for row in (*self.axes, *self.constraints, *self.objectives):
            where = self._row_words(row)
            for part, messages in row.errors.items():
                found += [(f"id-{row.name(part)}", f"{where}: {message}") for message in messages]
        return found

    def _row_words(self, row) -> str:
        """"Field 1 (GPUs)", "Limit 2 (Facility power (kW))", "Objective 1": a row as the summary names it."""
        if isinstance(row, AxisRow):
            sweep_field = self.fields.get(row.key)
            return f"Field {row.index + 1}" + (f" ({sweep_field.label})" if sweep_field else "")
        if isinstance(row, ConstraintRow):
            return f"Limit {row.index + 1}" + (f" ({PLAN_KEYS[row.key]})" if row.key in PLAN_KEYS else "")
        return f"Objective {row.index + 1}"


def _add(errors: dict[str, list[str]], where: str, message: str) -> None:
    errors.setdefault(where, []).append(message)
