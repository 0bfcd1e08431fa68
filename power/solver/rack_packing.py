"""Rack packing of compute systems: how many fit in one rack, and how many racks they fill."""

import math
from dataclasses import dataclass

from planner.solver.errors import FieldError, InfeasibleError
from planner.solver.parts import SystemSpec
from planner.solver.scenario import RacksSpec
from power.solver.parts import CoolingTypeSpec

# Guards floor() against binary fractions: 4 x 10.2 kW must fit a 40.8 kW budget.
_FIT_TOLERANCE = 1e-9


@dataclass(frozen=True)
class RacksResult:
    compute: int
    """Racks that hold the compute systems."""
    nodes_per_rack: int
    limited_by: str
    """The scenario field whose limit sets nodes_per_rack (the first named when several tie)."""
    nodes_per_rack_by_limit: dict[str, int]
    """Systems one rack could hold under each limit alone, keyed by the field that sets it."""
    nodes_in_last_rack: int
    compute_rack_it_kw: float
    """IT power of a full compute rack."""
    compute_rack_units_used: int
    """Rack units the systems of a full rack take."""


def whole_units_within(capacity: float, unit_size: float) -> int:
    """How many whole units of `unit_size` fit in `capacity`: floor(capacity / unit_size)."""
    return math.floor(capacity / unit_size + _FIT_TOLERANCE)


def compute_nodes_per_rack_limits(
    system: SystemSpec, racks: RacksSpec, cooling: CoolingTypeSpec
) -> dict[str, int]:
    """Systems per rack allowed by each limit on its own.

    - power budget: floor(power_budget_kw / system power_kw)
    - cooling: floor(cooling max_rack_kw / system power_kw), the kW one rack's cooling removes
    - usable U: floor(usable_u / system rack_units); a rack-scale system is its own rack, one per rack
    - the architect's max_nodes_per_rack, when given
    """
    limits = {"compute.system": 1} if system.rack_scale else {}
    limits["racks.power_budget_kw"] = whole_units_within(racks.power_budget_kw, system.power_kw)
    limits["racks.cooling"] = whole_units_within(cooling.max_rack_kw, system.power_kw)
    if not system.rack_scale:
        limits["racks.usable_u"] = whole_units_within(racks.usable_u, system.rack_units)
    if racks.max_nodes_per_rack is not None:
        limits["racks.max_nodes_per_rack"] = racks.max_nodes_per_rack
    if system.liquid_cooling_required and cooling.liquid_fraction == 0:
        limits["racks.cooling"] = 0
    return limits


def pack_compute_racks(
    total_nodes: int,
    system: SystemSpec,
    racks: RacksSpec,
    cooling_types: dict[str, CoolingTypeSpec],
) -> RacksResult:
    """Racks for `total_nodes` systems, each rack filled to the tightest of its limits.

    racks = ceil(total_nodes / nodes_per_rack), nodes_per_rack = min(limits). Raises
    `InfeasibleError` naming each limit that cannot hold even one system.
    """
    cooling = cooling_types[racks.cooling]
    limits = compute_nodes_per_rack_limits(system, racks, cooling)
    blocked = [
        FieldError(path, _no_fit_message(path, system, racks, cooling, cooling_types))
        for path, count in limits.items()
        if count < 1
    ]
    if blocked:
        raise InfeasibleError(blocked)
    limited_by = min(limits, key=limits.get)
    nodes_per_rack = limits[limited_by]
    rack_count = math.ceil(total_nodes / nodes_per_rack)
    return RacksResult(
        compute=rack_count,
        nodes_per_rack=nodes_per_rack,
        limited_by=limited_by,
        nodes_per_rack_by_limit=limits,
        nodes_in_last_rack=total_nodes - (rack_count - 1) * nodes_per_rack,
        compute_rack_it_kw=nodes_per_rack * system.power_kw,
        compute_rack_units_used=nodes_per_rack * system.rack_units,
    )


def _no_fit_message(
    path: str,
    system: SystemSpec,
    racks: RacksSpec,
    cooling: CoolingTypeSpec,
    cooling_types: dict[str, CoolingTypeSpec],
) -> str:
    if path == "racks.power_budget_kw":
        return (
            f"one {system.name} draws {system.power_kw:g} kW, more than the "
            f"{racks.power_budget_kw:g} kW rack budget: raise the budget to at least "
            f"{system.power_kw:g} kW"
        )
    if path == "racks.usable_u":
        return (
            f"one {system.name} takes {system.rack_units} U, more than the {racks.usable_u} U "
            f"available: allow at least {system.rack_units} U"
        )
    workable = sorted(
        name
        for name, option in cooling_types.items()
        if option.max_rack_kw >= system.power_kw
        and (option.liquid_fraction > 0 or not system.liquid_cooling_required)
    )
    choose = f": choose {' or '.join(workable)}" if workable else ""
    if system.liquid_cooling_required and cooling.liquid_fraction == 0:
        return f"{system.name} needs liquid cooling, which {racks.cooling} does not give{choose}"
    return (
        f"{racks.cooling} cooling removes at most {cooling.max_rack_kw:g} kW per rack and one "
        f"{system.name} draws {system.power_kw:g} kW{choose}"
    )
