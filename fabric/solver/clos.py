"""Folded Clos (fat-tree) fabrics of one, two or three tiers, counted in closed form.

Sizes follow from two engineering rules rather than from dividing port totals:

- Reach: a spine must have at least one link to every leaf of its pod, and a core to every pod.
- Balance: every leaf has the same number of links to every spine of its pod, and every spine the
  same number to every core of its group, so that ECMP spreads traffic evenly. The number of
  upper switches therefore divides the uplinks of a lower switch.

References: C. E. Leiserson, "Fat-trees", IEEE Trans. Computers C-34(10), 1985;
M. Al-Fares, A. Loukissas, A. Vahdat, "A Scalable, Commodity Data Center Network Architecture",
SIGCOMM 2008, section 3 (https://doi.org/10.1145/1402958.1402967); NVIDIA DGX SuperPOD H100
reference architecture, compute fabric (RA-11333-001).
"""

import math
from collections.abc import Callable
from dataclasses import dataclass


def smallest_divisor_at_least(number: int, minimum: int) -> int | None:
    """The smallest divisor of `number` that is at least `minimum`, or None when there is none."""
    divisors = set()
    for small in range(1, math.isqrt(number) + 1):
        if number % small == 0:
            divisors.update((small, number // small))
    return min((divisor for divisor in divisors if divisor >= minimum), default=None)


@dataclass(frozen=True)
class BalancedTier:
    """The upper switches that a set of lower switches connects to with equal links per pair."""

    switches: int
    links_per_pair: int
    """Links from each lower switch to each upper switch."""
    down_links_used: int
    """Down links in use on each upper switch: lower switches x links_per_pair."""


def balanced_upper_tier(
    lower_switches: int, uplinks_per_lower: int, down_links_per_upper: int
) -> BalancedTier | None:
    """Fewest upper switches such that every lower switch has m links to every upper switch.

    S = the smallest divisor of u with S >= ceil(L * u / p), m = u / S, for L lower switches with
    u uplinks each and upper switches of p down links: S divides u (balance) and L * m <= p (the
    links fit). None when L > p, where not even one link per pair fits: the tier cannot reach.

    DGX SuperPOD H100 (u = 32, p = 64): 24 leaves need ceil(24 x 32 / 64) = 12 spines by ports,
    but 12 does not divide 32: 16 spines with 2 links from every leaf to each.
    """
    if lower_switches <= 0:
        return BalancedTier(0, 0, 0)
    needed = math.ceil(lower_switches * uplinks_per_lower / down_links_per_upper)
    switches = smallest_divisor_at_least(uplinks_per_lower, needed)
    if switches is None:
        return None
    links_per_pair = uplinks_per_lower // switches
    return BalancedTier(switches, links_per_pair, lower_switches * links_per_pair)


def two_tier_max_leaves(spine_down_links: int, leaves_per_unit: int = 1) -> int:
    """Most leaves two tiers reach: a spine has one link to each leaf, so L <= p (whole units).

    With k-port switches, non-blocking (d = k/2 endpoints per leaf): k leaves, k/2 spines and
    k^2/2 endpoints (k = 64: 2,048).
    """
    return _whole_units(spine_down_links, leaves_per_unit)


def three_tier_max_leaves(core_ports: int, spine_down_links: int, leaves_per_unit: int = 1) -> int:
    """Most leaves three tiers reach: at most p pods of the leaves one spine reaches, one core
    link per pod. k-port switches, non-blocking: k pods x k/2 leaves x k/2 endpoints = k^3/4."""
    return core_ports * _whole_units(spine_down_links, leaves_per_unit)


def _whole_units(leaves: int, leaves_per_unit: int) -> int:
    if leaves_per_unit <= 1 or leaves < leaves_per_unit:
        return leaves
    return leaves // leaves_per_unit * leaves_per_unit


@dataclass(frozen=True)
class ClosCounts:
    """Switches and links of one plane of a folded Clos."""

    tiers: int
    leaves: int
    spines: int
    cores: int
    pods: int
    leaves_per_pod: int
    """Leaves a pod is built for (the last pod may hold fewer)."""
    spines_per_pod: int
    cores_per_group: int
    """Cores that spine i of every pod connects to (there are spines_per_pod groups)."""
    leaf_spine_links_per_pair: int
    spine_core_links_per_pair: int
    leaf_spine_links: int
    spine_core_links: int
    spine_down_links_used: int
    """Down links in use on the fullest spine."""
    core_down_links_used: int
    last_pod_leaves: int
    leaf_uplinks: int = 0
    """Uplinks each leaf cables."""
    spine_uplinks: int = 0
    """Uplinks each spine cables (three tiers)."""


def single_switch_counts() -> ClosCounts:
    """One switch holds every endpoint: one tier, no inter-switch links."""
    return ClosCounts(1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1)


def two_tier_counts(leaves: int, leaf_uplinks: int, spine_down_links: int) -> ClosCounts | None:
    """Leaf-spine: every leaf cabled with all its uplinks to spines sized by the balance rule.

    leaf-spine links = L x u (a leaf's uplinks are all cabled, so it can be filled without
    re-cabling: the H100 SuperPOD builds leaf-spine cabling for full scalable units).
    """
    spine_tier = balanced_upper_tier(leaves, leaf_uplinks, spine_down_links)
    if spine_tier is None:
        return None
    return ClosCounts(
        tiers=2, leaves=leaves, spines=spine_tier.switches, cores=0, pods=1,
        leaves_per_pod=leaves, spines_per_pod=spine_tier.switches, cores_per_group=0,
        leaf_spine_links_per_pair=spine_tier.links_per_pair, spine_core_links_per_pair=0,
        leaf_spine_links=leaves * leaf_uplinks, spine_core_links=0,
        spine_down_links_used=spine_tier.down_links_used, core_down_links_used=0,
        last_pod_leaves=leaves, leaf_uplinks=leaf_uplinks,
    )


def pod_leaves(
    leaves: int, spine_down_links: int, leaves_per_unit: int = 1, leaves_per_pod: int | None = None
) -> tuple[int, int] | None:
    """Leaves per pod and pods: pods hold whole units of leaves (a scalable unit: one leaf per
    rail) up to what one spine reaches, spread over the fewest pods, as equal as whole units allow;
    or `leaves_per_pod` as the architect sets it (Meta's Llama 3 cluster: 192 top-of-rack leaves
    per pod, arXiv:2407.21783, section 3.3.1). None when no pod fits a spine's reach.
    """
    pod_max = _whole_units(spine_down_links, leaves_per_unit)
    unit = leaves_per_unit if leaves_per_unit > 1 and pod_max >= leaves_per_unit else 1
    if leaves_per_pod is not None:
        if leaves_per_pod > spine_down_links:
            return None
        per_pod = min(leaves_per_pod, leaves)
        return per_pod, math.ceil(leaves / per_pod)
    units = math.ceil(leaves / unit)
    units_per_pod_max = pod_max // unit
    if units_per_pod_max < 1:
        return None
    units_per_pod = math.ceil(units / math.ceil(units / units_per_pod_max))
    per_pod = min(units_per_pod * unit, leaves)
    return per_pod, math.ceil(units / units_per_pod)


def three_tier_counts(
    leaves: int,
    leaf_uplinks: int,
    spine_down_links: int,
    spine_uplinks_for: Callable[[int], int],
    core_ports: int,
    leaves_per_unit: int = 1,
    leaves_per_pod: int | None = None,
) -> ClosCounts | None:
    """Leaf-spine pods joined by a core tier; None when the leaves exceed three tiers' reach.

    Pods follow `pod_leaves`. Within a pod the spines follow the balance rule
    (`balanced_upper_tier`); each spine cables `spine_uplinks_for(down links it uses)` uplinks
    (`ports.uplinks_for_used_ports`), and spine i of every pod connects to core group i, whose size
    follows the same rule over the pods: cores = spines_per_pod x cores_per_group. Al-Fares k-ary
    fat tree: k pods of k/2 + k/2 switches and (k/2)^2 cores.
    """
    shape = pod_leaves(leaves, spine_down_links, leaves_per_unit, leaves_per_pod)
    if shape is None:
        return None
    per_pod, pods = shape
    spine_tier = balanced_upper_tier(per_pod, leaf_uplinks, spine_down_links)
    if spine_tier is None:
        return None
    spine_uplinks = spine_uplinks_for(spine_tier.down_links_used)
    core_tier = balanced_upper_tier(pods, spine_uplinks, core_ports) if spine_uplinks else None
    if core_tier is None:
        return None
    spines = pods * spine_tier.switches
    return ClosCounts(
        tiers=3, leaves=leaves, spines=spines, cores=spine_tier.switches * core_tier.switches,
        pods=pods, leaves_per_pod=per_pod, spines_per_pod=spine_tier.switches,
        cores_per_group=core_tier.switches,
        leaf_spine_links_per_pair=spine_tier.links_per_pair,
        spine_core_links_per_pair=core_tier.links_per_pair,
        leaf_spine_links=leaves * leaf_uplinks, spine_core_links=spines * spine_uplinks,
        spine_down_links_used=spine_tier.down_links_used,
        core_down_links_used=core_tier.down_links_used,
        last_pod_leaves=leaves - (pods - 1) * per_pod,
        leaf_uplinks=leaf_uplinks, spine_uplinks=spine_uplinks,
    )


def max_switch_hops(tiers: int) -> int:
    """Switches crossed on the longest shortest path between two endpoints: 2 x tiers - 1
    (leaf; leaf-spine-leaf; leaf-spine-core-spine-leaf)."""
    return 2 * tiers - 1
