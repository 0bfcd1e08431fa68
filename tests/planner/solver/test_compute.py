"""Compute sizing against hand calculations and the DGX SuperPOD H100 reference architecture."""

import pytest

from planner.solver.compute import compute_warnings, nodes_for_gpus, size_compute
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
