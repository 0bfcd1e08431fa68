"""Slurm topology: one parent switch per node, units that hold nodes sharing all their leaves,
levels above them, blocks of NVLink domains, and the files' syntax read back."""

from collections import defaultdict
from itertools import pairwise

import pytest
import yaml

from core.solver.errors import ScenarioError
from fabric.solver.cabling import cabling_rows
from handoff.formats import slurm_block_conf, slurm_topology_conf, slurm_topology_yaml
from handoff.solver.devices import plan_devices
from handoff.solver.hostlist import hostlist_expand
from handoff.solver.slurm import blocks, slurm_nodes, tree_switches
from planner.solver.pipeline import plan_scenario

H100_3_TIER = {
    "name": "16k GPUs, 3 tiers", "compute": {"system": "dgx-h100", "nodes": 2048},
    "fabrics": {"compute": {"switch": "qm9700", "topology": "fat_tree", "leaf_placement": "rail_optimized",
                            "tiers": 3}},
}
HGX_TOP_OF_RACK = {
    "name": "Top of rack", "compute": {"system": "hgx-h100", "nodes": 64},
    "fabrics": {"compute": {"switch": "sn5600", "topology": "fat_tree", "leaf_placement": "top_of_rack",
                            "tiers": 2}},
}


def parse_topology_conf(text: str) -> dict[str, dict[str, str]]:
    """`SwitchName=x Nodes=...` / `BlockName=...` lines by name; `BlockSizes` under its own key."""
    entries = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        fields = dict(field.split("=", 1) for field in line.split())
        name = fields.get("SwitchName") or fields.get("BlockName") or "BlockSizes"
        assert name not in entries, f"{name} twice"
        entries[name] = fields
    return entries


def node_parents(entries: dict[str, dict[str, str]]) -> dict[str, list[str]]:
    parents = defaultdict(list)
    for name, fields in entries.items():
        for node in hostlist_expand(fields.get("Nodes", "")):
            parents[node].append(name)
    return parents


def leaves_of_nodes(plan, catalog) -> dict[str, frozenset[str]]:
    """Each system's compute-fabric leaves, from the cabling plan."""
    leaves = defaultdict(set)
    for row in cabling_rows(plan, catalog):
        if row[16] == "compute" and row[15] == "node-leaf":
            leaves[row[3]].add(row[7])
    return {node: frozenset(found) for node, found in leaves.items()}


def node_devices(plan, catalog) -> list[str]:
    """The systems' device names, by system index."""
    return [device.name for device in plan_devices(plan, catalog) if device.role == "node"]


def test_4su_rail_optimized_units_are_the_scalable_units_under_the_spines(plan_4su, catalog):
    """RA-11333-001: 32 DGX H100 per scalable unit, 4 units, all under one spine layer."""
    entries = parse_topology_conf(slurm_topology_conf(plan_4su, catalog).decode())
    units = {name: fields for name, fields in entries.items() if "Nodes" in fields}
    assert len(units) == plan_4su.fabrics["compute"].scalable_units == 4
    assert all(len(hostlist_expand(fields["Nodes"])) == 32 for fields in units.values())
    assert hostlist_expand(entries["spines"]["Switches"]) == sorted(units)
    parents = node_parents(entries)
    assert len(parents) == plan_4su.compute.total_nodes == 128
    assert all(len(switches) == 1 for switches in parents.values())


def test_nodes_of_one_unit_share_their_leaves_and_units_share_none(plan_4su, catalog):
    """The unit a node gets is the one whose leaves carry all its 8 rails (cabling plan)."""
    switches = tree_switches(plan_4su, catalog)
    leaves = leaves_of_nodes(plan_4su, catalog)
    devices = node_devices(plan_4su, catalog)
    assert sorted(devices) == sorted(leaves)
    seen: set[str] = set()
    for unit in (switch for switch in switches if switch.level == 0):
        unit_leaves = {leaves[devices[index]] for index in unit.nodes}
        assert len(unit_leaves) == 1
        (shared,) = unit_leaves
        assert len(shared) == 8 and not shared & seen
        seen |= shared


def test_three_tiers_put_pods_of_units_under_the_cores(catalog):
    plan = plan_scenario(H100_3_TIER, catalog)
    fabric = plan.fabrics["compute"]
    switches = tree_switches(plan, catalog)
    by_level = defaultdict(list)
    for switch in switches:
        by_level[switch.level].append(switch)
    rails = fabric.rails
    assert len(by_level[0]) == fabric.tiers[0].switches // rails
    assert len(by_level[1]) == fabric.pods
    assert [switch.name for switch in by_level[2]] == ["cores"]
    units_per_pod = fabric.leaves_per_pod // rails
    assert all(len(pod.switches) == units_per_pod for pod in by_level[1])
    assert sorted(by_level[2][0].switches) == sorted(pod.name for pod in by_level[1])
    assert sum(len(unit.nodes) for unit in by_level[0]) == 2048


def test_top_of_rack_nodes_hang_off_their_racks_leaf(catalog):
    plan = plan_scenario(HGX_TOP_OF_RACK, catalog)
    switches = tree_switches(plan, catalog)
    leaves = leaves_of_nodes(plan, catalog)
    per_rack = plan.racks.nodes_per_rack
    devices = node_devices(plan, catalog)
    units = [switch for switch in switches if switch.level == 0]
    assert len(units) == plan.racks.compute
    for rack, unit in enumerate(units):
        assert unit.nodes == tuple(range(rack * per_rack, min((rack + 1) * per_rack, 64)))
        node_leaves = {leaves[devices[index]] for index in unit.nodes}
        assert node_leaves == {frozenset({unit.name})}


def test_a_plan_without_a_compute_fabric_has_no_tree(catalog):
    plan = plan_scenario({"name": "x", "compute": {"system": "dgx-h100", "nodes": 8}}, catalog)
    with pytest.raises(ScenarioError) as raised:
        slurm_topology_conf(plan, catalog)
    assert raised.value.errors[0].path == "fabrics.compute"


def test_nvl72_nodes_are_compute_trays_and_each_rack_is_one_block(plan_nvl72, catalog):
    nodes = slurm_nodes(plan_nvl72, catalog)
    assert (nodes.count, nodes.per_system) == (16 * 18, 18)
    entries = parse_topology_conf(slurm_block_conf(plan_nvl72, catalog).decode())
    sizes = [int(size) for size in entries.pop("BlockSizes")["BlockSizes"].split(",")]
    assert len(entries) == 16
    assert all(len(hostlist_expand(fields["Nodes"])) == 18 for fields in entries.values())
    parents = node_parents(entries)
    assert len(parents) == 288 and all(len(found) == 1 for found in parents.values())
    unit_nodes = max(len(switch.nodes) for switch in tree_switches(plan_nvl72, catalog) if switch.level == 0)
    assert sizes[0] == 18 and all(larger == 2 * smaller for smaller, larger in pairwise(sizes))
    assert sizes[-1] <= unit_nodes < 2 * sizes[-1]


def test_topology_yaml_holds_the_blocks_as_default_and_the_tree(plan_nvl72, catalog):
    text = slurm_topology_yaml(plan_nvl72, catalog, "nvl-tray-####").decode()
    entries = yaml.safe_load(text)
    assert [entry["topology"] for entry in entries] == ["block", "tree"]
    assert [entry["cluster_default"] for entry in entries] == [True, False]
    block_list, sizes = blocks(plan_nvl72, catalog)
    assert entries[0]["block"]["block_sizes"] == sizes
    assert [block["block"] for block in entries[0]["block"]["blocks"]] == [block.name for block in block_list]
    assert entries[0]["block"]["blocks"][0]["nodes"] == "nvl-tray-[0001-0018]"
    tree_nodes = [name for switch in entries[1]["tree"]["switches"]
                  for name in hostlist_expand(switch.get("nodes", ""))]
    assert sorted(tree_nodes) == [f"nvl-tray-{n:04d}" for n in range(1, 289)]
    for switch in entries[1]["tree"]["switches"]:
        assert ("nodes" in switch) != ("children" in switch)


def test_topology_yaml_of_a_system_without_nvlink_domains_is_the_tree_alone(plan_4su, catalog):
    entries = yaml.safe_load(slurm_topology_yaml(plan_4su, catalog).decode())
    assert [(entry["topology"], entry["cluster_default"]) for entry in entries] == [("tree", True)]


def test_blocks_of_a_system_without_nvlink_domains_are_refused_at_format(plan_4su, catalog):
    with pytest.raises(ScenarioError) as raised:
        slurm_block_conf(plan_4su, catalog)
    assert raised.value.errors[0].path == "format"
    assert "dgx-h100" in raised.value.errors[0].message
