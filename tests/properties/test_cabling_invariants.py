"""Invariants of the cabling plan against the fabric engine and the bill of materials.

Every test draws the same scenarios (one seed), so each plan's rows are made once
(`cabling_summary.summary_for`). The rows are the ground truth an installer works from: one
row per cable, from a device's port to another's.
"""

from collections import Counter

import numpy as np
from hypothesis import assume, example, given, seed, settings

from fabric.solver.cabling import PlanCabling
from tests.properties.cabling_summary import installed, installed_by_length, summary_for
from tests.properties.strategies import plan_or_refusal, scenarios

CABLING_SEED = 20_260_301
CABLING_MAX_GPUS = 4_096
"""The rows of a plan cost ~10 us each: the cabling tests keep to ~4,000 GPUs (~50,000 rows)."""
CABLING_EXAMPLES = settings.default.max_examples


def cabling_test(test):
    """@given the cabling scenarios, all with one seed (so they share the summaries' cache)."""
    drawn = given(scenarios(max_gpus=CABLING_MAX_GPUS))(test)
    return seed(CABLING_SEED)(settings(max_examples=CABLING_EXAMPLES)(drawn))


# Minimal scenarios the current engine gets wrong (see test_known_violations.py).
RAIL_ONLY_FABRIC_MANAGER = {
    "name": "rail-only with a fabric manager",
    "compute": {"system": "dgx-h100", "nodes": 4},
    "fabrics": {"compute": {"switch": "qm9700", "topology": "rail_only", "fabric_manager_ports": 4}},
}
SPLIT_LEAVES_ODD_LINKS = {
    "name": "5 HGX H100, storage leaves split 4 ways",
    "compute": {"system": "hgx-h100", "nodes": 5},
    "fabrics": {"storage": {"switch": "sn5600", "tiers": 2}},
}
TWO_TIER_48_DGX = {
    "name": "48 DGX H100, two tiers",
    "compute": {"system": "dgx-h100", "nodes": 48},
    "fabrics": {"compute": {"switch": "qm9700"}},
}
STORAGE_ONE_NODE_PER_RACK = {
    "name": "storage fabric, one node per rack",
    "compute": {"system": "hgx-h100", "nodes": 16},
    "racks": {"max_nodes_per_rack": 1},
    "fabrics": {"storage": {"switch": "sn5600"}},
}

RAIL_ONLY_ONE_NODE_PER_RACK = {
    "name": "rail-only, 300 DGX H100 one per rack",
    "compute": {"system": "dgx-h100", "nodes": 300},
    "racks": {"max_nodes_per_rack": 1},
    "fabrics": {"compute": {"switch": "qm9700", "topology": "rail_only"}},
}
THREE_TIERS_ONE_NODE_PER_RACK = {
    "name": "three tiers, 512 DGX H100 one per rack",
    "compute": {"system": "dgx-h100", "nodes": 512},
    "racks": {"max_nodes_per_rack": 1},
    "fabrics": {"compute": {"switch": "qm9700"}},
}


def planned(document):
    summary = summary_for(document)
    assume(summary is not None)
    plan, catalog = plan_or_refusal(document)
    return plan, catalog, summary


@cabling_test
def test_no_port_is_cabled_twice(document):
    """d. Every (device, port) appears on at most one row."""
    _, _, summary = planned(document)
    assert summary.twice == []


@cabling_test
def test_rows_equal_the_engines_links_per_segment(document):
    """e. The rows of each fabric and segment are as many as the engine's LinkResult.count."""
    plan, _, summary = planned(document)
    expected = {(name, link.segment): 0 for name, fabric in (plan.fabrics or {}).items() for link in fabric.links}
    for name, fabric in (plan.fabrics or {}).items():
        for link in fabric.links:
            expected[(name, link.segment)] += link.count
    assert dict(summary.by_segment) == {key: count for key, count in expected.items() if count}


@example(RAIL_ONLY_ONE_NODE_PER_RACK)
@example(THREE_TIERS_ONE_NODE_PER_RACK)
@cabling_test
def test_every_cable_is_a_catalog_part_that_reaches_its_run(document):
    """Every row's catalog cable and transceivers reach the row's measured length (> 0); a row
    without a cable only where the plan warns that no catalog cable reaches."""
    plan, _, summary = planned(document)
    assert summary.beyond_reach[:5] == []
    if summary.without_cable:
        assert any("counted without a cable" in warning for warning in plan.warnings)


@cabling_test
def test_switch_ports_in_the_rows_exist_and_carry_no_more_links_than_they_split_into(document):
    """a (in the rows). Every switch port named is one of its ports; a native port carries at
    most the links it splits into at the link's rate (one for up ports and router links)."""
    _, _, summary = planned(document)
    assert summary.port_beyond_switch[:5] == []
    assert summary.native_port_overuse[:5] == []


@example(RAIL_ONLY_FABRIC_MANAGER)
@example(SPLIT_LEAVES_ODD_LINKS)
@cabling_test
def test_ports_used_of_each_tier_equal_the_ports_the_rows_use(document):
    """a (in the rows). TierResult.ports_used is the number of native ports with a cable."""
    plan, _, summary = planned(document)
    for name, fabric in (plan.fabrics or {}).items():
        for tier in fabric.tiers:
            assert summary.native_ports_used[(name, tier.role)] == tier.ports_used, (name, tier.role)


@example(TWO_TIER_48_DGX)
@cabling_test
def test_bom_cables_equal_the_rows_per_cable_part(document):
    """f. Cables bought (BOM quantity less spares) per part, and per stock length once both the
    BOM and the rows carry one, equal the rows with that cable."""
    plan, _, summary = planned(document)
    laid = Counter({cable: count for cable, count in summary.by_cable.items() if cable})
    assert installed(plan.bom, "cables") == laid
    by_length = installed_by_length(plan.bom, "cables")
    assert by_length == Counter({key: count for key, count in summary.by_cable_and_stock_length.items() if key[0]})


@example(RAIL_ONLY_FABRIC_MANAGER)
@example(STORAGE_ONE_NODE_PER_RACK)
@example(TWO_TIER_48_DGX)
@cabling_test
def test_bom_transceivers_equal_the_modules_the_rows_need(document):
    """g (count). One module per cage (switch cage, fixed uplink port, NIC cage) whose rows name
    one, the same module for all its rows: as many as the BOM's optics less spares; a fiber row
    without a module only where the plan warns that no catalog module fits."""
    plan, _, summary = planned(document)
    assert summary.cages_with_two_modules[:5] == []
    assert sum(installed(plan.bom, "optics").values()) == summary.module_locations
    if summary.fiber_rows_without_module:
        assert any("counted without optics" in warning for warning in plan.warnings)


@example(RAIL_ONLY_FABRIC_MANAGER)
@example(STORAGE_ONE_NODE_PER_RACK)
@example(TWO_TIER_48_DGX)
@cabling_test
def test_bom_transceiver_parts_equal_the_modules_the_rows_need(document):
    """g (per part). The BOM's optics per part are the modules the rows name, one per cage."""
    plan, _, summary = planned(document)
    assert installed(plan.bom, "optics") == +summary.modules_by_part


@cabling_test
def test_devices_named_at_once_have_the_names_their_places_give(document):
    """The many devices (systems, switches) are named a chunk at a time (`LinkEnds.names`):
    each name is the one its place gives, one by one, racks known or not."""
    plan, catalog, _ = planned(document)
    cabling = PlanCabling(plan, catalog)
    for fabric in cabling.fabrics:
        for cables in cabling.segments(fabric):
            for chunk in cables.chunks():
                for end in (chunk.lower, chunk.upper):
                    if end.names is None:
                        continue
                    devices = np.unique(end.device)
                    assert end.names(devices, chunk.plane) == [
                        end.place(device, chunk.plane).device for device in devices.tolist()]
