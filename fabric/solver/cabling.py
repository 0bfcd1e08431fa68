"""The point-to-point cabling plan: one row per cable, from (rack, U, device, port) to (rack, U,
device, port), with media, cable, length, segment, fabric and plane.

The rows are made one at a time from the plan's counts (`cabling_rows` is a generator): nothing
holds a list of links, so 500,000 cables cost no more memory than 500. Every rule below is
arithmetic on a device's index, and reproduces the fabric engine's counts segment by segment.

Naming
------
- Racks are numbered in floor order, row by row and along each row (`floor.rack_positions`),
  from 1: `r012` (at least three digits). The racks of one kind are taken in the order of the
  per-rack groups (`RacksResult.per_rack`): the k-th compute rack of the groups is the k-th
  compute rack on the floor, and so on for network, storage and management racks.
- Devices are `<rack>-<role>-<nn>`, nn counting the devices of that role in the rack from 01:
  `r012-node-03` (the third system of rack 12), `r101-leaf-03`, `r101-spine-01`,
  `r140-storage-02`, `r036-fabric-manager-01`. A device whose rack is not known is
  `<role>-<n>`, numbered over the cluster.
- Switch ports are `p17`, or `p17/2` for the second link of a split (breakout) port; down
  ports come first, then up ports; a switch's management port is `mgmt`. A device's NIC ports
  are `<fabric>-p3`, or `<fabric>-p3/2` for plane 2 of NIC port 3 (a NIC port carries one link
  per plane).
- U is the lowest rack unit a device takes, U1 at the bottom of the rack's usable space.

Placement
---------
- System i sits in compute rack i // nodes_per_rack, slot i mod nodes_per_rack, stacked from U1.
- Top-of-rack leaves sit at the top of the compute rack they serve, fabric by fabric
  (compute, storage, inband, oob), plane by plane.
- Other switches fill their fabric's network racks in the order of the per-rack groups: the
  n-th switch of a model takes the n-th place of that model in the racks, switches counted tier
  by tier (leaf, spine, core), plane by plane, index by index; each rack is filled from the top,
  its models in the order of its contents. Storage systems fill the storage racks likewise; the
  fabric managers are the first management servers.

Assignment (one plane; every plane is wired alike)
--------------------------------------------------
Endpoint links are numbered j = 0, 1, ... over the endpoint groups in the fabric engine's order
(systems first: system i, NIC port r is j = i R + r for R ports per system; then the fabric
manager, storage systems, or the other fabrics' switches for oob).

- rail-optimized: link j goes to the leaf of rail r = j mod R in scalable unit s = q // d
  (q = j // R, d down links per leaf), port q mod d: system i of unit s, NIC r -> leaf (s, r).
  Other endpoints continue the numbering, as if they were more systems, one port per rail.
- top-of-rack: the links of compute rack k (local system l, NIC r: t = l R + r) go to the
  rack's leaf t // d, port t mod d; other endpoints fill the network-rack leaves in order.
- one switch: link j on port j.
- rail-only: link j goes to rail r = j mod R at position q = j // R: rail switch r (or, for
  a rail too large for one switch, leaf q // d of rail r's own tree).
- leaf-spine: within a pod of P leaves and S spines, leaf l's uplink k goes to spine k // m,
  m = uplinks / S (the balance rule: m links from every leaf to every spine), on the spine's
  down link l_pod m + k mod m.
- spine-core: spine i of pod o, uplink k goes to core k // m' of core group i, m' = spine
  uplinks / cores per group, on its down link o m' + k mod m'.
- dragonfly: terminal link j to router j // p, port j mod p; local links join every pair of
  routers of a group (router x's local port to y is y, or y - 1 when y > x); the k-th of the m
  global links between groups G and G' takes global port k (g - 1) + (index of G' among G's
  peers) of each group, router port // h, link port mod h.

Lengths: from the rack positions (`cabling_distance.cable_length_m`, with the scenario's tray
height and slack, and port heights from each device's U), or the segment's length when the floor
positions are not known.
"""

import math
from bisect import bisect_right
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from fabric.solver.endpoints import FABRIC_MANAGER
from fabric.solver.results import FabricResult, LinkResult, TierResult
from power.solver.cabling_distance import RackPosition, cable_length_m
from storage.solver.tiers import storage_endpoint_groups

CABLING_COLUMNS = (
    "link", "from_rack", "from_u", "from_device", "from_port", "to_rack", "to_u", "to_device",
    "to_port", "media", "cable", "length_m", "segment", "fabric", "plane",
)
FABRIC_ORDER = ("compute", "storage", "inband", "oob")
MANAGEMENT_PORT = "mgmt"
MANAGEMENT_SERVER_SLUG = "management-server"
"""As support_racks names the scenario's management servers."""
SPLIT_WAYS = (1, 2, 4, 8)
"""Ways a switch port may be split (the catalog's `split` options lie within these)."""
U_HEIGHT_M = 0.04445
"""One rack unit: 1.75 in (EIA-310)."""
FIRST_U_HEIGHT_M = 0.1
"""Bottom of U1 above the floor (cabling_distance: a 42U rack's space starts ~0.1 m up)."""
DEFAULT_RACK_UNITS = 1
"""For a device whose height is not given."""
LENGTH_STEP_M = 0.1
"""Lengths are rounded up to this step."""
_CACHE_SIZE = 4096
"""Entries of the per-plan caches of switch places and lengths: bounded, whatever the size."""


@dataclass(frozen=True)
class _Place:
    rack: int
    """Floor number of the rack, from 1; 0 when not known."""
    label: str
    """r012; empty when not known."""
    u: int
    """Lowest unit the device takes, from 1; 0 when not known."""
    units: int
    device: str


class _Racks:
    """The racks of the plan in floor order, and where each model's n-th unit sits in them."""

    def __init__(self, racks: Any, rack_units: Mapping[str, int]) -> None:
        self.rack_units = rack_units
        groups = tuple(getattr(racks, "per_rack", ()) or ())
        floor = getattr(racks, "floor", None)
        total = sum(group.count for group in groups)
        self.digits = max(3, len(str(total)))
        # (kind, first index of the kind) -> group runs
        self.group_starts: dict[str, list[int]] = {}
        self.group_runs: dict[str, list[Any]] = {}
        # (kind, fabric, slug) -> runs of (first unit n, racks, per rack, first kind index, group)
        self.slug_starts: dict[tuple[str, str, str], list[int]] = {}
        self.slug_runs: dict[tuple[str, str, str], list[tuple[int, int, int, int, Any]]] = {}
        kind_counts: dict[str, int] = {}
        number_by_order = 1
        self.order_starts: dict[str, list[int]] = {}
        self.order_numbers: dict[str, list[int]] = {}
        for group in groups:
            first = kind_counts.get(group.kind, 0)
            self.group_starts.setdefault(group.kind, []).append(first)
            self.group_runs.setdefault(group.kind, []).append(group)
            self.order_starts.setdefault(group.kind, []).append(first)
            self.order_numbers.setdefault(group.kind, []).append(number_by_order)
            number_by_order += group.count
            kind_counts[group.kind] = first + group.count
            fabric = group.fabric if group.kind == "network" else ""
            for item in group.contents:
                key = (group.kind, fabric, item.slug)
                runs = self.slug_runs.setdefault(key, [])
                starts = self.slug_starts.setdefault(key, [])
                first_unit = runs[-1][0] + runs[-1][1] * runs[-1][2] if runs else 0
                starts.append(first_unit)
                runs.append((first_unit, group.count, item.count, first, group))
        self.kind_counts = kind_counts
        # Floor runs: kind -> starts (kind index) and (first number, row, slot, x of the first
        # centre, width, y); number -> the same, for positions.
        self.floor_starts: dict[str, list[int]] = {}
        self.floor_runs: dict[str, list[tuple[int, int, int, float, float, float]]] = {}
        self.number_starts: list[int] = []
        self.number_runs: list[tuple[int, int, float, float, float]] = []
        if floor is not None:
            number, seen = 1, {}
            for row in floor.rows:
                x_m, slot = floor.end_aisle_m, 0
                for segment in row.segments:
                    width = floor.width_m_by_kind[segment.kind]
                    run = (number, row.index, slot, x_m + width / 2, width, row.y_m)
                    self.floor_starts.setdefault(segment.kind, []).append(seen.get(segment.kind, 0))
                    self.floor_runs.setdefault(segment.kind, []).append(run)
                    self.number_starts.append(number)
                    self.number_runs.append(run[1:])
                    seen[segment.kind] = seen.get(segment.kind, 0) + segment.count
                    number += segment.count
                    slot += segment.count
                    x_m += width * segment.count
        self.positions = floor is not None
        self.position = lru_cache(maxsize=_CACHE_SIZE)(self._position)

    def label(self, number: int) -> str:
        return f"r{number:0{self.digits}d}" if number else ""

    def place(self, number: int, u: int, units: int, role: str, nn: int, fallback: int) -> "_Place":
        """A device in rack `number` (0: not known) at `u`, the nn-th of its role there; or
        the fallback-th (from 0) of its role in the cluster when its rack is not known."""
        if number:
            label = self.label(number)
            return _Place(number, label, u, units, f"{label}-{role}-{nn:02d}")
        return _Place(0, "", 0, units, f"{role}-{fallback + 1}")

    def number(self, kind: str, index: int) -> int:
        """Floor number of the index-th rack of `kind` (0 when there is no such rack)."""
        if index < 0 or index >= self.kind_counts.get(kind, 0):
            return 0
        if self.positions:
            starts = self.floor_starts.get(kind)
            if not starts:
                return 0
            at = bisect_right(starts, index) - 1
            return self.floor_runs[kind][at][0] + index - starts[at]
        starts = self.order_starts[kind]
        at = bisect_right(starts, index) - 1
        return self.order_numbers[kind][at] + index - starts[at]

    def group(self, kind: str, index: int) -> Any:
        starts = self.group_starts.get(kind)
        if not starts:
            return None
        return self.group_runs[kind][bisect_right(starts, index) - 1]

    def _position(self, number: int) -> RackPosition | None:
        if not self.positions or number < 1:
            return None
        at = bisect_right(self.number_starts, number) - 1
        row, slot, x_m, width, y_m = self.number_runs[at]
        offset = number - self.number_starts[at]
        return RackPosition(row, slot + offset, x_m + width * offset, y_m)

    def locate(self, kind: str, fabric: str, slug: str, n: int) -> tuple[int, int, Any] | None:
        """The rack (index among its kind) and the slot among the `slug` units in that rack of
        the n-th unit of `slug`, and the rack's group; None when the racks hold fewer."""
        key = (kind, fabric, slug)
        starts = self.slug_starts.get(key)
        if not starts or n < 0:
            return None
        at = bisect_right(starts, n) - 1
        first_unit, racks, per_rack, first_rack, group = self.slug_runs[key][at]
        offset = n - first_unit
        if offset >= racks * per_rack:
            return None
        return first_rack + offset // per_rack, offset % per_rack, group

    def units_of(self, slug: str) -> int:
        return self.rack_units.get(slug, DEFAULT_RACK_UNITS)

    def units_before(self, group: Any, slug: str, slot: int) -> tuple[int, int]:
        """Rack units and devices above the slot-th `slug` unit of a rack of `group`, filled
        from the top in the order of its contents."""
        units = devices = 0
        for item in group.contents:
            if item.slug == slug:
                break
            units += item.count * self.units_of(item.slug)
            devices += item.count
        return units + slot * self.units_of(slug), devices + slot


def _top_u(usable_u: int, units_above: int, units: int) -> int:
    return max(usable_u - units_above - units + 1, 1)


def _port(index: int, split: int) -> str:
    """Down or up link `index` (from 0) on native ports split `split` ways: p17 or p17/2."""
    if split > 1:
        return f"p{index // split + 1}/{index % split + 1}"
    return f"p{index + 1}"


def _nic_port(fabric: str, port: int, plane: int, planes: int) -> str:
    if planes > 1:
        return f"{fabric}-p{port + 1}/{plane + 1}"
    return f"{fabric}-p{port + 1}"


@dataclass(frozen=True)
class _TierPorts:
    """How one switch of a tier numbers its ports: down links, then up links."""

    down_ports: int
    split: int
    down_links: int
    up_links: int

    def down(self, index: int) -> str:
        return _port(index, self.split)

    def up(self, index: int) -> str:
        return f"p{self.down_ports + index + 1}"


def _tier_ports(tier: TierResult) -> _TierPorts:
    """A tier's down ports and split, from its counts: with uplinks, the native ports not facing
    up face down (fixed uplink ports are counted in ports_per_switch too); at the top, the fewest
    ways that fit the down links on the ports."""
    down_links, up_links = tier.down_links_per_switch, tier.up_links_per_switch
    if up_links:
        down_ports = max(tier.ports_per_switch - up_links, 1)
        return _TierPorts(down_ports, max(down_links // down_ports, 1), down_links, up_links)
    for ways in SPLIT_WAYS:
        if down_links % ways == 0 and down_links // ways <= tier.ports_per_switch:
            return _TierPorts(down_links // ways, ways, down_links, 0)
    return _TierPorts(down_links, 1, down_links, 0)


@dataclass(frozen=True)
class _Group:
    """Devices of one endpoint group and their links (one LinkResult)."""

    name: str
    count: int
    ports: int
    first_link: int
    """Number j of the group's first endpoint link in one plane."""
    link: LinkResult


class _Fabric:
    """One fabric's switches and links, per plane, as arithmetic on indices."""

    def __init__(self, result: FabricResult, plan: Any, racks: _Racks, storage_groups: dict) -> None:
        self.result = result
        self.name = result.name
        self.planes = max(result.planes, 1)
        self.racks = racks
        self.tiers = {tier.role: tier for tier in result.tiers}
        self.ports = {tier.role: _tier_ports(tier) for tier in result.tiers}
        self.per_plane = {tier.role: tier.switches // self.planes for tier in result.tiers}
        self.edge_role = result.tiers[0].role
        nodes = plan.compute.total_nodes
        self.groups: list[_Group] = []
        first = 0
        for link in result.links:
            if not link.segment.startswith("node-"):
                continue
            per_plane = link.count // self.planes
            if link.from_ == "node":
                count = nodes
                ports = per_plane // nodes if nodes else 0
            elif link.from_ in storage_groups:
                count, ports = storage_groups[link.from_]
            elif link.from_ == FABRIC_MANAGER:
                count, ports = 1, per_plane
            else:
                count, ports = per_plane, 1
            if count * ports != per_plane:
                count, ports = per_plane, 1
            self.groups.append(_Group(link.from_, count, ports, first, link))
            first += per_plane
        self.endpoint_links = first
        if result.dragonfly is not None and "router" in self.tiers:
            self.ports["router"] = self._router_ports(self.tiers["router"])
        self.rails = max(self.groups[0].ports if self.groups else 1, 1)
        self.nodes = nodes
        self.nodes_per_rack = max(getattr(plan.racks, "nodes_per_rack", 1) or 1, 1)
        self.compute_racks = getattr(plan.racks, "compute", 0)
        self.nodes_in_last_rack = getattr(plan.racks, "nodes_in_last_rack", 0)
        edge = self.tiers[self.edge_role]
        self.down = max(edge.down_links_per_switch, 1)
        self.single = result.tier_count == 1 and result.topology != "rail_only" and \
            result.topology != "dragonfly"
        self.top_of_rack = (
            result.topology == "fat_tree" and result.leaf_placement == "top_of_rack"
            and edge.placement.get("compute_rack", 0) > 0
        )
        if self.top_of_rack:
            rails = self.rails
            self.leaves_per_rack = math.ceil(self.nodes_per_rack * rails / self.down)
            self.last_rack_leaves = math.ceil(self.nodes_in_last_rack * rails / self.down)
            if self.single:
                self.in_racks = 1
            else:
                self.in_racks = (self.compute_racks - 1) * self.leaves_per_rack + self.last_rack_leaves
        else:
            self.in_racks = 0
        # Independent trees per plane: the rails of a rail-only fabric, else one.
        self.trees = self.rails if result.topology == "rail_only" else 1
        self._clos()
        self._network_offsets()
        self.switch_place = lru_cache(maxsize=_CACHE_SIZE)(self._switch_place)

    def _router_ports(self, tier: TierResult) -> _TierPorts:
        """A router's terminal ports: its terminal links split the fewest ways that give the
        native ports the tier counts (ports used = terminal ports + 2 x (local + global) links)."""
        shape = self.result.dragonfly
        local = shape.groups * shape.routers_per_group * (shape.routers_per_group - 1) // 2
        global_ = shape.groups * (shape.groups - 1) // 2 * shape.global_links_per_group_pair
        terminal_ports = tier.ports_used // self.planes - 2 * (local + global_)
        split = next(
            (ways for ways in SPLIT_WAYS if math.ceil(self.endpoint_links / ways) == terminal_ports), 1
        )
        terminals = shape.terminals_per_router
        return _TierPorts(math.ceil(terminals / split), split, terminals, tier.up_links_per_switch)

    # -- shape -----------------------------------------------------------------------------

    def _clos(self) -> None:
        """Pods, spines per pod, links per pair of a fat tree (of one rail for rail-only)."""
        trees, result = self.trees, self.result
        leaves = self.per_plane.get("leaf", 0) // trees
        spines = self.per_plane.get("spine", 0) // trees
        cores = self.per_plane.get("core", 0) // trees
        pods = max(result.pods, 1)
        self.leaves_per_tree, self.spines_per_tree, self.cores_per_tree = leaves, spines, cores
        self.spines_per_pod = spines // pods if spines else 0
        leaf = self.tiers.get("leaf")
        self.leaf_uplinks = leaf.up_links_per_switch if leaf and spines else 0
        self.leaf_spine_per_pair = (
            self.leaf_uplinks // self.spines_per_pod if self.spines_per_pod else 0
        )
        self.leaves_per_pod = leaves
        if cores:
            spine = self.tiers["spine"]
            unit = 1
            rail_optimized = result.topology == "fat_tree" and not self.top_of_rack
            if rail_optimized and self.rails > 1 and spine.down_links_per_switch >= self.rails:
                unit = self.rails
            units = math.ceil(leaves / unit)
            self.leaves_per_pod = min(math.ceil(units / pods) * unit, leaves)
            self.spine_uplinks = spine.up_links_per_switch
            self.cores_per_group = cores // self.spines_per_pod
            self.spine_core_per_pair = self.spine_uplinks // self.cores_per_group
        self.pods = pods

    def _network_offsets(self) -> None:
        """Where each tier's network-rack switches start among their model's in this fabric."""
        self.network_offset: dict[str, int] = {}
        self.network_per_plane: dict[str, int] = {}
        by_slug: dict[str, int] = {}
        for tier in self.result.tiers:
            self.network_offset[tier.role] = by_slug.get(tier.switch, 0)
            count = tier.placement.get("network_rack", 0)
            self.network_per_plane[tier.role] = count // self.planes
            by_slug[tier.switch] = by_slug.get(tier.switch, 0) + count

    # -- places ----------------------------------------------------------------------------

    def tor_leaves_in_rack(self, rack: int) -> int:
        """Top-of-rack leaves of one plane in compute rack `rack`."""
        if not self.top_of_rack or rack < 0 or rack >= self.compute_racks:
            return 0
        if self.single:
            return 1 if rack == 0 else 0
        return self.last_rack_leaves if rack == self.compute_racks - 1 else self.leaves_per_rack

    def _switch_place(self, role: str, plane: int, index: int) -> _Place:
        racks, tier = self.racks, self.tiers[role]
        units = racks.units_of(tier.switch)
        if role == self.edge_role and index < self.in_racks:
            rack = min(index // max(self.leaves_per_rack, 1), max(self.compute_racks - 1, 0))
            if self.single:
                rack = 0
            within = index - rack * self.leaves_per_rack
            here = self.tor_leaves_in_rack(rack)
            above_units, above_devices = self.shared.tor_above(self.name, rack)
            stack = plane * here + within
            number = racks.number("compute", rack)
            group = racks.group("compute", rack)
            usable_u = group.usable_u if group is not None else 0
            u = _top_u(usable_u, above_units + stack * units, units) if number and usable_u else 0
            fallback = plane * self.per_plane[role] + index
            return racks.place(number, u, units, role, above_devices + stack + 1, fallback)
        if role == self.edge_role and self.in_racks:
            net_index = index - self.in_racks
        else:
            net_index = index
        n = self.network_offset[role] + plane * self.network_per_plane[role] + net_index
        fallback = plane * self.per_plane[role] + index
        found = racks.locate("network", self.name, tier.switch, n)
        if found is None:
            return racks.place(0, 0, units, role, 0, fallback)
        rack, slot, group = found
        number = racks.number("network", rack)
        above_units, _ = racks.units_before(group, tier.switch, slot)
        role_first = self.network_offset[role]
        nn = n - max(n - slot, role_first) + 1
        u = _top_u(group.usable_u, above_units, units) if number else 0
        return racks.place(number, u, units, role, nn, fallback)

    # -- links -----------------------------------------------------------------------------

    def edge(self, j: int) -> tuple[int, int]:
        """Edge switch (index in its plane) and down link of endpoint link j."""
        down, rails = self.down, self.rails
        topology = self.result.topology
        if topology == "dragonfly":
            terminals = self.result.dragonfly.terminals_per_router
            return j // terminals, j % terminals
        if topology == "rail_only":
            rail, position = j % rails, j // rails
            if self.result.tier_count == 1:
                return rail, position
            return rail * self.leaves_per_tree + position // down, position % down
        if self.single:
            return 0, j
        if self.top_of_rack:
            node_links = self.nodes * rails
            if j >= node_links:
                other = j - node_links
                return self.in_racks + other // down, other % down
            node, port = divmod(j, rails)
            rack, local = divmod(node, self.nodes_per_rack)
            rack_link = local * rails + port
            return rack * self.leaves_per_rack + rack_link // down, rack_link % down
        position, rail = divmod(j, rails)
        unit, slot = divmod(position, down)
        return unit * rails + rail, slot

    def tree_links(self) -> Iterator[tuple[int, int, int, int, int]]:
        """Leaf-spine links of one plane: (leaf, leaf uplink, spine, spine down link, tree)."""
        per_pair, uplinks = self.leaf_spine_per_pair, self.leaf_uplinks
        if not per_pair:
            return
        for tree in range(self.trees):
            for leaf in range(self.leaves_per_tree):
                pod, in_pod = divmod(leaf, self.leaves_per_pod)
                for uplink in range(uplinks):
                    spine = pod * self.spines_per_pod + uplink // per_pair
                    yield (tree * self.leaves_per_tree + leaf, uplink,
                           tree * self.spines_per_tree + spine, in_pod * per_pair + uplink % per_pair, tree)

    def core_links(self) -> Iterator[tuple[int, int, int, int]]:
        """Spine-core links of one plane: (spine, spine uplink, core, core down link)."""
        if not self.cores_per_tree:
            return
        per_pair = self.spine_core_per_pair
        for tree in range(self.trees):
            for spine in range(self.spines_per_tree):
                pod, in_pod = divmod(spine, self.spines_per_pod)
                for uplink in range(self.spine_uplinks):
                    core = in_pod * self.cores_per_group + uplink // per_pair
                    yield (tree * self.spines_per_tree + spine, uplink,
                           tree * self.cores_per_tree + core, pod * per_pair + uplink % per_pair)

    def router_ports(self) -> tuple[int, int, int]:
        """Native ports of a router's terminals, and its first local and global port index."""
        shape = self.result.dragonfly
        terminal_ports = self.ports["router"].down_ports
        return terminal_ports, terminal_ports, terminal_ports + shape.routers_per_group - 1

    def local_links(self) -> Iterator[tuple[int, int, int, int]]:
        """(router, its local port, router, its local port) of one plane."""
        shape = self.result.dragonfly
        a = shape.routers_per_group
        for group in range(shape.groups):
            base = group * a
            for x in range(a):
                for y in range(x + 1, a):
                    yield base + x, y - 1, base + y, x

    def global_links(self) -> Iterator[tuple[int, int, int, int]]:
        """(router, its global port, router, its global port) of one plane."""
        shape = self.result.dragonfly
        a, h, groups = shape.routers_per_group, shape.global_links_per_router, shape.groups
        per_pair = shape.global_links_per_group_pair
        peers = groups - 1
        for first in range(groups):
            for second in range(first + 1, groups):
                for k in range(per_pair):
                    port_a = k * peers + (second - 1)
                    port_b = k * peers + first
                    yield (first * a + port_a // h, port_a % h, second * a + port_b // h, port_b % h)


class _Shared:
    """What the fabrics need of each other: top-of-rack leaves stacked in one compute rack."""

    def __init__(self, fabrics: list[_Fabric], racks: _Racks) -> None:
        self.fabrics = fabrics
        self.racks = racks

    def tor_above(self, name: str, rack: int) -> tuple[int, int]:
        """Units and leaves of earlier fabrics' top-of-rack leaves in compute rack `rack`."""
        units = devices = 0
        for fabric in self.fabrics:
            if fabric.name == name:
                break
            here = fabric.tor_leaves_in_rack(rack) * fabric.planes
            devices += here
            units += here * self.racks.units_of(fabric.tiers[fabric.edge_role].switch)
        return units, devices


class _Cabling:
    def __init__(self, plan: Any, rack_units: Mapping[str, int]) -> None:
        self.plan = plan
        self.racks = _Racks(plan.racks, rack_units)
        storage = getattr(plan, "storage", None)
        storage_groups = {
            group.name: (group.count, group.ports_per_endpoint) for group in storage_endpoint_groups(storage)
        } if storage is not None else {}
        results = plan.fabrics or {}
        ordered = [name for name in FABRIC_ORDER if name in results]
        ordered += [name for name in results if name not in ordered]
        self.fabrics = [_Fabric(results[name], plan, self.racks, storage_groups) for name in ordered]
        shared = _Shared(self.fabrics, self.racks)
        for fabric in self.fabrics:
            fabric.shared = shared
        self.by_name = {fabric.name: fabric for fabric in self.fabrics}
        racks_spec = getattr(getattr(plan, "inputs", None), "racks", None)
        self.tray_height_m = getattr(racks_spec, "cable_tray_height_m", 2.7)
        self.slack_m = getattr(racks_spec, "cable_slack_m", 1.0)
        self.slack_fraction = getattr(racks_spec, "cable_slack_fraction", 0.1)
        compute_group = self.racks.group("compute", 0)
        self.compute_usable_u = compute_group.usable_u if compute_group is not None else 0
        per_rack = max(getattr(plan.racks, "nodes_per_rack", 1) or 1, 1)
        used = getattr(plan.racks, "compute_rack_units_used", 0) or 0
        self.node_units = max(used // per_rack, 1)
        self.nodes_per_rack = per_rack
        self.fabric_managers = [
            fabric.name for fabric in self.fabrics if any(group.name == FABRIC_MANAGER for group in fabric.groups)
        ]
        self.length_m = lru_cache(maxsize=_CACHE_SIZE)(self._length_m)
        # A system's ports are cabled one after the other: a few entries hold its place.
        self.node = lru_cache(maxsize=64)(self._node)
        self._switch_runs = self._management_runs()

    # -- endpoint devices ---------------------------------------------------------------------

    def _node(self, index: int) -> _Place:
        rack, slot = divmod(index, self.nodes_per_rack)
        number = self.racks.number("compute", rack)
        return self.racks.place(number, 1 + slot * self.node_units, self.node_units, "node", slot + 1, index)

    def supported(self, kind: str, slug: str, index: int, role: str) -> _Place:
        """The index-th `slug` unit in storage or management racks, filled from the top."""
        racks = self.racks
        units = racks.units_of(slug)
        found = racks.locate(kind, "", slug, index)
        if found is None:
            return racks.place(0, 0, units, role, 0, index)
        rack, slot, group = found
        number = racks.number(kind, rack)
        above_units, above_devices = racks.units_before(group, slug, slot)
        u = _top_u(group.usable_u, above_units, units) if number else 0
        return racks.place(number, u, units, role, above_devices + 1, index)

    def _management_runs(self) -> dict[str, list[tuple[int, _Fabric, str, str, int]]]:
        """The other fabrics' switches in the order oob serves their management ports
        (fabric, tier, placement; `endpoints.management_endpoints`), by model: runs of
        (first endpoint, fabric, role, placement, switches of all planes)."""
        runs: dict[str, list] = {}
        for fabric in self.fabrics:
            if fabric.name == "oob":
                continue
            for tier in fabric.result.tiers:
                for placement, count in tier.placement.items():
                    if count:
                        slug_runs = runs.setdefault(tier.switch, [])
                        first = slug_runs[-1][0] + slug_runs[-1][4] if slug_runs else 0
                        slug_runs.append((first, fabric, tier.role, placement, count))
        return runs

    def managed_switch(self, slug: str, index: int) -> tuple[_Fabric, _Place] | None:
        for first, fabric, role, placement, count in self._switch_runs.get(slug, ()):
            if first <= index < first + count:
                offset = index - first
                per_plane = count // fabric.planes
                plane, within = divmod(offset, per_plane)
                if role == fabric.edge_role and placement == "network_rack":
                    within += fabric.in_racks
                return fabric, fabric.switch_place(role, plane, within)
        return None

    def endpoint(self, fabric: _Fabric, group: _Group, device: int, port: int, plane: int):
        """The place and port name of one endpoint link's device end."""
        if group.name == "node":
            return self.node(device), _nic_port(fabric.name, port, plane, fabric.planes)
        if group.name == FABRIC_MANAGER:
            index = self.fabric_managers.index(fabric.name)
            place = self.supported("management", MANAGEMENT_SERVER_SLUG, index, "fabric-manager")
            return place, _nic_port(fabric.name, port, plane, fabric.planes)
        if group.ports == 1 and group.name in self._switch_runs and fabric.name == "oob":
            found = self.managed_switch(group.name, device)
            if found is not None:
                port_name = MANAGEMENT_PORT if fabric.planes == 1 else f"{MANAGEMENT_PORT}/{plane + 1}"
                return found[1], port_name
        place = self.supported("storage", group.name, device, "storage")
        return place, _nic_port(fabric.name, port, plane, fabric.planes)

    # -- lengths ----------------------------------------------------------------------------

    def _length_m(self, rack_a: int, u_a: int, units_a: int, rack_b: int, u_b: int, units_b: int) -> float | None:
        a, b = self.racks.position(rack_a), self.racks.position(rack_b)
        if a is None or b is None or not u_a or not u_b:
            return None
        length = cable_length_m(
            a, b, tray_height_m=self.tray_height_m, slack_m=self.slack_m, slack_fraction=self.slack_fraction,
            port_height_a_m=FIRST_U_HEIGHT_M + (u_a - 1 + units_a / 2) * U_HEIGHT_M,
            port_height_b_m=FIRST_U_HEIGHT_M + (u_b - 1 + units_b / 2) * U_HEIGHT_M,
        )
        return round(math.ceil(round(length / LENGTH_STEP_M, 6)) * LENGTH_STEP_M, 3)

    def row(self, number: int, a: _Place, port_a: str, b: _Place, port_b: str, link: LinkResult,
            fabric: _Fabric, plane: int) -> tuple:
        length = self.length_m(a.rack, a.u, a.units, b.rack, b.u, b.units)
        if length is None:
            length = link.length_m
        return (
            number, a.label, a.u or "", a.device, port_a, b.label, b.u or "", b.device, port_b,
            link.media, link.cable or "", length, link.segment, fabric.name, plane + 1,
        )

    # -- rows -------------------------------------------------------------------------------

    def rows(self) -> Iterator[tuple]:
        number = 0
        for fabric in self.fabrics:
            groups = {id(group.link): group for group in fabric.groups}
            for link in fabric.result.links:
                for plane in range(fabric.planes):
                    for a, port_a, b, port_b in self._segment(fabric, link, groups.get(id(link)), plane):
                        number += 1
                        yield self.row(number, a, port_a, b, port_b, link, fabric, plane)

    def _segment(self, fabric: _Fabric, link: LinkResult, group: _Group | None, plane: int):
        place = fabric.switch_place
        if group is not None:
            edge_ports = fabric.ports[fabric.edge_role]
            j = group.first_link
            for device in range(group.count):
                for port in range(group.ports):
                    switch, down = fabric.edge(j)
                    j += 1
                    end, port_name = self.endpoint(fabric, group, device, port, plane)
                    yield end, port_name, place(fabric.edge_role, plane, switch), edge_ports.down(down)
            return
        segment = link.segment
        if segment.endswith("-spine"):
            lower = fabric.edge_role
            lower_ports, spine_ports = fabric.ports[lower], fabric.ports["spine"]
            for leaf, uplink, spine, down, _ in fabric.tree_links():
                yield (place(lower, plane, leaf), lower_ports.up(uplink),
                       place("spine", plane, spine), spine_ports.down(down))
        elif segment == "spine-core":
            spine_ports, core_ports = fabric.ports["spine"], fabric.ports["core"]
            for spine, uplink, core, down in fabric.core_links():
                yield (place("spine", plane, spine), spine_ports.up(uplink),
                       place("core", plane, core), core_ports.down(down))
        elif segment in ("local", "global"):
            _, first_local, first_global = fabric.router_ports()
            first = first_local if segment == "local" else first_global
            links = fabric.local_links() if segment == "local" else fabric.global_links()
            for router_a, port_a, router_b, port_b in links:
                yield (place("router", plane, router_a), f"p{first + port_a + 1}",
                       place("router", plane, router_b), f"p{first + port_b + 1}")
        else:
            raise ValueError(f"no cabling rule for the {segment} links of the {fabric.name} fabric")


def cabling_rows(plan: Any, *, rack_units: Mapping[str, int] | None = None) -> Iterator[tuple]:
    """One row per cable of the plan's fabrics (see the module docstring), made as asked for.

    `plan` is a `Plan` (or anything with its `fabrics`, `racks`, `compute`, and optionally
    `storage` and `inputs`). `rack_units` gives the height [U] of switches and other devices by
    catalog slug (1 U where not given), to place them in their racks. The columns are
    CABLING_COLUMNS; U and rack are empty ("") where the racks do not say.
    """
    if plan.fabrics:
        yield from _Cabling(plan, rack_units or {}).rows()
