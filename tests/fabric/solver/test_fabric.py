"""The fabric planner as a whole: bad input named by its field, and what every fabric carries."""

import pytest

from core.solver.errors import InfeasibleError, ScenarioError
from core.solver.interfaces import EndpointGroup
from fabric.solver.fabric import fabric_part_counts, plan_fabric, plan_fabrics
from fabric.solver.specs import FabricSpec, FabricsSpec, OversubscriptionSpec
from planner.solver.scenario import read_scenario
from tests.fabric.solver.conftest import radix_switch

DGX_H100_128 = [EndpointGroup("dgx-h100", 128, 8, 400)]


def only_error(caught) -> tuple[str, str]:
    [(path, [message])] = caught.value.as_dict().items()
    return path, message


def test_nic_faster_than_any_port_names_the_switch_and_what_would_work(catalog):
    with pytest.raises(ScenarioError) as caught:
        plan_fabric("compute", FabricSpec(switch="qm9700"), [EndpointGroup("dgx-b300", 4, 8, 800)], catalog)
    path, message = only_error(caught)
    assert path == "fabrics.compute.switch"
    assert "800 Gb/s per plane, faster than the 400 Gb/s ports of qm9700" in message
    assert "q3400" in message and "sn5600" in message and "set planes to 2" in message


def test_radix_too_small_for_even_one_leaf(with_switch):
    catalog = with_switch(radix_switch(2))
    spec = FabricSpec(switch="radix-2", oversubscription=OversubscriptionSpec(leaf=3))
    with pytest.raises(InfeasibleError) as caught:
        plan_fabric("compute", spec, [EndpointGroup("host", 8, 1, 400)], catalog)
    path, message = only_error(caught)
    assert path == "fabrics.compute.switch"
    assert "radix-2 has 2 ports, too few for a leaf" in message and "at least 4 ports" in message


def test_beyond_three_tiers_names_the_switch(catalog):
    # 3 tiers of QM9700 reach 64 x 32 x 32 = 65,536 links; 8,200 DGX have 65,600
    with pytest.raises(InfeasibleError) as caught:
        plan_fabric("compute", FabricSpec(switch="qm9700"), [EndpointGroup("dgx-h100", 8200, 8, 400)], catalog)
    path, message = only_error(caught)
    assert path == "fabrics.compute.switch"
    assert "three tiers of qm9700 reach at most 2,048 leaves (65,536 endpoint links" in message
    assert "dragonfly" in message


def test_spine_slower_than_leaf_uplinks(catalog):
    # At the fabric's 400G, SN5600 leaves run their uplinks split to 400G: QM9700 spines serve.
    spec = FabricSpec(switch="sn5600", spine_switch="qm9700")
    assert plan_fabric("compute", spec, DGX_H100_128, catalog).links[1].gbps == 400
    spec = FabricSpec(switch="sn5600", spine_switch="qm9700", inter_switch_gbps=800)
    with pytest.raises(ScenarioError) as caught:
        plan_fabric("compute", spec, DGX_H100_128, catalog)
    path, message = only_error(caught)
    assert path == "fabrics.compute.spine_switch"
    assert "leaf uplinks run at 800 Gb/s, faster than the 400 Gb/s ports of qm9700" in message


def test_a_fabric_with_nothing_to_attach(catalog):
    with pytest.raises(ScenarioError) as caught:
        plan_fabric("storage", FabricSpec(switch="qm9700"), [None], catalog)
    assert only_error(caught) == (
        "fabrics.storage", "no device has storage ports: add storage NICs to the system, or leave this fabric out"
    )


@pytest.mark.parametrize(
    ("fabric", "path", "message"),
    [
        ({"switch": "qm9700", "planes": 0}, "fabrics.compute.planes", "must be a positive whole number"),
        ({"switch": "qm9700", "oversubscription": 0.2}, "fabrics.compute.oversubscription.leaf",
         "must be a number of at least 0.25"),
        ({"switch": "qm9700", "oversubscription": {"spine": 65}}, "fabrics.compute.oversubscription.spine",
         "must be at most 64"),
        ({"switch": "qm9700", "tiers": 4}, "fabrics.compute.tiers", "must be one of: auto, 2, 3"),
        ({"switch": "qm9700", "dragonfly": {"routers_per_group": 8}}, "fabrics.compute.dragonfly",
         "applies only to topology: dragonfly"),
        ({"switch": "qm9700", "topology": "dragonfly", "dragonfly": {"terminals_per_router": 0}},
         "fabrics.compute.dragonfly.terminals_per_router", "must be a positive whole number"),
        ({"switch": "qm9700", "link_lengths": {"leaf_to_spine_m": 0}}, "fabrics.compute.link_lengths.leaf_to_spine_m",
         "must be a number greater than 0 m"),
        ({"switch": "qm9700", "optical_media": "copper"}, "fabrics.compute.optical_media",
         "must be one of: transceivers, aoc"),
    ],
)
def test_bad_fabric_settings_are_named_by_their_path(fabric, path, message):
    with pytest.raises(ScenarioError) as caught:
        read_scenario({"name": "n", "compute": {"system": "dgx-h100", "gpus": 8}, "fabrics": {"compute": fabric}})
    assert caught.value.as_dict() == {path: [message]}


def test_plan_fabrics_serves_every_role_and_management_ports(catalog):
    """32 DGX H100: compute (8 x 400G each), storage and in-band (2 x 400G each), oob (1 x 1G
    each, plus one management port per switch of the other three fabrics)."""
    fabrics = FabricsSpec(
        compute=FabricSpec(switch="qm9700"),
        storage=FabricSpec(switch="sn5600"),
        inband=FabricSpec(switch="sn5600"),
        oob=FabricSpec(switch="sn2201", spine_switch="sn5600"),
    )
    results = plan_fabrics(fabrics, catalog.systems["dgx-h100"], 32, 4, catalog)
    assert list(results) == ["compute", "storage", "inband", "oob"]
    # compute: 256 links -> 8 leaves + 4 spines; storage, inband: 64 x 400G on one SN5600 (128 x 400G)
    assert [tier.switches for tier in results["compute"].tiers] == [8, 4]
    assert [(tier.role, tier.switches) for tier in results["storage"].tiers] == [("leaf", 1)]
    assert results["inband"].tier_count == 1
    # oob: 32 node ports + 12 + 1 + 1 switch management ports = 46 <= 48: one SN2201
    oob = results["oob"]
    assert oob.endpoint_links == 46 and oob.tier_count == 1
    assert sum(group.count for group in oob.switch_groups()) == 1
    counts: dict[tuple[str, str], int] = {}
    for count in fabric_part_counts(results):
        counts[count.category, count.sku] = counts.get((count.category, count.sku), 0) + count.quantity
    assert counts[("network", "qm9700")] == 12
    assert counts[("network", "sn5600")] == 2
    assert counts[("network", "sn2201")] == 1
    assert counts[("cables", "cat6a-rj45")] == 46


def test_extra_endpoints_join_their_fabric(catalog):
    fabrics = FabricsSpec(storage=FabricSpec(switch="sn5600"))
    appliances = {"storage": [EndpointGroup("ai400x2", 4, 8, 200)]}
    result = plan_fabrics(fabrics, catalog.systems["dgx-h100"], 32, 4, catalog, appliances)["storage"]
    assert result.endpoints == 36 and result.endpoint_links == 64 + 32
    assert [link.from_ for link in result.links] == ["node", "ai400x2"]
    assert any("ai400x2 has 8 storage ports per device but the fabric has 2 rails" in w for w in result.warnings)


def test_rails_that_do_not_match_the_gpus_are_said(catalog):
    result = plan_fabric("compute", FabricSpec(switch="sn5600"), [EndpointGroup("gaudi3-8", 16, 6, 800)], catalog,
                         gpus_per_node=8)
    assert any("6 rails" in warning and "8 GPUs per node" in warning for warning in result.warnings)


def test_nic_slower_than_the_smallest_split_is_a_warning(catalog):
    result = plan_fabric("inband", FabricSpec(switch="sn5600"), [EndpointGroup("hgx-h100", 16, 2, 25)], catalog)
    assert any("sn5600 cannot run the 25 Gb/s hgx-h100 links" in warning for warning in result.warnings)


def test_rack_scale_management_ports_fill_the_oob_leaves_in_order(catalog):
    """8 GB200 NVL72 racks: 8 x 27 = 216 BMC ports and the rest of oob's endpoints fill 48-port
    management leaves one after the other: ceil(links / 48) leaves, not one leaf per BMC port
    (27) as rails would have it."""
    from planner.solver.pipeline import plan_scenario

    plan = plan_scenario({
        "name": "8 NVL72", "compute": {"system": "gb200-nvl72", "nodes": 8},
        "racks": {"power_budget_kw": 140, "cooling": "direct_liquid"},
        "fabrics": {"oob": {"switch": "sn2201", "spine_switch": "sn4600c"}},
    }, catalog)
    oob = plan.fabrics["oob"]
    leaf = oob.tiers[0]
    endpoint_links = sum(link.count for link in oob.links if link.to == "leaf")
    assert endpoint_links >= 8 * 27
    assert leaf.switches == -(-endpoint_links // leaf.down_links_per_switch) < 27


def test_inter_switch_rate_no_port_runs_is_refused_on_its_field(catalog):
    # QM9700 ports run 400G whole or 200G split in two: 300G is neither
    spec = FabricSpec(switch="qm9700", inter_switch_gbps=300)
    with pytest.raises(ScenarioError) as caught:
        plan_fabric("compute", spec, DGX_H100_128, catalog)
    path, message = only_error(caught)
    assert path == "fabrics.compute.inter_switch_gbps"
    assert "qm9700 ports run 400, 200 Gb/s, not 300 Gb/s" in message
