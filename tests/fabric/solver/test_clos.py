"""Folded Clos counts: the balance rule, the two- and three-tier reach, Al-Fares fat trees."""

import pytest

from fabric.solver.clos import (
    balanced_upper_tier,
    max_switch_hops,
    smallest_divisor_at_least,
    pod_leaves,
    three_tier_counts,
    three_tier_max_leaves,
    two_tier_counts,
    two_tier_max_leaves,
)


@pytest.mark.parametrize(
    ("number", "minimum", "divisor"),
    [(32, 12, 16), (32, 4, 4), (32, 33, None), (21, 4, 7), (1, 1, 1), (36, 7, 9), (97, 2, 97)],
)
def test_smallest_divisor_at_least(number, minimum, divisor):
    assert smallest_divisor_at_least(number, minimum) == divisor


def test_balance_rule_sets_the_spines_of_three_scalable_units():
    # 24 leaves x 32 uplinks = 768 links; 768 / 64 = 12 spines by ports, but 12 does not divide
    # 32: 16 spines, 2 links from every leaf to each, 48 of 64 spine ports used.
    tier = balanced_upper_tier(24, 32, 64)
    assert (tier.switches, tier.links_per_pair, tier.down_links_used) == (16, 2, 48)


def test_balance_rule_cannot_reach_more_lower_switches_than_upper_ports():
    assert balanced_upper_tier(65, 32, 64) is None
    assert balanced_upper_tier(64, 32, 64).switches == 32


@pytest.mark.parametrize("k", [4, 8, 64, 144])
def test_two_tiers_reach_k_squared_over_two(k):
    # k leaves of k/2 endpoints, k/2 spines: k^2/2 endpoints (k = 64: 2,048; k = 144: 10,368)
    leaves = two_tier_max_leaves(k)
    counts = two_tier_counts(leaves, k // 2, k)
    assert leaves * k // 2 == k * k // 2
    assert (counts.leaves, counts.spines, counts.leaf_spine_links_per_pair) == (k, k // 2, 1)
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
    # (24 leaves) and 2 units (16): spines per pod by balance: ceil(24 x 32 / 32) = 24 -> 32.
    # Each spine then uses 24 of its 32 down links and, at 1:1, cables 24 uplinks.
    counts = three_tier_counts(40, 32, 32, lambda used: used, 64, leaves_per_unit=8)
    assert (counts.pods, counts.leaves_per_pod, counts.last_pod_leaves) == (2, 24, 16)
    assert counts.spines_per_pod == 32
    assert (counts.spine_down_links_used, counts.spine_uplinks) == (24, 24)


def test_pods_of_the_size_the_architect_sets():
    # 1,536 top-of-rack leaves in pods of 192 (Meta, arXiv:2407.21783, 3.3.1): 8 pods; each leaf
    # cables 16 uplinks; spines of 504 down links: ceil(192 x 16 / 504) = 7 -> 8 spines (divides
    # 16), 2 links from every leaf to each, 384 down links used per spine.
    counts = three_tier_counts(1536, 16, 504, lambda used: used // 7, 576, leaves_per_pod=192)
    assert (counts.pods, counts.leaves_per_pod, counts.spines_per_pod) == (8, 192, 8)
    assert (counts.leaf_spine_links_per_pair, counts.spine_down_links_used) == (2, 384)
    assert counts.spine_uplinks == 384 // 7 == 54
    assert pod_leaves(1536, 504, 1, 600) is None


@pytest.mark.parametrize(("tiers", "hops"), [(1, 1), (2, 3), (3, 5)])
def test_max_switch_hops(tiers, hops):
    assert max_switch_hops(tiers) == hops
