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
"""

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from core.solver.errors import ScenarioError
from handoff.solver.devices import plan_cabling
from handoff.solver.hostlist import NodePattern, hostlist

if TYPE_CHECKING:
    from catalog.solver.snapshot import CatalogSnapshot

TREE_FABRIC = "compute"
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
class SlurmNodes:
    """The plan's Slurm nodes: `count` of them, `per_system` to a system."""

    count: int
    per_system: int
    system: str
    nvlink_domain: bool
    """Whether a system's NVLink domain spans several Slurm nodes (a rack-scale system)."""


def slurm_nodes(plan: Any, catalog: "CatalogSnapshot") -> SlurmNodes:
    if getattr(plan, "inputs", None) is not None:
        catalog = catalog.with_components(plan.inputs)
    system = catalog.systems.get(plan.compute.system)
    trays = max(getattr(system, "compute_trays", 1) or 1, 1)
    rack_scale = bool(getattr(system, "rack_scale", False)) and trays > 1
    per_system = trays if rack_scale else 1
    return SlurmNodes(plan.compute.total_nodes * per_system, per_system, plan.compute.system, rack_scale)


def tree_switches(plan: Any, catalog: "CatalogSnapshot") -> list[SlurmSwitch]:
    """The switches of the tree topology, from the top level down (see the module docstring)."""
    nodes = slurm_nodes(plan, catalog)
    if not plan.fabrics or TREE_FABRIC not in plan.fabrics:
        raise ScenarioError.at(
            f"fabrics.{TREE_FABRIC}",
            "the plan has no compute fabric: a Slurm tree topology follows the GPU fabric's switches",
        )
    cabling = plan_cabling(plan, catalog)
    fabric = next(wired for wired in cabling.fabrics if wired.name == TREE_FABRIC)
    result = fabric.result
    node_index = np.arange(nodes.count, dtype=np.int64)
    system, tray = np.divmod(node_index, nodes.per_system)
    links_per_system = fabric.ports_per_node
    first_link = system * links_per_system + tray * (links_per_system // nodes.per_system)
    edge, _ = fabric.edge_arrays(first_link)
    edge = np.asarray(edge, dtype=np.int64)
    kind, unit, names = _units(fabric, edge)
    leaves: dict[int, list[int]] = {}
    for index, number in enumerate(unit.tolist()):
        leaves.setdefault(number, []).append(index)
    units = [SlurmSwitch(names(number), 0, tuple(members)) for number, members in leaves.items()]
    if len(units) == 1 and kind in ("single", "rail_only"):
        return units
    if kind == "dragonfly":
        return [SlurmSwitch("global", 1, switches=tuple(s.name for s in units)), *units]
    if kind == "rail_only":
        return [SlurmSwitch("rails", 1, switches=tuple(s.name for s in units)), *units]
    first_edge = {number: int(edge[members[0]]) for number, members in leaves.items()}
    leaves_per_pod = max(result.leaves_per_pod, 1)
    pods: dict[int, list[str]] = {}
    for switch, number in zip(units, leaves):
        pods.setdefault(first_edge[number] // leaves_per_pod, []).append(switch.name)
    if result.tier_count >= 3 and len(pods) > 1:
        digits = max(2, len(str(len(pods))))
        pod_switches = [
            SlurmSwitch(f"pod{pod + 1:0{digits}d}", 1, switches=tuple(members)) for pod, members in pods.items()
        ]
        top = SlurmSwitch("cores", 2, switches=tuple(s.name for s in pod_switches))
        return [top, *pod_switches, *units]
    return [SlurmSwitch("spines", 1, switches=tuple(s.name for s in units)), *units]


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
    cluster when there is no compute fabric). A system without such domains raises at `format`."""
    nodes = slurm_nodes(plan, catalog)
    if not nodes.nvlink_domain:
        raise ScenarioError.at(
            FORMAT_FIELD,
            f"the system {nodes.system} has no NVLink domain across Slurm nodes: a block topology "
            "is for rack-scale systems such as gb200-nvl72 (use the tree topology)",
        )
    systems = nodes.count // nodes.per_system
    digits = max(3, len(str(systems)))
    block_list = [
        SlurmBlock(f"nvl{number + 1:0{digits}d}", range(number * nodes.per_system, (number + 1) * nodes.per_system))
        for number in range(systems)
    ]
    largest = nodes.count
    if plan.fabrics and TREE_FABRIC in plan.fabrics:
        largest = min(max(len(switch.nodes) for switch in tree_switches(plan, catalog) if switch.level == 0), largest)
    sizes = [nodes.per_system]
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
