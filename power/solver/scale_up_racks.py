"""The racks of a system's own scale-up switching, for a system that spans several racks
(CloudMatrix 384: 4 switch racks beside its 12 compute racks)."""

from catalog.solver.parts import SystemSpec
from catalog.solver.power_parts import CoolingTypeSpec
from core.solver.errors import InfeasibleError
from power.solver.rack_loads import RackGroup, RackItem
from power.solver.specs import RacksSpec
from power.solver.support_racks import support_cooling

# Guards the comparisons against binary fractions, as rack packing does.
_FIT_TOLERANCE = 1e-9

SCALE_UP_FABRIC = "scale-up"
"""The `fabric` of the racks of a multi-rack system's own scale-up switching."""


def scale_up_switch_rack_groups(
    systems: int, system: SystemSpec, racks: RacksSpec, cooling_types: dict[str, CoolingTypeSpec]
) -> list[RackGroup]:
    """The switch racks of `systems` multi-rack systems: system.switch_racks each, drawing
    switch_rack_kw and weighing switch_rack_weight_kg (their frame included). They stand with
    the network racks (fabric `scale-up`), so they take the support racks' power budget and
    cooling; a rack over either is refused on that field."""
    if not system.switch_racks or not systems:
        return []
    cooling = support_cooling(racks.cooling, cooling_types)
    if system.switch_rack_kw > racks.support_power_budget_kw + _FIT_TOLERANCE:
        raise InfeasibleError.at(
            "racks.support_power_budget_kw",
            f"a {system.name} switch rack draws {system.switch_rack_kw:g} kW, more than the "
            f"{racks.support_power_budget_kw:g} kW a network rack may draw: raise it to at least "
            f"{system.switch_rack_kw:g} kW",
        )
    if system.switch_rack_kw > cooling.max_rack_kw + _FIT_TOLERANCE:
        raise InfeasibleError.at(
            "racks.cooling",
            f"a {system.name} switch rack draws {system.switch_rack_kw:g} kW, more than the "
            f"{cooling.max_rack_kw:g} kW {cooling.slug} cooling removes from a network rack",
        )
    return [
        RackGroup(
            kind="network",
            count=systems * system.switch_racks,
            rack_type=system.slug,
            contents=(RackItem(system.slug, 1),),
            units_used=system.rack_units,
            usable_u=system.rack_units,
            it_kw=system.switch_rack_kw,
            equipment_weight_kg=system.switch_rack_weight_kg,
            cooling=cooling.slug,
            fabric=SCALE_UP_FABRIC,
            rack_scale=True,
        )
    ]
