"""The smallest scenarios the property tests found breaking an invariant, kept as plain tests
named after what they show (the engine has since been fixed for each)."""


import pytest

from tests.properties.cabling_summary import installed, summary_for
from tests.properties.strategies import plan_or_refusal, plan_or_reject, rows_of
from tests.properties.test_cabling_invariants import (
    RAIL_ONLY_FABRIC_MANAGER,
    RAIL_ONLY_ONE_NODE_PER_RACK,
    SPLIT_LEAVES_ODD_LINKS,
    THREE_TIERS_ONE_NODE_PER_RACK,
    STORAGE_ONE_NODE_PER_RACK,
    TWO_TIER_48_DGX,
)
from tests.properties.test_rack_invariants import NETWORK_RACK_OVER_MAX_WEIGHT, equipment_weight_kg

DGX_SUPERPOD_4SU = {
    "name": "DGX SuperPOD H100, 4 SU",
    "compute": {"system": "dgx-h100", "nodes": 128},
    "fabrics": {"compute": {"switch": "qm9700", "tiers": 2}},
}


def _plan(document):
    plan, catalog = plan_or_refusal(document)
    assert plan is not None, catalog
    return plan, catalog


def test_rail_only_ports_used_count_fabric_manager_ports_on_every_rail():
    """4 DGX (32 links) and a UFM's 4 links over 8 rails of QM9700: rails 1-4 carry 5 links,
    rails 5-8 carry 4, 36 ports in all; the engine says 8 x ceil(36 / 8) = 40."""
    plan, _ = _plan(RAIL_ONLY_FABRIC_MANAGER)
    [rail] = plan.fabrics["compute"].tiers
    assert summary_for(RAIL_ONLY_FABRIC_MANAGER).native_ports_used[("compute", "rail")] == 36
    assert rail.ports_used == 36


def test_split_leaf_ports_used_round_up_per_leaf():
    """5 HGX H100, 2 x 200G storage NICs, SN5600 leaves (800G ports split 4 ways), two tiers:
    each of the 2 leaves (one per rail) takes 5 links on ceil(5 / 4) = 2 ports and, at 1:1 and
    200G between tiers, 5 uplinks on 2 more: 8 ports, as the rows use them (the engine once
    rounded ceil(10 / 4) over the tier)."""
    plan, _ = _plan(SPLIT_LEAVES_ODD_LINKS)
    leaf = plan.fabrics["storage"].tiers[0]
    assert summary_for(SPLIT_LEAVES_ODD_LINKS).native_ports_used[("storage", "leaf")] == 8
    assert leaf.ports_used == 8


@pytest.mark.parametrize("document", [
    RAIL_ONLY_FABRIC_MANAGER, STORAGE_ONE_NODE_PER_RACK, TWO_TIER_48_DGX, DGX_SUPERPOD_4SU,
], ids=["rail-only-fabric-manager", "storage-one-node-per-rack", "48-dgx", "superpod-4su"])
def test_bom_buys_the_cables_and_modules_the_cabling_plan_lays(document):
    """The engine once bought cables by modelled length shares and modules per share or packed
    over switches: the 4-SU SuperPOD's BOM had 1,707 fiber and 341 DAC where its rows laid 1,608
    and 440, and 18 modules for 20 cages on a rail-only fabric whose UFM links land on 4 rails.
    Now the BOM is the rows: cables per part, one module per cage the rows use."""
    plan, _ = _plan(document)
    summary = summary_for(document)
    assert installed(plan.bom, "cables") == +summary.by_cable
    assert installed(plan.bom, "optics") == +summary.modules_by_part
    assert summary.cages_with_two_modules == []


def test_network_racks_respect_racks_max_weight_kg():
    """64 DGX H100 on QM9700 (16 leaves, 8 spines) with racks.max_weight_kg 300: the first
    network rack holds 23 switches, 340 kg of equipment."""
    plan, catalog = _plan(NETWORK_RACK_OVER_MAX_WEIGHT)
    heaviest = max(equipment_weight_kg(plan, catalog, group)
                   for group in plan.racks.per_rack if group.kind == "network")
    assert heaviest <= 300


@pytest.mark.parametrize("document, segment", [
    (RAIL_ONLY_ONE_NODE_PER_RACK, "node-leaf"),
    (THREE_TIERS_ONE_NODE_PER_RACK, "spine-core"),
], ids=["rail-only-node-rail", "three-tiers-spine-core"])
def test_every_cable_of_the_cabling_plan_reaches_its_run(document, segment):
    """mpo12-om4 reaches 50 m; the rows lay it on longer runs (rail-only: node-rail runs of up to
    52 m that the engine measures at 16 m at most; three tiers: 50.3 m spine-core runs)."""
    _plan(document)
    beyond = summary_for(document).beyond_reach
    assert [row for row in beyond if row[1] == segment] == []


def test_top_of_rack_leaves_cable_uplinks_for_the_fullest_leaf_in_the_network_racks_too():
    """33 A800 servers, one per rack, 2 storage NICs each on top-of-rack QM8700 leaves; the DDN
    systems' 8 links share a leaf in a network rack. Sized for the rack leaves' 2 links alone,
    that leaf was 8:2 oversubscribed (the fabric delivered 1.21:1 where 1:1 was asked): every
    leaf now cables uplinks for the fullest, 8 here."""
    document = {
        "name": "storage leaves at the top of racks", "compute": {"system": "a800-8", "nodes": 33},
        "racks": {"cooling": "air", "power_budget_kw": 7.0, "power_feeds": "single"},
        "storage": {"tiers": [{"system": "ddn-ai400x2", "serves": ["training_reads", "checkpoint_writes"]}],
                    "read_gbytes_per_s_per_gpu": 0.1, "checkpoint_tb": 1, "checkpoint_write_s": 60, "dataset_tb": 10},
        "fabrics": {"storage": {"switch": "qm8700", "leaf_placement": "top_of_rack", "spine_switch": "arista-7060x5-64"}},
    }
    plan, _ = _plan(document)
    storage = plan.fabrics["storage"]
    assert storage.oversubscription == 1.0
    assert storage.tiers[0].up_links_per_switch == 8


def test_top_of_rack_leaves_and_systems_per_rack_that_alternate_settle_on_the_fewer():
    """Eight DGX H100 on sn4700 top-of-rack leaves: the leaves for 5 systems a rack leave room
    for 4, and those for 4 for 5. The racks hold 4, with the leaves planned for 4 (the cabling
    plan indexed a fifth leaf that was never planned), and the plan says so."""
    document = {
        "name": "alternating top-of-rack", "compute": {"system": "dgx-h100", "nodes": 4, "spare_nodes": 4},
        "racks": {"cooling": "direct_liquid", "power_budget_kw": 53.5, "power_feeds": "single"},
        "fabrics": {
            "compute": {"switch": "sn4700", "leaf_placement": "top_of_rack", "spine_switch": "arista-7060x5-64",
                        "optical_media": "aoc"},
            "oob": {"switch": "arista-7060x5-64", "spine_switch": "arista-7060x5-64", "optical_media": "aoc"},
        },
    }
    plan, catalog = plan_or_reject(document)
    assert plan.racks.nodes_per_rack == 4
    leaves = plan.fabrics["compute"].tiers[0]
    assert leaves.placement == {"compute_rack": 2 * plan.racks.compute}
    assert any("room for only 4" in warning for warning in plan.warnings)
    assert len(rows_of(plan, catalog)) == sum(link.count for fabric in plan.fabrics.values() for link in fabric.links)
