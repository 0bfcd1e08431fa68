"""The designs built today: top-of-rack pods, rack-scale systems, 51.2T Ethernet at 400G.

Published cases are fixtures named after their source; the rest are hand calculations written
out in each test.
"""

from dataclasses import replace

import pytest

from catalog.solver.fabric_parts import SwitchSpec
from core.solver.errors import InfeasibleError, ScenarioError
from core.solver.interfaces import EndpointGroup
from fabric.solver.endpoints import system_endpoints
from fabric.solver.fabric import plan_fabric
from fabric.solver.specs import FabricSpec, OversubscriptionSpec


def by_role(result) -> dict[str, int]:
    return {tier.role: tier.switches for tier in result.tiers}


def by_segment(result) -> dict[str, int]:
    return {link.segment: link.count for link in result.links}


@pytest.fixture
def meta_llama3_cluster():
    """Meta, "The Llama 3 Herd of Models" (arXiv:2407.21783), section 3.3.1, the RoCE cluster:
    each rack holds 16 GPUs in two servers under one Minipack2 ToR (400 Gb/s per GPU); 192 racks
    form a pod of 3,072 GPUs with full bisection bandwidth (Arista 7800 cluster switches); eight
    pods form a 24K-GPU cluster whose aggregation layer is oversubscribed 1:7.

    The switches as the paper names them: Minipack2 (Broadcom Tomahawk 4, 25.6 Tb/s: 64 x 400G)
    and a modular Arista 7800R3-class chassis (576 x 400G in the 16-slot 7816R3)."""
    minipack2 = SwitchSpec(
        slug="minipack2", name="Meta Minipack2 (Tomahawk 4)", price_usd=40_000, ports=64, port_gbps=400,
        split=(1, 2, 4), power_w=1_500, rack_units=2,
    )
    chassis = SwitchSpec(
        slug="arista-7816r3", name="Arista 7816R3 (16 line cards)", price_usd=2_000_000, ports=576,
        port_gbps=400, split=(1, 2, 4), power_w=20_000, rack_units=29, modular=True,
    )
    spec = FabricSpec(
        switch="minipack2", spine_switch="arista-7816r3", leaf_placement="top_of_rack",
        leaves_per_pod=192, oversubscription=OversubscriptionSpec(leaf=1, spine=7),
    )
    return spec, (minipack2, chassis), {"racks": 8 * 192, "servers_per_rack": 2, "gpus": 24_576}


def test_meta_llama3_cluster_pods_and_oversubscription(catalog, meta_llama3_cluster):
    """3,072 servers of 8 x 400G, 2 per rack: 1,536 ToR leaves, each 16 down and (1:1) 16 up.
    Pods of 192 leaves: 8 pods. Spines of 576 ports at 7:1 take d = ceil(576 x 7 / 8) = 504 down:
    ceil(192 x 16 / 504) = 7 -> 8 spines per pod (divides 16), 2 links per leaf, 384 used down
    links; uplinks floor(384 / 7) = 54, so 384 / 54 = 7.11:1 (55 would be 6.98:1). Cores: 8 pods
    x 54 uplinks of spine i fit one 576-port core (m = 54): 8 groups, 8 cores."""
    spec, switches, published = meta_llama3_cluster
    catalog = replace(catalog, switches={**catalog.switches, **{part.slug: part for part in switches}})
    servers = published["racks"] * published["servers_per_rack"]
    result = plan_fabric(
        "compute", spec, [EndpointGroup("hgx-h100", servers, 8, 400)], catalog,
        nodes_per_rack=published["servers_per_rack"], gpus_per_node=8,
    )
    assert servers * 8 == published["gpus"]
    assert result.pods == 8 and result.leaves_per_pod == 192
    assert by_role(result) == {"leaf": 1536, "spine": 64, "core": 6}
    assert result.tiers[2].ports_free == 0
    leaf, spine, core = result.tiers
    assert (leaf.down_links_per_switch, leaf.up_links_per_switch) == (32, 16)
    assert leaf.oversubscription == 1.0
    assert (spine.up_links_per_switch, round(spine.oversubscription, 2)) == (54, 7.11)
    assert 384 / 55 < 7 <= spine.oversubscription
    assert core.oversubscription is None
    assert by_segment(result) == {"node-leaf": 24_576, "leaf-spine": 1536 * 16, "spine-core": 64 * 54}
    assert result.tiers[0].placement == {"compute_rack": 1536}


def test_top_of_rack_leaf_uplinks_follow_the_ports_used(catalog):
    """Four HGX H100 per rack would fill an SN5600 leaf's 64 x 400G down links; two per rack use
    16 of them (6.4 Tb/s). At 1:1 the leaf cables 8 x 800G uplinks at the native rate, not the
    32 a full leaf has. At 3:1, whole 800G uplinks give floor(6,400 / 2,400) = 2: 4:1, a third
    off; split to 400G, floor(16 / 3) = 5: 3.2:1 (4 would give 4:1 and 6 2.67:1), closer, so the
    ports are split, and warnings say why and what the remaining 7 % costs."""
    group = EndpointGroup("hgx-h100", 64, 8, 400)
    spec = FabricSpec(switch="sn5600", leaf_placement="top_of_rack")
    result = plan_fabric("compute", spec, [group], catalog, nodes_per_rack=2, gpus_per_node=8)
    leaf = result.tiers[0]
    assert (leaf.switches, leaf.up_links_per_switch, leaf.oversubscription) == (32, 8, 1.0)
    assert by_segment(result)["leaf-spine"] == 32 * 8
    spec = replace(spec, oversubscription=OversubscriptionSpec(leaf=3))
    result = plan_fabric("compute", spec, [group], catalog, nodes_per_rack=2, gpus_per_node=8)
    leaf = result.tiers[0]
    assert (leaf.up_links_per_switch, leaf.oversubscription, leaf.oversubscription_asked) == (5, 3.2, 3)
    assert result.links[-1].gbps == 400
    assert any("at the native 800 Gb/s its leaves would deliver 4:1 where 3:1 was asked" in warning
               for warning in result.warnings)
    # 32 leaves x (5 - 5 x 3.2 / 3) = -10.7 uplinks against the exact ratio
    assert any("leaves deliver 3.2:1 where 3:1 was asked" in warning and "11 uplinks fewer" in warning
               for warning in result.warnings)


def test_delivered_ratio_is_at_least_the_request_within_one_port(catalog):
    """128 DGX H100 on QM9700 at 2:1: a leaf has ceil(64 x 2 / 3) = 43 ports down and 21 up;
    full leaves use 43 and cable floor(43 / 2) = 21 uplinks: 2.048:1 (22 would give 1.95:1)."""
    spec = FabricSpec(switch="qm9700", oversubscription=OversubscriptionSpec(leaf=2))
    leaf = plan_fabric("compute", spec, [EndpointGroup("dgx-h100", 128, 8, 400)], catalog).tiers[0]
    assert (leaf.down_links_per_switch, leaf.up_links_per_switch) == (43, 21)
    assert leaf.oversubscription == pytest.approx(43 / 21)
    assert 43 / 22 < 2 <= leaf.oversubscription


def test_gb200_nvl72_rails_follow_the_compute_tray(catalog):
    """One scalable unit of 8 GB200 NVL72 racks: 8 x 18 = 144 compute trays of 4 x 400G NICs
    (NVIDIA DGX GB200 user guide: 4 ConnectX-7 per tray), so 4 rails, not 72. QM9700 leaves of
    32 down: units of 32 trays, ceil(144 / 32) = 5 units, 20 leaves; 576 links. Leaves in the
    last unit hold 16 trays; the fullest hold 32 and cable 32 uplinks. Spines: ceil(20 x 32 / 64)
    = 10 by ports; the divisor 16 > 1.25 x 10 + 1, so 10 spines of 64 links (every leaf 3 or 4
    links to each). Two tiers and 30 switches, not three tiers and 200."""
    system = catalog.systems["gb200-nvl72"]
    group = system_endpoints(system, 8, "compute")
    assert (group.count, group.ports_per_endpoint, group.trays, group.rails) == (8, 72, 18, 4)
    result = plan_fabric("compute", FabricSpec(switch="qm9700"), [group], catalog, gpus_per_node=72)
    assert result.rails == 4 and result.scalable_units == 5
    assert by_role(result) == {"leaf": 20, "spine": 10}
    assert by_segment(result) == {"node-leaf": 576, "leaf-spine": 20 * 32}
    assert result.tiers[1].ports_free == 0
    assert result.tier_count == 2
    assert not any("rails" in warning for warning in result.warnings)


def test_pods_must_hold_whole_scalable_units(catalog):
    spec = FabricSpec(switch="qm9700", leaves_per_pod=12)
    with pytest.raises(ScenarioError) as caught:
        plan_fabric("compute", spec, [EndpointGroup("dgx-h100", 256, 8, 400)], catalog)
    (error,) = caught.value.errors
    assert error.path == "fabrics.compute.leaves_per_pod"
    assert "whole scalable units of 8 leaves" in error.message and "8 or 16" in error.message


def test_pods_beyond_a_spine_reach_say_so(catalog):
    spec = FabricSpec(switch="qm9700", leaves_per_pod=64, tiers=3)
    with pytest.raises(InfeasibleError) as caught:
        plan_fabric("compute", spec, [EndpointGroup("dgx-h100", 512, 8, 400)], catalog)
    (error,) = caught.value.errors
    assert error.path == "fabrics.compute.leaves_per_pod"
    assert "reaches at most 32 leaves" in error.message


def test_smaller_pods_than_a_spine_reaches(catalog):
    """256 DGX H100 = 2,048 links: 8 units of 8 QM9700 leaves, 64 leaves, which two tiers reach
    (k^2/2 = 2,048). In pods of 32 leaves: 2 pods under a core tier. A spine at 1:1 has 32 down:
    ceil(32 x 32 / 32) = 32 spines per pod, one link per pair, 32 uplinks each. Cores: 2 pods x
    32 x 32 = 2,048 links / 64 = 32, which divides a pod's 1,024: 32 links from each pod to each."""
    group = EndpointGroup("dgx-h100", 256, 8, 400)
    assert plan_fabric("compute", FabricSpec(switch="qm9700"), [group], catalog).tier_count == 2
    result = plan_fabric("compute", FabricSpec(switch="qm9700", leaves_per_pod=32), [group], catalog)
    assert result.tier_count == 3 and result.pods == 2 and result.leaves_per_pod == 32
    assert (result.spines_per_pod, result.last_pod_spines) == (32, 32)
    assert by_role(result) == {"leaf": 64, "spine": 64, "core": 32}


@pytest.fixture
def alibaba_hpn_segment():
    """Alibaba HPN (Qian et al., "Alibaba HPN: A Data Center Network for Large Language Model
    Training", SIGCOMM 2024): a segment of 128 active hosts of 8 GPUs, each NIC 2 x 200G to two
    ToRs in different planes (dual-ToR, dual-plane); a 51.2 Tb/s ToR has 128 active + 8 backup
    200G ports down and 60 x 400G up: 128 x 200 / (60 x 400) = 1.067:1."""
    return {"hosts": 128, "active": 128, "backup": 8, "uplinks": 60, "ratio": 128 * 200 / (60 * 400)}


def test_alibaba_hpn_dual_plane_tor_with_backup_ports(catalog, alibaba_hpn_segment):
    """th5-64x800 (64 x 800G, split [1, 2, 4]) at 200G down, 400G up, 8 backups:
    d = ceil((64 x 16/15 + 8 / 4) / (31/15)) = 34 ports = 136 x 200G (128 active + 8 backup),
    30 ports = 60 x 400G up. 128 hosts x 8 NICs, 2 planes: per plane one leaf per rail, 8; 16
    ToRs. Per plane, 8 leaves x 60 uplinks to spines of 128 x 400G: ceil(480 / 128) = 4,
    which divides 60 (15 links per pair); 8 spines."""
    hpn = alibaba_hpn_segment
    spec = FabricSpec(
        switch="th5-64x800", planes=2, inter_switch_gbps=400, backup_ports=hpn["backup"],
        oversubscription=OversubscriptionSpec(leaf=hpn["ratio"]),
    )
    result = plan_fabric("compute", spec, [EndpointGroup("hgx-h800", hpn["hosts"], 8, 400)], catalog,
                         gpus_per_node=8)
    leaf = result.tiers[0]
    assert (leaf.switches, result.links[0].gbps) == (16, 200)
    assert (leaf.down_links_per_switch, leaf.reserved_links_per_switch) == (hpn["active"], hpn["backup"])
    assert leaf.up_links_per_switch == hpn["uplinks"]
    assert leaf.oversubscription == pytest.approx(hpn["ratio"]) == pytest.approx(1.067, abs=5e-4)
    assert (leaf.down_ports, leaf.split, leaf.up_split) == (34, 4, 2)
    # every port of a ToR is used or held: 32 active + 2 backup + 30 up = 64
    assert leaf.ports_used + leaf.ports_reserved == 16 * 64 and leaf.ports_free == 0
    assert by_role(result) == {"leaf": 16, "spine": 8}
    assert by_segment(result) == {"node-leaf": 128 * 8 * 2, "leaf-spine": 16 * 60}
