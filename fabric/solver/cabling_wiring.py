"""Which port of which switch each link of a fabric takes: arithmetic on the indices of the
fabric engine's counts, one plane at a time (see `fabric.solver.cabling` for the rules).
"""

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from fabric.solver.arrays import divmod_by
from fabric.solver.cabling_racks import DevicePlace, RackIndex, port_heights_m
from fabric.solver.endpoints import FABRIC_MANAGER
from fabric.solver.results import FabricResult, LinkResult, TierResult


def _port(index: int, split: int) -> str:
    """Down or up link `index` (from 0) on native ports split `split` ways: p17 or p17/2."""
    if split > 1:
        return f"p{index // split + 1}/{index % split + 1}"
    return f"p{index + 1}"


def nic_port(fabric: str, port: int, plane: int, planes: int) -> str:
    if planes > 1:
        return f"{fabric}-p{port + 1}/{plane + 1}"
    return f"{fabric}-p{port + 1}"


@dataclass(frozen=True)
class TierPorts:
    """How one switch of a tier numbers its ports: down links, then up links."""

    down_ports: int
    split: int
    down_links: int
    up_links: int
    up_split: int = 1

    def down(self, index: int) -> str:
        return _port(index, self.split)

    def up(self, index: int) -> str:
        if self.up_split > 1:
            return f"p{self.down_ports + index // self.up_split + 1}/{index % self.up_split + 1}"
        return f"p{self.down_ports + index + 1}"


def tier_ports(tier: TierResult) -> TierPorts:
    """A tier's ports as the fabric engine gives them: native down ports and their split, then the
    up ports and theirs."""
    down_ports = tier.down_ports or math.ceil(tier.down_links_per_switch / max(tier.split, 1))
    return TierPorts(down_ports, tier.split, tier.down_links_per_switch, tier.up_links_per_switch, tier.up_split)


@dataclass(frozen=True)
class NodePool:
    """The systems of one pool as the cabling plan places them: in the pool's own compute racks
    (a site packs each pool's racks for its system, pool after pool)."""

    name: str
    system: str
    first_node: int
    """Number of the pool's first system among every pool's, in pool order."""
    nodes: int
    first_rack: int
    """Index of the pool's first compute rack among the compute racks."""
    nodes_per_rack: int
    racks_per_node: int
    """Compute racks one system fills (CloudMatrix 384: 12), else 1."""
    node_units: int
    holder: str | None
    """Catalog slug charged with the power of the modules in its NIC cages (None: in its rating)."""


@dataclass(frozen=True)
class WiredGroup:
    """Devices of one endpoint group and their links (one LinkResult)."""

    name: str
    count: int
    ports: int
    first_link: int
    """Number j of the group's first endpoint link in one plane."""
    link: LinkResult
    pool: NodePool | None = None
    """The pool whose systems the group is; None for other devices."""


class FabricWiring:
    """One fabric's switches and links, per plane, as arithmetic on indices."""

    def __init__(
        self, result: FabricResult, plan: Any, racks: RackIndex, storage_groups: dict, node_pools: list[NodePool],
    ) -> None:
        """`node_pools`: the pools whose systems are this fabric's endpoint groups, in the
        engine's order (the first group is `node`, the others are named by their system)."""
        self.result = result
        self.name = result.name
        self.planes = max(result.planes, 1)
        self.racks = racks
        self.shared: SharedRacks | None = None
        """Set by the caller once every fabric is wired (top-of-rack leaves share racks)."""
        self.tiers = {tier.role: tier for tier in result.tiers}
        self.ports = {tier.role: tier_ports(tier) for tier in result.tiers}
        self.per_plane = {tier.role: tier.switches // self.planes for tier in result.tiers}
        self.edge_role = result.tiers[0].role
        waiting = list(node_pools)
        nodes = waiting[0].nodes if waiting else 0
        self.groups: list[WiredGroup] = []
        first = 0
        for link in result.links:
            if not link.segment.startswith("node-"):
                continue
            per_plane = link.count // self.planes
            pool = None
            if waiting and link.from_ in ("node", waiting[0].system):
                pool = waiting.pop(0)
                count = pool.nodes
                ports = per_plane // count if count else 0
            elif link.from_ in storage_groups:
                count, ports = storage_groups[link.from_]
            elif link.from_ == FABRIC_MANAGER:
                count, ports = 1, per_plane
            else:
                count, ports = per_plane, 1
            if count * ports != per_plane:
                count, ports, pool = per_plane, 1, None
            self.groups.append(WiredGroup(link.from_, count, ports, first, link, pool))
            first += per_plane
        self.endpoint_links = first
        self.rails = max(result.rails, 1) if result.topology != "dragonfly" else 1
        self.ports_per_node = max(self.groups[0].ports if self.groups else 1, 1)
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
        self.first_rack = 0
        """Index of the first compute rack of this fabric's top-of-rack leaves among the site's."""
        own_pool = self.groups[0].pool if self.groups and len(node_pools) == 1 else None
        if self.top_of_rack and own_pool is not None and len(getattr(plan, "pools", None) or {}) > 1:
            self._pool_racks(own_pool)
        if self.top_of_rack:
            rails = self.ports_per_node
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
        self._places: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._heights_m: dict[str, np.ndarray] = {}
        self._names: dict[str, np.ndarray] = {}
        self._group_pairs: tuple[np.ndarray, np.ndarray] | None = None

    def _pool_racks(self, pool: NodePool) -> None:
        """A site pool's own top-of-rack fabric: its leaves stand in the pool's compute racks
        (racks first_rack ... first_rack + ceil(nodes / nodes_per_rack) - 1, the last holding
        what is left), as the fabric engine counts them for the pool (`leaves.top_of_rack_leaves`)."""
        self.nodes_per_rack = pool.nodes_per_rack
        self.compute_racks = -(-pool.nodes // pool.nodes_per_rack) if pool.nodes else 0
        self.nodes_in_last_rack = pool.nodes - (self.compute_racks - 1) * pool.nodes_per_rack if pool.nodes else 0
        self.first_rack = pool.first_rack

    # -- shape -----------------------------------------------------------------------------

    def _clos(self) -> None:
        """Pods and spines per pod of a fat tree (of one rail for rail-only), and the uplinks of
        each tier, as the fabric engine counts them (`fabric.solver.clos`)."""
        trees, result = self.trees, self.result
        leaves = self.per_plane.get("leaf", 0) // trees
        spines = self.per_plane.get("spine", 0) // trees
        cores = self.per_plane.get("core", 0) // trees
        self.pods = max(result.pods, 1)
        self.leaves_per_tree, self.spines_per_tree, self.cores_per_tree = leaves, spines, cores
        self.spines_per_pod = result.spines_per_pod if spines else 0
        self.last_pod_spines = (result.last_pod_spines or self.spines_per_pod) if spines else 0
        self.leaves_per_pod = result.leaves_per_pod or leaves
        leaf = self.tiers.get("leaf")
        self.leaf_uplinks = leaf.up_links_per_switch if leaf and spines else 0
        if cores:
            self.spine_uplinks = result.pod_spine_uplinks or self.tiers["spine"].up_links_per_switch
            self.last_pod_spine_uplinks = result.last_pod_spine_uplinks or self.spine_uplinks
            # spine-core links of the full pods, numbered before the last pod's
            self.full_pods_core_links = (self.pods - 1) * self.spines_per_pod * self.spine_uplinks

    def _network_offsets(self) -> None:
        """The tiers whose switches of one model share this fabric's network racks, with their
        counts (all planes)."""
        self.network_per_plane: dict[str, int] = {}
        self.network_tiers: dict[str, list[tuple[str, int]]] = {}
        for tier in self.result.tiers:
            count = tier.placement.get("network_rack", 0)
            self.network_per_plane[tier.role] = count // self.planes
            self.network_tiers.setdefault(tier.switch, []).append((tier.role, count))

    def network_ranks(self, role: str, slug: str, index: np.ndarray) -> np.ndarray:
        """The place of a tier's index-th network-rack switch among all of this fabric's `slug`
        switches, the tiers interleaved in proportion: switch m of a tier of N has the key
        (m + 1/2) / N, ties to the lower tier. So each scalable unit's leaves, spread along the
        racks as its systems are along the floor, stand beside them and not all at one end.

        rank = m + the switches of every other tier with a smaller key, counted exactly in
        integers: m' < ((2m + 1) N' - N) / 2N for a higher tier, <= for a lower one.
        """
        tiers = self.network_tiers[slug]
        position = next(at for at, (other, _) in enumerate(tiers) if other == role)
        count = tiers[position][1]
        rank = np.array(index, dtype=np.int64)
        for at, (_, other_count) in enumerate(tiers):
            if at == position:
                continue
            numerator, denominator = (2 * np.asarray(index) + 1) * other_count - count, 2 * count
            before = numerator // denominator + 1 if at < position else -(-numerator // denominator)
            rank = rank + np.clip(before, 0, other_count)
        return rank

    # -- places ----------------------------------------------------------------------------

    def tor_leaves_in_racks(self, rack: np.ndarray) -> np.ndarray:
        """Top-of-rack leaves of one plane in compute racks `rack` (indices among the site's)."""
        if not self.top_of_rack:
            return np.zeros(len(rack), dtype=np.int64)
        rack = np.asarray(rack) - self.first_rack
        if self.single:
            return np.where(rack == 0, 1, 0)
        here = np.where(rack == self.compute_racks - 1, self.last_rack_leaves, self.leaves_per_rack)
        return np.where((rack >= 0) & (rack < self.compute_racks), here, 0)

    def _tier_places(self, role: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Floor number, lowest U and number within its rack (nn) of every switch of a tier, all
        planes (plane p's switch i at p x per plane + i); number 0 where its rack is not known."""
        if role in self._places:
            return self._places[role]
        racks, tier = self.racks, self.tiers[role]
        units = racks.units_of(tier.switch)
        per_plane = self.per_plane[role]
        plane, index = np.divmod(np.arange(self.planes * per_plane, dtype=np.int64), max(per_plane, 1))
        number = np.zeros(len(index), dtype=np.int64)
        u, nn = number.copy(), number.copy()
        in_racks = (index < self.in_racks) if role == self.edge_role else np.zeros(len(index), dtype=bool)
        if in_racks.any():
            at = index[in_racks]
            rack = np.minimum(at // max(self.leaves_per_rack, 1), max(self.compute_racks - 1, 0))
            if self.single:
                rack = np.zeros_like(at)
            stack = plane[in_racks] * self.tor_leaves_in_racks(rack + self.first_rack) + at - rack * self.leaves_per_rack
            rack = rack + self.first_rack
            above_units, above_devices = self.shared.tor_above(self.name, rack)
            number[in_racks] = racks.numbers("compute", rack)
            usable = racks.usable_u_of("compute", rack)
            u[in_racks] = np.where((number[in_racks] > 0) & (usable > 0),
                                   np.maximum(usable - above_units - stack * units - units + 1, 1), 0)
            nn[in_racks] = above_devices + stack + 1
        networked = ~in_racks
        if networked.any():
            net_index = index[networked] - (self.in_racks if role == self.edge_role else 0)
            m = plane[networked] * self.network_per_plane[role] + net_index
            ranks = self.network_ranks(role, tier.switch, np.arange(self.planes * self.network_per_plane[role]))
            if not len(ranks):  # the racks hold none of this tier's switches: places not known
                self._places[role] = (number, u, nn)
                return self._places[role]
            m = np.minimum(m, len(ranks) - 1)
            n = ranks[m]
            rack, slot, usable, units_above, _ = racks.locate_arrays("network", self.name, tier.switch, n)
            found = racks.numbers("network", rack)
            number[networked] = np.where(rack >= 0, found, 0)
            u[networked] = np.where(number[networked] > 0,
                                    np.maximum(usable - units_above - slot * units - units + 1, 1), 0)
            # Devices of this role in the rack before this one: those ranked from the rack's first.
            nn[networked] = m - np.searchsorted(ranks, n - slot, side="left") + 1
        self._places[role] = (number, u, nn)
        return self._places[role]

    def switch_places(self, role: str, plane: int, index: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Floor numbers, lowest U and port heights [m] of a tier's switches `index` in `plane`."""
        number, u, _ = self._tier_places(role)
        if role not in self._heights_m:
            self._heights_m[role] = port_heights_m(u, self.racks.units_of(self.tiers[role].switch))
        at = plane * self.per_plane[role] + index
        return number[at], u[at], self._heights_m[role][at]

    def switch_names(self, role: str, at: np.ndarray) -> list[str]:
        """Names of a tier's switches `at` (plane p's switch i at p x per plane + i), as
        `switch_place` gives them; the tier's are made once."""
        if role not in self._names:
            number, _, nn = self._tier_places(role)
            names = self.racks.device_names(number, role, nn, np.arange(len(number)))
            self._names[role] = np.array(names, dtype=object)
        return self._names[role][at].tolist()

    def switch_place(self, role: str, plane: int, index: int) -> DevicePlace:
        number, u, nn = self._tier_places(role)
        at = plane * self.per_plane[role] + index
        units = self.racks.units_of(self.tiers[role].switch)
        return self.racks.place(int(number[at]), int(u[at]), units, role, int(nn[at]), at)

    # -- links -----------------------------------------------------------------------------

    def edge_arrays(self, j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Edge switch (index in its plane) and down link of each endpoint link j (the rules in
        `fabric.solver.cabling`)."""
        down, rails = self.down, self.rails
        topology = self.result.topology
        if topology == "dragonfly":
            terminals = self.result.dragonfly.terminals_per_router
            return divmod_by(j, terminals)
        if topology == "rail_only":
            position, rail = divmod_by(j, rails)
            if self.result.tier_count == 1:
                return rail, position
            unit, slot = divmod_by(position, down)
            return rail * self.leaves_per_tree + unit, slot
        if self.single:
            return np.zeros_like(j), j
        if self.top_of_rack:
            per_node = self.ports_per_node
            node_links = self.nodes * per_node
            other = j - node_links
            node, port = divmod_by(j, per_node)
            rack, local = divmod_by(node, self.nodes_per_rack)
            rack_link = local * per_node + port
            switch = np.where(j < node_links, rack * self.leaves_per_rack + rack_link // down,
                              self.in_racks + other // down)
            return switch, np.where(j < node_links, divmod_by(rack_link, down)[1], divmod_by(other, down)[1])
        position, rail = divmod_by(j, rails)
        unit, slot = divmod_by(position, down)
        return unit * rails + rail, slot

    def tree_link_arrays(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Leaf-spine links numbered `index`, one plane: (leaf, leaf uplink, spine, spine down
        link). A pod's links are dealt to its S spines in turn: link g = leaf in pod x u + uplink
        goes to spine g mod S as its down link g // S (`clos.upper_tier`)."""
        uplinks = self.leaf_uplinks
        if not uplinks or not self.spines_per_pod:
            return tuple(np.zeros(0, dtype=np.int64) for _ in range(4))
        unit = self.tiers["leaf"].up_links_per_unit
        leaf_in_all, uplink = divmod_by(index, uplinks)
        tree, leaf = divmod_by(leaf_in_all, self.leaves_per_tree)
        pod, in_pod = divmod_by(leaf, self.leaves_per_pod)
        spine, down = dealt(in_pod, uplink, uplinks, uplinks, self.spines_per_pod, unit)
        if self.last_pod_spines != self.spines_per_pod:
            # the last pod's fewer spines: its links, a pod at most, dealt again
            last = np.flatnonzero(pod == self.pods - 1)
            spine[last], down[last] = dealt(in_pod[last], uplink[last], uplinks, uplinks, self.last_pod_spines, unit)
        return (leaf_in_all, uplink, tree * self.spines_per_tree + pod * self.spines_per_pod + spine, down)

    def core_link_arrays(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Spine-core links numbered `index`, one plane: (spine, spine uplink, core, core down
        link). The spines' uplinks are numbered pod after pod (the last pod's spines may cable
        fewer); link g of a tree goes to core g mod C as its down link g // C, so that every core
        reaches every pod (`clos.three_tier_counts`)."""
        if not self.cores_per_tree:
            return tuple(np.zeros(0, dtype=np.int64) for _ in range(4))
        last_pod_first_link = self.full_pods_core_links
        last_pod_uplinks = self.last_pod_spine_uplinks
        tree, link = divmod_by(index, last_pod_first_link + self.last_pod_spines * last_pod_uplinks)
        spine, uplink, core, down = self._pod_core_links(link, 0, self.spine_uplinks, self.spines_per_pod)
        if (last_pod_uplinks, self.last_pod_spines) != (self.spine_uplinks, self.spines_per_pod):
            # a last pod of fewer spines or uplinks: its links, a pod at most, counted from its first
            last = np.flatnonzero(link >= last_pod_first_link)
            spine[last], uplink[last], core[last], down[last] = self._pod_core_links(
                link[last] - last_pod_first_link, self.pods - 1, last_pod_uplinks, self.last_pod_spines)
        return (tree * self.spines_per_tree + spine, uplink, tree * self.cores_per_tree + core, down)

    def _pod_core_links(self, link: np.ndarray, first_pod: int, uplinks: int, spines: int):
        """(spine, uplink, core, core down link) of the spine-core links numbered `link` from the
        first of pod `first_pod`, in pods of `spines` spines that cable `uplinks` each."""
        pod, in_pod = divmod_by(link, max(uplinks * spines, 1))
        pod += first_pod
        spine_in_pod, uplink = divmod_by(in_pod, max(uplinks, 1))
        core, down = dealt(pod, in_pod, uplinks * spines, self.spines_per_pod * self.spine_uplinks,
                           self.cores_per_tree, self.tiers["spine"].up_links_per_unit)
        return pod * self.spines_per_pod + spine_in_pod, uplink, core, down

    def router_ports(self) -> tuple[int, int, int]:
        """Native ports of a router's terminals, and its first local and global port index."""
        shape = self.result.dragonfly
        terminal_ports = self.ports["router"].down_ports
        return terminal_ports, terminal_ports, terminal_ports + shape.routers_per_group - 1

    def local_link_arrays(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Local links numbered `index` of one plane: every pair x < y of a group's routers,
        group by group: (router x, its local port y - 1, router y, its local port x)."""
        a = self.result.dragonfly.routers_per_group
        x, y = np.triu_indices(a, 1)
        group, pair = divmod_by(index, max(len(x), 1))
        base = group * a
        return base + x[pair], y[pair] - 1, base + y[pair], x[pair]

    def global_link_arrays(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Global links numbered `index` of one plane: for groups G < G', link k of the pair takes
        global port k (g - 1) + (G' - 1) of G and k (g - 1) + G of G'; router port // h, link
        port mod h."""
        shape = self.result.dragonfly
        a, h, groups = shape.routers_per_group, shape.global_links_per_router, shape.groups
        if self._group_pairs is None:
            self._group_pairs = np.triu_indices(groups, 1)
        first, second = self._group_pairs
        pair, k = divmod_by(index, max(shape.global_links_per_group_pair, 1))
        first, second = first[pair], second[pair]
        peers = groups - 1
        router_a, link_a = divmod_by(k * peers + second - 1, h)
        router_b, link_b = divmod_by(k * peers + first, h)
        return first * a + router_a, link_a, second * a + router_b, link_b


def dealt(lower: np.ndarray, link: np.ndarray, links_of_lower: int, links_of_full_lower: int,
          uppers: int, unit: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The upper switch and its down link for link `link` of lower switch `lower`, the lower
    switches' links dealt to the uppers as `clos.upper_tier` counts them. Where every pair gets
    m equal links, a lower switch's links go in blocks of m (its ports 1..m to the first upper
    switch); else they go a unit (a cage's links) at a time: unit g = lower x units of a full
    lower + link // unit goes to upper g mod S, its links as down links (g // S) x unit + link
    mod unit, so that the uppers' loads differ by one unit at most. The last lower switch (a pod
    of fewer spines) may have fewer links than the full ones before it."""
    if links_of_lower % uppers == 0 and links_of_full_lower % uppers == 0:
        # m equal links per pair: a lower switch's links in blocks of m
        upper, in_block = divmod_by(link, max(links_of_lower // uppers, 1))
        return upper, lower * (links_of_full_lower // uppers) + in_block
    unit_of_link, in_unit = divmod_by(link, unit)
    dealt_down, dealt_upper = divmod_by(lower * (links_of_full_lower // unit) + unit_of_link, uppers)
    return dealt_upper, dealt_down * unit + in_unit


class SharedRacks:
    """What the fabrics need of each other: top-of-rack leaves stacked in one compute rack."""

    def __init__(self, fabrics: list[FabricWiring], racks: RackIndex) -> None:
        self.fabrics = fabrics
        self.racks = racks

    def tor_above(self, name: str, rack: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Units and leaves of earlier fabrics' top-of-rack leaves in compute racks `rack`."""
        units = devices = np.zeros(len(rack), dtype=np.int64)
        for fabric in self.fabrics:
            if fabric.name == name:
                break
            here = fabric.tor_leaves_in_racks(rack) * fabric.planes
            devices = devices + here
            units = units + here * self.racks.units_of(fabric.tiers[fabric.edge_role].switch)
        return units, devices
