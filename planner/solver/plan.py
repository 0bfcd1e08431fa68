"""The plan: what the pipeline computes from a scenario. Sections not built are left out."""

import dataclasses
from dataclasses import dataclass
from typing import Any

from fabric.solver.results import FabricResult
from planner.solver.bom import BomLine, PartSource
from planner.solver.compute import ComputeResult
from planner.solver.inference import InferenceResult
from planner.solver.phase_results import PhaseResult
from planner.solver.reliability import ReliabilityResult
from planner.solver.scenario import FinanceSpec, ScenarioSpec
from planner.solver.tco import CostResult
from planner.solver.workload import WorkloadResult
from power.solver.facility import PowerResult
from power.solver.rack_packing import RacksResult
from storage.solver.tiers import StorageResult

PLAN_DECIMALS = 6


@dataclass(frozen=True)
class PoolTier:
    role: str
    switch: str
    switches: int


@dataclass(frozen=True)
class PoolFabric:
    """A pool's own compute fabric in short; the whole of it is in `Plan.fabrics[name]`."""

    name: str
    topology: str
    tier_count: int
    tiers: tuple[PoolTier, ...]
    switches: int
    links: int
    """Links of every segment, all planes: endpoint links and switch-to-switch links."""


@dataclass(frozen=True)
class PoolPower:
    it_kw: float
    """The pool's systems (with the NIC modules their rating leaves out), its compute fabric's
    switches and the modules in their ports; the site's shared fabrics, storage and management
    are not in any pool."""


@dataclass(frozen=True)
class PoolResult:
    """One compute pool of a site: its systems, its compute fabric, its compute racks, its power."""

    system: str
    gpus: int
    compute: ComputeResult
    fabric: PoolFabric | None
    racks: RacksResult
    """The pool's compute racks, packed for its system (`per_rack` and the floor are the site's)."""
    power: PoolPower
    workload: WorkloadResult | None = None
    inference: InferenceResult | None = None


@dataclass(frozen=True)
class Plan:
    name: str
    compute: ComputeResult
    racks: RacksResult
    fabrics: dict[str, FabricResult] | None = None
    power: PowerResult | None = None
    workload: WorkloadResult | None = None
    inference: InferenceResult | None = None
    storage: StorageResult | None = None
    reliability: ReliabilityResult | None = None
    cost: CostResult | None = None
    bom: tuple[BomLine, ...] = ()
    warnings: tuple[str, ...] = ()
    sources: tuple[PartSource, ...] = ()
    """Where the figures of every catalog part in the plan come from."""
    inputs: ScenarioSpec | None = None
    """The scenario as planned, every default filled in."""
    pools: dict[str, PoolResult] | None = None
    """Each compute pool by name, for a scenario written with `pools:` (left out for `compute:`)."""
    phases: tuple[PhaseResult, ...] | None = None
    """A site built in phases: each phase's size, power and what it buys (planner.solver.phases);
    the plan's other sections are the last phase's, its cost the phased TCO."""
    catalog: Any = dataclasses.field(default=None, repr=False, compare=False, metadata={"in_json": False})
    """The CatalogSnapshot the plan was made with (the scenario's inline parts and NIC choices in
    it), for the exports to read the same parts; not part of the plan's JSON."""

    def to_dict(self) -> dict[str, Any]:
        """The plan as plain JSON-ready data, without the sections that were not computed."""
        return {
            field.name: _plain(getattr(self, field.name))
            for field in json_fields(Plan)
            if getattr(self, field.name) is not None
        }


def json_fields(cls: type) -> list[dataclasses.Field]:
    """The fields of a plan's dataclass that its JSON holds (`to_dict`, the plan's JSON Schema)."""
    return [field for field in dataclasses.fields(cls) if field.metadata.get("in_json", True)]


SCENARIO_ALTERNATIVES = ("compute", "pools")
EXACT_SECTIONS = (ScenarioSpec, FinanceSpec)
"""The scenario's own values (the inputs, the cost assumptions) are given back as they were:
rounded, a tiny positive input would become 0, past its bound, and the plan's inputs would no
longer plan."""


_LEAVES = (str, int, bool, type(None))
_KEYS: dict[type, tuple[tuple[str, str], ...]] = {}
"""(key in the plan, field name) of each dataclass's fields, by class: a field may name its key
(`from` is a Python keyword: LinkResult.from_)."""


def _plain(value: Any, rounded: bool = True) -> Any:
    kind = type(value)
    # the common leaves first, by their exact type (a numpy float is a float, but not of this type)
    if kind is float:
        return round(value, PLAN_DECIMALS) if rounded else value
    if kind in _LEAVES:
        return value
    if dataclasses.is_dataclass(value):
        rounded = rounded and not isinstance(value, EXACT_SECTIONS)
        keys = _KEYS.get(kind)
        if keys is None:
            keys = _KEYS[kind] = tuple(
                (field.metadata.get("plan_key", field.name), field.name) for field in json_fields(kind)
            )
        plain = {key: _plain(getattr(value, name), rounded) for key, name in keys}
        if isinstance(value, ScenarioSpec):
            # The scenario as written: `compute:` or `pools:`, not the other one empty.
            for key in SCENARIO_ALTERNATIVES:
                if not plain[key]:
                    del plain[key]
        return plain
    if isinstance(value, dict):
        return {key: _plain(item, rounded) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item, rounded) for item in value]
    if isinstance(value, float) and rounded:
        return round(value, PLAN_DECIMALS)
    return value
