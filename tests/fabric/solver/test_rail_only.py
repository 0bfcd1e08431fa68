"""Rail-only fabrics: one fabric per rail, no spine across rails."""

from core.solver.interfaces import EndpointGroup
from fabric.solver.fabric import plan_fabric
from fabric.solver.specs import FabricSpec


def test_rail_only_one_switch_per_rail_hand_calculation(catalog):
    """32 DGX H100 (1 SU) on QM9700: each of the 8 rails has 32 links, which one 64-port switch
    holds. 8 rail switches (a fat tree would add 4 spines), 256 node-rail links, no
    switch-to-switch links, one switch hop; each rail switch uses 32 of its 64 ports."""
    result = plan_fabric("compute", FabricSpec(switch="qm9700", topology="rail_only"),
                         [EndpointGroup("dgx-h100", 32, 8, 400)], catalog, gpus_per_node=8)
    [rail] = result.tiers
    assert (rail.role, rail.switches, rail.ports_used, rail.ports_free) == ("rail", 8, 256, 256)
    assert [(link.segment, link.count) for link in result.links] == [("node-rail", 256)]
    assert result.max_switch_hops == 1
    assert result.gpus_per_leaf == 32


def test_rail_only_split_ports_hold_a_bigger_rail(catalog):
    """64 DGX H100 on SN5600: a rail of 64 x 400G fits one switch's 64 x 800G ports split in two."""
    result = plan_fabric("compute", FabricSpec(switch="sn5600", topology="rail_only"),
                         [EndpointGroup("dgx-h100", 64, 8, 400)], catalog, gpus_per_node=8)
    assert [(tier.role, tier.switches, tier.ports_used) for tier in result.tiers] == [("rail", 8, 256)]


def test_rail_larger_than_a_switch_is_a_fat_tree_of_its_own(catalog):
    """128 DGX H100 on QM9700: each rail has 128 links: 4 leaves of 32 down, spines
    ceil(4 x 32 / 64) = 2 (divides 32, 16 links per pair). 8 rails: 32 leaves, 16 spines,
    1,024 leaf-spine links; no link joins two rails."""
    result = plan_fabric("compute", FabricSpec(switch="qm9700", topology="rail_only"),
                         [EndpointGroup("dgx-h100", 128, 8, 400)], catalog, gpus_per_node=8)
    assert [(tier.role, tier.switches) for tier in result.tiers] == [("leaf", 32), ("spine", 16)]
    assert [(link.segment, link.count) for link in result.links] == [("node-leaf", 1024), ("leaf-spine", 1024)]
    assert result.max_switch_hops == 3
