"""Rack packing: published cases and a hand calculation per limit, in-rack switches and PDUs."""

from dataclasses import replace

import pytest

from catalog.solver.parts import SystemSpec
from catalog.solver.power_parts import PduSpec
from core.solver.errors import InfeasibleError, ScenarioError
from core.solver.interfaces import SwitchGroup
from power.solver.rack_packing import pack_compute_racks, pack_racks, whole_units_within
from power.solver.specs import RacksSpec


def server(power_kw=10.0, rack_units=8, **extra) -> SystemSpec:
    return SystemSpec(slug="srv", name="Test server", price_usd=1.0, gpus=8, power_kw=power_kw,
                      rack_units=rack_units, weight_kg=100.0, **extra)


@pytest.mark.parametrize(("budget_kw", "per_rack"), [(41, 4), (40, 3)])
def test_nvidia_ra_h100_dgx_per_rack(catalog, budget_kw, per_rack):
    """DGX H100 SuperPOD RA: four 10.2 kW DGX H100 in a rack above 40 kW (4 x 10.2 = 40.8 kW);
    a 40 kW budget holds only three."""
    result = pack_compute_racks(
        128, catalog.systems["dgx-h100"], RacksSpec(power_budget_kw=budget_kw), catalog.cooling_types
    )
    assert result.nodes_per_rack == per_rack
    assert result.limited_by == "racks.power_budget_kw"
    assert result.compute == -(-128 // per_rack)  # 32 racks at 41 kW, ceil(128 / 3) = 43 at 40 kW
    assert result.compute_rack_it_kw == pytest.approx(per_rack * 10.2)


def test_whole_units_within_tolerates_binary_fractions():
    assert whole_units_within(40.8, 10.2) == 4
    assert whole_units_within(40.79, 10.2) == 3


def test_usable_u_binds(catalog):
    # 42 U / 10 U = 4 systems; 100 kW / 14.3 kW = 6 by power; so 4 by U. 10 systems -> 3 racks, 2 in the last.
    result = pack_compute_racks(
        10, server(power_kw=14.3, rack_units=10), RacksSpec(power_budget_kw=100, cooling="direct_liquid"),
        catalog.cooling_types,
    )
    assert (result.nodes_per_rack, result.limited_by) == (4, "racks.usable_u")
    assert (result.compute, result.nodes_in_last_rack, result.compute_rack_units_used) == (3, 2, 40)


def test_max_nodes_per_rack_binds(catalog):
    result = pack_compute_racks(
        9, server(power_kw=5, rack_units=4), RacksSpec(power_budget_kw=60, max_nodes_per_rack=2),
        catalog.cooling_types,
    )
    # power: 60 / 5 = 12; U: 42 / 4 = 10; cap 2 -> 2 per rack, ceil(9 / 2) = 5 racks, 1 in the last
    assert (result.nodes_per_rack, result.limited_by, result.compute, result.nodes_in_last_rack) == (
        2, "racks.max_nodes_per_rack", 5, 1)


def test_cooling_limit_binds(catalog):
    air_kw = catalog.cooling_types["air"].max_rack_kw
    result = pack_compute_racks(
        100, server(power_kw=10, rack_units=2), RacksSpec(power_budget_kw=200, usable_u=48),
        catalog.cooling_types,
    )
    # power 200 / 10 = 20; U 48 / 2 = 24; air removes air_kw per rack -> floor(air_kw / 10)
    assert result.nodes_per_rack == int(air_kw // 10)
    assert result.limited_by == "racks.cooling"


def test_rack_scale_system_is_one_rack(catalog):
    result = pack_compute_racks(
        8, catalog.systems["gb200-nvl72"], RacksSpec(power_budget_kw=140, cooling="direct_liquid"),
        catalog.cooling_types,
    )
    assert (result.compute, result.nodes_per_rack, result.limited_by) == (8, 1, "compute.system")


def infeasible(system, racks, catalog) -> dict[str, list[str]]:
    with pytest.raises(InfeasibleError) as caught:
        pack_compute_racks(1, system, racks, catalog.cooling_types)
    return caught.value.as_dict()


def test_rack_budget_below_one_node(catalog):
    errors = infeasible(catalog.systems["dgx-h100"], RacksSpec(power_budget_kw=10), catalog)
    assert errors == {"racks.power_budget_kw": [
        "one NVIDIA DGX H100 draws 10.2 kW, more than the 10 kW rack budget: raise the budget to at least 10.2 kW"
    ]}


def test_usable_u_below_one_node(catalog):
    errors = infeasible(server(rack_units=8), RacksSpec(usable_u=6), catalog)
    assert errors == {"racks.usable_u": [
        "one Test server takes 8 U, more than the 6 U available: allow at least 8 U"
    ]}


def test_cooling_that_cannot_carry_one_node_names_what_would(catalog):
    errors = infeasible(server(power_kw=60), RacksSpec(power_budget_kw=100), catalog)
    message = errors["racks.cooling"][0]
    assert message.startswith("air cooling removes at most")
    assert "choose " in message and "direct_liquid" in message and "air or" not in message


def test_liquid_only_system_on_air(catalog):
    errors = infeasible(
        catalog.systems["gb200-nvl72"], RacksSpec(power_budget_kw=140), catalog
    )
    assert "needs liquid cooling" in errors["racks.cooling"][0]


# --- In-rack switches, PDUs that take rack units, weight, and every kind of rack -------------



def test_weight_limit_binds(catalog):
    # power 41 / 1 = 41; U 42 / 2 = 21; air 45 / 1 = 45; weight 700 / 200 = 3 -> 3 per rack
    result = pack_compute_racks(
        10,
        SystemSpec(slug="heavy", name="Heavy server", price_usd=1.0, gpus=8, power_kw=1, rack_units=2, weight_kg=200),
        RacksSpec(max_weight_kg=700), catalog.cooling_types,
    )
    assert (result.nodes_per_rack, result.limited_by, result.compute) == (3, "racks.max_weight_kg", 4)


def test_the_rack_types_static_load_is_the_default_weight_limit(catalog):
    light = SystemSpec(slug="l", name="Light server", price_usd=1.0, gpus=1, power_kw=0.5, rack_units=1, weight_kg=100)
    result = pack_compute_racks(
        100, light, RacksSpec(), catalog.cooling_types, rack_type=catalog.rack_types["rack-42u-600"]
    )
    # power 41 / 0.5 = 82; U 42; air 45 / 0.5 = 90; weight 1,363 kg / 100 kg = 13 -> 13 per rack
    assert (result.nodes_per_rack, result.limited_by) == (13, "racks.max_weight_kg")


def test_weight_limit_below_one_node(catalog):
    errors = infeasible(server(), RacksSpec(max_weight_kg=50), catalog)
    assert errors == {"racks.max_weight_kg": [
        "one Test server weighs 100 kg, more than the 50 kg a rack may hold: allow at least 100 kg"
    ]}


def test_pdus_that_take_rack_units(catalog):
    pdu_1u = PduSpec(slug="pdu-1u", name="1U PDU", price_usd=1, voltage_v=415, current_a=60,
                     continuous_derating=0.8, outlets=24, rack_units=1)
    # 8 U, 10 kW servers in 34 U at 41 kW: power allows 4, U allows floor(34 / 8) = 4.
    # 4 servers = 40 kW need 2 PDUs per feed = 4 x 1 U: 32 + 4 = 36 U > 34 U.
    # 3 servers = 30 kW need 1 PDU per feed = 2 U: 24 + 2 = 26 U <= 34 U -> 3 per rack.
    result = pack_compute_racks(9, server(), RacksSpec(usable_u=34), catalog.cooling_types, pdu=pdu_1u)
    assert (result.nodes_per_rack, result.limited_by, result.compute) == (3, "racks.usable_u", 3)


def test_top_of_rack_switches_take_units_power_and_weight(catalog):
    system = SystemSpec(slug="s4u", name="4U server", price_usd=1.0, gpus=8, power_kw=2, rack_units=4, weight_kg=60)
    catalog = replace(catalog, systems={**catalog.systems, "s4u": system})
    leaves = [SwitchGroup("compute", "leaf", "qm9700", 20, "compute_rack")]
    result = pack_racks(100, system, RacksSpec(usable_u=41, power_budget_kw=100), catalog, switch_groups=leaves)
    # Round 1, no switches: floor(41 / 4) = 10 per rack -> 10 racks -> ceil(20 / 10) = 2 leaves per rack.
    # Round 2, 2 x 1 U leaves: floor((41 - 2) / 4) = 9 per rack -> ceil(100 / 9) = 12 racks,
    # ceil(20 / 12) = 2 leaves per rack still cover them: done.
    assert (result.compute, result.nodes_per_rack, result.limited_by) == (12, 9, "racks.usable_u")
    assert result.switches_per_compute_rack == 2
    # 20 leaves over 12 racks: 20 mod 12 = 8 racks hold 2, the other 4 hold 1; the last rack
    # holds 100 - 11 x 9 = 1 server.
    groups = [(g.count, {item.slug: item.count for item in g.contents}) for g in result.per_rack if g.kind == "compute"]
    assert groups == [(8, {"s4u": 9, "qm9700": 2}), (3, {"s4u": 9, "qm9700": 1}), (1, {"s4u": 1, "qm9700": 1})]
    full = result.per_rack[0]
    assert full.it_kw == pytest.approx(9 * 2 + 2 * 0.75)  # 18 kW of servers + 2 x 750 W leaves
    assert full.units_used == 9 * 4 + 2
    assert sum(g.count * g.contents[1].count for g in result.per_rack if g.kind == "compute") == 20


def test_an_oob_switch_per_rack_can_push_a_node_out(catalog):
    """8 SN2201 (100 W) for 128 DGX H100 at a 40.85 kW budget: 4 x 10.2 + 0.1 = 40.9 kW > 40.85,
    so a rack with a switch holds 3: 43 racks, the first 8 with a switch, 2 systems in the last."""
    oob = [SwitchGroup("oob", "leaf", "sn2201", 8, "compute_rack")]
    result = pack_racks(128, catalog.systems["dgx-h100"], RacksSpec(power_budget_kw=40.85), catalog, switch_groups=oob)
    assert (result.compute, result.nodes_per_rack, result.nodes_in_last_rack) == (43, 3, 2)
    compute = [(g.count, g.contents) for g in result.per_rack if g.kind == "compute"]
    assert [count for count, _ in compute] == [8, 34, 1]
    assert compute[0][1][1].slug == "sn2201" and len(compute[1][1]) == 1


def test_rack_scale_system_brings_its_own_rack(catalog):
    result = pack_racks(
        8, catalog.systems["gb200-nvl72"], RacksSpec(power_budget_kw=140, cooling="direct_liquid"), catalog
    )
    [compute] = [group for group in result.per_rack if group.kind == "compute"]
    assert (compute.count, compute.rack_type, compute.weight_kg) == (8, "gb200-nvl72", 1360)
    # 132 kW: 80 % by cold plates (105.6 kW), 20 % by air (26.4 kW); 105.6 x 60 / (4.186 x 10) L/min
    assert (compute.liquid_kw, compute.air_kw) == (pytest.approx(105.6), pytest.approx(26.4))
    assert compute.liquid_flow_l_per_min == pytest.approx(105.6 * 60 / 41.86)


def test_network_reserved_u_must_leave_room(catalog):
    with pytest.raises(ScenarioError) as caught:
        pack_racks(8, catalog.systems["dgx-h100"], RacksSpec(network_reserved_u=52), catalog)
    assert list(caught.value.as_dict()) == ["racks.network_reserved_u"]
