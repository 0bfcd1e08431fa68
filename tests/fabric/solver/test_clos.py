"""Folded Clos counts: the fewest upper switches, the balance rule where it is cheap, the two- and
three-tier reach, Al-Fares fat trees."""

import pytest

from fabric.solver.clos import (
    max_switch_hops,
    smallest_divisor_at_least,
    pod_leaves,
    three_tier_counts,
    three_tier_max_leaves,
    two_tier_counts,
    two_tier_max_leaves,
    upper_tier,
)


@pytest.mark.parametrize(
    ("number", "minimum", "divisor"),
    [(32, 12, 16), (32, 4, 4), (32, 33, None), (21, 4, 7), (1, 1, 1), (36, 7, 9), (97, 2, 97)],
)
def test_smallest_divisor_at_least(number, minimum, divisor):
    assert smallest_divisor_at_least(number, minimum) == divisor


def test_balance_rule_sets_the_spines_of_three_scalable_units():
    # 24 leaves x 32 uplinks = 768 links; 768 / 64 = 12 spines by ports, but 12 does not divide
    # 32; 16 does and 16 <= 1.25 x 12 + 1 = 16: 16 spines, 2 links from every leaf to each, 48
    # of 64 spine ports used (NVIDIA RA-11333-001 Table 4).
    tier = upper_tier(24, 32, 64)
    assert (tier.switches, tier.links, tier.down_links_used, tier.balanced) == (16, 768, 48, True)


def test_awkward_uplink_counts_take_the_fewest_spines():
    # 128 DGX H100 at 2:1: 24 leaves of 21 uplinks = 504 links; ceil(504 / 64) = 8 spines by
    # ports. The divisors of 21 are 1, 3, 7, 21: none in [8, 1.25 x 8 + 1 = 11], so 8 spines,
    # 504 / 8 = 63 links each, every leaf 2 or 3 links to each (21 = 5 x 3 + 3 x 2).
    tier = upper_tier(24, 21, 64)
    assert (tier.switches, tier.down_links_used, tier.balanced) == (8, 63, True)
    # 16 leaves of 59 uplinks (a 16/15 ratio read one port short) on 128-port spines:
    # ceil(944 / 128) = 8 spines, not 59; 118 links each.
    tier = upper_tier(16, 59, 128)
    assert (tier.switches, tier.down_links_used) == (8, 118)
    # 5 leaves of 7 uplinks on 16-port spines: ceil(35 / 16) = 3; 7 (divisor) > 1.25 x 3 + 1:
    # 3 spines, ceil(35 / 3) = 12 links on the fullest, 11 on the others; not balanced.
    tier = upper_tier(5, 7, 16)
    assert (tier.switches, tier.down_links_used, tier.balanced) == (3, 12, False)


def test_upper_tier_cannot_reach_more_lower_switches_than_upper_ports():
    assert upper_tier(65, 32, 64) is None
    assert upper_tier(64, 32, 64).switches == 32
    # the last lower switch has 2 uplinks: it reaches at most 2 upper switches; 3 are needed
    assert upper_tier(4, 32, 48, last_uplinks=2) is None
    assert upper_tier(3, 32, 48, last_uplinks=2).switches == 2


@pytest.mark.parametrize("k", [4, 8, 64, 144])
def test_two_tiers_reach_k_squared_over_two(k):
    # k leaves of k/2 endpoints, k/2 spines: k^2/2 endpoints (k = 64: 2,048; k = 144: 10,368)
    leaves = two_tier_max_leaves(k)
    counts = two_tier_counts(leaves, k // 2, k)
    assert leaves * k // 2 == k * k // 2
    assert (counts.leaves, counts.spines, counts.spine_down_links_used) == (k, k // 2, k)
    assert two_tier_counts(leaves + 1, k // 2, k) is None


@pytest.mark.parametrize(("k", "hosts", "switches"), [(4, 16, 20), (8, 128, 80)])
def test_al_fares_k_ary_fat_tree(k, hosts, switches):
    """Al-Fares et al. 2008, section 3: k pods of k/2 edge and k/2 aggregation switches,
    (k/2)^2 cores; k^3/4 hosts, 5k^2/4 switches."""
    leaves = hosts // (k // 2)
    counts = three_tier_counts(leaves, k // 2, k // 2, lambda used: used, k)
    assert (counts.pods, counts.leaves_per_pod, counts.spines_per_pod) == (k, k // 2, k // 2)
    assert counts.cores == (k // 2) ** 2
    assert counts.leaves + counts.spines + counts.cores == switches == 5 * k * k // 4
    assert counts.leaf_spine_links == counts.spine_core_links == k ** 3 // 4
    assert three_tier_max_leaves(k, k // 2) * k // 2 == k ** 3 // 4


def test_three_tiers_keep_scalable_units_whole_in_a_pod():
    # 40 leaves = 5 units of 8 rails; a spine reaches 32 leaves = 4 units. Two pods of 3 units
    # (24 leaves) and 2 units (16). Full pod: ceil(24 x 32 / 32) = 24 spines by ports; 32 divides
    # 32 but 32 > 1.25 x 24 + 1 = 31: 24 spines of 32 links, cabling 32 uplinks at 1:1. Last pod:
    # ceil(16 x 32 / 32) = 16 spines, which divides 32: 2 links a pair, 32 uplinks each.
    # Cores: 24 x 32 + 16 x 32 = 1,280 links / 64 = 20; 20 does not divide 768 but 24 does and
    # 24 <= 1.25 x 20 + 1 = 26: 24 cores, 1,280 / 24 -> 54 links on the fullest.
    counts = three_tier_counts(40, 32, 32, lambda used: used, 64, leaves_per_unit=8)
    assert (counts.pods, counts.leaves_per_pod, counts.last_pod_leaves) == (2, 24, 16)
    assert (counts.spines_per_pod, counts.last_pod_spines) == (24, 16)
    assert (counts.spine_down_links_used, counts.spine_uplinks) == (32, 32)
    assert (counts.last_pod_spine_down_links_used, counts.last_pod_spine_uplinks) == (32, 32)
    assert counts.leaf_spine_links == counts.spine_core_links == 1280
    assert (counts.cores, counts.core_down_links_used) == (24, 54)


def test_just_past_two_tiers_the_cores_follow_the_links():
    """8,193 hosts on radix-128 switches at 1:1: 129 leaves of 64 down, one more than two tiers
    reach. Pods of at most 64 leaves: 3 pods of 43. A pod's spines: ceil(43 x 64 / 64) = 43; the
    divisor 64 > 1.25 x 43 + 1: 43 spines of 64 down links, 64 uplinks. Cores: 3 x 43 x 64 =
    8,256 links / 128 = 65 (the divisors of 2,752 near it are 64 and 86): 65 cores, not the
    43 groups x 64 = 2,752 of a core group per spine."""
    counts = three_tier_counts(129, 64, 64, lambda used: used, 128)
    assert (counts.pods, counts.leaves_per_pod, counts.spines_per_pod) == (3, 43, 43)
    assert (counts.spines, counts.cores) == (129, 65)
    assert counts.spine_core_links == counts.leaf_spine_links == 8256


def test_a_partly_filled_last_pod_buys_only_the_links_its_leaves_need():
    """65 hosts-worth of leaves: 129 leaves of 64 uplinks on radix-64 spines of 32 down, 1:1.
    Pods of at most 32 leaves: 129 / 32 -> 5 pods of 26 (ceil(129 / 5)), the last 25. Spines of
    the full pods: ceil(26 x 64 / 32) = 52 -> 64 (divides 64, <= 66): 26 down links each, 26 up.
    Last pod: ceil(25 x 64 / 32) = 50 spines (64 > 1.25 x 50 + 1): 1,600 / 50 = 32 down links
    each, 32 up. Spine-core links = leaf-spine links: 4 x 64 x 26 + 50 x 32 = 8,256 = 129 x 64;
    never more than come up from the leaves."""
    counts = three_tier_counts(129, 64, 32, lambda used: used, 64)
    assert (counts.pods, counts.leaves_per_pod, counts.last_pod_leaves) == (5, 26, 25)
    assert (counts.spines_per_pod, counts.last_pod_spines) == (64, 50)
    assert (counts.spine_uplinks, counts.last_pod_spine_uplinks) == (26, 32)
    assert counts.spine_core_links == counts.leaf_spine_links == 8256


def test_a_small_last_pod_keeps_a_link_to_every_core():
    """3 full pods of 8 leaves and a last pod of 1, radix-16 switches at 1:1 (8 down, 8 up).
    A full pod: 8 leaves x 8 uplinks / 8 = 8 spines, 8 uplinks each: 64 links a pod. The last
    pod by its leaf: ceil(8 / 8) = 1 spine of 8 links, 8 uplinks. Cores: (3 x 64 + 8) / 16 ->
    13 by ports, more than the last pod's 8 links, so a core would miss it: the pod takes
    ceil(13 / 8) = 2 spines (4 leaf links each), each cabling ceil(13 / 2) = 7 uplinks (14 >= 13,
    below the ratio), and the cores hold (192 + 14) / 16 -> 13."""
    counts = three_tier_counts(25, 8, 8, lambda used: used, 16, leaves_per_pod=8, spine_up_links=8)
    assert (counts.pods, counts.last_pod_leaves, counts.last_pod_spines) == (4, 1, 2)
    assert (counts.last_pod_spine_down_links_used, counts.last_pod_spine_uplinks) == (4, 7)
    assert counts.cores == 13
    assert counts.spine_core_links == 3 * 64 + 14


def test_pods_of_the_size_the_architect_sets():
    # 1,536 top-of-rack leaves in pods of 192 (Meta, arXiv:2407.21783, 3.3.1): 8 pods; each leaf
    # cables 16 uplinks; spines of 504 down links: ceil(192 x 16 / 504) = 7 -> 8 spines (divides
    # 16), 2 links from every leaf to each, 384 down links used per spine.
    counts = three_tier_counts(1536, 16, 504, lambda used: used // 7, 576, leaves_per_pod=192)
    assert (counts.pods, counts.leaves_per_pod, counts.spines_per_pod) == (8, 192, 8)
    assert counts.spine_down_links_used == 384
    assert counts.spine_uplinks == 384 // 7 == 54
    assert pod_leaves(1536, 504, 1, 600) is None


@pytest.mark.parametrize(("tiers", "hops"), [(1, 1), (2, 3), (3, 5)])
def test_max_switch_hops(tiers, hops):
    assert max_switch_hops(tiers) == hops
