"""The fabric step in the pipeline: plan keys, BOM lines, placement in racks, inline switches."""

from dataclasses import replace

import pytest

from catalog.solver.snapshot import plan_catalog
from core.solver.errors import InfeasibleError, ScenarioError
from fabric.solver.cabling import cabling_rows
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
    pdus = sum(group.pdus * group.count for group in plan.racks.per_rack)
    # every node's BMC port, every other switch's management port, every rack PDU's network
    # port (as many as the racks hold, oob switches' racks included) and the 4 head nodes' BMCs
    assert oob.endpoint_links == 128 + switches + pdus + 4


def test_oob_serves_pdus_and_head_nodes_by_hand(catalog):
    """8 DGX H100 at 41 kW per rack, only an oob fabric of SN2201 (48 x 1G):
    - compute racks: 2 of 4 DGX (40.8 kW), A/B feeds of 34.5 kW PDUs: 2 x 2 = 4 PDUs each -> 8;
    - management rack: 4 head nodes (4 kW) -> 2 PDUs; network rack for the oob switch -> 2 PDUs;
    - oob endpoints: 8 BMCs + 12 PDUs + 4 head nodes = 24 ports <= 48: one switch, whose
      network rack is one of the 12 PDUs' racks (the planning rounds agree with the packing)."""
    document = {"name": "oob by hand", "compute": {"system": "dgx-h100", "nodes": 8},
                "racks": {"power_budget_kw": 41}, "fabrics": {"oob": {"switch": "sn2201"}}}
    plan = plan_scenario(document, catalog)
    oob = plan.fabrics["oob"]
    assert {link.from_: link.count for link in oob.links} == {"node": 8, "pdu-415v-60a-3ph": 12, "head-node-1u": 4}
    assert [(group.kind, group.count, group.pdus) for group in plan.racks.per_rack] == [
        ("compute", 2, 4), ("network", 1, 2), ("management", 1, 2)]
    assert [(tier.role, tier.switches) for tier in oob.tiers] == [("leaf", 1)]
    # Top of rack: the switch sits in the first compute rack (40.9 kW: still 4 PDUs), no network
    # rack: 8 + 2 = 10 PDUs, 22 ports.
    document["fabrics"]["oob"]["leaf_placement"] = "top_of_rack"
    plan = plan_scenario(document, catalog)
    assert {link.from_: link.count for link in plan.fabrics["oob"].links} == {
        "node": 8, "pdu-415v-60a-3ph": 10, "head-node-1u": 4}


def test_oob_serves_storage_systems_and_fabric_managers(catalog):
    """4 DGX H100 and a DDN AI400X2-Turbo tier; compute fabric with 4 UFM links (2 appliances),
    oob: 4 BMCs, the PDUs, 2 UFM BMCs + 4 head nodes, 1 storage management port, and the
    compute fabric's switch."""
    document = {
        "name": "oob storage", "compute": {"system": "dgx-h100", "nodes": 4},
        "storage": {"read_gbytes_per_s": 100,
                    "tiers": [{"system": "ddn-ai400x2-turbo", "serves": ["training_reads"]}]},
        "fabrics": {"compute": {"switch": "qm9700", "fabric_manager_ports": 4}, "oob": {"switch": "sn2201"}},
    }
    plan = plan_scenario(document, catalog)
    links = {link.from_: link.count for link in plan.fabrics["oob"].links}
    storage_systems = sum(tier.systems for tier in plan.storage.tiers)
    pdus = sum(group.pdus * group.count for group in plan.racks.per_rack)
    switches = sum(tier.switches for tier in plan.fabrics["compute"].tiers)
    assert links == {"node": 4, "pdu-415v-60a-3ph": pdus, "ufm-enterprise-appliance": 2, "head-node-1u": 4,
                     "ddn-ai400x2-turbo": storage_systems, "qm9700": switches}


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


def test_an_inline_switch_with_twin_port_cages_and_fixed_uplinks_is_refused_on_its_field(catalog):
    """The engine gives each fixed uplink its own module and the cabling plan counts modules by
    cage: the pair is refused on the switch's field rather than planned with two module counts."""
    document = {**NVIDIA_RA_H100_4SU,
                "fabrics": {"compute": {"switch": "twin-up"}},
                "components": {"switches": [{
                    "slug": "twin-up", "name": "Twin cages, fixed uplinks", "ports": 64, "port_gbps": 400,
                    "ports_per_cage": 2, "uplink_ports": 4, "uplink_gbps": 400, "power_w": 1500, "rack_units": 2,
                    "price_usd": 80000,
                }]}}
    with pytest.raises(ScenarioError) as caught:
        plan_scenario(document, catalog)
    assert "components.switches[0].ports_per_cage" in caught.value.as_dict()


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


def _storage_fabric(nics):
    return {"name": "storage NICs", "compute": {"system": "dgx-h100", "nodes": 128, "nics": nics},
            "fabrics": {"storage": {"switch": "sn5600"}}}


def test_storage_nics_overridden_to_two_200g_change_the_storage_fabric_by_hand(catalog):
    """128 DGX H100 on an SN5600 storage fabric (64 x 800G ports, split 1, 2 or 4 ways).

    Catalog NICs, 2 x 400G storage per system: 256 links at 400G; one SN5600 takes 64 x 2 = 128
    of them, too few, so two tiers: a leaf at 1:1 takes 32 ports x 2 = 64 links, 256 / 64 = 4
    leaves, whose 64 x 400G go up on 32 ports at the native 800G: 4 x 32 = 128 links fill
    128 / 64 = 2 spines.
    Overridden to 2 x 200G HCAs: 256 links at 200G; one SN5600 split 4 ways takes 64 x 4 = 256
    of them: a single leaf, no spine.
    """
    catalog_nics = plan_scenario(_storage_fabric([]), catalog).fabrics["storage"]
    assert [(link.from_, link.count, link.gbps) for link in catalog_nics.links] == [
        ("node", 256, 400), ("leaf", 128, 800)]
    assert [(tier.role, tier.switches) for tier in catalog_nics.tiers] == [("leaf", 4), ("spine", 2)]

    overridden = plan_scenario(_storage_fabric([{"role": "storage", "count": 2, "gbps": 200}]), catalog)
    storage = overridden.fabrics["storage"]
    assert [(link.from_, link.count, link.gbps) for link in storage.links] == [("node", 256, 200)]
    assert [(tier.role, tier.switches, tier.split) for tier in storage.tiers] == [("leaf", 1, 4)]
    assert overridden.inputs.compute.nics[0].gbps == 200


def test_nic_overrides_refused_by_path(catalog):
    twice = [{"role": "storage", "count": 2, "gbps": 200}, {"role": "storage", "count": 1, "gbps": 400}]
    with pytest.raises(ScenarioError) as raised:
        plan_scenario(_storage_fabric(twice), catalog)
    assert raised.value.as_dict() == {"compute.nics": ["lists the role 'storage' more than once"]}
    uneven = [{"role": "storage", "count": 3, "gbps": 200, "ports_per_cage": 2}]
    with pytest.raises(ScenarioError) as raised:
        plan_scenario(_storage_fabric(uneven), catalog)
    assert list(raised.value.as_dict()) == ["compute.nics[0].ports_per_cage"]
    unknown = [{"role": "gpu", "count": 2, "gbps": 200}]
    with pytest.raises(ScenarioError) as raised:
        plan_scenario(_storage_fabric(unknown), catalog)
    assert list(raised.value.as_dict()) == ["compute.nics[0].role"]


def test_a_plan_carries_the_catalog_it_was_made_with_and_the_exports_read_it(catalog):
    """The NIC override is in the carried catalog's DGX H100 (2 x 200G storage), not in the
    database's (2 x 400G); the plan's JSON leaves the catalog out, and a plan without one (read
    back from JSON) gets the given catalog with its scenario's inline parts."""
    plan = plan_scenario(_storage_fabric([{"role": "storage", "count": 2, "gbps": 200}]), catalog)
    storage_nics = [nic for nic in plan.catalog.systems["dgx-h100"].nics if nic.role == "storage"]
    assert [(nic.count, nic.gbps) for nic in storage_nics] == [(2, 200)]
    assert plan_catalog(plan, catalog) is plan.catalog
    assert "catalog" not in plan.to_dict()
    read_back = replace(plan, catalog=None)
    assert plan_catalog(read_back, catalog).systems["dgx-h100"] is catalog.systems["dgx-h100"]
    assert len(list(cabling_rows(plan, plan_catalog(plan, catalog)))) == 256
