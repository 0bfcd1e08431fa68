"""Compute sizing against hand calculations and the DGX SuperPOD H100 reference architecture."""

from dataclasses import replace

import pytest

from catalog.solver.parts import NicSpec
from core.solver.errors import ScenarioError
from planner.solver.compute import compute_warnings, nodes_for_gpus, size_compute, system_with_nics
from planner.solver.scenario import ComputeSpec


@pytest.mark.parametrize(
    ("gpus", "gpus_per_node", "nodes"),
    [(1024, 8, 128), (1000, 8, 125), (1001, 8, 126), (8, 8, 1), (1, 8, 1), (9216, 72, 128), (100, 72, 2)],
)
def test_nodes_for_gpus_rounds_up_to_whole_systems(gpus, gpus_per_node, nodes):
    assert nodes_for_gpus(gpus, gpus_per_node) == nodes


def test_nvidia_ra_h100_four_scalable_units(catalog):
    """RA-11333-001: 4 SUs of 32 DGX H100 = 128 nodes, 1,024 GPUs, at 10.2 kW each."""
    result = size_compute(ComputeSpec(system="dgx-h100", gpus=1024), catalog.systems["dgx-h100"])
    assert (result.nodes, result.gpus, result.total_nodes) == (128, 1024, 128)
    # 128 systems x 10.2 kW = 1,305.6 kW
    assert result.it_kw == pytest.approx(1305.6)


def test_spares_are_bought_powered_and_racked(catalog):
    system = catalog.systems["dgx-b200"]
    result = size_compute(ComputeSpec(system="dgx-b200", nodes=100, spare_nodes=4), system)
    assert (result.nodes, result.gpus, result.spare_nodes, result.total_nodes) == (100, 800, 4, 104)
    # 104 systems x 14.3 kW = 1,487.2 kW
    assert result.it_kw == pytest.approx(1487.2)


def test_rounding_up_is_warned_about(catalog):
    system = catalog.systems["gb200-nvl72"]
    spec = ComputeSpec(system="gb200-nvl72", gpus=1000)
    result = size_compute(spec, system)
    # ceil(1000 / 72) = 14 racks of 72 GPUs = 1,008 GPUs
    assert (result.nodes, result.gpus) == (14, 1008)
    [warning] = compute_warnings(spec, system, result)
    assert "rounds up to 14 systems (1,008 GPUs)" in warning
    exact = ComputeSpec(system="gb200-nvl72", gpus=1008)
    assert compute_warnings(exact, system, size_compute(exact, system)) == []


def test_nic_overrides_replace_the_roles_given_and_keep_the_others(catalog):
    """DGX H100: 8 x 400G compute, 2 x 400G storage, 2 x 400G in-band, 1 x 1G oob; the
    scenario gives two 200 Gb/s storage HCAs and a 4 x 100G second front-end it lacks."""
    system = catalog.systems["dgx-h100"]
    overridden = system_with_nics(system, (NicSpec(role="storage", count=2, gbps=200),))
    assert overridden.nic("storage") == NicSpec(role="storage", count=2, gbps=200, ports_per_cage=1)
    assert [nic.role for nic in overridden.nics] == ["compute", "storage", "inband", "oob"]
    assert overridden.nic("compute") == system.nic("compute")
    assert (overridden.slug, overridden.power_kw) == (system.slug, system.power_kw)
    assert system.nic("storage").gbps == 400  # the catalog part is left as it was


def test_a_role_the_system_lacks_is_added(catalog):
    system = replace(catalog.systems["dgx-h100"], nics=(NicSpec(role="compute", count=8, gbps=400, ports_per_cage=2),))
    overridden = system_with_nics(system, (NicSpec(role="oob", count=1, gbps=1),))
    assert [(nic.role, nic.count, nic.gbps) for nic in overridden.nics] == [("compute", 8, 400), ("oob", 1, 1)]


def test_no_override_gives_the_system_itself(catalog):
    system = catalog.systems["dgx-h100"]
    assert system_with_nics(system, ()) is system


def test_a_role_given_twice_is_an_error_on_the_list(catalog):
    nics = (NicSpec(role="storage", count=2, gbps=200), NicSpec(role="storage", count=1, gbps=400))
    with pytest.raises(ScenarioError) as raised:
        system_with_nics(catalog.systems["dgx-h100"], nics)
    assert raised.value.as_dict() == {"compute.nics": ["lists the role 'storage' more than once"]}


def test_compute_nics_must_fill_the_trays_evenly(catalog):
    """GB200 NVL72: 72 compute NICs in 18 trays; 70 do not divide into 18 trays."""
    nics = (NicSpec(role="oob", count=1, gbps=1), NicSpec(role="compute", count=70, gbps=800))
    with pytest.raises(ScenarioError) as raised:
        system_with_nics(catalog.systems["gb200-nvl72"], nics)
    [path] = raised.value.as_dict()
    assert path == "compute.nics[1].count"
