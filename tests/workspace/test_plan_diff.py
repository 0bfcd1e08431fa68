"""Differences of BOM lines and fabrics between two plans."""

from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from planner.services import plan_document
from planner.solver.bom import BomLine
from workspace.compare.plan_diff import ADDED, CHANGED, REMOVED, bom_changes, fabric_changes

EXAMPLE = yaml.safe_load((Path(__file__).parents[2] / "examples" / "dgx-h100-4su.yaml").read_text())


@pytest.fixture(scope="module")
def planned(catalog):
    """A plan whose sections the tests replace with their own."""
    return plan_document(EXAMPLE, catalog)


def line(category, sku, quantity, length_m=None, spares=0):
    return BomLine(category=category, sku=sku, description=sku.upper(), quantity=quantity, spares=spares,
                   unit_price_usd=0.0, extended_price_usd=0.0, price_source="catalog", length_m=length_m)


def test_bom_lines_added_removed_and_changed_in_quantity(planned):
    reference = replace(planned, bom=(line("compute", "dgx-h100", 32, spares=1), line("racks", "rack-42u", 8),
                                      line("cables", "mpo12", 100, 10.0), line("power", "pdu", 16)))
    other = replace(planned, bom=(line("compute", "dgx-h100", 64, spares=2), line("cables", "mpo12", 40, 10.0),
                                  line("cables", "mpo12", 60, 15.0), line("power", "pdu", 16)))
    changes = {(change.sku, change.length_m): change for change in bom_changes(reference, other)}
    assert set(changes) == {("dgx-h100", None), ("rack-42u", None), ("mpo12", 10.0), ("mpo12", 15.0)}
    compute = changes["dgx-h100", None]
    # A line's quantity holds its spares: 32 ordered, of which 1 spare.
    assert (compute.kind, compute.old_quantity, compute.new_quantity) == (CHANGED, 32, 64)
    assert compute.texts == ("32", "64", "+32")
    assert changes["rack-42u", None].kind == REMOVED and changes["rack-42u", None].delta == -8
    # A cable of another length is another line.
    assert changes["mpo12", 15.0].kind == ADDED and changes["mpo12", 15.0].new_quantity == 60
    assert changes["mpo12", 10.0].texts == ("100", "40", "-60")
    assert bom_changes(reference, reference) == []


def test_fabric_tiers_switches_and_links_between_two_sizes_of_the_same_design(catalog):
    small = plan_document(EXAMPLE, catalog)
    large = plan_document({**EXAMPLE, "compute": {"system": "dgx-h100", "nodes": 512},
                           "fabrics": {"compute": {**EXAMPLE["fabrics"]["compute"], "tiers": 3}}}, catalog)
    changes = {change.item: change for change in fabric_changes(small, large)}
    old_tiers = small.fabrics["compute"].tiers
    assert changes["tiers"].old == 2 and changes["tiers"].new == 3
    assert changes["leaf switches"].old == old_tiers[0].switches
    assert changes["leaf switches"].new == large.fabrics["compute"].tiers[0].switches
    assert changes["leaf switches"].new > changes["leaf switches"].old
    assert changes["core switches"].kind == ADDED
    assert changes["node-leaf links"].old == 1024 and changes["node-leaf links"].new == 4096
    assert changes["optics"].kind == CHANGED
    assert fabric_changes(small, small) == []


def test_fabrics_added_and_removed(planned):
    fabric = planned.fabrics["compute"]
    changes = fabric_changes(replace(planned, fabrics={"compute": fabric}),
                             replace(planned, fabrics={"storage": fabric}))
    assert [(change.kind, change.fabric, change.item) for change in changes] == [
        (REMOVED, "compute", "fabric"),
        (ADDED, "storage", "fabric"),
    ]
    no_fabrics = replace(planned, fabrics=None)
    assert fabric_changes(no_fabrics, no_fabrics) == []
