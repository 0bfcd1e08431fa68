"""The scenario document as frozen dataclasses, with the defaults documented in the format spec.

`read_scenario` turns a parsed document into a `ScenarioSpec` or raises `ScenarioError` naming
every bad field; `check_references` then checks its slugs against a catalog.
"""

from dataclasses import dataclass, field
from typing import Any, Literal

from fabric.solver.parts import SwitchSpec
from planner.solver.parts import SystemSpec
from planner.solver.schema import read_spec, spec_field
from power.solver.parts import CoolingName

MAX_GPUS = 10_000_000
"""Ten times the largest clusters announced; anything beyond is a typo."""


@dataclass(frozen=True)
class ComputeSpec:
    system: str = spec_field(min_length=1, max_length=80, help="Catalog slug of the GPU system.")
    gpus: int | None = spec_field(
        None, minimum=1, maximum=MAX_GPUS, help="GPUs wanted; give either gpus or nodes."
    )
    nodes: int | None = spec_field(
        None, minimum=1, maximum=MAX_GPUS, help="Systems wanted; give either gpus or nodes."
    )
    spare_nodes: int = spec_field(
        0, minimum=0, maximum=MAX_GPUS, help="Extra systems held as spares, cabled and powered."
    )

    def problems(self):
        if self.gpus is not None and self.nodes is not None:
            yield "gpus", "give either gpus or nodes, not both"
        if self.gpus is None and self.nodes is None:
            yield "gpus", "give either gpus or nodes"


@dataclass(frozen=True)
class RacksSpec:
    power_budget_kw: float = spec_field(
        41.0, unit="kW", minimum=0, exclusive_minimum=True, maximum=2_000,
        help="IT power one rack may draw.",
    )
    usable_u: int = spec_field(42, unit="U", minimum=1, maximum=60, help="Rack units for equipment.")
    max_nodes_per_rack: int | None = spec_field(
        None, minimum=1, maximum=1_000, help="Optional hard cap on systems per rack."
    )
    cooling: CoolingName = spec_field("air", help="How the racks are cooled.")
    racks_per_row: int = spec_field(16, minimum=1, maximum=200, help="Racks in one row.")


def _oversubscription_shorthand(value: Any) -> Any:
    """A bare number is the leaf's ratio, as in the format spec."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {"leaf": value}
    return value


@dataclass(frozen=True)
class OversubscriptionSpec:
    leaf: float = spec_field(1.0, minimum=1, maximum=64, help="Leaf downlink:uplink bandwidth.")
    spine: float = spec_field(1.0, minimum=1, maximum=64, help="Spine downlink:uplink bandwidth.")


@dataclass(frozen=True)
class FabricSpec:
    switch: str = spec_field(min_length=1, max_length=80, help="Catalog slug of the switch.")
    topology: Literal["fat_tree", "rail_only", "dragonfly"] = spec_field("fat_tree")
    leaf_placement: Literal["rail_optimized", "top_of_rack"] = spec_field("rail_optimized")
    tiers: Literal["auto", 2, 3] = spec_field("auto", help="Switch tiers of a fat tree.")
    oversubscription: OversubscriptionSpec = spec_field(
        default_factory=OversubscriptionSpec, before=_oversubscription_shorthand
    )
    planes: int = spec_field(1, minimum=1, maximum=16, help="Independent parallel fabrics.")


@dataclass(frozen=True)
class FabricsSpec:
    compute: FabricSpec | None = None
    storage: FabricSpec | None = None
    inband: FabricSpec | None = None
    oob: FabricSpec | None = None


@dataclass(frozen=True)
class StorageSpec:
    """Storage needs; its keys arrive with the storage sizing step."""


@dataclass(frozen=True)
class FacilitySpec:
    pue: Literal["auto"] | float = spec_field(
        "auto", minimum=1, maximum=5, help="auto, or facility energy / IT energy (at least 1)."
    )
    electricity_usd_per_kwh: float = spec_field(0.08, unit="USD/kWh", minimum=0, maximum=10)


@dataclass(frozen=True)
class FinanceSpec:
    years: int = spec_field(5, unit="years", minimum=1, maximum=50)
    discount_rate: float = spec_field(
        0.08, minimum=-1, exclusive_minimum=True, maximum=1, help="Yearly, for net present value."
    )


@dataclass(frozen=True)
class ComponentsSpec:
    systems: tuple[SystemSpec, ...] = ()
    switches: tuple[SwitchSpec, ...] = ()


@dataclass(frozen=True)
class ScenarioSpec:
    name: str = spec_field(min_length=1, help="What this scenario is called.")
    compute: ComputeSpec = spec_field()
    racks: RacksSpec = field(default_factory=RacksSpec)
    fabrics: FabricsSpec = field(default_factory=FabricsSpec)
    storage: StorageSpec = field(default_factory=StorageSpec)
    facility: FacilitySpec = field(default_factory=FacilitySpec)
    finance: FinanceSpec = field(default_factory=FinanceSpec)
    components: ComponentsSpec = field(default_factory=ComponentsSpec)
    prices: dict[str, float] = spec_field(
        default_factory=dict, unit="USD", minimum=0, maximum=1e10,
        help="Quoted unit prices by catalog slug; a quote replaces the list price.",
    )


def read_scenario(document: Any) -> ScenarioSpec:
    return read_spec(ScenarioSpec, document)
