"""Dragonfly sizes of Kim, Dally, Scott and Abts (ISCA 2008, section 3.1), and dragonfly plans."""

import pytest

from core.solver.errors import InfeasibleError, ScenarioError
from core.solver.interfaces import EndpointGroup
from fabric.solver.dragonfly import (
    DragonflySpec,
    balanced_dragonfly_shape,
    dragonfly_counts,
    dragonfly_max_groups,
    dragonfly_max_terminals,
    dragonfly_radix,
)
from fabric.solver.fabric import plan_fabric
from fabric.solver.specs import FabricSpec
from tests.fabric.solver.conftest import radix_switch


@pytest.fixture
def kim_isca2008_dragonfly_sizes():
    """(p, a, h, radix k, groups g, terminals N) from Kim et al. 2008, section 3.1."""
    return [(4, 8, 4, 15, 33, 1056), (8, 16, 8, 31, 129, 16512)]


def test_kim_isca2008_sizes(kim_isca2008_dragonfly_sizes):
    for p, a, h, radix, groups, terminals in kim_isca2008_dragonfly_sizes:
        assert dragonfly_radix(p, a, h) == radix
        assert dragonfly_max_groups(a, h) == groups
        assert dragonfly_max_terminals(p, a, h) == terminals
        shape = balanced_dragonfly_shape(radix)
        assert (shape.terminals_per_router, shape.routers_per_group, shape.global_links_per_router) == (p, a, h)


@pytest.mark.parametrize(
    ("spec", "shape"),
    [
        (DragonflySpec(terminals_per_router=4), (4, 8, 4)),
        (DragonflySpec(routers_per_group=16), (8, 16, 8)),
        (DragonflySpec(terminals_per_router=2, global_links_per_router=6), (2, 4, 6)),
    ],
)
def test_missing_parameters_are_balanced_from_the_given_ones(spec, shape):
    result = balanced_dragonfly_shape(64, spec)
    assert (result.terminals_per_router, result.routers_per_group, result.global_links_per_router) == shape


def test_full_dragonfly_counts():
    """p = h = 4, a = 8 at full size: 33 groups x 8 = 264 routers; local links 33 x 8 x 7 / 2 =
    924; one global link per pair of groups: 33 x 32 / 2 = 528."""
    counts = dragonfly_counts(1056, balanced_dragonfly_shape(15))
    assert (counts.groups, counts.routers, counts.local_links, counts.global_links) == (33, 264, 924, 528)
    assert dragonfly_counts(1057, balanced_dragonfly_shape(15)) is None


def test_dragonfly_plan_of_a_fifteen_port_router(with_switch):
    catalog = with_switch(radix_switch(15))
    result = plan_fabric("compute", FabricSpec(switch="radix-15", topology="dragonfly"),
                         [EndpointGroup("host", 1056, 1, 400)], catalog)
    [router] = result.tiers
    assert (router.role, router.switches, router.ports_free) == ("router", 264, 0)
    assert [(link.segment, link.count) for link in result.links] == [("node-router", 1056), ("local", 924), ("global", 528)]
    assert result.max_switch_hops == 4
    # bisection: 16 x 17 group pairs across the cut, one 400G link each = 108.8 Tb/s
    assert result.bisection_tbps == pytest.approx(108.8)
    assert (result.dragonfly.groups, result.dragonfly.max_groups) == (33, 33)


def test_partial_dragonfly_spreads_global_links(catalog):
    """1,000 DGX B300 on a 64-port TH5: p = h = 16, a = 32; 8,000 links -> 500 routers -> 16 groups;
    32 x 16 = 512 global ports per group over 15 other groups: 34 links per pair, 2 ports free."""
    result = plan_fabric("compute", FabricSpec(switch="th5-64x800", topology="dragonfly"),
                         [EndpointGroup("dgx-b300", 1000, 8, 800)], catalog, gpus_per_node=8)
    assert (result.dragonfly.groups, result.dragonfly.global_links_per_group_pair) == (16, 34)
    assert result.tiers[0].switches == 512
    assert dict((link.segment, link.count) for link in result.links)["global"] == 16 * 15 // 2 * 34


def test_dragonfly_parameters_beyond_the_radix(catalog):
    spec = FabricSpec(switch="qm9700", topology="dragonfly",
                      dragonfly=DragonflySpec(terminals_per_router=16, routers_per_group=40, global_links_per_router=16))
    with pytest.raises(ScenarioError) as caught:
        plan_fabric("compute", spec, [EndpointGroup("dgx-h100", 8, 8, 400)], catalog)
    [(path, [message])] = caught.value.as_dict().items()
    assert path == "fabrics.compute.dragonfly"
    assert "= 71 router ports, more than the 64 of qm9700" in message
    assert "balanced dragonfly has p = h = 16, a = 32" in message


def test_dragonfly_beyond_its_reach(with_switch):
    catalog = with_switch(radix_switch(15))
    with pytest.raises(InfeasibleError) as caught:
        plan_fabric("compute", FabricSpec(switch="radix-15", topology="dragonfly"),
                    [EndpointGroup("host", 1057, 1, 400)], catalog)
    assert "reaches at most 1,056 endpoint links" in caught.value.as_dict()["fabrics.compute.switch"][0]
