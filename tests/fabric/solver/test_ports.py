"""Port splitting and the down:up division of a switch's ports."""

import math

import pytest

from fabric.solver.ports import downlink_ports_for_oversubscription, port_split_ways, switch_ports


@pytest.mark.parametrize(
    ("port_gbps", "link_gbps", "split", "ways"),
    [
        (400, 400, (1, 2), 1),
        (800, 400, (1, 2, 4), 2),  # SN5600: 800G port as 2 x 400G
        (800, 200, (1, 2, 4), 4),  # ... or 4 x 200G
        (800, 100, (1, 2, 4), 4),  # cannot go below 200G: runs the port slower
        (400, 200, (1,), 1),       # no splitting offered
        (400, 800, (1, 2), 0),     # a link faster than the port cannot be served
    ],
)
def test_port_split_ways(port_gbps, link_gbps, split, ways):
    assert port_split_ways(port_gbps, link_gbps, split) == ways


@pytest.mark.parametrize(
    ("ports", "ratio", "down"),
    [
        (64, 1, 32),    # non-blocking: k/2 down, k/2 up
        (64, 3, 48),    # 64 x 3/4 = 48 down, 16 up: exactly 3:1
        (64, 2, 43),    # 64 x 2/3 = 42.67 -> 43 down, 21 up: 2.05:1, at least the 2:1 asked
        (144, 1, 72),
        (4, 1, 2),
    ],
)
def test_downlink_ports_for_oversubscription(ports, ratio, down):
    assert downlink_ports_for_oversubscription(ports, ratio) == down
    assert down / (ports - down) >= ratio
    # and one port fewer down would fall short of the ratio
    assert (down - 1) / (ports - down + 1) < ratio


def test_switch_ports_split_down_links_and_keep_uplinks_native(catalog):
    leaf = switch_ports(catalog.switches["sn5600"], 400, 1.0, has_uplinks=True)
    # 32 x 800G down split in 2 -> 64 x 400G links; 32 x 800G up: 25.6 Tb/s each way
    assert (leaf.down_ports, leaf.split, leaf.down_links, leaf.up_ports) == (32, 2, 64, 32)
    assert (leaf.down_link_gbps, leaf.up_link_gbps, leaf.oversubscription) == (400, 800, 1.0)


def test_switch_with_dedicated_uplinks_uses_every_port_down(catalog):
    leaf = switch_ports(catalog.switches["sn2201"], 1, 1.0, has_uplinks=True)
    # SN2201: 48 x 1G down, 4 x 100G up whatever the ratio asked: 48 / 400 = 0.12
    assert (leaf.down_links, leaf.up_ports, leaf.up_link_gbps, leaf.total_ports) == (48, 4, 100, 52)
    assert leaf.oversubscription == pytest.approx(0.12)


def test_top_switch_has_no_uplinks(catalog):
    spine = switch_ports(catalog.switches["qm9700"], 400, 1.0, has_uplinks=False)
    assert (spine.down_links, spine.up_ports) == (64, 0)
    assert math.isinf(spine.oversubscription)
