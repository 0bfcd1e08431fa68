"""The cabling plan of a site of two pools: each pool's systems in its own racks, every port
cabled once, the rows as many as the engine's links, and the bill of materials the rows added
up (a pool's own top-of-rack leaves in that pool's compute racks included)."""

from hypothesis import assume, given, seed, settings

from tests.properties.cabling_summary import (
    assert_rows_are_the_links_and_bill_of_materials,
    summary_for,
)
from tests.properties.strategies import plan_or_refusal, site_scenarios

SITE_CABLING_SEED = 20_261_124


@seed(SITE_CABLING_SEED)
@settings(max_examples=40)
@given(site_scenarios(max_gpus=2_048))
def test_a_sites_rows_cable_each_port_once_and_are_its_bill_of_materials(document):
    summary = summary_for(document)
    assume(summary is not None)
    plan, _ = plan_or_refusal(document)
    assert summary.twice == []
    assert_rows_are_the_links_and_bill_of_materials(plan, summary)
