"""Random sites of 1 to 4 pools, on one shared compute fabric or each on its own, of any size:
the bill of materials' cables and optics are the cabling plan's rows added up, and the Slurm
topology lists every node of every pool exactly once (one tree per compute fabric)."""

from hypothesis import HealthCheck, assume, given, seed, settings
from hypothesis import strategies as st

from handoff.formats import slurm_topology_conf
from handoff.solver.slurm import slurm_nodes
from tests.handoff.solver.test_slurm import node_parents, parse_topology_conf
from tests.properties.cabling_summary import (
    assert_rows_are_the_links_and_bill_of_materials,
    summarize,
)
from tests.properties.strategies import plan_or_refusal, rows_of

SITE_HANDOFF_SEED = 20_261_126
OWN_SWITCH = {"dgx-h100": "qm9700", "hgx-h100": "sn5600", "hgx-a100": "qm8700"}
"""A switch each system's compute NICs reach (NDR, Spectrum-4 Ethernet, HDR)."""
SHARED_SWITCHES = ("qm9700", "sn5600")
"""Switches fast enough for every system above (the mixed-generation example shares a QM9700)."""
PLACEMENTS = ("rail_optimized", "top_of_rack")


@st.composite
def sites(draw) -> dict:
    count = draw(st.integers(1, 4))
    shared = draw(st.booleans())
    pools = []
    for index in range(count):
        system = draw(st.sampled_from(sorted(OWN_SWITCH)))
        pool = {"name": f"pool-{index}", "system": system, "nodes": draw(st.integers(1, 160))}
        if not shared:
            pool["fabric"] = {"switch": OWN_SWITCH[system], "topology": "fat_tree",
                              "leaf_placement": draw(st.sampled_from(PLACEMENTS)),
                              "tiers": draw(st.sampled_from([2, 3]))}
        pools.append(pool)
    site = {"name": "Random site", "pools": pools, "racks": {"power_budget_kw": 41, "cooling": "air"}}
    if shared:
        site["fabrics"] = {"compute": {"switch": draw(st.sampled_from(SHARED_SWITCHES)), "topology": "fat_tree",
                                       "leaf_placement": draw(st.sampled_from(PLACEMENTS))}}
    if draw(st.booleans()):
        site.setdefault("fabrics", {})["storage"] = {"switch": "qm9700"}
        site["storage"] = {"tiers": [{"system": "ddn-ai400x2", "serves": ["training_reads"]}]}
    return site


@seed(SITE_HANDOFF_SEED)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sites())
def test_a_sites_bill_of_materials_is_its_cabling_and_slurm_lists_each_node_once(document):
    plan, catalog = plan_or_refusal(document)
    assume(plan is not None)
    rows = rows_of(plan, catalog)
    summary = summarize(plan, catalog, rows)
    assert_rows_are_the_links_and_bill_of_materials(plan, summary)
    nodes = slurm_nodes(plan, catalog)
    assert nodes.count == sum(pool.compute.total_nodes for pool in (plan.pools or {}).values()) or not plan.pools
    parents = node_parents(parse_topology_conf(slurm_topology_conf(plan, catalog).decode()))
    assert len(parents) == nodes.count == plan.compute.total_nodes
    assert all(len(found) == 1 for found in parents.values())
    trees = {name for name in plan.fabrics if name == "compute" or name.startswith("compute-")}
    assert len(trees) == (1 if "fabrics" in document and "compute" in document["fabrics"] else len(document["pools"]))
