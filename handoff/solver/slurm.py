"""Slurm's network topology for the plan: the tree (topology/tree, `topology.conf`) and, for
NVLink domains that span several nodes, blocks (topology/block).

Sources: Slurm's topology.conf(5) and "Topology Guide" (slurm.schedmd.com/topology.conf.html,
/topology.html): `SwitchName=<name> Nodes=<hostlist>` for a switch with nodes, `Switches=
<hostlist>` for one above switches; a node must have one parent switch only; Slurm derives
each switch's level (0 for those with nodes). Blocks (23.11+): `BlockName=<name>
Nodes=<hostlist>`, and `BlockSizes=<n>,...`: the planning base block (the nodes of one block)
then larger aggregates, each a power of two times the previous. Slurm 25.05's topology.yaml
holds the same as a list of topologies, each `topology: <name>`, `cluster_default`, and one of
`tree: {switches: [{switch, children, nodes}]}` or `block: {block_sizes, blocks: [{block,
nodes}]}` (slurm.schedmd.com/topology.yaml.html, as published; Debian 12's Slurm 22.05 reads
neither blocks nor YAML, so those are checked by content only).

What a Slurm node is: a system, or for a rack-scale system (GB200 NVL72) each compute tray
(an NVLink domain of 18 nodes then makes one block).

The tree. Slurm places a job on the fewest switches of the lowest level, so the switch that
holds a node must be one that all of that node's fabric ports share. A rail-optimized unit
spreads a node's NICs over the unit's leaves (one per rail), so the unit is one logical switch
holding its nodes (`su01`, ...); with top-of-rack leaves the rack's leaf holds its nodes (the
rack's leaves together when it has several: `r005-leaves`); a one-switch fabric is that switch.
Above the units: the spines of each pod (`pod01`), then the cores (`cores`); with one pod, one
logical switch `spines`. Rail-only fabrics have no spines: the units meet under `rails`, and a
dragonfly's routers (the units) meet under `global`. Each node's unit is that of its first
compute-fabric link (the cabling plan's edge switch of that link, `FabricWiring.edge_arrays`),
so the file follows the cabling plan.

A site of several pools (`pools:`) has one tree per compute fabric: the site's shared `compute`
for the pools that join it, and each pool's own `compute-<pool>` (its switches named after the
pool: `training-su01`, `training-spines`), the trees side by side in one file as topology/tree
allows (a job then stays within one tree). Each pool's nodes are named under its own prefix,
the pool's name before the pattern (`training-gpu0001`, `finetune-gpu0001`), numbered from 1 in
the pool, and a rack-scale pool's blocks are named after it (`training-nvl001`).
"""

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from catalog.solver.snapshot import plan_catalog
from core.solver.errors import ScenarioError
from fabric.solver.cabling_pools import node_pools
from handoff.solver.devices import plan_cabling
from handoff.solver.hostlist import NodePattern, hostlist, node_pattern

if TYPE_CHECKING:
    from catalog.solver.snapshot import CatalogSnapshot

TREE_FABRIC = "compute"
POOL_FABRIC_PREFIX = "compute-"
FORMAT_FIELD = "format"


@dataclass(frozen=True)
class SlurmSwitch:
    name: str
    level: int
    """0 for switches with nodes, then one more per level up (as Slurm counts them)."""
    nodes: tuple[int, ...] = ()
    """Node indices (from 0)."""
    switches: tuple[str, ...] = ()


@dataclass(frozen=True)
class SlurmBlock:
    name: str
    nodes: range


@dataclass(frozen=True)
class SlurmPool:
    """One pool's Slurm nodes: `systems` systems of `per_system` nodes each, numbered from
    `first_node` among every pool's (pool order, as the cabling plan places them)."""

    name: str
    system: str
    systems: int
    per_system: int
    first_node: int
    nvlink_domain: bool

    @property
    def node_count(self) -> int:
        return self.systems * self.per_system


@dataclass(frozen=True)
class SlurmNodes:
    """The plan's Slurm nodes: `count` of them, `per_system` to a system (the pools' own where
    they differ: 1 here), pool by pool in `pools`."""

    count: int
    per_system: int
    system: str
    nvlink_domain: bool
    """Whether a system's NVLink domain spans several Slurm nodes (a rack-scale system)."""
    pools: tuple[SlurmPool, ...] = ()

    def pool_of(self, node: int) -> SlurmPool:
        """The pool of Slurm node `node` (from 0)."""
        starts = [pool.first_node for pool in self.pools]
        return self.pools[max(bisect_right(starts, node) - 1, 0)]


def slurm_nodes(plan: Any, catalog: "CatalogSnapshot") -> SlurmNodes:
    catalog = plan_catalog(plan, catalog)
    pools, first = [], 0
    for pool in node_pools(plan, catalog):
        system = catalog.systems.get(pool.system)
        trays = max(getattr(system, "compute_trays", 1) or 1, 1)
        rack_scale = bool(getattr(system, "rack_scale", False)) and trays > 1
        per_system = trays if rack_scale else 1
        pools.append(SlurmPool(pool.name, pool.system, pool.nodes, per_system, first, rack_scale))
        first += pool.nodes * per_system
    per_system = {pool.per_system for pool in pools}
    return SlurmNodes(first, per_system.pop() if len(per_system) == 1 else 1, plan.compute.system,
                      any(pool.nvlink_domain for pool in pools), tuple(pools))


@dataclass(frozen=True)
class PoolPatterns:
    """Node names of a site of several pools: each pool's own pattern (its name before the
    given one: `training-gpu0001`), numbered from 1 in the pool. Reads like a `NodePattern`."""

    starts: tuple[int, ...]
    patterns: tuple[NodePattern, ...]

    def _at(self, index: int) -> int:
        return max(bisect_right(self.starts, index) - 1, 0)

    def name(self, index: int) -> str:
        at = self._at(index)
        return self.patterns[at].name(index - self.starts[at])

    def hostlist(self, indices) -> str:
        """The nodes `indices` (from 0) as one hostlist expression per pool, comma-separated."""
        by_pool: dict[int, list[int]] = {}
        for index in indices:
            at = self._at(index)
            by_pool.setdefault(at, []).append(index - self.starts[at])
        return ",".join(self.patterns[at].hostlist(by_pool[at]) for at in sorted(by_pool))


def pool_host_prefix(pool: str) -> str:
    """A pool's name as the start of a host name (`_` is no host-name character: `-`)."""
    return pool.replace("_", "-") + "-"


def slurm_pattern(pattern_text: str | None, nodes: SlurmNodes) -> "NodePattern | PoolPatterns":
    """The node names: the pattern (`gpu####`) for one pool; for several, each pool's under its
    own prefix (`PoolPatterns`), the digits enough for the pool's nodes. A bad pattern raises at
    `node_pattern`."""
    if len(nodes.pools) <= 1:
        return node_pattern(pattern_text, nodes.count)
    patterns = []
    for pool in nodes.pools:
        own = node_pattern(pattern_text, pool.node_count)
        patterns.append(NodePattern(pool_host_prefix(pool.name) + own.prefix, own.digits, own.suffix, own.first))
    return PoolPatterns(tuple(pool.first_node for pool in nodes.pools), tuple(patterns))


def is_compute_fabric(name: str) -> bool:
    """The site's `compute` fabric or a pool's own (`compute-<pool>`)."""
    return name == TREE_FABRIC or name.startswith(POOL_FABRIC_PREFIX)


def has_compute_fabric(plan: Any) -> bool:
    return any(is_compute_fabric(name) for name in (plan.fabrics or {}))


def tree_switches(plan: Any, catalog: "CatalogSnapshot") -> list[SlurmSwitch]:
    """The switches of the tree topology, from the top level down (see the module docstring):
    one tree per compute fabric, every Slurm node in exactly one of them. A pool that no compute
    fabric serves raises at its `fabric`."""
    switches, placed = _trees(plan, catalog)
    nodes = slurm_nodes(plan, catalog)
    for index, pool in enumerate(nodes.pools):
        if pool.node_count and pool.name not in placed:
            path = f"pools[{index}].fabric" if len(nodes.pools) > 1 else f"fabrics.{TREE_FABRIC}"
            raise ScenarioError.at(path, f"no compute fabric serves the pool {pool.name}: a Slurm tree topology "
                                   "follows the GPU fabric's switches")
    return switches


def _trees(plan: Any, catalog: "CatalogSnapshot") -> tuple[list[SlurmSwitch], set[str]]:
    """Every compute fabric's tree, and the pools whose nodes they hold."""
    nodes = slurm_nodes(plan, catalog)
    if not has_compute_fabric(plan):
        raise ScenarioError.at(
            f"fabrics.{TREE_FABRIC}",
            "the plan has no compute fabric: a Slurm tree topology follows the GPU fabric's switches",
        )
    cabling = plan_cabling(plan, catalog)
    pools = {pool.name: pool for pool in nodes.pools}
    switches: list[SlurmSwitch] = []
    placed: set[str] = set()
    for fabric in cabling.fabrics:
        if not is_compute_fabric(fabric.name):
            continue
        node_index, first_link, served = _fabric_nodes(fabric, pools)
        if not len(node_index):
            continue
        placed.update(served)
        prefix = "" if fabric.name == TREE_FABRIC else pool_host_prefix(fabric.name.removeprefix(POOL_FABRIC_PREFIX))
        switches += _fabric_tree(fabric, node_index, first_link, prefix)
    return sorted(switches, key=lambda switch: -switch.level), placed


def _fabric_nodes(fabric, pools: dict[str, SlurmPool]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """The Slurm nodes a fabric serves and each one's first link in the fabric's endpoint
    numbering: the k-th of a pool's group's links per system, node t of a system's trays at
    link t x (ports per system / trays)."""
    indices, links, served = [], [], []
    for group in fabric.groups:
        pool = pools.get(group.pool.name) if group.pool is not None else None
        if pool is None or not pool.node_count:
            continue
        node = np.arange(pool.node_count, dtype=np.int64)
        system, tray = np.divmod(node, pool.per_system)
        ports = max(group.ports, 1)
        indices.append(pool.first_node + node)
        links.append(group.first_link + system * ports + tray * (ports // pool.per_system))
        served.append(pool.name)
    if not indices:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), []
    return np.concatenate(indices), np.concatenate(links), served


def _fabric_tree(fabric, node_index: np.ndarray, first_link: np.ndarray, prefix: str) -> list[SlurmSwitch]:
    """One compute fabric's switches, from the top level down, names after `prefix`."""
    result = fabric.result
    edge, _ = fabric.edge_arrays(first_link)
    edge = np.asarray(edge, dtype=np.int64)
    kind, unit, names = _units(fabric, edge)
    leaves: dict[int, list[int]] = {}
    for index, number in zip(node_index.tolist(), unit.tolist()):
        leaves.setdefault(number, []).append(index)
    units = [SlurmSwitch(prefix + names(number), 0, tuple(members)) for number, members in leaves.items()]
    if len(units) == 1 and kind in ("single", "rail_only"):
        return units
    if kind == "dragonfly":
        return [SlurmSwitch(prefix + "global", 1, switches=tuple(s.name for s in units)), *units]
    if kind == "rail_only":
        return [SlurmSwitch(prefix + "rails", 1, switches=tuple(s.name for s in units)), *units]
    position = {index: at for at, index in enumerate(node_index.tolist())}
    first_edge = {number: int(edge[position[members[0]]]) for number, members in leaves.items()}
    leaves_per_pod = max(result.leaves_per_pod, 1)
    pods: dict[int, list[str]] = {}
    for switch, number in zip(units, leaves):
        pods.setdefault(first_edge[number] // leaves_per_pod, []).append(switch.name)
    if result.tier_count >= 3 and len(pods) > 1:
        digits = max(2, len(str(len(pods))))
        pod_switches = [
            SlurmSwitch(f"{prefix}pod{pod + 1:0{digits}d}", 1, switches=tuple(members))
            for pod, members in pods.items()
        ]
        top = SlurmSwitch(prefix + "cores", 2, switches=tuple(s.name for s in pod_switches))
        return [top, *pod_switches, *units]
    return [SlurmSwitch(prefix + "spines", 1, switches=tuple(s.name for s in units)), *units]


def _units(fabric, edge: np.ndarray):
    """Each node's unit (by its first link's edge switch) and the units' names."""
    result = fabric.result
    if result.topology == "dragonfly":
        per_group = max(result.dragonfly.routers_per_group, 1)
        groups = edge // per_group
        digits = max(2, len(str(int(groups.max(initial=0)) + 1)))
        return "dragonfly", groups, lambda number: f"group{number + 1:0{digits}d}"
    if result.topology == "rail_only":
        per_tree = max(getattr(fabric, "leaves_per_tree", 1) or 1, 1)
        units = edge % per_tree if result.tier_count > 1 else np.zeros_like(edge)
        digits = max(2, len(str(int(units.max(initial=0)) + 1)))
        return "rail_only", units, lambda number: f"su{number + 1:0{digits}d}"
    if fabric.single:
        name = fabric.switch_place(fabric.edge_role, 0, 0).device
        return "single", np.zeros_like(edge), lambda number: name
    if fabric.top_of_rack:
        per_rack = max(fabric.leaves_per_rack, 1)
        racks = edge // per_rack

        def rack_switch(number: int) -> str:
            leaf = fabric.switch_place(fabric.edge_role, 0, number * per_rack)
            if per_rack == 1 and fabric.planes == 1:
                return leaf.device
            return f"{leaf.label}-leaves" if leaf.label else f"rack{number + 1:03d}-leaves"

        return "top_of_rack", racks, rack_switch
    rails = max(fabric.rails, 1)
    units = edge // rails
    digits = max(2, len(str(int(units.max(initial=0)) + 1)))
    return "rail_optimized", units, lambda number: f"su{number + 1:0{digits}d}"


def blocks(plan: Any, catalog: "CatalogSnapshot") -> tuple[list[SlurmBlock], list[int]]:
    """One block per NVLink domain (a rack-scale system's trays) and the block sizes: the base
    block, then doubled while a block fits in one compute-fabric unit of the tree (or in the
    rack-scale pools' nodes when no compute fabric serves them). A plan without such domains
    raises at `format`; so does a site whose rack-scale pools differ in trays to a system
    (Slurm's BlockSizes has one base block)."""
    nodes = slurm_nodes(plan, catalog)
    rack_scale = [pool for pool in nodes.pools if pool.nvlink_domain]
    if not rack_scale:
        raise ScenarioError.at(
            FORMAT_FIELD,
            f"the system {nodes.system} has no NVLink domain across Slurm nodes: a block topology "
            "is for rack-scale systems such as gb200-nvl72 (use the tree topology)",
        )
    base = {pool.per_system for pool in rack_scale}
    if len(base) > 1:
        raise ScenarioError.at(FORMAT_FIELD, "the site's rack-scale pools have NVLink domains of "
                               f"{' and '.join(str(size) for size in sorted(base))} nodes: Slurm's blocks "
                               "have one base size (use the tree topology)")
    per_system = base.pop()
    several = len(nodes.pools) > 1
    block_list = []
    for pool in rack_scale:
        digits = max(3, len(str(pool.systems)))
        prefix = pool_host_prefix(pool.name) if several else ""
        first = pool.first_node
        block_list += [
            SlurmBlock(f"{prefix}nvl{number + 1:0{digits}d}",
                       range(first + number * per_system, first + (number + 1) * per_system))
            for number in range(pool.systems)
        ]
    in_blocks = {index for block in block_list for index in block.nodes}
    largest = len(in_blocks)
    if has_compute_fabric(plan):
        units = [len(switch.nodes) for switch in _trees(plan, catalog)[0]
                 if switch.level == 0 and in_blocks.intersection(switch.nodes)]
        if units:
            largest = min(max(units), largest)
    sizes = [per_system]
    while sizes[-1] * 2 <= largest:
        sizes.append(sizes[-1] * 2)
    return block_list, sizes


def topology_conf_tree(switches: list[SlurmSwitch], pattern: NodePattern, header: str) -> str:
    """`topology.conf` for topology/tree: the nodes' switches first, then the levels above."""
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    lines.append("# TopologyPlugin=topology/tree")
    for switch in sorted(switches, key=lambda s: s.level):
        if switch.nodes:
            lines.append(f"SwitchName={switch.name} Nodes={pattern.hostlist(switch.nodes)}")
        else:
            lines.append(f"SwitchName={switch.name} Switches={_names(switch.switches)}")
    return "\n".join(lines) + "\n"


def topology_conf_blocks(block_list: list[SlurmBlock], sizes: list[int], pattern: NodePattern, header: str) -> str:
    """`topology.conf` for topology/block (Slurm 23.11 and later)."""
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    lines.append("# TopologyPlugin=topology/block")
    lines += [f"BlockName={block.name} Nodes={pattern.hostlist(block.nodes)}" for block in block_list]
    lines.append(f"BlockSizes={','.join(str(size) for size in sizes)}")
    return "\n".join(lines) + "\n"


def topology_yaml_entries(switches: list[SlurmSwitch] | None, block_list: list[SlurmBlock] | None,
                          sizes: list[int] | None, pattern: NodePattern) -> list[dict]:
    """The entries of Slurm's topology.yaml: the tree and, for NVLink domains, the blocks (then
    the cluster's default: jobs fill NVLink domains first)."""
    entries: list[dict] = []
    if block_list:
        entries.append({
            "topology": "block",
            "cluster_default": True,
            "block": {
                "block_sizes": list(sizes or []),
                "blocks": [{"block": block.name, "nodes": pattern.hostlist(block.nodes)} for block in block_list],
            },
        })
    if switches:
        entries.append({
            "topology": "tree",
            "cluster_default": not block_list,
            "tree": {"switches": [
                {"switch": switch.name, "nodes": pattern.hostlist(switch.nodes)} if switch.nodes
                else {"switch": switch.name, "children": _names(switch.switches)}
                for switch in sorted(switches, key=lambda s: s.level)
            ]},
        })
    return entries


def _names(names: tuple[str, ...]) -> str:
    """Switch names as a hostlist where they share a prefix and digits (su[01-04]), else listed."""
    split = [_split_number(name) for name in names]
    if split and all(part is not None for part in split):
        prefixes = {(prefix, digits, suffix) for prefix, _, digits, suffix in split}
        if len(prefixes) == 1:
            prefix, digits, suffix = prefixes.pop()
            return hostlist(prefix, [number for _, number, _, _ in split], digits, suffix)
    return ",".join(names)


def _split_number(name: str):
    match = re.fullmatch(r"([A-Za-z_.-]*?)(\d+)([A-Za-z_.-]*)", name)
    if match is None:
        return None
    prefix, number, suffix = match.groups()
    return prefix, int(number), len(number), suffix
