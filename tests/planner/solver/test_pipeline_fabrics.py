"""The fabric step in the pipeline: plan keys, BOM lines, placement in racks, inline switches."""

import pytest

from planner.solver.errors import InfeasibleError, ScenarioError
from planner.solver.pipeline import plan_scenario

NVIDIA_RA_H100_4SU = {
    "name": "DGX SuperPOD H100, 4 SU",
    "compute": {"system": "dgx-h100", "nodes": 128},
    "racks": {"power_budget_kw": 41},
    "fabrics": {"compute": {"switch": "qm9700", "tiers": 2}},
}


def test_plan_carries_tiers_links_and_transceivers(catalog):
    plan = plan_scenario(NVIDIA_RA_H100_4SU, catalog).to_dict()
    compute = plan["fabrics"]["compute"]
    assert [(tier["role"], tier["switches"]) for tier in compute["tiers"]] == [("leaf", 32), ("spine", 16)]
    assert [(link["from"], link["to"], link["count"]) for link in compute["links"]] == [
        ("node", "leaf", 1024), ("leaf", "spine", 1024)]
    # Every cable placed on the floor (the cabling plan's rows): 48 QM9700 fill 2 network racks
    # (28 + 20). The 9 systems beside a network rack are within the 5 m an 800G active copper
    # cable reaches of their leaves: 72 node-leaf links are ACC, the other 952 fiber. Leaves and
    # spines in one rack take DAC (524 of the 1,024 leaf-spine links), the others fiber (500).
    [node_leaf, leaf_spine] = compute["links"]
    assert node_leaf["media_counts"] == {"acc": 72, "fiber": 952} and node_leaf["measured"]
    assert leaf_spine["media_counts"] == {"dac": 524, "fiber": 500}
    # One twin-port module in every cage a fiber link uses: the DGX's 4 twin-port NIC cages and
    # the QM9700's twin-port cages (tests/fabric/solver/test_cabling.py counts them from the rows)
    assert compute["transceivers"] == 1463
    assert (compute["bisection_tbps"], compute["oversubscription"], compute["max_switch_hops"]) == (204.8, 1.0, 3)
    assert compute["gpus_per_leaf"] == 32
    assert compute["switch_power_kw"] == pytest.approx(36.0)
    assert plan["warnings"] == []


def test_bom_lists_switches_optics_and_cables(catalog):
    # installed quantities; spares come on top
    bom = {(line.category, line.sku, line.length_m): line.quantity - line.spares
           for line in plan_scenario(NVIDIA_RA_H100_4SU, catalog).bom}
    assert bom[("network", "qm9700", None)] == 48
    assert ("optics", "osfp-400g-sr4", None) not in bom
    assert bom[("optics", "osfp-800g-2xsr4", None)] == 1463
    # one line per cable part and stock length, as the cabling plan's rows have them
    fiber = {length: count for (category, sku, length), count in bom.items() if sku == "mpo12-om4"}
    assert fiber == {7.0: 205, 10.0: 389, 15.0: 259 + 500, 20.0: 99}
    copper = {length: count for (category, sku, length), count in bom.items() if sku == "dac-400g"}
    assert copper == {1.0: 224, 1.5: 256, 2.0: 44}


def test_fabric_switches_reach_the_racks_and_the_power(catalog):
    without = plan_scenario({**NVIDIA_RA_H100_4SU, "fabrics": {}}, catalog)
    with_fabric = plan_scenario(NVIDIA_RA_H100_4SU, catalog)
    assert "fabrics" not in without.to_dict()
    assert with_fabric.racks.network > without.racks.network
    assert with_fabric.power.it_kw > without.power.it_kw


def test_top_of_rack_leaves_sit_in_the_compute_racks(catalog):
    document = {**NVIDIA_RA_H100_4SU,
                "fabrics": {"compute": {"switch": "qm9700", "leaf_placement": "top_of_rack"}}}
    plan = plan_scenario(document, catalog)
    leaf = plan.fabrics["compute"].tiers[0]
    # one leaf per compute rack, as many as the racks the packing gives with the leaves in them
    assert leaf.placement == {"compute_rack": plan.racks.compute}
    assert plan.racks.compute * plan.racks.nodes_per_rack >= 128
    assert plan.fabrics["compute"].links[0].media == "dac"


def test_every_fabric_and_the_management_network(catalog):
    document = {**NVIDIA_RA_H100_4SU, "fabrics": {
        "compute": {"switch": "qm9700"},
        "storage": {"switch": "sn5600"},
        "inband": {"switch": "sn5600"},
        "oob": {"switch": "sn2201", "spine_switch": "sn5600"},
    }}
    plan = plan_scenario(document, catalog)
    assert list(plan.fabrics) == ["compute", "storage", "inband", "oob"]
    oob = plan.fabrics["oob"]
    switches = sum(tier.switches for name in ("compute", "storage", "inband") for tier in plan.fabrics[name].tiers)
    # every node's BMC port plus every other switch's management port
    assert oob.endpoint_links == 128 + switches


def test_an_inline_switch_plans_like_a_catalog_one(catalog):
    """A 128 x 400G switch given in components: 128 DGX = 1,024 links; leaves of 64 down:
    2 units of 64 nodes, 16 leaves; spines ceil(16 x 64 / 128) = 8 (divides 64)."""
    document = {**NVIDIA_RA_H100_4SU,
                "fabrics": {"compute": {"switch": "big-ndr"}},
                "components": {"switches": [{
                    "slug": "big-ndr", "name": "128-port NDR", "ports": 128, "port_gbps": 400,
                    "ports_per_cage": 2, "split": [1, 2], "power_w": 1500, "rack_units": 2, "price_usd": 80000,
                }]}}
    plan = plan_scenario(document, catalog)
    assert [(tier.role, tier.switches) for tier in plan.fabrics["compute"].tiers] == [("leaf", 16), ("spine", 8)]
    [line] = [line for line in plan.bom if line.category == "network"]
    assert (line.sku, line.quantity - line.spares, line.unit_price_usd) == ("big-ndr", 24, 80000)


def test_bad_fabric_input_through_the_pipeline(catalog):
    document = {**NVIDIA_RA_H100_4SU, "compute": {"system": "dgx-b300", "nodes": 4}}
    with pytest.raises(ScenarioError) as caught:
        plan_scenario(document, catalog)
    assert list(caught.value.as_dict()) == ["fabrics.compute.switch"]
    document = {**NVIDIA_RA_H100_4SU, "fabrics": {"compute": {"switch": "qm9700", "spine_switch": "qm970"}}}
    with pytest.raises(ScenarioError) as caught:
        plan_scenario(document, catalog)
    [message] = caught.value.as_dict()["fabrics.compute.spine_switch"]
    assert message.startswith("no switch 'qm970' in the catalog") and "qm9700" in message
    document = {**NVIDIA_RA_H100_4SU, "compute": {"system": "dgx-h100", "nodes": 300}}
    with pytest.raises(InfeasibleError) as caught:
        plan_scenario(document, catalog)
    assert list(caught.value.as_dict()) == ["fabrics.compute.tiers"]


def test_nic_modules_draw_in_the_system_only_when_its_rating_leaves_them_out(catalog):
    """The DGX H100's 10.2 kW includes its 4 twin-port NIC modules (15 W each). A system rated
    without them is charged 15 W per module in its cages, in its compute rack; the switches' own
    modules stay with the switches either way."""
    dgx = catalog.systems["dgx-h100"]
    rated_without = {**{field: getattr(dgx, field) for field in ("name", "gpus", "power_kw", "rack_units",
                                                                  "weight_kg", "price_usd")},
                     "slug": "dgx-h100-bare", "nic_optics_in_power": False,
                     "nics": [{"role": "compute", "count": 8, "gbps": 400, "ports_per_cage": 2}]}
    document = {**NVIDIA_RA_H100_4SU, "compute": {"system": "dgx-h100-bare", "nodes": 128},
                "components": {"systems": [rated_without]}}
    bare = plan_scenario(document, catalog)
    with_dgx = plan_scenario({**NVIDIA_RA_H100_4SU, "compute": {"system": "dgx-h100", "nodes": 128}}, catalog)
    module_w = catalog.transceivers["osfp-800g-2xsr4"].power_w
    extra_kw = bare.power.it_kw_by_category["compute"] - with_dgx.power.it_kw_by_category["compute"]
    assert bare.fabrics["compute"].optics_power_kw_by_device["dgx-h100-bare"] == pytest.approx(extra_kw)
    # a whole number of modules, at most one per cage (fewer where a cage's links are copper)
    modules = extra_kw * 1000 / module_w
    assert modules == pytest.approx(round(modules)) and 0 < round(modules) <= 128 * 4
    switches_kw = {device: kw for device, kw in bare.fabrics["compute"].optics_power_kw_by_device.items()
                   if device in catalog.switches}
    assert bare.power.it_kw_by_category["network"] == pytest.approx(
        bare.fabrics["compute"].switch_power_kw + sum(switches_kw.values()))


def test_no_top_of_rack_switch_in_a_rack_scale_system(catalog):
    """A GB200 NVL72 is its own 48 U rack: a top-of-rack leaf would stand above its top U."""
    document = {"name": "NVL72 ToR", "compute": {"system": "gb200-nvl72", "nodes": 8},
                "racks": {"power_budget_kw": 140, "cooling": "direct_liquid"},
                "fabrics": {"compute": {"switch": "qm9700", "leaf_placement": "top_of_rack"}}}
    with pytest.raises(InfeasibleError) as caught:
        plan_scenario(document, catalog)
    (error,) = caught.value.errors
    assert error.path == "fabrics.compute.leaf_placement"
    assert "no room for top-of-rack switches" in error.message and "rail_optimized" in error.message
    document["fabrics"]["compute"]["leaf_placement"] = "rail_optimized"
    plan = plan_scenario(document, catalog)
    assert all(group.units_used <= group.usable_u for group in plan.racks.per_rack)
