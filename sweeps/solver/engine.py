"""Plan the designs of a sweep: one design, or a batch of them (what one task of a pool or a
Dask cluster runs). Pure: the catalog and the sweep come in as arguments.

A design is planned by the pipeline (`planner.solver.pipeline.plan_scenario`) and read as its
key figures, straight from the plan's dataclasses (no plan-to-JSON). By default it is screened
(`cables=CABLES_ENGINE`): the cables are not placed and counted one by one, the racks are packed
with the fabric engine's optics; see `plan_scenario`, and tests/sweeps/solver/test_screen.py for
how far the screened figures may be from the full plan's.

What a screen reuses or leaves out, none of which changes a figure it gives:
- the floor layout, unless a figure reads it (`racks.floor.*`, `racks.rows`): without it those
  are None and 0, and nothing else depends on the floor;
- a design's scenario is read section by section, each section once for its axis values
  (`ScenarioReader`; every design is named as the sweep, `SweepSpec.screened_document`);
- fabrics and rack packings, a cluster's or a site's, are kept by their inputs (`sweep_caches`),
  and so are the fabrics and rack specs a screened design settles on: a design that differs
  from one planned before only in PUE, climate, prices, finance or years packs once with them
  (`plan_scenario`'s `cache`); its racks are cooled once per cooling plant and finance facility
  (`site_design.SiteDesign.cooled`), its bill of materials priced once per parts, quotes and
  spares (`steps.priced_parts`);
- a design that differs from one planned before only in the facility's power fields (PUE,
  energy price, backup, losses) and the finance's cost fields (life, rates, fees) takes that
  design's whole plan but its power and cost (`pipeline.PlanBasis`): only its facility's power
  and cost of ownership are worked out anew.
"""

import weakref
from dataclasses import dataclass, field

import numpy as np

from catalog.solver.snapshot import CatalogSnapshot
from core.solver.errors import ScenarioError
from planner.solver.pipeline import plan_scenario, priced_scenario
from planner.solver.rounds import CABLES_ENGINE
from sweeps.solver.collector import full_collections_paused
from sweeps.solver.keys import plan_value
from sweeps.solver.scenario_reader import ScenarioReader
from sweeps.solver.spec import SweepSpec

PLANNER_FAILED_PATH = "plan"
"""Where a design is refused when the planner itself fails on it (a bug, not the design's
fault): counted with the refusals so that one design does not stop a sweep of millions."""
FABRIC_CACHE_SIZE = 4096
"""Fabrics, rack packings, settled designs, cooled racks, priced bills of materials and plan bases kept
per process (each a few kilobytes): a sweep over cooling, PUE or rack budgets plans each fabric
once."""


@dataclass(frozen=True)
class DesignResult:
    """One design of a sweep, planned and judged. (No slots: a dataclass with slots unpickles
    at half the speed, and a sweep's client unpickles every design.)"""

    index: int
    """The design's number in the sweep: its axis values are `SweepSpec.design_values(index)`."""
    figures: dict[str, float | None] = field(default_factory=dict)
    """The plan's numbers by dotted key (`SweepSpec.figure_keys`); empty when the pipeline
    refused the design."""
    refused_at: str | None = None
    """Dotted path of why the design was refused: a scenario path (the pipeline's first
    problem) or a constraint's bound (`constraints.power.facility_kw.max`)."""
    reason: str | None = None

    @property
    def feasible(self) -> bool:
        return self.refused_at is None


def evaluate_design(
    spec: SweepSpec, index: int, catalog: CatalogSnapshot, *, cables: str = CABLES_ENGINE,
    cache: dict | None = None, reader: ScenarioReader | None = None,
) -> DesignResult:
    """Plan design number `index` and judge it by the sweep's constraints and objectives. The
    floor is laid out only when a figure reads it (`reads_floor`). `reader` reads the design's
    scenario section by section (the sweep's own reader, kept across its designs); the designs
    it reads are all named as the sweep (`SweepSpec.screened_document`)."""
    try:
        if reader is None:
            document = spec.design_document(index)
        else:
            values = spec.design_values(index)
            document = reader.read(spec.screened_document(values), values)
        plan = plan_scenario(document, catalog, spec.plan_options(cables), cache=cache)
    except ScenarioError as error:
        first = error.errors[0]
        return DesignResult(index, refused_at=first.path, reason=first.message)
    except Exception as error:  # noqa: BLE001 (one design's failure is counted, not fatal)
        return DesignResult(index, refused_at=PLANNER_FAILED_PATH, reason=f"the planner failed: {error!r}")
    return judged(spec, index, {key: plan_value(plan, key) for key in spec.figure_keys})


def evaluate_priced(
    spec: SweepSpec, numbers: list[int], catalog: CatalogSnapshot, cables: str, caches: "_SweepCaches",
) -> list[DesignResult]:
    """Designs that differ only in the priced axes (`SweepSpec.priced_groups`), planned at once:
    the first design's scenario with an array of each priced axis's values
    (`pipeline.priced_scenario`), whose power and cost figures are arrays over the designs. Each
    value is read in its section as its design would read it (`ScenarioReader.check_section`);
    where one is refused, or the plan fails, each design is planned alone, to be refused on its
    own path."""
    values = spec.design_values(numbers[0])
    columns = spec.axis_values(numbers, spec.priced_axes)
    try:
        scenario = caches.reader.read(spec.screened_document(values), values)
        for key, column in columns.items():
            section = key.split(".", 1)[0]  # facility or finance: no check across sections reads them
            for value in dict.fromkeys(column):
                one = {**values, key: value}
                caches.reader.check_section(spec.screened_document(one), one, section)
        priced = priced_scenario(scenario, {key: np.array(column, dtype=float) for key, column in columns.items()})
        plan = plan_scenario(priced, catalog, spec.plan_options(cables), cache=caches.plans)
    except Exception:  # noqa: BLE001 (each design alone says why, or plans)
        return [evaluate_design(spec, number, catalog, cables=cables, cache=caches.plans, reader=caches.reader)
                for number in numbers]
    figures = {}
    for key in spec.figure_keys:
        value = plan_value(plan, key)
        figures[key] = value.tolist() if isinstance(value, np.ndarray) else [value] * len(numbers)
    return [judged(spec, number, {key: column[position] for key, column in figures.items()})
            for position, number in enumerate(numbers)]


def judged(spec: SweepSpec, index: int, figures: dict[str, float | None]) -> DesignResult:
    """A planned design judged by the sweep's constraints, then its objectives."""
    for constraint in spec.constraints:
        value = figures[constraint.key]
        reason = constraint.refusal(value)
        if reason:
            return DesignResult(index, figures, constraint.path(value), reason)
    for position, objective in enumerate(spec.objectives):
        if figures[objective.key] is None:
            return DesignResult(index, figures, f"objectives[{position}].key", "the plan has no value for it")
    return DesignResult(index, figures)


@dataclass
class _SweepCaches:
    """What one process keeps for the designs of one sweep with one catalog: a fabric or a
    packing depends on the catalog's parts and on the sweep's inline components, which no axis
    varies."""

    spec: weakref.ref
    catalog: weakref.ref
    reader: ScenarioReader
    plans: dict = field(default_factory=dict)
    """Fabrics, rack packings and settled designs by their inputs (`plan_scenario`'s cache)."""


_caches: dict[tuple[int, int], _SweepCaches] = {}


def sweep_caches(spec: SweepSpec, catalog: CatalogSnapshot) -> _SweepCaches:
    """This process's caches for a sweep and catalog; the plans emptied at FABRIC_CACHE_SIZE.
    Those of sweeps or catalogs gone are dropped when a sweep's are made: a job worker runs one
    sweep after another for weeks."""
    kept = _caches.get((id(spec), id(catalog)))
    if kept is None or kept.spec() is not spec or kept.catalog() is not catalog:
        for key in [key for key, held in _caches.items() if held.spec() is None or held.catalog() is None]:
            del _caches[key]
        kept = _SweepCaches(
            weakref.ref(spec), weakref.ref(catalog), ScenarioReader(tuple(axis.key for axis in spec.axes))
        )
        _caches[(id(spec), id(catalog))] = kept
    if len(kept.plans) >= FABRIC_CACHE_SIZE:
        kept.plans.clear()
    return kept


def clear_sweep_caches() -> None:
    """Forget everything kept for sweeps by this process (a benchmark starts each run cold)."""
    _caches.clear()


def evaluate_batch(
    spec: SweepSpec, start: int, stop: int, catalog: CatalogSnapshot, cables: str = CABLES_ENGINE
) -> list[DesignResult]:
    """Designs number start to stop - 1: one task of a sweep, in order. Those that differ only in
    the priced axes are planned at once (`evaluate_priced`). No full garbage collection walks the
    caches meanwhile (`collector.full_collections_paused`)."""
    caches = sweep_caches(spec, catalog)
    results = []
    with full_collections_paused():
        for numbers in spec.priced_groups(start, stop):
            if len(numbers) > 1:
                results += evaluate_priced(spec, numbers, catalog, cables, caches)
            else:
                results.append(evaluate_design(spec, numbers[0], catalog, cables=cables, cache=caches.plans,
                                               reader=caches.reader))
    results.sort(key=lambda result: result.index)
    return results
