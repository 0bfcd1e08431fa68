"""Rack packing of compute systems: how many fit in one rack, and how many racks they fill.

A compute rack holds systems and, when the fabric puts them there, switches (top-of-rack
leaves, management switches) that take their rack units, power and weight first. PDUs that are
not 0U take rack units too. `pack_racks` adds the network, storage and management racks
(`support_racks`), describes every kind of rack (`rack_loads`) and lays them out (`floor`).
"""

import math
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from catalog.solver.parts import SystemSpec
from catalog.solver.power_parts import CoolingTypeSpec, PduSpec, RackTypeSpec
from core.solver.errors import FieldError, InfeasibleError
from core.solver.interfaces import SwitchGroup
from core.solver.kept import kept
from core.solver.management import ServerGroup
from core.solver.records import copy_with
from power.solver.floor import FloorResult, RackBlock, lay_out_floor
from power.solver.pdu import rack_pdus
from power.solver.rack_limits import check_rack_limits
from power.solver.rack_loads import (
    RackGroup,
    RackGroupResult,
    RackItem,
    describe_rack_group,
    rack_footprint_m,
)
from power.solver.scale_up_racks import scale_up_switch_rack_groups
from power.solver.specs import FacilitySpec, RacksSpec
from power.solver.support_racks import (
    Equipment,
    support_rack_groups,
    switch_equipment,
    switch_totals,
)

if TYPE_CHECKING:
    from catalog.solver.snapshot import CatalogSnapshot

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
    """IT power of a full compute rack, its in-rack switches included."""
    compute_rack_units_used: int
    """Rack units the systems of a full rack take."""
    network: int = 0
    """Racks of switches that do not sit with the systems (spines, cores, rail leaves)."""
    storage: int = 0
    management: int = 0
    total: int = 0
    rows: int = 0
    switches_per_compute_rack: int = 0
    """Switches reserved in each compute rack (rack units, power and weight)."""
    per_rack: tuple[RackGroupResult, ...] = ()
    """Identical racks grouped: what one holds, draws, weighs and needs, and how many there are."""
    floor: FloorResult | None = None
    servers: tuple[ServerGroup, ...] = ()
    """Fabric managers and management servers in the management racks, by role."""
    racks_per_node: int = 1
    """Compute racks one system fills (a multi-rack system such as CloudMatrix 384: 12); the
    system then counts once in nodes_per_rack."""


def whole_units_within(capacity: float, unit_size: float) -> int:
    """How many whole units of `unit_size` fit in `capacity`: floor(capacity / unit_size)."""
    if capacity <= 0:
        return 0
    return math.floor(capacity / unit_size + _FIT_TOLERANCE)


@dataclass(frozen=True)
class InRackLoad:
    """What one compute rack holds besides its systems: switches and other reserved space."""

    units: int = 0
    power_kw: float = 0.0
    weight_kg: float = 0.0
    switches: int = 0


def compute_nodes_per_rack_limits(
    system: SystemSpec,
    racks: RacksSpec,
    cooling: CoolingTypeSpec,
    in_rack: InRackLoad = InRackLoad(),
    max_weight_kg: float | None = None,
) -> dict[str, int]:
    """Systems per rack allowed by each limit on its own, after the rack's other equipment.

    - power budget: floor((power_budget_kw - in-rack kW) / system power_kw)
    - cooling: floor((cooling max_rack_kw - in-rack kW) / system power_kw), the kW one rack's
      cooling removes
    - usable U: floor((usable_u - in-rack U) / system rack_units); a rack-scale system is its
      own rack, one per rack (a system of several compute racks: one per group of them, each
      rack drawing and weighing its share, `SystemSpec.compute_rack_kw`)
    - weight: floor((max_weight_kg - in-rack kg) / system weight_kg), when a limit applies
    - the architect's max_nodes_per_rack, when given
    """
    limits = {"compute.system": 1} if system.rack_scale else {}
    power_kw, units, weight_kg = system.compute_rack_kw, system.rack_units, system.compute_rack_weight_kg
    budget_kw = racks.power_budget_kw - in_rack.power_kw
    limits["racks.power_budget_kw"] = whole_units_within(budget_kw, power_kw)
    limits["racks.cooling"] = whole_units_within(cooling.max_rack_kw - in_rack.power_kw, power_kw)
    if not system.rack_scale:
        limits["racks.usable_u"] = whole_units_within(racks.usable_u - in_rack.units, units)
    if max_weight_kg is not None:
        room_kg = max_weight_kg - in_rack.weight_kg
        limits["racks.max_weight_kg"] = whole_units_within(room_kg, weight_kg)
    if racks.max_nodes_per_rack is not None:
        limits["racks.max_nodes_per_rack"] = racks.max_nodes_per_rack
    if system.liquid_cooling_required and cooling.liquid_fraction == 0:
        limits["racks.cooling"] = 0
    return limits


def compute_rack_weight_limit_kg(
    system: SystemSpec, racks: RacksSpec, rack_type: RackTypeSpec | None
) -> float | None:
    """The equipment weight one compute rack may hold [kg]: the architect's limit, else the
    enclosure's static load rating. A rack-scale system brings its own frame: only the
    architect's limit applies to it."""
    if racks.max_weight_kg is not None:
        return racks.max_weight_kg
    if rack_type is None or system.rack_scale:
        return None
    return rack_type.static_load_kg


def pack_compute_racks(
    total_nodes: int,
    system: SystemSpec,
    racks: RacksSpec,
    cooling_types: dict[str, CoolingTypeSpec],
    *,
    in_rack: InRackLoad = InRackLoad(),
    rack_type: RackTypeSpec | None = None,
    pdu: PduSpec | None = None,
) -> RacksResult:
    """Racks for `total_nodes` systems, each rack filled to the tightest of its limits.

    racks = ceil(total_nodes / nodes_per_rack), nodes_per_rack = min(limits). PDUs that take
    rack units lower nodes_per_rack further until systems and PDUs fit the usable U. Raises
    `InfeasibleError` naming each limit that cannot hold even one system.
    """
    cooling = cooling_types[racks.cooling]
    max_weight_kg = compute_rack_weight_limit_kg(system, racks, rack_type)
    limits = compute_nodes_per_rack_limits(system, racks, cooling, in_rack, max_weight_kg)
    blocked = [
        FieldError(
            path,
            _no_fit_message(path, system, racks, cooling, cooling_types, in_rack, max_weight_kg),
        )
        for path, count in limits.items()
        if count < 1
    ]
    if blocked:
        raise InfeasibleError(blocked)
    limited_by = min(limits, key=limits.get)
    nodes_per_rack = limits[limited_by]
    if pdu is not None and pdu.rack_units and not system.rack_scale:
        while nodes_per_rack and not _fits_with_pdus(nodes_per_rack, system, racks, in_rack, pdu):
            nodes_per_rack -= 1
            limited_by = "racks.usable_u"
        limits["racks.usable_u"] = min(limits["racks.usable_u"], nodes_per_rack)
        if nodes_per_rack < 1:
            raise InfeasibleError.at(
                "racks.usable_u",
                f"one {system.name} and its PDUs take more than the {racks.usable_u} U available",
            )
    node_racks = math.ceil(total_nodes / nodes_per_rack)
    rack_count = node_racks * system.compute_racks
    check_rack_limits(total_nodes, rack_count, nodes_per_rack, limited_by, racks.racks_per_row)
    return RacksResult(
        compute=rack_count,
        nodes_per_rack=nodes_per_rack,
        limited_by=limited_by,
        nodes_per_rack_by_limit=limits,
        nodes_in_last_rack=total_nodes - (node_racks - 1) * nodes_per_rack,
        compute_rack_it_kw=nodes_per_rack * system.compute_rack_kw + in_rack.power_kw,
        compute_rack_units_used=nodes_per_rack * system.rack_units,
        total=rack_count,
        switches_per_compute_rack=in_rack.switches,
        racks_per_node=system.compute_racks,
    )


def _fits_with_pdus(
    nodes: int, system: SystemSpec, racks: RacksSpec, in_rack: InRackLoad, pdu: PduSpec
) -> bool:
    rack_kw = nodes * system.power_kw + in_rack.power_kw
    pdus = rack_pdus(rack_kw, pdu, racks.power_feeds, racks.pdus_per_rack).pdus
    return nodes * system.rack_units + in_rack.units + pdus * pdu.rack_units <= racks.usable_u


def _in_rack_load(
    per_rack: dict[str, int], equipment: dict[str, Equipment], reserved_u: int
) -> InRackLoad:
    return InRackLoad(
        units=reserved_u + sum(n * equipment[slug].rack_units for slug, n in per_rack.items()),
        power_kw=sum(count * equipment[slug].power_kw for slug, count in per_rack.items()),
        weight_kg=sum(count * equipment[slug].weight_kg for slug, count in per_rack.items()),
        switches=sum(per_rack.values()),
    )


def pack_compute_racks_with_switches(
    total_nodes: int,
    system: SystemSpec,
    racks: RacksSpec,
    catalog: "CatalogSnapshot",
    switch_totals: dict[str, int],
    equipment: dict[str, Equipment],
    reserved_u: int = 0,
) -> RacksResult:
    """Compute racks when `switch_totals` (slug -> count over the whole cluster) share them.

    Each rack reserves ceil(count / racks) of every switch model. More switches per rack leave
    room for fewer systems, hence more racks and fewer switches per rack: starting from none,
    the reservation grows until it covers what the racks it gives need (a few rounds at most).
    """
    rack_type = catalog.rack_types.get(racks.rack_type)
    pdu = catalog.pdus.get(racks.pdu)
    per_rack: dict[str, int] = {}
    while True:
        result = pack_compute_racks(
            total_nodes, system, racks, catalog.cooling_types,
            in_rack=_in_rack_load(per_rack, equipment, reserved_u), rack_type=rack_type, pdu=pdu,
        )
        needed = {slug: math.ceil(count / result.compute) for slug, count in switch_totals.items()}
        if all(needed[slug] <= per_rack.get(slug, 0) for slug in needed):
            return result
        per_rack = {slug: max(needed[slug], per_rack.get(slug, 0)) for slug in needed}


def compute_rack_groups(
    result: RacksResult, system: SystemSpec, racks: RacksSpec, switch_totals: dict[str, int],
    equipment: dict[str, Equipment],
) -> list[RackGroup]:
    """The compute racks as groups of identical racks.

    A switch model with S switches over R racks puts ceil(S / R) in the first S mod R racks and
    floor(S / R) in the others; the last rack may hold fewer systems. Cutting the racks at those
    boundaries gives at most (switch models + 2) groups, whatever the cluster size.
    """
    rack_count = result.compute
    partial = result.nodes_in_last_rack < result.nodes_per_rack
    cuts = {0, rack_count} | {count % rack_count for count in switch_totals.values()}
    if partial:
        cuts.add(rack_count - 1)
    cuts = sorted(cut for cut in cuts if 0 <= cut <= rack_count)
    rack_type = system.slug if system.rack_scale else racks.rack_type
    usable_u = system.rack_units if system.rack_scale else racks.usable_u
    groups = []
    for start, end in zip(cuts, cuts[1:]):
        last = partial and start == rack_count - 1
        nodes = result.nodes_in_last_rack if last else result.nodes_per_rack
        items = [RackItem(system.slug, nodes)]
        for slug, count in switch_totals.items():
            in_rack = count // rack_count + (1 if start < count % rack_count else 0)
            if in_rack:
                items.append(RackItem(slug, in_rack))
        switches = [(item.count, equipment[item.slug]) for item in items[1:]]
        units = nodes * system.rack_units + sum(count * part.rack_units for count, part in switches)
        groups.append(
            RackGroup(
                kind="compute",
                count=end - start,
                rack_type=rack_type,
                contents=tuple(items),
                units_used=units,
                usable_u=usable_u,
                it_kw=nodes * system.compute_rack_kw + sum(n * part.power_kw for n, part in switches),
                equipment_weight_kg=nodes * system.compute_rack_weight_kg
                + sum(count * part.weight_kg for count, part in switches),
                rack_scale=system.rack_scale,
            )
        )
    return groups


def pack_racks(
    total_nodes: int,
    system: SystemSpec,
    racks: RacksSpec,
    catalog: "CatalogSnapshot",
    *,
    switch_groups: Sequence[SwitchGroup] = (),
    storage_systems: Sequence[tuple[str, int]] = (),
    servers: Sequence[ServerGroup] = (),
    optics_kw_by_switch: dict[str, float] | None = None,
    facility: FacilitySpec = FacilitySpec(),
    reserved_u_per_compute_rack: int = 0,
    lay_out: bool = True,
    compute_racks: tuple[RacksResult, Sequence[RackGroup]] | None = None,
    cache: MutableMapping | None = None,
    equipment: dict[str, Equipment] | None = None,
) -> RacksResult:
    """Every rack of the cluster: compute, network, storage and management, described and laid out.

    - `switch_groups` come from the fabric engine (an empty list when there are no fabrics);
      their placement says whether they sit in compute, network or storage racks.
    - `storage_systems` are (catalog slug, count) pairs from storage sizing.
    - `servers` are the fabric managers and management servers (`management.server_groups`),
      racked in management racks in that order.
    - `optics_kw_by_switch`: the power of the modules in each switch model's ports, all of that
      model's switches together; it is shared over them.
    - `reserved_u_per_compute_rack`: rack units taken in every compute rack by equipment
      other than systems and switches (e.g. an in-rack CDU).
    - `lay_out` False leaves the floor out (`floor` None, `rows` 0): a sweep's screen that reads
      no floor figure. Nothing else of the result depends on the floor.
    - `compute_racks`: the compute racks packed by the caller and their groups (a site of
      several pools, each packed for its own system); `total_nodes` and `system` are then not read.
    - `cache`: a sweep's, keeping the network, storage and management racks by what they read,
      which the compute racks' power budget, rack units and systems are not.
    - `equipment`: the switches' (`switch_equipment` of the same groups and optics), when the
      caller packing `compute_racks` has worked them out.
    """
    if equipment is None:
        equipment = switch_equipment(switch_groups, catalog, optics_kw_by_switch)
    if compute_racks is not None:
        result, groups = compute_racks[0], list(compute_racks[1])
    else:
        result, groups = _pack_one_system(
            total_nodes, system, racks, catalog, switch_groups, equipment, reserved_u_per_compute_rack
        )
    support = kept(
        cache,
        lambda: ("support racks", tuple(switch_groups), tuple((optics_kw_by_switch or {}).items()),
                 tuple(storage_systems), tuple(servers), facility.air_delta_t_k, facility.water_delta_t_k,
                 replace(racks, power_budget_kw=1.0, usable_u=1, max_nodes_per_rack=None)),
        lambda: tuple(
            describe_rack_group(group, racks, facility, catalog)
            for group in support_rack_groups(switch_groups, equipment, storage_systems, servers, racks, catalog)
        ),
    )
    described = tuple(describe_rack_group(group, racks, facility, catalog) for group in groups) + support
    floor = _floor(tuple(_floor_blocks(described, catalog)), racks) if lay_out else None
    counts = {kind: sum(group.count for group in described if group.kind == kind)
              for kind in ("compute", "network", "storage", "management")}
    return copy_with(
        result,
        network=counts["network"],
        storage=counts["storage"],
        management=counts["management"],
        total=sum(counts.values()),
        rows=floor.row_count if floor else 0,
        per_rack=described,
        floor=floor,
        servers=tuple(servers),
    )


def _pack_one_system(
    total_nodes: int, system: SystemSpec, racks: RacksSpec, catalog: "CatalogSnapshot",
    switch_groups: Sequence[SwitchGroup], equipment: dict[str, Equipment], reserved_u: int,
) -> tuple[RacksResult, list[RackGroup]]:
    """The compute racks of one system with every top-of-rack switch placed in them."""
    def leaf_field() -> str:
        fabric = next(group.fabric for group in switch_groups if group.placement == "compute_rack")
        return f"fabrics.{fabric}.leaf_placement"

    in_compute = switch_totals(switch_groups, "compute_rack")
    return pack_system_racks(total_nodes, system, racks, catalog, in_compute, equipment, reserved_u, leaf_field)


def pack_system_racks(
    total_nodes: int, system: SystemSpec, racks: RacksSpec, catalog: "CatalogSnapshot",
    in_compute: dict[str, int], equipment: dict[str, Equipment], reserved_u: int, leaf_field: Callable[[], str],
) -> tuple[RacksResult, list[RackGroup]]:
    """The compute racks of one system (a cluster's, or a site's pool's) with the top-of-rack
    switches `in_compute` (by slug) placed in them, and their groups with the scale-up switch
    racks of a rack-scale system. A rack-scale system with switches to hold is refused on
    `leaf_field()`, the field that placed the leaves."""
    if system.rack_scale and in_compute:
        raise InfeasibleError.at(
            leaf_field(),
            f"a {system.name} fills its own {system.rack_units} U rack: there is no room for "
            f"top-of-rack switches in it; choose rail_optimized, which stands the leaves in network "
            f"racks beside the systems",
        )
    result = pack_compute_racks_with_switches(total_nodes, system, racks, catalog, in_compute, equipment, reserved_u)
    groups = compute_rack_groups(result, system, racks, in_compute, equipment)
    return result, groups + scale_up_switch_rack_groups(total_nodes, system, racks, catalog.cooling_types)


@lru_cache(maxsize=8)
def _floor(blocks: tuple[RackBlock, ...], racks: RacksSpec) -> FloorResult:
    """The floor of `blocks`, laid out once: a plan's rounds pack the racks again with other
    optics' power, which often moves no rack, and find the same floor (a few kept: a floor of
    1M GPUs holds thousands of rows)."""
    return lay_out_floor(blocks, racks)


def _floor_blocks(groups: Sequence[RackGroupResult], catalog: "CatalogSnapshot") -> list[RackBlock]:
    blocks = []
    for group in groups:
        width_m, depth_m = rack_footprint_m(catalog.rack_types.get(group.rack_type))
        blocks.append(RackBlock(group.kind, group.count, width_m, depth_m, group.weight_kg))
    return blocks


def _no_fit_message(
    path: str,
    system: SystemSpec,
    racks: RacksSpec,
    cooling: CoolingTypeSpec,
    cooling_types: dict[str, CoolingTypeSpec],
    in_rack: InRackLoad = InRackLoad(),
    max_weight_kg: float | None = None,
) -> str:
    switches = f" besides its {in_rack.switches} switches" if in_rack.switches else ""
    # A system of several compute racks is judged by one of them.
    one = f"one compute rack of a {system.name}" if system.compute_racks > 1 else f"one {system.name}"
    power_kw, weight_kg = round(system.compute_rack_kw, 3), round(system.compute_rack_weight_kg, 3)
    if path == "racks.power_budget_kw":
        needed = power_kw + in_rack.power_kw
        return (
            f"{one} draws {power_kw:g} kW, more than the "
            f"{racks.power_budget_kw:g} kW rack budget{switches}: raise the budget to at least "
            f"{needed:g} kW"
        )
    if path == "racks.usable_u":
        return (
            f"one {system.name} takes {system.rack_units} U, more than the "
            f"{racks.usable_u - in_rack.units} U available{switches}: allow at least "
            f"{system.rack_units + in_rack.units} U"
        )
    if path == "racks.max_weight_kg":
        return (
            f"{one} weighs {weight_kg:g} kg, more than the {max_weight_kg:g} kg "
            f"a rack may hold{switches}: allow at least {weight_kg + in_rack.weight_kg:g} kg"
        )
    workable = sorted(
        name
        for name, option in cooling_types.items()
        if option.max_rack_kw >= power_kw + in_rack.power_kw
        and (option.liquid_fraction > 0 or not system.liquid_cooling_required)
    )
    choose = f": choose {' or '.join(workable)}" if workable else ""
    if system.liquid_cooling_required and cooling.liquid_fraction == 0:
        return f"{system.name} needs liquid cooling, which {racks.cooling} does not give{choose}"
    return (
        f"{racks.cooling} cooling removes at most {cooling.max_rack_kw:g} kW per rack and {one} "
        f"draws {power_kw:g} kW{choose}"
    )

