"""Fabric managers and management servers: counts from the scenario and the catalog's parts,
racked, powered and bought, checked by hand and against the DGX SuperPOD H100 RA."""

import pytest

from core.solver.errors import ScenarioError
from core.solver.management import ServerGroup, fabric_managers_needed, server_groups
from fabric.solver.specs import FabricSpec, FabricsSpec
from planner.solver.pipeline import plan_scenario
from power.solver.specs import RacksSpec


@pytest.mark.parametrize(("ports", "per_appliance", "appliances"), [
    (4, 2, 2),  # the H100 SuperPOD's compute fabric: an HA pair of 2-port UFM appliances
    (3, 2, 2),  # ceil(3 / 2)
    (2, 2, 1),
    (0, 2, 0),
    (4, 0, 1),  # an appliance with no fabric ports listed takes them all
])
def test_fabric_managers_needed(ports, per_appliance, appliances):
    assert fabric_managers_needed(ports, per_appliance) == appliances


def test_nvidia_ra_h100_table7_control_plane(catalog):
    """RA-11333-001, Table 7 (4 SU, 127 nodes): 4 UFM 3.1 appliances and 5 management servers.
    Compute and storage InfiniBand fabrics with 4 UFM links each: 4 / 2 = 2 appliances per fabric."""
    fabrics = FabricsSpec(
        compute=FabricSpec(switch="qm9700", fabric_manager_ports=4),
        storage=FabricSpec(switch="qm9700", fabric_manager_ports=4),
    )
    groups = server_groups(RacksSpec(management_servers=5), fabrics, catalog.servers)
    assert groups == (
        ServerGroup("fabric_manager", "ufm-enterprise-appliance", 2, "compute", 2, 1),
        ServerGroup("fabric_manager", "ufm-enterprise-appliance", 2, "storage", 2, 1),
        ServerGroup("management_server", "head-node-1u", 5, "", 0, 1),
    )
    assert sum(group.count for group in groups if group.role == "fabric_manager") == 4


H100 = {
    "name": "H100 with UFM",
    "compute": {"system": "dgx-h100", "nodes": 127},
    "racks": {"power_budget_kw": 41},
    "fabrics": {"compute": {"switch": "qm9700", "tiers": 2, "fabric_manager_ports": 4}},
}


def test_fabric_managers_and_head_nodes_are_racked_powered_and_bought(catalog):
    """2 UFM appliances (4 links / 2 ports) and 4 head nodes (the default), all 1 U:
    - one management rack holding 2 + 4 = 6 U;
    - management IT power 2 x 0.75 + 4 x 1.0 = 5.5 kW;
    - BOM 'management': 2 x 45,000 + 4 x 15,000 = 150,000 USD, and so the capex category."""
    plan = plan_scenario(H100, catalog)
    [rack] = [group for group in plan.racks.per_rack if group.kind == "management"]
    assert {item.slug: item.count for item in rack.contents} == {"ufm-enterprise-appliance": 2, "head-node-1u": 4}
    assert rack.units_used == 6 and rack.it_kw == pytest.approx(5.5)
    assert plan.power.it_kw_by_category["management"] == pytest.approx(5.5)
    lines = {line.sku: line for line in plan.bom if line.category == "management"}
    assert {sku: line.quantity for sku, line in lines.items()} == {"ufm-enterprise-appliance": 2, "head-node-1u": 4}
    assert plan.cost.capex_by_category_usd["management"] == pytest.approx(150_000)
    assert [group.role for group in plan.racks.servers] == ["fabric_manager", "management_server"]


def test_the_old_management_keys_override_the_part(catalog):
    # 4 head nodes at 2 kW, 2 U and 40 kg instead of the part's 1 kW, 1 U and 25 kg:
    # 2 UFM (1 U, 0.75 kW) + 4 x 2 U = 10 U; 1.5 + 8 = 9.5 kW; 2 x 20 + 4 x 40 = 200 kg, plus the
    # empty rack's 150 kg
    racks = {**H100["racks"], "management_server_kw": 2, "management_server_u": 2,
             "management_server_weight_kg": 40}
    plan = plan_scenario({**H100, "racks": racks}, catalog)
    [rack] = [group for group in plan.racks.per_rack if group.kind == "management"]
    assert (rack.units_used, rack.it_kw, rack.weight_kg) == (10, pytest.approx(9.5), pytest.approx(200 + 150))


def test_another_server_part_and_no_fabric_manager(catalog):
    document = {**H100, "racks": {**H100["racks"], "management_server": "head-node-2u", "management_servers": 3},
                "fabrics": {"compute": {"switch": "qm9700", "tiers": 2}}}
    plan = plan_scenario(document, catalog)
    assert {line.sku: line.quantity for line in plan.bom if line.category == "management"} == {"head-node-2u": 3}
    # 3 x 1.4 kW
    assert plan.power.it_kw_by_category["management"] == pytest.approx(4.2)


@pytest.mark.parametrize(("document", "path"), [
    ({**H100, "racks": {"management_server": "head-node-9u"}}, "racks.management_server"),
    ({**H100, "fabrics": {"compute": {"switch": "qm9700", "fabric_manager_ports": 4, "fabric_manager": "ufm-9"}}},
     "fabrics.compute.fabric_manager"),
])
def test_an_unknown_server_is_named(catalog, document, path):
    with pytest.raises(ScenarioError) as caught:
        plan_scenario(document, catalog)
    [message] = caught.value.as_dict()[path]
    assert message.startswith("no server")
