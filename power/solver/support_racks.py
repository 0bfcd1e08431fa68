"""Network, storage and management racks: equipment packed by rack units, power and weight.

Equipment of several models shares racks: the largest models go first, each model fills the
open rack as far as it fits, then whole racks of it, then starts a new open rack with what is
left. Counts are handled in bulk (whole racks at a time), so ten thousand switches cost no more
than ten.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from catalog.solver.power_parts import CoolingTypeSpec, RackTypeSpec
from core.solver.errors import InfeasibleError, ScenarioError
from core.solver.interfaces import SwitchGroup
from core.solver.management import ServerGroup, server_counts
from power.solver.pdu import FEEDS_PER_RACK
from power.solver.rack_loads import RackGroup, RackItem, RackKind
from power.solver.specs import RacksSpec

if TYPE_CHECKING:
    from catalog.solver.snapshot import CatalogSnapshot

SWITCH_WEIGHT_KG_PER_U = 12.0
"""For a switch whose catalog row gives no weight: 1U switches weigh 7-15 kg (QM9700 14.8 kg,
SN2201 7.4 kg; an estimate)."""

_FIT_TOLERANCE = 1e-9


@dataclass(frozen=True)
class Equipment:
    """One piece of rack-mounted equipment as packing sees it."""

    slug: str
    name: str
    rack_units: int
    power_kw: float
    weight_kg: float


def switch_equipment(
    switch_groups: Sequence[SwitchGroup],
    catalog: "CatalogSnapshot",
    optics_kw_by_switch: Mapping[str, float] | None = None,
) -> dict[str, Equipment]:
    """Each switch model of the fabrics as equipment, with the power of the modules in its own
    ports: a model's optics kW (`FabricResult.optics_power_kw_by_device`, all fabrics) over its
    switches. A management switch with copper ports draws no optics power."""
    optics_kw_by_switch = optics_kw_by_switch or {}
    switch_counts: dict[str, int] = {}
    for group in switch_groups:
        switch_counts[group.switch] = switch_counts.get(group.switch, 0) + group.count
    equipment = {}
    for group in switch_groups:
        switch = catalog.switches.get(group.switch)
        if switch is None:
            raise ScenarioError.at(
                f"fabrics.{group.fabric}.switch", f"no switch '{group.switch}' in the catalog"
            )
        weight_kg = switch.weight_kg
        if weight_kg is None:
            weight_kg = SWITCH_WEIGHT_KG_PER_U * switch.rack_units
        power_kw = switch.power_w / 1_000 + optics_kw_by_switch.get(switch.slug, 0.0) / switch_counts[switch.slug]
        equipment[switch.slug] = Equipment(
            switch.slug, switch.name, switch.rack_units, power_kw, weight_kg
        )
    return equipment


def storage_equipment(
    storage_systems: Sequence[tuple[str, int]], catalog: "CatalogSnapshot"
) -> list[tuple[Equipment, int]]:
    """(storage system slug, count) pairs from storage sizing as equipment to rack."""
    items = []
    for slug, count in storage_systems:
        part = catalog.storage_systems.get(slug)
        if part is None:
            raise ScenarioError.at("storage", f"no storage system '{slug}' in the catalog")
        equipment = Equipment(part.slug, part.name, part.rack_units, part.power_kw, part.weight_kg)
        items.append((equipment, count))
    return items


def management_equipment(
    servers: Sequence[tuple[str, int]], racks: RacksSpec, catalog: "CatalogSnapshot"
) -> list[tuple[Equipment, int]]:
    """(server slug, count) pairs (fabric managers, then management servers) as equipment to
    rack: each part's U, kW and kg, save where the scenario overrides them for its management
    server (racks.management_server_u, _kw, _weight_kg)."""
    items = []
    for slug, count in servers:
        part = catalog.servers.get(slug)
        if part is None:
            raise ScenarioError.at("racks.management_server", f"no server '{slug}' in the catalog")
        units, power_kw, weight_kg = part.rack_units, part.power_kw, part.weight_kg
        if slug == racks.management_server:
            units = racks.management_server_u or units
            power_kw = racks.management_server_kw or power_kw
            weight_kg = racks.management_server_weight_kg or weight_kg
        items.append((Equipment(part.slug, part.name, units, power_kw, weight_kg), count))
    return items


def support_cooling(
    hall_cooling: str, cooling_types: dict[str, CoolingTypeSpec]
) -> CoolingTypeSpec:
    """How network, storage and management racks are cooled.

    Switches, storage and servers are air-cooled products: their racks stay on air even in a
    liquid-cooled hall, unless the hall has rear doors, which fit any rack.
    """
    if hall_cooling == "rear_door" or "air" not in cooling_types:
        return cooling_types[hall_cooling]
    return cooling_types["air"]


def _fit(capacity: float, size: float) -> int:
    if size <= 0:
        return 1_000_000
    return int(capacity / size + _FIT_TOLERANCE) if capacity > 0 else 0


class _OpenRack:
    def __init__(self) -> None:
        self.items: dict[str, int] = {}
        self.units = 0
        self.power_kw = 0.0
        self.weight_kg = 0.0

    def add(self, equipment: Equipment, count: int) -> None:
        self.items[equipment.slug] = self.items.get(equipment.slug, 0) + count
        self.units += count * equipment.rack_units
        self.power_kw += count * equipment.power_kw
        self.weight_kg += count * equipment.weight_kg


def pack_equipment(
    kind: RackKind,
    items: Sequence[tuple[Equipment, int]],
    rack_type: RackTypeSpec,
    usable_u: int,
    power_budget_kw: float,
    cooling: CoolingTypeSpec,
    rack_type_slug: str,
    *,
    fabric: str = "",
    field_path: str = "",
    max_weight_kg: float | None = None,
) -> list[RackGroup]:
    """Racks of `kind` for `items` ((equipment, count) pairs), grouped into identical racks.

    A rack holds equipment up to its usable U, the power budget, what its cooling removes
    (min(power_budget_kw, cooling max_rack_kw)) and the enclosure's static load, or the
    architect's `racks.max_weight_kg` where lower. Raises `InfeasibleError` when one piece alone
    exceeds a limit.
    """
    limit_kw = min(power_budget_kw, cooling.max_rack_kw)
    limit_kg = min(rack_type.static_load_kg, max_weight_kg or float("inf"))
    groups: list[RackGroup] = []
    open_rack = _OpenRack()

    def group_of(rack: _OpenRack, count: int) -> RackGroup:
        return RackGroup(
            kind=kind, count=count, rack_type=rack_type_slug,
            contents=tuple(RackItem(slug, number) for slug, number in rack.items.items()),
            units_used=rack.units, usable_u=usable_u, it_kw=rack.power_kw,
            equipment_weight_kg=rack.weight_kg, cooling=cooling.slug, fabric=fabric,
        )

    for equipment, count in sorted(items, key=lambda item: -item[0].rack_units):
        if count <= 0:
            continue
        per_rack = min(
            _fit(usable_u, equipment.rack_units),
            _fit(limit_kw, equipment.power_kw),
            _fit(limit_kg, equipment.weight_kg),
        )
        if per_rack < 1:
            raise InfeasibleError.at(field_path or f"racks.{kind}", _too_big_message(
                equipment, rack_type, usable_u, power_budget_kw, cooling, kind, max_weight_kg))
        room = min(
            _fit(usable_u - open_rack.units, equipment.rack_units),
            _fit(limit_kw - open_rack.power_kw, equipment.power_kw),
            _fit(limit_kg - open_rack.weight_kg, equipment.weight_kg),
            count,
        )
        if room > 0:
            open_rack.add(equipment, room)
            count -= room
        if count == 0:
            continue
        if open_rack.items:
            groups.append(group_of(open_rack, 1))
        full, rest = divmod(count, per_rack)
        if full:
            full_rack = _OpenRack()
            full_rack.add(equipment, per_rack)
            groups.append(group_of(full_rack, full))
        open_rack = _OpenRack()
        if rest:
            open_rack.add(equipment, rest)
    if open_rack.items:
        groups.append(group_of(open_rack, 1))
    return _merge_identical(groups)


def _merge_identical(groups: list[RackGroup]) -> list[RackGroup]:
    merged: list[RackGroup] = []
    for group in groups:
        if merged and merged[-1].contents == group.contents:
            last = merged.pop()
            group = RackGroup(**{**vars(last), "count": last.count + group.count})
        merged.append(group)
    return merged


def _too_big_message(
    equipment: Equipment, rack_type: RackTypeSpec, usable_u: int, power_budget_kw: float,
    cooling: CoolingTypeSpec, kind: str, max_weight_kg: float | None = None,
) -> str:
    if equipment.rack_units > usable_u:
        return (
            f"one {equipment.name} takes {equipment.rack_units} U, more than the {usable_u} U "
            f"free in a {kind} rack ({rack_type.name})"
        )
    if equipment.power_kw > power_budget_kw:
        return (
            f"one {equipment.name} draws {equipment.power_kw:g} kW, more than the "
            f"{power_budget_kw:g} kW a {kind} rack may draw (racks.support_power_budget_kw)"
        )
    if equipment.power_kw > cooling.max_rack_kw:
        return (
            f"one {equipment.name} draws {equipment.power_kw:g} kW, more than the "
            f"{cooling.max_rack_kw:g} kW {cooling.slug} cooling removes from a {kind} rack"
        )
    return (
        f"one {equipment.name} weighs {equipment.weight_kg:g} kg, more than the "
        f"{min(rack_type.static_load_kg, max_weight_kg or float('inf')):g} kg a {kind} rack may hold "
        f"({rack_type.name}, racks.max_weight_kg)"
    )


def switch_totals(
    switch_groups: Sequence[SwitchGroup], placement: str, fabric: str | None = None
) -> dict[str, int]:
    """Switches of one placement (and fabric), by catalog slug."""
    totals: dict[str, int] = {}
    for group in switch_groups:
        if group.placement != placement or (fabric is not None and group.fabric != fabric):
            continue
        if group.count > 0:
            totals[group.switch] = totals.get(group.switch, 0) + group.count
    return totals


def support_rack_groups(
    switch_groups: Sequence[SwitchGroup], equipment: dict[str, Equipment], storage_systems: Sequence[tuple[str, int]],
    servers: Sequence[ServerGroup], racks: RacksSpec, catalog: "CatalogSnapshot",
) -> list[RackGroup]:
    """The network racks fabric by fabric, then the storage and the management racks."""
    groups: list[RackGroup] = []
    aux_cooling = support_cooling(racks.cooling, catalog.cooling_types)
    network_type = catalog.rack_types[racks.network_rack_type]
    support_type = catalog.rack_types[racks.rack_type]
    # PDUs that are not 0U take their units in every rack: at least one per feed.
    pdu_u = FEEDS_PER_RACK[racks.power_feeds] * catalog.pdus[racks.pdu].rack_units
    network_u = network_type.usable_u - racks.network_reserved_u - pdu_u
    support_u = support_type.usable_u - pdu_u
    if network_u < 1:
        raise ScenarioError.at(
            "racks.network_reserved_u",
            f"leaves no room in a {network_type.usable_u} U {network_type.name}: "
            f"keep it below {network_type.usable_u}",
        )
    networked = [group for group in switch_groups if group.placement == "network_rack"]
    for fabric in dict.fromkeys(group.fabric for group in networked):
        totals = switch_totals(switch_groups, "network_rack", fabric)
        groups += pack_equipment(
            "network", [(equipment[slug], count) for slug, count in totals.items()], network_type,
            network_u, racks.support_power_budget_kw, aux_cooling, racks.network_rack_type,
            fabric=fabric, field_path=f"fabrics.{fabric}.switch", max_weight_kg=racks.max_weight_kg,
        )
    stored = storage_equipment(storage_systems, catalog)
    in_storage = switch_totals(switch_groups, "storage_rack")
    stored += [(equipment[slug], count) for slug, count in in_storage.items()]
    groups += pack_equipment(
        "storage", stored, support_type, support_u, racks.support_power_budget_kw,
        aux_cooling, racks.rack_type, field_path="storage", max_weight_kg=racks.max_weight_kg,
    )
    groups += pack_equipment(
        "management", management_equipment(server_counts(servers), racks, catalog), support_type, support_u,
        racks.support_power_budget_kw, aux_cooling, racks.rack_type,
        field_path="racks.management_servers", max_weight_kg=racks.max_weight_kg,
    )
    return groups
