"""The plan: what the pipeline computes from a scenario. Sections not built are left out."""

import dataclasses
from dataclasses import dataclass
from typing import Any

from fabric.solver.results import FabricResult
from planner.solver.bom import BomLine, PartSource
from planner.solver.compute import ComputeResult
from planner.solver.phases import PhaseResult
from planner.solver.reliability import ReliabilityResult
from planner.solver.scenario import FinanceSpec, ScenarioSpec
from planner.solver.tco import CostResult
from planner.solver.workload import WorkloadResult
from power.solver.facility import PowerResult
from power.solver.rack_packing import RacksResult
from storage.solver.tiers import StorageResult

PLAN_DECIMALS = 6


@dataclass(frozen=True)
class Plan:
    name: str
    compute: ComputeResult
    racks: RacksResult
    fabrics: dict[str, FabricResult] | None = None
    power: PowerResult | None = None
    workload: WorkloadResult | None = None
    storage: StorageResult | None = None
    reliability: ReliabilityResult | None = None
    cost: CostResult | None = None
    bom: tuple[BomLine, ...] = ()
    warnings: tuple[str, ...] = ()
    sources: tuple[PartSource, ...] = ()
    """Where the figures of every catalog part in the plan come from."""
    inputs: ScenarioSpec | None = None
    """The scenario as planned, every default filled in."""
    phases: tuple[PhaseResult, ...] | None = None
    """A site built in phases: each phase's size, power and what it buys (planner.solver.phases);
    the plan's other sections are the last phase's, its cost the phased TCO."""

    def to_dict(self) -> dict[str, Any]:
        """The plan as plain JSON-ready data, without the sections that were not computed."""
        return {
            field.name: _plain(getattr(self, field.name))
            for field in dataclasses.fields(self)
            if getattr(self, field.name) is not None
        }


EXACT_SECTIONS = (ScenarioSpec, FinanceSpec)
"""The scenario's own values (the inputs, the cost assumptions) are given back as they were:
rounded, a tiny positive input would become 0, past its bound, and the plan's inputs would no
longer plan."""


def _plain(value: Any, rounded: bool = True) -> Any:
    if dataclasses.is_dataclass(value):
        rounded = rounded and not isinstance(value, EXACT_SECTIONS)
        # A field may name its key in the plan (`from` is a Python keyword: LinkResult.from_).
        return {
            field.metadata.get("plan_key", field.name): _plain(getattr(value, field.name), rounded)
            for field in dataclasses.fields(value)
        }
    if isinstance(value, dict):
        return {key: _plain(item, rounded) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item, rounded) for item in value]
    if isinstance(value, float) and rounded:
        return round(value, PLAN_DECIMALS)
    return value
