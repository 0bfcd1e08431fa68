"""The architect's figures of a fabric, checked by hand."""

import math

import pytest

from fabric.solver.figures import (
    active_cable_power_w,
    bisection_bandwidth_tbps,
    effective_oversubscription,
    gpus_per_leaf,
    optics_power_w,
    switch_power_kw,
)


def test_bisection_is_half_the_narrowest_tier():
    # 1,024 x 400G endpoints, non-blocking: 409.6 Tb/s in, 204.8 Tb/s across the cut; two planes double it
    assert bisection_bandwidth_tbps(1024 * 400) == pytest.approx(204.8)
    assert bisection_bandwidth_tbps(1024 * 400, planes=2) == pytest.approx(409.6)


@pytest.mark.parametrize(
    ("endpoint_gbps", "narrowest_gbps", "ratio"),
    [(1024, 1024, 1.0), (1024, 384, 1024 / 384), (1020, 1024, 1.0), (10, 0, math.inf)],
)
def test_effective_oversubscription(endpoint_gbps, narrowest_gbps, ratio):
    assert effective_oversubscription(endpoint_gbps, narrowest_gbps) == pytest.approx(ratio)


def test_gpus_per_leaf():
    assert gpus_per_leaf(32, 8, 8) == 32     # rail-optimized DGX H100: one GPU per link
    assert gpus_per_leaf(32, 8, 2) == 128    # in-band, 2 ports per node: 16 nodes behind the leaf
    assert gpus_per_leaf(32, 0, 8) == 0


def test_power():
    assert switch_power_kw(48, 750) == pytest.approx(36.0)
    assert optics_power_w(512, 15) == 7680
    assert active_cable_power_w(100, 1.5) == 300
