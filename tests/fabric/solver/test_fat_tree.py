"""Fat-tree fabrics planned end to end: published cases and hand calculations written out."""

import pytest

from core.solver.errors import InfeasibleError
from core.solver.interfaces import EndpointGroup
from fabric.solver.fabric import plan_fabric
from fabric.solver.specs import FabricSpec, OversubscriptionSpec
from tests.fabric.solver.conftest import radix_switch


def dgx(nodes: int, gbps: float = 400, slug: str = "dgx-h100") -> EndpointGroup:
    return EndpointGroup(slug, nodes, 8, gbps)


def by_role(result) -> dict[str, int]:
    return {tier.role: tier.switches for tier in result.tiers}


def by_segment(result) -> dict[str, int]:
    counts: dict[str, int] = {}
    for link in result.links:
        counts[link.segment] = counts.get(link.segment, 0) + link.count
    return counts


def test_nvidia_ra_h100_table4_with_ufm(catalog, nvidia_ra_h100_table4):
    """Table 4, 1 to 4 scalable units, from the rules: rail-optimized leaves in whole units,
    spines by the balance rule (16 at 3 units, not 768 / 64 = 12), leaf-spine cabled for full
    units, and the UFM appliance's 4 links on leaf ports."""
    spec = FabricSpec(switch="qm9700", tiers=2, fabric_manager_ports=4)
    for units, nodes, gpus, leaves, spines, node_leaf, leaf_spine in nvidia_ra_h100_table4:
        result = plan_fabric(
            "compute", spec, [dgx(nodes), EndpointGroup("fabric-manager", 1, 4, 400)], catalog, gpus_per_node=8
        )
        assert nodes * 8 == gpus
        assert result.scalable_units == units
        assert by_role(result) == {"leaf": leaves, "spine": spines}
        assert by_segment(result) == {"node-leaf": node_leaf, "leaf-spine": leaf_spine}
        assert result.max_switch_hops == 3 and result.gpus_per_leaf == 32
        # the UFM's 4 links leave 4 leaf ports free: room to grow, not worth a warning; the
        # 3-unit spines' 256 free ports are stranded by the balance rule and said
        assert len(result.warnings) == (1 if units == 3 else 0)


@pytest.mark.parametrize("units", [1, 2, 3, 4])
def test_nvidia_ra_h100_table4_full_units_without_ufm(catalog, nvidia_ra_h100_table4, units):
    _, _, _, leaves, spines, _, leaf_spine = nvidia_ra_h100_table4[units - 1]
    result = plan_fabric("compute", FabricSpec(switch="qm9700"), [dgx(32 * units)], catalog, gpus_per_node=8)
    assert by_role(result) == {"leaf": leaves, "spine": spines}
    assert by_segment(result) == {"node-leaf": 256 * units, "leaf-spine": leaf_spine}
    assert result.oversubscription == 1.0
    # non-blocking: half the endpoints' bandwidth crosses the bisection, 256 x 400G per unit / 2
    assert result.bisection_tbps == pytest.approx(51.2 * units)


def test_three_units_strand_spine_ports_and_say_so(catalog):
    result = plan_fabric("compute", FabricSpec(switch="qm9700"), [dgx(96)], catalog, gpus_per_node=8)
    spine = result.tiers[1]
    # 16 spines x 64 ports = 1,024; 24 leaves x 2 links each = 48 used per spine -> 256 free
    assert (spine.ports_used, spine.ports_free) == (768, 256)
    assert any("256 of 1,024 spine ports" in warning for warning in result.warnings)


def test_nvidia_ra_h100_transceivers_are_counted_per_module(catalog):
    """4 SU, rail-optimized leaves 15 m away, spines 30 m: optics on every link.
    node-leaf: 1,024 single-port 400G modules in the DGX + 1,024 / 2 = 512 twin-port 800G
    modules in the leaves; leaf-spine: 1,024 links / 2 = 512 twin-port modules at each end.
    1,024 + 512 + 1,024 = 2,560 modules."""
    result = plan_fabric("compute", FabricSpec(switch="qm9700"), [dgx(128)], catalog, gpus_per_node=8)
    assert result.transceivers == 2560
    parts = {part.sku: part.quantity for part in result.transceiver_parts}
    assert parts == {"osfp-400g-sr4": 1024, "osfp-800g-2xsr4": 1536}
    # power: the DGX's 1,024 modules are in its 10.2 kW rating; the switches' 1,536 x 15 W =
    # 23.04 kW; switches 48 x 750 W = 36 kW
    assert result.optics_power_kw == pytest.approx(23.04)
    assert result.optics_power_kw_by_device == {"qm9700": pytest.approx(23.04)}
    assert result.switch_power_kw == pytest.approx(36.0)


def test_two_tiers_forced_beyond_their_reach_says_the_limit(catalog):
    # 257 DGX = 2,056 links > 64 leaves x 32 = 2,048
    with pytest.raises(InfeasibleError) as caught:
        plan_fabric("compute", FabricSpec(switch="qm9700", tiers=2), [dgx(257)], catalog)
    [message] = caught.value.as_dict()["fabrics.compute.tiers"]
    assert "two tiers of qm9700 reach at most 64 leaves (2,048 endpoint links" in message
    assert "needs 72 leaves" in message and "set tiers to 3" in message


@pytest.mark.parametrize("k", [64, 144])
def test_k_squared_over_two_limit_picks_the_tiers(with_switch, k):
    catalog = with_switch(radix_switch(k))
    hosts = k * k // 2
    fits = plan_fabric("compute", FabricSpec(switch=f"radix-{k}"), [EndpointGroup("host", hosts, 1, 400)], catalog)
    assert (fits.tier_count, by_role(fits)) == (2, {"leaf": k, "spine": k // 2})
    beyond = plan_fabric("compute", FabricSpec(switch=f"radix-{k}"), [EndpointGroup("host", hosts + 1, 1, 400)], catalog)
    assert beyond.tier_count == 3
    with pytest.raises(InfeasibleError):
        plan_fabric("compute", FabricSpec(switch=f"radix-{k}", tiers=2), [EndpointGroup("host", hosts + 1, 1, 400)], catalog)


@pytest.mark.parametrize(("k", "hosts", "edge", "aggregation", "core"), [(4, 16, 8, 8, 4), (8, 128, 32, 32, 16)])
def test_al_fares_fat_tree_planned(with_switch, k, hosts, edge, aggregation, core):
    catalog = with_switch(radix_switch(k))
    result = plan_fabric("compute", FabricSpec(switch=f"radix-{k}"), [EndpointGroup("host", hosts, 1, 400)], catalog)
    assert by_role(result) == {"leaf": edge, "spine": aggregation, "core": core}
    assert by_segment(result) == {"node-leaf": hosts, "leaf-spine": hosts, "spine-core": hosts}
    assert (result.pods, result.max_switch_hops, result.oversubscription) == (k, 5, 1.0)
    assert all(tier.ports_free == 0 for tier in result.tiers)


def test_oversubscribed_leaves_hand_calculation(catalog):
    """128 DGX H100 on QM9700 at 3:1: a leaf has ceil(64 x 3/4) = 48 ports down, 16 up.
    Units of 48 nodes: ceil(1,024 / (8 x 48)) = 3 units, 24 leaves. Spines: ceil(24 x 16 / 64) = 6
    by ports; the smallest divisor of 16 from 6 is 8 spines, 2 links from each leaf.
    Leaf-spine links 24 x 16 = 384. The third unit is not full, so the effective ratio is
    1,024 / 384 = 2.67, and the bisection 384 x 400G / 2 = 76.8 Tb/s."""
    spec = FabricSpec(switch="qm9700", oversubscription=OversubscriptionSpec(leaf=3))
    result = plan_fabric("compute", spec, [dgx(128)], catalog, gpus_per_node=8)
    assert by_role(result) == {"leaf": 24, "spine": 8}
    assert by_segment(result) == {"node-leaf": 1024, "leaf-spine": 384}
    assert result.oversubscription == pytest.approx(1024 / 384)
    assert result.bisection_tbps == pytest.approx(76.8)
    assert result.gpus_per_leaf == 48


def test_top_of_rack_hand_calculation(catalog):
    """128 DGX H100, 4 per rack (41 kW): 32 racks of 32 compute ports, one 32-down leaf per rack
    placed in the rack; spines ceil(32 x 32 / 64) = 16, which divides 32: 2 links per pair.
    Node-leaf runs stay in the rack (2 m): passive copper, no optics. Leaf-spine 1,024 links,
    512 twin-port modules at each end."""
    spec = FabricSpec(switch="qm9700", leaf_placement="top_of_rack")
    result = plan_fabric("compute", spec, [dgx(128)], catalog, nodes_per_rack=4, gpus_per_node=8)
    assert by_role(result) == {"leaf": 32, "spine": 16}
    assert result.tiers[0].placement == {"compute_rack": 32}
    node_leaf = result.links[0]
    assert (node_leaf.count, node_leaf.media, node_leaf.cable, node_leaf.cable_length_m) == (1024, "dac", "dac-400g", 2)
    assert result.transceivers == 1024
    assert (result.gpus_per_leaf, result.nodes_per_leaf) == (32, 4)
    groups = {(group.role, group.placement): group.count for group in result.switch_groups()}
    assert groups == {("leaf", "compute_rack"): 32, ("spine", "network_rack"): 16}


def test_top_of_rack_with_more_ports_than_one_leaf(catalog):
    """GB200 NVL72: 72 compute ports in one rack; 32 per leaf -> ceil(72 / 32) = 3 leaves per rack,
    said in a warning. 4 racks: 12 leaves."""
    spec = FabricSpec(switch="qm9700", leaf_placement="top_of_rack")
    result = plan_fabric("compute", spec, [EndpointGroup("gb200-nvl72", 4, 72, 400)], catalog,
                         nodes_per_rack=1, gpus_per_node=72)
    assert result.tiers[0].placement == {"compute_rack": 12}
    assert any("3 top-of-rack leaves per rack" in warning for warning in result.warnings)


def test_two_planes_hand_calculation(catalog):
    """64 DGX B300, 8 x 800G NICs, 2 planes: each NIC gives 400G to each plane of QM9700.
    Per plane: 512 links, 16 leaves (2 units), ceil(16 x 32 / 64) = 8 spines. Both planes:
    32 leaves, 16 spines, 1,024 node-leaf and 1,024 leaf-spine cables. One twin-port 800G module
    per NIC serves both planes: 512 NIC modules; leaves 1,024 / 2 = 512; leaf-spine 1,024.
    Bisection 2 planes x 512 x 400G / 2 = 204.8 Tb/s."""
    result = plan_fabric("compute", FabricSpec(switch="qm9700", planes=2), [dgx(64, 800, "dgx-b300")], catalog,
                         gpus_per_node=8)
    assert by_role(result) == {"leaf": 32, "spine": 16}
    assert by_segment(result) == {"node-leaf": 1024, "leaf-spine": 1024}
    assert result.transceivers == 512 + 512 + 1024
    assert result.bisection_tbps == pytest.approx(204.8)
    assert result.links[0].gbps == 400


def test_800g_ports_split_for_400g_nics_hand_calculation(catalog):
    """128 DGX H100 on SN5600 (64 x 800G, split [1, 2, 4]): a leaf has 32 x 800G down, each split
    in two for the 400G NICs (64 x 400G), and 32 x 800G up at the native rate: 64 x 400G down
    need 32 x 800G up at 1:1, not 64 x 400G (half the cables for the same bandwidth).
    Units of 64 nodes: 1,024 / (8 x 64) = 2 units, 16 leaves. Spines of 64 x 800G:
    ceil(16 x 32 / 64) = 8, which divides 32 (4 links per pair). Node-leaf 1,024 x 400G;
    leaf-spine 16 x 32 = 512 x 800G. Optics: 1,024 NIC modules, one twin 2 x 400G module per
    leaf down cage (512), and an 800G module at each end of the 512 leaf-spine links (1,024)."""
    result = plan_fabric("compute", FabricSpec(switch="sn5600"), [dgx(128)], catalog, gpus_per_node=8)
    assert by_role(result) == {"leaf": 16, "spine": 8}
    assert by_segment(result) == {"node-leaf": 1024, "leaf-spine": 512}
    assert [link.gbps for link in result.links] == [400, 800]
    assert [(tier.split, tier.up_split) for tier in result.tiers] == [(2, 1), (1, 1)]
    assert result.transceivers == 1024 + 512 + 1024
    assert {part.sku: part.quantity for part in result.transceiver_parts} == {
        "osfp-400g-sr4": 1024, "osfp-800g-2xsr4": 512, "osfp-800g-dr8": 1024,
    }
    assert result.gpus_per_leaf == 64
    assert result.tiers[0].oversubscription == 1.0
    # at 400G between tiers (the override) the same fabric takes twice the leaf-spine links
    split = plan_fabric("compute", FabricSpec(switch="sn5600", inter_switch_gbps=400), [dgx(128)], catalog,
                        gpus_per_node=8)
    assert by_role(split) == {"leaf": 16, "spine": 8}
    assert by_segment(split) == {"node-leaf": 1024, "leaf-spine": 1024}


def test_51t_switch_split_to_400g_keeps_two_tiers_to_8192_endpoints(catalog):
    """A 64 x 800G switch split 2 x 400G is radix k = 128 at 400G on every tier: two tiers reach
    k^2/2 = 8,192 endpoints (128 leaves of 64 down, 64 spines); 8,200 take a third tier. At the
    native 800G between tiers two tiers reach 64 leaves, 4,096 endpoints: from 513 DGX the
    native rate would need three tiers where the split one needs two, so the ports are split,
    and a warning says why."""
    at_reach = plan_fabric("compute", FabricSpec(switch="sn5600"), [dgx(1024)], catalog, gpus_per_node=8)
    assert at_reach.tier_count == 2
    assert by_role(at_reach) == {"leaf": 128, "spine": 64}
    assert at_reach.links[1].gbps == 400
    assert any("at the native 800 Gb/s the fabric would need 3 tiers, split it needs 2" in warning
               for warning in at_reach.warnings)
    within_native = plan_fabric("compute", FabricSpec(switch="sn5600"), [dgx(512)], catalog, gpus_per_node=8)
    assert (within_native.tier_count, within_native.links[1].gbps) == (2, 800)
    beyond = plan_fabric("compute", FabricSpec(switch="sn5600"), [dgx(1025)], catalog, gpus_per_node=8)
    assert beyond.tier_count == 3
    native = FabricSpec(switch="sn5600", inter_switch_gbps=800)
    assert plan_fabric("compute", native, [dgx(512)], catalog, gpus_per_node=8).tier_count == 2
    assert plan_fabric("compute", native, [dgx(513)], catalog, gpus_per_node=8).tier_count == 3


def test_spine_switch_can_differ_from_the_leaf(catalog):
    """SN2201 management leaves (48 x 1G, 4 x 100G uplinks) under SN5600 spines whose 800G
    ports split 4 ways to 200G and run the 100G uplinks: 200 hosts -> ceil(200 / 48) = 5 leaves,
    20 uplinks -> one spine (divides 4); the fixed uplinks give 48 / 400 = 0.12:1."""
    spec = FabricSpec(switch="sn2201", spine_switch="sn5600")
    result = plan_fabric("oob", spec, [EndpointGroup("host", 200, 1, 1)], catalog)
    assert by_role(result) == {"leaf": 5, "spine": 1}
    assert [tier.switch for tier in result.tiers] == ["sn2201", "sn5600"]
    assert result.links[0].media == "twisted_pair"
    assert any("sn5600 spines of the oob fabric cannot run the leaves' 100 Gb/s" in warning
               for warning in result.warnings)
