"""The smallest scenarios found (by the property tests, then by hand) on which the current
engine breaks an invariant, each as a plain test named after what it shows. Each is
xfail(strict=True): when the engine is fixed the test passes, strict xfail fails, and the mark
comes off (with the matching mark in the property test)."""

from collections import Counter

import pytest

from tests.properties.cabling_summary import installed, summary_for
from tests.properties.strategies import plan_or_refusal
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


@pytest.mark.xfail(strict=True, reason="rail_only_layout gives every rail ceil(links / rails) ports")
def test_rail_only_ports_used_count_fabric_manager_ports_on_every_rail():
    """4 DGX (32 links) and a UFM's 4 links over 8 rails of QM9700: rails 1-4 carry 5 links,
    rails 5-8 carry 4, 36 ports in all; the engine says 8 x ceil(36 / 8) = 40."""
    plan, _ = _plan(RAIL_ONLY_FABRIC_MANAGER)
    [rail] = plan.fabrics["compute"].tiers
    assert summary_for(RAIL_ONLY_FABRIC_MANAGER).native_ports_used[("compute", "rail")] == 36
    assert rail.ports_used == 36


@pytest.mark.xfail(strict=True, reason="leaf down ports are rounded up over the tier, not per leaf")
def test_split_leaf_ports_used_round_up_per_leaf():
    """5 HGX H100, 2 x 200G storage NICs, SN5600 leaves split 4 ways, two tiers: each of the 2
    leaves takes 5 links on ceil(5 / 4) = 2 ports, plus 32 uplinks: 68 ports; the engine counts
    ceil(10 / 4) = 3 down ports for both leaves: 67."""
    plan, _ = _plan(SPLIT_LEAVES_ODD_LINKS)
    leaf = plan.fabrics["storage"].tiers[0]
    assert summary_for(SPLIT_LEAVES_ODD_LINKS).native_ports_used[("storage", "leaf")] == 68
    assert leaf.ports_used == 68


@pytest.mark.xfail(strict=True, reason="modules are packed over all switches, not per switch cage")
def test_rail_only_fabric_manager_links_need_a_cage_module_on_each_rail():
    """The UFM's 4 links land on 4 different rail switches, each in a twin-port cage of its own:
    16 + 4 = 20 twin-port modules at the rails; the engine buys 32 / 2 + 4 / 2 = 18."""
    plan, _ = _plan(RAIL_ONLY_FABRIC_MANAGER)
    assert summary_for(RAIL_ONLY_FABRIC_MANAGER).modules_by_part["osfp-800g-2xsr4"] == 20
    assert installed(plan.bom, "optics")["osfp-800g-2xsr4"] == 20


@pytest.mark.xfail(strict=True, reason="switch-end modules are rounded up per length share")
def test_one_switch_serving_nodes_in_many_racks_buys_a_module_per_cage():
    """16 HGX H100, one per rack, storage NICs 2 x 200G on one SN5600 split 4 ways: 32 links on
    8 cages (8 x 800G modules); the engine rounds up ceil(links / 4) for every length share of
    the measured runs and buys 10."""
    plan, _ = _plan(STORAGE_ONE_NODE_PER_RACK)
    assert summary_for(STORAGE_ONE_NODE_PER_RACK).modules_by_part["osfp-800g-2xsr4"] == 8
    assert installed(plan.bom, "optics")["osfp-800g-2xsr4"] == 8


@pytest.mark.xfail(strict=True, reason="BOM media come from length shares, the rows' from each cable's length")
@pytest.mark.parametrize("document, rows", [
    (TWO_TIER_48_DGX, {"mpo12-om4": 384, "dac-400g": 512}),
    (DGX_SUPERPOD_4SU, {"mpo12-om4": 1608, "dac-400g": 440}),
], ids=["48-dgx", "superpod-4su"])
def test_bom_buys_the_cables_the_cabling_plan_lays(document, rows):
    """48 DGX H100 on QM9700: the BOM buys 640 fiber and 256 DAC, the rows lay 384 and 512.
    The 4-SU SuperPOD of the reference architecture: BOM 1,707 fiber and 341 DAC; rows 1,608
    and 440."""
    plan, _ = _plan(document)
    assert +summary_for(document).by_cable == Counter(rows)
    assert installed(plan.bom, "cables") == Counter(rows)


@pytest.mark.xfail(strict=True, reason="BOM optics follow the length shares' media, not the rows'")
def test_superpod_4su_bom_buys_the_modules_the_cabling_plan_needs():
    """1,024 NIC modules; at the switches 512 leaf cages for the nodes and, for the 584 fiber
    leaf-spine rows, 584 cages (292 per end): 1,096 twin-port modules; the BOM has 1,196."""
    plan, _ = _plan(DGX_SUPERPOD_4SU)
    needed = summary_for(DGX_SUPERPOD_4SU).modules_by_part
    assert needed == Counter({"osfp-400g-sr4": 1024, "osfp-800g-2xsr4": 1096})
    assert installed(plan.bom, "optics") == needed


@pytest.mark.xfail(strict=True, reason="support racks are limited by the rack type's static load only")
def test_network_racks_respect_racks_max_weight_kg():
    """64 DGX H100 on QM9700 (16 leaves, 8 spines) with racks.max_weight_kg 300: the first
    network rack holds 23 switches, 340 kg of equipment."""
    plan, catalog = _plan(NETWORK_RACK_OVER_MAX_WEIGHT)
    heaviest = max(equipment_weight_kg(plan, catalog, group)
                   for group in plan.racks.per_rack if group.kind == "network")
    assert heaviest <= 300


@pytest.mark.xfail(strict=True, reason="a row keeps its segment's cable when the same medium's choice differs")
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
