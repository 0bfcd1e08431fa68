"""Rack packing of compute systems: published cases and a hand calculation per limit."""

import pytest

from planner.solver.errors import InfeasibleError
from planner.solver.parts import SystemSpec
from planner.solver.scenario import RacksSpec
from power.solver.rack_packing import pack_compute_racks, whole_units_within


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
