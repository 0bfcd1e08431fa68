"""A site's hand-off files at parity with one cluster's: Slurm (one tree per compute fabric, each
pool's nodes under its own name, blocks for rack-scale pools), NetBox, Nautobot and UFM with
every pool's devices and cables, the counts those of the plan and its cabling plan, for sites
of per-pool fabrics and of a shared one."""

import io
import zipfile
from collections import Counter

import pytest
from openpyxl import load_workbook

from fabric.solver.cabling import cabling_rows
from handoff.formats import (
    handoff_available,
    netbox_bundle,
    slurm_block_conf,
    slurm_topology_conf,
    slurm_topology_yaml,
    ufm_bundle,
)
from handoff.solver.hostlist import hostlist_expand
from handoff.solver.nautobot import desired_objects
from handoff.solver.slurm import blocks, slurm_nodes, slurm_pattern, tree_switches
from planner.solver.pipeline import plan_scenario
from tests.handoff.conftest import example_document
from tests.handoff.solver.test_slurm import node_parents, parse_topology_conf
from tests.handoff.test_formats import plan_switches, read_bundle
from tests.properties.cabling_summary import installed, summarize

RAIL_OPTIMIZED_NDR = {"switch": "qm9700", "topology": "fat_tree", "leaf_placement": "rail_optimized"}
RAIL_OPTIMIZED_HDR = {"switch": "qm8700", "topology": "fat_tree", "leaf_placement": "rail_optimized"}
SMALL_SITE = {
    "name": "Small site", "racks": {"power_budget_kw": 41, "cooling": "air"},
    "pools": [
        {"name": "train", "system": "dgx-h100", "nodes": 40, "fabric": RAIL_OPTIMIZED_NDR},
        {"name": "tune", "system": "hgx-a100", "nodes": 2, "fabric": RAIL_OPTIMIZED_HDR},
    ],
}
"""Hand counts. train: 40 DGX H100 x 8 compute ports = 320 node-leaf links. A QM9700 leaf of
a rail-optimized 1:1 tree gives half its 64 ports to the nodes: 32 nodes a scalable unit, one
leaf per rail, so 40 nodes make 2 units of 8 leaves = 16 leaves, each with 32 uplinks: 16 x 32 =
512 leaf-spine links on 512 / 64 = 8 spines. tune: 2 HGX A100 x 8 ports = 16 links, within one
40-port QM8700: one switch, no spines. Cables 320 + 512 + 16 = 848; switches 16 + 8 + 1 = 25;
Slurm nodes 40 + 2 = 42, one tree each."""
SMALL_SITE_LINKS = {("compute-train", "node-leaf"): 40 * 8, ("compute-train", "leaf-spine"): 16 * 32,
                    ("compute-tune", "node-leaf"): 2 * 8}


@pytest.fixture(scope="module")
def small_site(catalog):
    return plan_scenario(SMALL_SITE, catalog)


@pytest.fixture(scope="module")
def small_site_rows(small_site, catalog):
    return list(cabling_rows(small_site, catalog))


def test_the_small_sites_cabling_plan_has_the_hand_counted_links_and_is_its_bill_of_materials(
        small_site, small_site_rows, catalog):
    assert Counter((row[16], row[15]) for row in small_site_rows) == SMALL_SITE_LINKS
    assert sum(SMALL_SITE_LINKS.values()) == 848
    assert plan_switches(small_site) == 16 + 8 + 1
    summary = summarize(small_site, catalog, small_site_rows)
    assert installed(small_site.bom, "cables") == +summary.by_cable
    assert sum(summary.by_cable.values()) == 848
    assert installed(small_site.bom, "optics") == +summary.modules_by_part


def test_slurm_has_one_tree_per_pools_fabric_and_each_pools_nodes_under_its_name(small_site, catalog):
    text = slurm_topology_conf(small_site, catalog).decode()
    entries = parse_topology_conf(text)
    # train: units of 32 nodes under its spines; tune: its one switch holds its 2 nodes.
    tune_switch = next(name for name in entries if name.startswith("tune-"))
    assert set(entries) == {"train-spines", "train-su01", "train-su02", tune_switch}
    assert entries["train-su01"]["Nodes"] == "train-gpu[0001-0032]"
    assert entries["train-su02"]["Nodes"] == "train-gpu[0033-0040]"
    assert entries["train-spines"]["Switches"] == "train-su[01-02]"
    assert entries[tune_switch]["Nodes"] == "tune-gpu[0001-0002]"
    parents = node_parents(entries)
    assert len(parents) == 40 + 2 and all(len(found) == 1 for found in parents.values())
    assert "pool train: 40 nodes of dgx-h100, train-gpu0001 ... train-gpu0040" in text
    assert handoff_available(small_site, catalog, "slurm-topology")


def test_a_node_pattern_names_each_pools_nodes_after_the_pool(small_site, catalog):
    text = slurm_topology_conf(small_site, catalog, "node##").decode()
    assert "SwitchName=train-su02 Nodes=train-node[33-40]" in text
    assert "Nodes=tune-node[01-02]" in text


def test_the_slurm_tree_follows_each_pools_cabling(small_site, small_site_rows, catalog):
    """Each node's unit holds every leaf its compute ports are cabled to (the leaves of its
    scalable unit), as for one cluster."""
    nodes = slurm_nodes(small_site, catalog)
    pattern = slurm_pattern(None, nodes)
    leaves = {}
    for row in small_site_rows:
        if row[15] == "node-leaf":
            leaves.setdefault(row[3], set()).add((row[16], row[7]))
    node_devices = list(dict.fromkeys(row[3] for row in small_site_rows if row[15] == "node-leaf"))
    assert len(node_devices) == 42
    unit_leaves = {}
    for switch in tree_switches(small_site, catalog):
        for index in switch.nodes:
            unit_leaves.setdefault(switch.name, set()).update(leaves[node_devices[index]])
    assert [len(found) for name, found in sorted(unit_leaves.items())] == [8, 8, 1]  # train-su01, train-su02, tune's switch
    assert pattern.name(40) == "tune-gpu0001"


def test_the_netbox_bundle_holds_every_pools_devices_and_cables(small_site, small_site_rows, catalog):
    tables, _ = read_bundle(netbox_bundle(small_site, catalog))
    roles = Counter(row["role"] for row in tables["devices"])
    assert roles["node"] == 40 + 2
    assert roles["leaf"] + roles["spine"] == 25
    assert len(tables["cables"]) == len(small_site_rows) == 848
    types = Counter(row["device_type"] for row in tables["devices"] if row["role"] == "node")
    assert sorted(types.values()) == [2, 40]
    descriptions = sorted(row["description"] for row in tables["devices"] if row["role"] == "node")
    assert descriptions[0] == "train-gpu0001" and descriptions[-1] == "tune-gpu0002"


def test_nautobot_gets_every_pools_devices_and_cables(small_site, small_site_rows, catalog):
    desired = desired_objects(small_site, catalog)
    tables, _ = read_bundle(netbox_bundle(small_site, catalog))
    assert len(desired.objects["devices"]) == len(tables["devices"])
    assert len(desired.objects["cables"]) == len(small_site_rows) == 848


def test_ufm_has_a_sheet_per_pools_infiniband_fabric_with_its_cables(small_site, catalog):
    archive = zipfile.ZipFile(io.BytesIO(ufm_bundle(small_site, catalog)))
    workbook = load_workbook(io.BytesIO(archive.read("p2p.xlsx")))
    rows = {name: workbook[name].max_row - 1 for name in workbook.sheetnames}
    assert rows == {"compute-train": 320 + 512, "compute-tune": 16}


def test_a_shared_fabric_sites_slurm_tree_names_each_pools_nodes_apart(catalog):
    """The mixed-generation example before the A100s retire: 25 A100 systems, then 213 H100
    (its pools join fabrics.compute): one tree, the first unit holding the A100s and the first
    H100s."""
    document = example_document("mixed-generation-expansion.yaml")
    document["phases"] = [phase for phase in document["phases"] if phase["name"] != "a100-retired"]
    plan = plan_scenario(document, catalog)
    entries = parse_topology_conf(slurm_topology_conf(plan, catalog).decode())
    assert entries["su01"]["Nodes"] == "a100-gpu[0001-0025],h100-gpu[0001-0007]"
    parents = node_parents(entries)
    assert len(parents) == 25 + 213 and all(len(found) == 1 for found in parents.values())


def test_rack_scale_pools_get_a_block_per_system_one_slurm_node_a_tray(catalog):
    """Two GB200 NVL72 pools of 2 and 1 systems on their own fabrics: 18 trays a system, so
    (2 + 1) x 18 = 54 Slurm nodes in 3 blocks of 18, each pool's blocks after its name."""
    site = {"name": "NVL site", "racks": {"power_budget_kw": 140, "cooling": "direct_liquid"},
            "pools": [{"name": "big", "system": "gb200-nvl72", "nodes": 2, "fabric": RAIL_OPTIMIZED_NDR},
                      {"name": "small", "system": "gb200-nvl72", "nodes": 1, "fabric": RAIL_OPTIMIZED_NDR}]}
    plan = plan_scenario(site, catalog)
    nodes = slurm_nodes(plan, catalog)
    assert (nodes.count, [pool.node_count for pool in nodes.pools]) == (54, [36, 18])
    block_list, sizes = blocks(plan, catalog)
    assert [block.name for block in block_list] == ["big-nvl001", "big-nvl002", "small-nvl001"]
    assert sizes[0] == 18
    entries = parse_topology_conf(slurm_block_conf(plan, catalog).decode())
    assert entries["small-nvl001"]["Nodes"] == "small-gpu[0001-0018]"
    assert hostlist_expand(entries["big-nvl002"]["Nodes"])[0] == "big-gpu0019"
    tree = parse_topology_conf(slurm_topology_conf(plan, catalog).decode())
    parents = node_parents(tree)
    assert len(parents) == 54 and all(len(found) == 1 for found in parents.values())
    text = slurm_topology_yaml(plan, catalog).decode()
    assert "topology: block" in text and "topology: tree" in text


def test_a_lone_pool_keeps_the_sites_shared_compute_fabric_with_its_leaves(catalog):
    """A site of one pool that joins fabrics.compute (200 A100 GPUs, 8 a system: 25 systems):
    its compute fabric has leaves, one per rail (8 HCAs: 8 rails; 25 < 32 nodes of a unit), the
    25 x 8 = 200 node-leaf links cabled, and Slurm's tree holds the 25 nodes under one unit."""
    plan = plan_scenario({
        "name": "Lone pool", "racks": {"power_budget_kw": 41, "cooling": "air"},
        "pools": [{"name": "a100", "system": "hgx-a100", "gpus": 200}],
        "fabrics": {"compute": RAIL_OPTIMIZED_NDR},
    }, catalog)
    fabric = plan.fabrics["compute"]
    assert {tier.role: tier.switches for tier in fabric.tiers}["leaf"] == 8
    rows = list(cabling_rows(plan, catalog))
    by_segment = Counter(row[15] for row in rows if row[16] == "compute")
    assert by_segment["node-leaf"] == 25 * 8 == 200
    assert by_segment == Counter({link.segment: link.count for link in fabric.links})
    summary = summarize(plan, catalog, rows)
    assert installed(plan.bom, "cables") == +summary.by_cable
    entries = parse_topology_conf(slurm_topology_conf(plan, catalog).decode())
    assert entries["su01"]["Nodes"] == "gpu[0001-0025]"


def test_a_pools_own_top_of_rack_leaves_stand_in_its_racks_and_are_cabled(catalog):
    """serve: 10 HGX H100 with their own two-tier top-of-rack Spectrum-4 fabric. A full rack's 3 systems
    x 8 ports = 24 links fit one leaf's 32 down links (64 ports at 1:1), and so do the last
    rack's 1 x 8 = 8: one leaf in each of the pool's ceil(10 / 3) = 4 racks, 10 x 8 = 80 node-leaf
    links, each from a system to the leaf of its own rack; the BOM counts those rows."""
    plan = plan_scenario({
        "name": "ToR site", "racks": {"power_budget_kw": 41, "cooling": "air"},
        "pools": [{"name": "train", "system": "dgx-h100", "nodes": 12, "fabric": RAIL_OPTIMIZED_NDR},
                  {"name": "serve", "system": "hgx-h100", "nodes": 10,
                   "fabric": {"switch": "sn5600", "topology": "fat_tree", "leaf_placement": "top_of_rack",
                              "tiers": 2}}],
    }, catalog)
    assert plan.pools["serve"].racks.nodes_per_rack == 3
    leaf = {tier.role: tier for tier in plan.fabrics["compute-serve"].tiers}["leaf"]
    assert leaf.placement.get("compute_rack") == 4
    rows = list(cabling_rows(plan, catalog))
    serve = [row for row in rows if row[16] == "compute-serve" and row[15] == "node-leaf"]
    assert len(serve) == 10 * 8 == 80
    assert all(row[1] == row[5] for row in serve), "a system cabled to another rack's leaf"
    assert Counter(row[7] for row in serve) == Counter({f"{rack}-leaf-01": count for rack, count in zip(
        sorted({row[1] for row in serve}), (24, 24, 24, 8))})
    train_racks = {row[1] for row in rows if row[16] == "compute-train" and row[15] == "node-leaf"}
    assert not train_racks & {row[1] for row in serve}
    summary = summarize(plan, catalog, rows)
    assert summary.twice == []
    assert installed(plan.bom, "cables") == +summary.by_cable
    assert installed(plan.bom, "optics") == +summary.modules_by_part
    entries = parse_topology_conf(slurm_topology_conf(plan, catalog).decode())
    assert [entries[name]["Nodes"] for name in entries if name.startswith("serve-r")] == [
        "serve-gpu[0001-0003]", "serve-gpu[0004-0006]", "serve-gpu[0007-0009]", "serve-gpu0010"]
    tables, _ = read_bundle(netbox_bundle(plan, catalog))
    assert len(tables["cables"]) == len(rows)
