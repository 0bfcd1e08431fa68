"""Folded Clos (fat-tree) fabrics of one, two or three tiers, counted in closed form.

Sizes follow from the links in use, with the fewest switches that hold them:

- Reach: a spine has at least one link to every leaf of its pod, and a core to every pod.
- Ports: an upper tier of S switches of p down links holds its lower switches' links when
  ceil(links / S) <= p, so S >= ceil(links / p), the tier's lower bound.
- Spread: the lower switches' uplinks are dealt to the upper switches in turn, a cage's links
  together (a twin-port module's two links to one spine: unit g of the tier to switch g mod S),
  so every upper switch carries links / S give or take a cage, and every lower switch with at
  least S cages of uplinks reaches every upper switch.
- Balance, where it is cheap: when a divisor of a lower switch's uplinks is within a quarter
  (plus one switch) of the lower bound, that many upper switches give every pair the same
  number of links, so that ECMP spreads traffic evenly (the H100 SuperPOD's 16 spines at three
  scalable units, where 12 would hold the links). Otherwise the lower bound, with some pairs one
  link more than others.

References: C. E. Leiserson, "Fat-trees", IEEE Trans. Computers C-34(10), 1985;
M. Al-Fares, A. Loukissas, A. Vahdat, "A Scalable, Commodity Data Center Network Architecture",
SIGCOMM 2008, section 3 (https://doi.org/10.1145/1402958.1402967); NVIDIA DGX SuperPOD H100
reference architecture, compute fabric (RA-11333-001).
"""

import math
from collections.abc import Callable
from dataclasses import dataclass

BALANCE_PREMIUM = 1.25
"""A balanced upper tier may have at most this many times the lower bound of switches, plus one."""


def smallest_divisor_at_least(number: int, minimum: int) -> int | None:
    """The smallest divisor of `number` that is at least `minimum`, or None when there is none."""
    divisors = set()
    for small in range(1, math.isqrt(number) + 1):
        if number % small == 0:
            divisors.update((small, number // small))
    return min((divisor for divisor in divisors if divisor >= minimum), default=None)


@dataclass(frozen=True)
class UpperTier:
    """The upper switches over a set of lower switches, and how their links spread."""

    switches: int
    links: int
    """Links from the lower switches, all of them."""
    down_links_used: int
    """Down links in use on the fullest upper switch: ceil(links / switches), or whole units of
    links when they are dealt a unit at a time."""
    unit: int = 1
    """Links dealt together to one upper switch (a lower switch's cage), where pairs differ."""

    @property
    def balanced(self) -> bool:
        return self.switches > 0 and self.links % self.switches == 0


def upper_tier_bound(links: int, down_links_per_upper: int) -> int:
    """Fewest upper switches that hold `links` within their down links: ceil(links / p)."""
    return math.ceil(links / down_links_per_upper) if links > 0 else 0


def upper_tier(
    lower_switches: int, uplinks_per_lower: int, down_links_per_upper: int, last_uplinks: int | None = None,
    unit: int = 1,
) -> UpperTier | None:
    """The upper switches over `lower_switches` switches of u uplinks each (the last one
    `last_uplinks`, by default u too), their links dealt in turn.

    S0 = ceil(links / p) by ports. S = the smallest divisor of u in [S0, 1.25 S0 + 1] when there
    is one (equal links per pair), else the fewest that hold the links dealt a `unit` (a lower
    switch's cage) at a time, ceil(units / floor(p / unit)), if within 1.25 S0 + 1, else S0 dealt
    a link at a time (pairs differ by one link at most). Every lower switch reaches every upper
    one while S <= its uplinks (in units): None when S0 exceeds the fewest uplinks (more lower
    switches than an upper switch has down links, or a last switch with too few).

    DGX SuperPOD H100, 3 units (u = 32, p = 64): 24 leaves need ceil(768 / 64) = 12 spines by
    ports; 16 divides 32 and 16 <= 1.25 x 12 + 1: 16 spines, 2 links from every leaf to each.
    128 DGX H100 at 2:1 (24 leaves of u = 21): S0 = ceil(504 / 64) = 8; no divisor of 21 in
    [8, 11]: 8 spines, 63 links each, every leaf 2 or 3 links to each.
    """
    if lower_switches <= 0 or uplinks_per_lower <= 0:
        return UpperTier(0, 0, 0)
    last = uplinks_per_lower if last_uplinks is None else last_uplinks
    links = (lower_switches - 1) * uplinks_per_lower + last
    bound = upper_tier_bound(links, down_links_per_upper)
    if bound > min(uplinks_per_lower, last):
        return None
    divisor = smallest_divisor_at_least(uplinks_per_lower, bound)
    if divisor is not None and divisor <= BALANCE_PREMIUM * bound + 1 and divisor <= last:
        return UpperTier(divisor, links, math.ceil(links / divisor), unit)
    if unit > 1 and uplinks_per_lower % unit == 0 and last % unit == 0 and down_links_per_upper >= unit:
        units = links // unit
        switches = math.ceil(units / (down_links_per_upper // unit))
        if switches <= min(uplinks_per_lower, last) // unit and switches <= BALANCE_PREMIUM * bound + 1:
            return UpperTier(switches, links, unit * math.ceil(units / switches), unit)
    return UpperTier(bound, links, math.ceil(links / bound))


def two_tier_max_leaves(spine_down_links: int, leaves_per_unit: int = 1) -> int:
    """Most leaves two tiers reach: a spine has a link to each leaf, so L <= p (whole units).

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
    """Spines of a full pod (the last pod may have fewer: `last_pod_spines`)."""
    leaf_spine_links: int
    spine_core_links: int
    spine_down_links_used: int
    """Down links in use on the fullest spine."""
    core_down_links_used: int
    last_pod_leaves: int
    leaf_uplinks: int = 0
    """Uplinks each leaf cables."""
    spine_uplinks: int = 0
    """Uplinks each spine of a full pod cables (three tiers)."""
    last_pod_spines: int = 0
    last_pod_spine_uplinks: int = 0
    """Uplinks each spine of the last pod cables: fewer when it carries fewer leaf links."""
    last_pod_spine_down_links_used: int = 0
    leaf_spine_unit: int = 1
    """Leaf uplinks dealt together to one spine (`UpperTier.unit`)."""
    spine_core_unit: int = 1


def single_switch_counts() -> ClosCounts:
    """One switch holds every endpoint: one tier, no inter-switch links."""
    return ClosCounts(1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1)


def two_tier_counts(leaves: int, leaf_uplinks: int, spine_down_links: int, leaf_unit: int = 1) -> ClosCounts | None:
    """Leaf-spine: every leaf cabled with all its uplinks to spines sized by `upper_tier`.

    leaf-spine links = L x u (a leaf's uplinks are all cabled, so it can be filled without
    re-cabling: the H100 SuperPOD builds leaf-spine cabling for full scalable units).
    """
    spine_tier = upper_tier(leaves, leaf_uplinks, spine_down_links, unit=leaf_unit)
    if spine_tier is None:
        return None
    return ClosCounts(
        tiers=2, leaves=leaves, spines=spine_tier.switches, cores=0, pods=1,
        leaves_per_pod=leaves, spines_per_pod=spine_tier.switches,
        leaf_spine_links=spine_tier.links, spine_core_links=0,
        spine_down_links_used=spine_tier.down_links_used, core_down_links_used=0,
        last_pod_leaves=leaves, leaf_uplinks=leaf_uplinks,
        last_pod_spines=spine_tier.switches, last_pod_spine_down_links_used=spine_tier.down_links_used,
        leaf_spine_unit=spine_tier.unit,
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


@dataclass(frozen=True)
class _Pod:
    spines: int
    down_links_used: int
    """On the fullest spine."""
    uplinks: int
    """Each spine's."""
    unit: int = 1
    """Leaf uplinks dealt together to one spine."""

    @property
    def core_links(self) -> int:
        return self.spines * self.uplinks


def _pod(
    leaves: int, leaf_uplinks: int, spine_down_links: int, spine_uplinks_for: Callable[[int], int], unit: int
) -> _Pod | None:
    tier = upper_tier(leaves, leaf_uplinks, spine_down_links, unit=unit)
    if tier is None or tier.switches == 0:
        return None
    return _Pod(tier.switches, tier.down_links_used, spine_uplinks_for(tier.down_links_used), tier.unit)


def _reaching(
    pod: _Pod, cores: int, leaves: int, leaf_uplinks: int, spine_up_links: int,
    spine_uplinks_for: Callable[[int], int], full_pod_uplinks: int,
) -> _Pod | None:
    """The pod with a link to each of `cores`: its spines cable more uplinks (up to a full pod's
    spine's, so that those stay the tier's figure), then it takes more spines (up to a leaf's
    uplinks, dealt a link at a time). A small last pod carries few leaf links, so by the ratio
    alone its spines would cable fewer uplinks than there are cores."""
    spines = max(pod.spines, math.ceil(cores / max(min(spine_up_links, full_pod_uplinks), 1)))
    if spines > leaf_uplinks:
        return None
    down_used = math.ceil(leaves * leaf_uplinks / spines) if spines != pod.spines else pod.down_links_used
    uplinks = max(spine_uplinks_for(down_used), math.ceil(cores / spines))
    if uplinks > spine_up_links:
        return None
    return _Pod(spines, down_used, uplinks, pod.unit if spines == pod.spines else 1)


def three_tier_counts(
    leaves: int,
    leaf_uplinks: int,
    spine_down_links: int,
    spine_uplinks_for: Callable[[int], int],
    core_ports: int,
    leaves_per_unit: int = 1,
    leaves_per_pod: int | None = None,
    spine_up_links: int | None = None,
    leaf_unit: int = 1,
    spine_unit: int = 1,
) -> ClosCounts | None:
    """Leaf-spine pods joined by a core tier; None when the leaves exceed three tiers' reach.

    Pods follow `pod_leaves`; each pod's spines follow `upper_tier` over its own leaves (the last
    pod's too, so a partly filled pod buys only what its leaves need). Each spine cables
    `spine_uplinks_for(down links it uses)` uplinks (`ports.uplinks_for_down_gbps`). The cores
    take every pod's spine uplinks dealt in turn (`upper_tier` with the pods as lower switches),
    so that every core reaches every pod: C = ceil(spine-core links / core ports), or a divisor of
    a pod's uplinks close to it. Al-Fares k-ary fat tree: k pods of k/2 + k/2 switches and (k/2)^2
    cores; 8,193 hosts on radix-128 switches: 3 pods of 43 leaves and 43 spines, 65 cores.
    """
    shape = pod_leaves(leaves, spine_down_links, leaves_per_unit, leaves_per_pod)
    if shape is None:
        return None
    per_pod, pods = shape
    last_leaves = leaves - (pods - 1) * per_pod
    full, last = _pods(per_pod, last_leaves, leaf_uplinks, spine_down_links, spine_uplinks_for, leaf_unit)
    if full is None or last is None or full.uplinks < 1:
        return None
    up_links = spine_up_links if spine_up_links is not None else full.uplinks
    for _ in range(8):  # each lift of the last pod adds at most one core
        whole = spine_unit if full.uplinks % spine_unit == 0 and last.uplinks % spine_unit == 0 else 1
        core_tier = upper_tier(pods, full.core_links, core_ports, last.core_links, unit=whole)
        if core_tier is not None:
            break
        if pods > core_ports:
            return None
        links = (pods - 1) * full.core_links + last.core_links
        last = _reaching(last, upper_tier_bound(links, core_ports), last_leaves, leaf_uplinks, up_links,
                         spine_uplinks_for, full.uplinks)
        if last is None:
            return None
        if last.unit != full.unit:  # both pods' leaves dealt alike, a link at a time
            full = _pod(per_pod, leaf_uplinks, spine_down_links, spine_uplinks_for, 1)
            if full is None:
                return None
    else:
        return None
    spines = (pods - 1) * full.spines + last.spines
    return ClosCounts(
        tiers=3, leaves=leaves, spines=spines, cores=core_tier.switches,
        pods=pods, leaves_per_pod=per_pod, spines_per_pod=full.spines,
        leaf_spine_links=leaves * leaf_uplinks,
        spine_core_links=(pods - 1) * full.core_links + last.core_links,
        spine_down_links_used=full.down_links_used,
        core_down_links_used=core_tier.down_links_used,
        last_pod_leaves=last_leaves,
        leaf_uplinks=leaf_uplinks, spine_uplinks=full.uplinks,
        last_pod_spines=last.spines, last_pod_spine_uplinks=last.uplinks,
        last_pod_spine_down_links_used=last.down_links_used,
        leaf_spine_unit=full.unit, spine_core_unit=core_tier.unit,
    )


def _pods(
    per_pod: int, last_leaves: int, leaf_uplinks: int, spine_down_links: int,
    spine_uplinks_for: Callable[[int], int], unit: int,
) -> tuple[_Pod | None, _Pod | None]:
    """The spines of a full pod and of the last pod, their leaves' uplinks dealt alike (a cage at
    a time, or a link at a time when either pod needs it)."""
    full = _pod(per_pod, leaf_uplinks, spine_down_links, spine_uplinks_for, unit)
    last = full if last_leaves == per_pod else _pod(last_leaves, leaf_uplinks, spine_down_links, spine_uplinks_for, unit)
    if unit > 1 and full is not None and last is not None and full.unit != last.unit:
        return _pods(per_pod, last_leaves, leaf_uplinks, spine_down_links, spine_uplinks_for, 1)
    return full, last


def max_switch_hops(tiers: int) -> int:
    """Switches crossed on the longest shortest path between two endpoints: 2 x tiers - 1
    (leaf; leaf-spine-leaf; leaf-spine-core-spine-leaf)."""
    return 2 * tiers - 1
