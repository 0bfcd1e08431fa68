"""The sweep document: a base scenario, the axes that vary it, the constraints a design must meet
and the objectives it is judged by. `read_sweep` turns a parsed document (JSON or YAML, read by
`planner.solver.documents.parse_document`) into a `SweepSpec`, or raises `ScenarioError` naming
every problem by its dotted path (`axes.compute.gpus`, `constraints.power.facility_kw.max`).

    name: Cheapest 8,192 GPUs under 12 MW
    base: {compute: {system: dgx-h100, gpus: 8192}, ...}   # or base_file: ../dgx-h100-4su.yaml
    axes:
      compute.system: [dgx-h100, dgx-b200]                 # a list of values
      racks.power_budget_kw: {from: 40, to: 130, step: 10} # a range, both ends included
      fabrics.compute.topology: {values: [fat_tree, rail_only]}
    constraints:
      power.facility_kw: {max: 12000}
    objectives:
      - {key: cost.tco_usd, goal: minimise}
"""

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from catalog.solver.snapshot import CatalogSnapshot
from core.solver.errors import DOCUMENT_PATH, FieldError, ScenarioError, join_path
from planner.solver.pipeline import PRICED_KEYS, validate_scenario
from planner.solver.rounds import PlanOptions
from sweeps.solver.keys import plan_key_problem, scenario_key_problem, with_values

MAX_DESIGNS_WITHOUT_SCHEDULER = 10_000_000
"""Designs a sweep may have on this machine: at a few thousand a second, ten million take about
an hour. Beyond, a Dask cluster (`--scheduler`)."""
MAX_DESIGNS_IN_MEMORY = 100_000
"""Designs whose figures a sweep keeps in memory (about 1 KB each); beyond, they are written to
a file (`--output`) and only the front, the best and the counts are kept."""
MAX_AXIS_VALUES = 100_000
"""Values of one axis (a range with a tiny step is a typo)."""
MAX_AXES = 20
MAX_OBJECTIVES = 6
GOALS = ("minimise", "maximise")
GOAL_SYNONYMS = {"min": "minimise", "max": "maximise", "minimize": "minimise", "maximize": "maximise"}
"""Other words of the contract for a goal (scenario-format spec: "min and max accepted too")."""
SWEEP_KEYS = ("name", "base", "base_file", "axes", "constraints", "objectives")


@dataclass(frozen=True)
class Axis:
    key: str
    """Dotted scenario key, e.g. fabrics.compute.topology."""
    values: tuple
    from_range: bool = False


def _figure(value: float) -> str:
    """A plan figure in a message: whole above a thousand (1,816,890,000), else 6 digits."""
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:,.6g}"


@dataclass(frozen=True)
class Constraint:
    key: str
    """Dotted plan key, e.g. power.facility_kw."""
    minimum: float | None = None
    maximum: float | None = None

    def refusal(self, value: float | None) -> str | None:
        """Why a design with this value is refused (the path below the constraint and a
        message), or None when it meets the constraint."""
        if value is None:
            return "the plan has no value for it"
        if self.minimum is not None and value < self.minimum:
            return f"{_figure(value)} is below the minimum {_figure(self.minimum)}"
        if self.maximum is not None and value > self.maximum:
            return f"{_figure(value)} is above the maximum {_figure(self.maximum)}"
        return None

    def path(self, value: float | None) -> str:
        """The dotted path of the bound a value breaks: constraints.<key>.min or .max."""
        side = "min" if self.minimum is not None and value is not None and value < self.minimum else "max"
        if value is None:
            return f"constraints.{self.key}"
        return f"constraints.{self.key}.{side}"


@dataclass(frozen=True)
class Objective:
    key: str
    """Dotted plan key, e.g. cost.tco_usd."""
    goal: str = "minimise"

    @property
    def sign(self) -> int:
        """+1 to minimise, -1 to maximise: objectives are compared as sign x value, least best."""
        return 1 if self.goal == "minimise" else -1


@dataclass(frozen=True)
class SweepSpec:
    name: str
    base: dict
    axes: tuple[Axis, ...]
    constraints: tuple[Constraint, ...] = ()
    objectives: tuple[Objective, ...] = ()

    @property
    def design_count(self) -> int:
        return math.prod(len(axis.values) for axis in self.axes)

    def design_values(self, index: int) -> dict[str, Any]:
        """The axis values of design number `index` (0 ≤ index < design_count); the last axis
        varies fastest."""
        return {axis.key: axis.values[index // stride % len(axis.values)]
                for axis, stride in zip(self.axes, self.strides)}

    def design_document(self, index: int) -> dict:
        document = with_values(self.base, self.design_values(index))
        document["name"] = f"{self.name}: design {index}"
        return document

    def screened_document(self, values: dict[str, Any]) -> dict:
        """The document of the design with these axis values as a screen reads it: named as the
        sweep (its name is in no figure), so that its reader reads the name once."""
        document = with_values(self.base, values)
        document["name"] = self.name
        return document

    @cached_property
    def figure_keys(self) -> tuple[str, ...]:
        """Every plan key the constraints and objectives read, plus the KEY_FIGURES."""
        keys = dict.fromkeys([*KEY_FIGURES, *(c.key for c in self.constraints), *(o.key for o in self.objectives)])
        return tuple(keys)

    @cached_property
    def strides(self) -> tuple[int, ...]:
        """Designs between two values of each axis (the last axis varies fastest)."""
        return tuple(math.prod(len(later.values) for later in self.axes[position + 1:])
                     for position in range(len(self.axes)))

    @cached_property
    def priced_axes(self) -> tuple[int, ...]:
        """The positions of the axes a batch prices over arrays (`pipeline.PRICED_KEYS`, every
        value a number): designs that differ only in those are planned at once."""
        return tuple(
            position for position, axis in enumerate(self.axes)
            if axis.key in PRICED_KEYS
            and all(isinstance(value, int | float) and not isinstance(value, bool) for value in axis.values)
        )

    def priced_groups(self, start: int, stop: int) -> list[list[int]]:
        """Designs number start to stop - 1, in groups of those that differ only in the priced
        axes (each alone when none is), each group in order of design number."""
        if not self.priced_axes:
            return [[index] for index in range(start, stop)]
        numbers = np.arange(start, stop)
        first = numbers.copy()  # the number the design would have at the priced axes' first values
        for position in self.priced_axes:
            stride = self.strides[position]
            first -= numbers // stride % len(self.axes[position].values) * stride
        groups: dict[int, list[int]] = {}
        for number, group in zip(numbers.tolist(), first.tolist()):
            groups.setdefault(group, []).append(number)
        return list(groups.values())

    def axis_values(self, numbers: list[int], positions: tuple[int, ...] | None = None) -> dict[str, list]:
        """The value of each axis (of those at `positions`, by default all) at each of these designs."""
        numbers = np.asarray(numbers, dtype=np.int64)
        columns = {}
        for position in range(len(self.axes)) if positions is None else positions:
            axis = self.axes[position]
            at = numbers // self.strides[position] % len(axis.values)
            columns[axis.key] = [axis.values[value] for value in at.tolist()]
        return columns

    def plan_options(self, cables: str) -> PlanOptions:
        """How far a design's plan goes: `cables` (a screen's), the floor laid out only when a
        figure reads it (`reads_floor`)."""
        return PlanOptions(cables, reads_floor(self.figure_keys))


FLOOR_KEYS = ("racks.floor", "racks.rows")
"""Plan keys the floor layout gives: a screen without them skips the layout."""


def reads_floor(keys: tuple[str, ...]) -> bool:
    return any(key == floor or key.startswith(floor + ".") for key in keys for floor in FLOOR_KEYS)


KEY_FIGURES = (
    "compute.gpus", "racks.total", "power.facility_kw", "cost.capex_usd", "cost.tco_usd",
    "cost.usd_per_gpu_hour",
)
"""The figures every design's result carries, whatever its objectives."""


def read_sweep(document: Any, catalog: CatalogSnapshot | None = None) -> SweepSpec:
    """The sweep document as a SweepSpec, or ScenarioError with every problem by dotted path.

    With a catalog, each axis value is also checked on the base scenario (an unknown system slug
    is one error at `axes.compute.system[2]`, not a refusal of a third of the designs), and so is
    the base itself with each axis's first value (problems of the base are given under `base`).
    `base_file` must have been read into `base` by the caller (it knows where files are).
    """
    errors: list[FieldError] = []
    if not isinstance(document, dict):
        raise ScenarioError.at(DOCUMENT_PATH, "must be a mapping with base, axes, constraints and objectives")
    for key in document:
        if key not in SWEEP_KEYS:
            errors.append(FieldError(str(key), f"unknown key; expected one of: {', '.join(SWEEP_KEYS)}"))
    name = document.get("name", "Sweep")
    if not isinstance(name, str) or not name.strip():
        errors.append(FieldError("name", "must be text"))
        name = "Sweep"
    base = document.get("base")
    if not isinstance(base, dict):
        errors.append(FieldError("base", "must be a scenario document (a mapping), or give base_file"))
        base = {}
    axes = _read_axes(document.get("axes"), errors)
    constraints = _read_constraints(document.get("constraints", {}), errors)
    objectives = _read_objectives(document.get("objectives"), errors)
    if errors:
        raise ScenarioError(errors)
    spec = SweepSpec(name.strip(), base, axes, constraints, objectives)
    if catalog is not None:
        _check_against_base(spec, catalog, errors)
    if errors:
        raise ScenarioError(errors)
    return spec


def check_sweep_size(spec: SweepSpec, *, scheduler: bool, output: bool) -> None:
    """Refuse a sweep too large for where it runs: beyond MAX_DESIGNS_WITHOUT_SCHEDULER without
    a cluster; beyond MAX_DESIGNS_IN_MEMORY without a file to write the designs to."""
    count = spec.design_count
    if count > MAX_DESIGNS_WITHOUT_SCHEDULER and not scheduler:
        raise ScenarioError.at(
            "axes", f"give {count:,} designs, more than the {MAX_DESIGNS_WITHOUT_SCHEDULER:,} a sweep runs "
            "without a cluster: fewer values, or a Dask scheduler (--scheduler or DASK_SCHEDULER_ADDRESS)",
        )
    if count > MAX_DESIGNS_IN_MEMORY and not output:
        raise ScenarioError.at(
            "output", f"the sweep has {count:,} designs, more than the {MAX_DESIGNS_IN_MEMORY:,} kept in "
            "memory: name a file to write them to (--output designs.csv)",
        )


def _read_axes(value: Any, errors: list[FieldError]) -> tuple[Axis, ...]:
    if not isinstance(value, dict) or not value:
        errors.append(FieldError("axes", "give at least one axis: a dotted scenario key and its values"))
        return ()
    if len(value) > MAX_AXES:
        errors.append(FieldError("axes", f"must have at most {MAX_AXES} axes"))
        return ()
    axes = []
    for key, given in value.items():
        path = join_path("axes", str(key))
        problem = scenario_key_problem(str(key))
        if problem:
            errors.append(FieldError(path, problem))
            continue
        values = _axis_values(given, path, errors)
        if values is not None:
            from_range = isinstance(given, dict) and "values" not in given
            axes.append(Axis(str(key), values, from_range))
    return tuple(axes)


def _axis_values(given: Any, path: str, errors: list[FieldError]) -> tuple | None:
    if isinstance(given, dict) and "values" in given:
        extra = set(given) - {"values"}
        if extra:
            errors.append(FieldError(join_path(path, min(extra)), "unknown key; give values, or from, to and step"))
            return None
        given, path = given["values"], join_path(path, "values")
    if isinstance(given, dict):
        return _range_values(given, path, errors)
    if not isinstance(given, list) or not given:
        errors.append(FieldError(path, "give a non-empty list of values, {values: [...]} or {from, to, step}"))
        return None
    if len(given) > MAX_AXIS_VALUES:
        errors.append(FieldError(path, f"must have at most {MAX_AXIS_VALUES:,} values"))
        return None
    for index, item in enumerate(given):
        if isinstance(item, (dict, list)):
            errors.append(FieldError(join_path(path, index), "must be a number, text, true, false or null"))
            return None
    if len(set(map(repr, given))) != len(given):
        errors.append(FieldError(path, "has a value twice"))
        return None
    return tuple(given)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _range_values(given: dict, path: str, errors: list[FieldError]) -> tuple | None:
    keys = ("from", "to", "step")
    unknown = [key for key in given if key not in keys]
    missing = [key for key in keys if key not in given]
    for key in unknown:
        errors.append(FieldError(join_path(path, str(key)), "unknown key; a range has from, to and step"))
    for key in missing:
        errors.append(FieldError(join_path(path, key), "is required in a range"))
    bad = [key for key in keys if key in given and not _number(given[key])]
    for key in bad:
        errors.append(FieldError(join_path(path, key), "must be a number"))
    if unknown or missing or bad:
        return None
    start, stop, step = given["from"], given["to"], given["step"]
    if step <= 0:
        errors.append(FieldError(join_path(path, "step"), "must be greater than 0"))
        return None
    if start > stop:
        errors.append(FieldError(join_path(path, "from"), f"must not exceed to ({stop:g})"))
        return None
    # A float step that lands on `to` within rounding still includes it.
    steps = (stop - start) / step
    if not math.isfinite(steps) or steps >= MAX_AXIS_VALUES:
        errors.append(FieldError(join_path(path, "step"), f"gives more than {MAX_AXIS_VALUES:,} values"))
        return None
    count = math.floor(steps + 1e-9) + 1
    if count > MAX_AXIS_VALUES:
        errors.append(FieldError(join_path(path, "step"), f"gives {count:,} values, more than {MAX_AXIS_VALUES:,}"))
        return None
    whole = all(isinstance(given[key], int) for key in keys)
    return tuple(start + index * step if whole else round(start + index * step, 12) for index in range(count))


def _read_constraints(value: Any, errors: list[FieldError]) -> tuple[Constraint, ...]:
    if not isinstance(value, dict):
        errors.append(FieldError("constraints", "must be a mapping of dotted plan keys to {min, max}"))
        return ()
    constraints = []
    for key, bounds in value.items():
        path = join_path("constraints", str(key))
        problem = plan_key_problem(str(key))
        if problem:
            errors.append(FieldError(path, problem))
            continue
        if not isinstance(bounds, dict) or not bounds:
            errors.append(FieldError(path, "must be a mapping with min, max or both"))
            continue
        valid = True
        for bound, number in bounds.items():
            if bound not in ("min", "max"):
                errors.append(FieldError(join_path(path, str(bound)), "unknown key; expected min or max"))
                valid = False
            elif not _number(number):
                errors.append(FieldError(join_path(path, bound), "must be a number"))
                valid = False
        if not valid:
            continue
        minimum, maximum = bounds.get("min"), bounds.get("max")
        if minimum is not None and maximum is not None and minimum > maximum:
            errors.append(FieldError(join_path(path, "min"), f"must not exceed max ({maximum:,g}): no design can meet both"))
            continue
        constraints.append(Constraint(str(key), minimum, maximum))
    return tuple(constraints)


def _read_objectives(value: Any, errors: list[FieldError]) -> tuple[Objective, ...]:
    if not isinstance(value, list) or not value:
        errors.append(FieldError("objectives", "give at least one: [{key: cost.tco_usd, goal: minimise}]"))
        return ()
    if len(value) > MAX_OBJECTIVES:
        errors.append(FieldError("objectives", f"must have at most {MAX_OBJECTIVES}"))
        return ()
    objectives = []
    for index, item in enumerate(value):
        path = join_path("objectives", index)
        if not isinstance(item, dict):
            errors.append(FieldError(path, "must be a mapping: {key: a plan key, goal: minimise or maximise}"))
            continue
        unknown = [key for key in item if key not in ("key", "goal")]
        for key in unknown:
            errors.append(FieldError(join_path(path, str(key)), "unknown key; expected key or goal"))
        key, goal = item.get("key"), item.get("goal", "minimise")
        goal = GOAL_SYNONYMS.get(goal, goal) if isinstance(goal, str) else goal
        problem = "is required" if key is None else "must be text" if not isinstance(key, str) else plan_key_problem(key)
        if problem:
            errors.append(FieldError(join_path(path, "key"), problem))
        if goal not in GOALS:
            errors.append(FieldError(join_path(path, "goal"), f"must be one of: {', '.join(GOALS)} (or min, max)"))
        if problem or unknown or goal not in GOALS:
            continue
        if any(objective.key == key for objective in objectives):
            errors.append(FieldError(join_path(path, "key"), "is already an objective"))
            continue
        objectives.append(Objective(key, goal))
    return tuple(objectives)


MAX_PROBES = 2_000
"""Scenarios checked in one round of probing the axis values on the base (a few tenths of a
millisecond each), shared among the axes; beyond, a bad value is a refusal of its designs."""
MAX_PROBE_ROUNDS = 3


def _probed_positions(axis: Axis, axes: int) -> list[int]:
    """A range's two ends (a scenario's bounds are intervals); a list's first values."""
    if axis.from_range:
        return sorted({0, len(axis.values) - 1})
    return list(range(min(len(axis.values), max(2, MAX_PROBES // axes))))


def _check_against_base(spec: SweepSpec, catalog: CatalogSnapshot, errors: list[FieldError]) -> None:
    """Each axis value on the base, the other axes at their first good value: a problem at the
    axis's key is the value's (`axes.compute.system[2]`); a problem elsewhere that every probe
    has is the base's (`base.racks.cooling`). A value found bad is not used for the other axes,
    and they are probed again (MAX_PROBE_ROUNDS at most)."""
    bad: dict[str, dict[int, str]] = {axis.key: {} for axis in spec.axes}
    base_problems: dict[str, str] | None = None
    for _ in range(min(len(spec.axes), MAX_PROBE_ROUNDS)):
        reference = {}
        for axis in spec.axes:
            good = [position for position in range(len(axis.values)) if position not in bad[axis.key]]
            reference[axis.key] = axis.values[good[0] if good else 0]
        found_bad = False
        base_problems = None
        for axis in spec.axes:
            for position in _probed_positions(axis, len(spec.axes)):
                try:
                    validate_scenario(with_values(spec.base, {**reference, axis.key: axis.values[position]}), catalog)
                    found: list[FieldError] = []
                except ScenarioError as error:
                    found = list(error.errors)
                elsewhere = {}
                for error in found:
                    if error.path == axis.key or error.path.startswith(axis.key + "."):
                        if position not in bad[axis.key]:
                            bad[axis.key][position] = error.message
                            found_bad = True
                    else:
                        elsewhere.setdefault(error.path, error.message)
                base_problems = elsewhere if base_problems is None else {
                    path: message for path, message in base_problems.items() if path in elsewhere
                }
        if not found_bad:
            break
    for axis in spec.axes:
        for position, message in sorted(bad[axis.key].items()):
            errors.append(FieldError(f"{join_path('axes', axis.key)}[{position}]", message))
    swept = tuple(axis.key for axis in spec.axes)
    for path, message in (base_problems or {}).items():
        if any(path == key or path.startswith(key + ".") for key in swept):
            continue
        errors.append(FieldError(join_path("base", path), message))
