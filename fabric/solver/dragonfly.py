"""Dragonfly fabrics: routers in all-to-all groups, groups joined by global links.

J. Kim, W. J. Dally, S. Scott, D. Abts, "Technology-Driven, Highly-Scalable Dragonfly
Topology", ISCA 2008, section 3.1 (https://doi.org/10.1109/ISCA.2008.19). Symbols: p terminals
per router, a routers per group, h global links per router, g groups.
"""

import math
from dataclasses import dataclass

from core.solver.schema import spec_field


@dataclass(frozen=True)
class DragonflySpec:
    """Dragonfly shape; what is left out is chosen balanced (a = 2p = 2h) within the radix."""

    terminals_per_router: int | None = spec_field(None, minimum=1, maximum=4096, help="p: endpoint ports per router.")
    routers_per_group: int | None = spec_field(None, minimum=1, maximum=4096, help="a: routers per group.")
    global_links_per_router: int | None = spec_field(None, minimum=1, maximum=4096, help="h: global links per router.")


def dragonfly_radix(terminals_per_router: int, routers_per_group: int, global_links_per_router: int) -> int:
    """Router ports used: k = p + a + h - 1 (Kim et al. 2008, section 3.1)."""
    return terminals_per_router + routers_per_group + global_links_per_router - 1


def dragonfly_max_groups(routers_per_group: int, global_links_per_router: int) -> int:
    """Most groups with one global link between every two groups: g = a h + 1."""
    return routers_per_group * global_links_per_router + 1


def dragonfly_max_terminals(
    terminals_per_router: int, routers_per_group: int, global_links_per_router: int
) -> int:
    """Most terminals: N = a p (a h + 1). p = h = 4, a = 8: 1,056; p = h = 8, a = 16: 16,512."""
    return (
        routers_per_group * terminals_per_router
        * dragonfly_max_groups(routers_per_group, global_links_per_router)
    )


@dataclass(frozen=True)
class DragonflyShape:
    terminals_per_router: int
    routers_per_group: int
    global_links_per_router: int

    @property
    def radix(self) -> int:
        return dragonfly_radix(
            self.terminals_per_router, self.routers_per_group, self.global_links_per_router
        )

    @property
    def max_groups(self) -> int:
        return dragonfly_max_groups(self.routers_per_group, self.global_links_per_router)

    @property
    def max_terminals(self) -> int:
        return dragonfly_max_terminals(
            self.terminals_per_router, self.routers_per_group, self.global_links_per_router
        )


def balanced_dragonfly_shape(ports: int, spec: DragonflySpec | None = None) -> DragonflyShape:
    """The shape for a router of `ports` ports: the scenario's p, a, h where given, the rest
    balanced, a = 2p = 2h (Kim et al.: balances local and global channel load).

    With nothing given, p = h = floor((k + 1) / 4) and a = 2p, the largest balanced shape with
    p + a + h - 1 <= k (k = 15: p = h = 4, a = 8; k = 64: p = h = 16, a = 32). Given p only,
    h = p and a = 2p; given a only, p = h = a / 2 (rounded down); the rest follows likewise.
    """
    spec = spec or DragonflySpec()
    p, a, h = spec.terminals_per_router, spec.routers_per_group, spec.global_links_per_router
    if p is None and a is None and h is None:
        p = h = max((ports + 1) // 4, 1)
        a = 2 * p
    base = p if p is not None else h if h is not None else max(a // 2, 1)
    p = p if p is not None else base
    h = h if h is not None else base
    a = a if a is not None else 2 * base
    return DragonflyShape(p, a, h)


@dataclass(frozen=True)
class DragonflyCounts:
    """Routers and links of one plane of a dragonfly."""

    terminals_per_router: int
    routers_per_group: int
    global_links_per_router: int
    groups: int
    routers: int
    local_links: int
    global_links: int
    global_links_per_group_pair: int


def dragonfly_counts(terminals: int, shape: DragonflyShape) -> DragonflyCounts | None:
    """Routers and links for `terminals` endpoint links; None beyond the shape's reach.

    groups g = ceil(ceil(T / p) / a), each group whole (a routers, all-to-all: a (a - 1) / 2 local
    links). Each group has a h global ports, spread evenly over the other g - 1 groups:
    m = floor(a h / (g - 1)) links per pair of groups, g (g - 1) / 2 x m global links.
    """
    p, a, h = shape.terminals_per_router, shape.routers_per_group, shape.global_links_per_router
    groups = math.ceil(math.ceil(terminals / p) / a)
    if groups > shape.max_groups:
        return None
    per_pair = (a * h) // (groups - 1) if groups > 1 else 0
    return DragonflyCounts(
        terminals_per_router=p,
        routers_per_group=a,
        global_links_per_router=h,
        groups=groups,
        routers=groups * a,
        local_links=groups * a * (a - 1) // 2,
        global_links=groups * (groups - 1) // 2 * per_pair,
        global_links_per_group_pair=per_pair,
    )


def dragonfly_max_switch_hops(counts: DragonflyCounts) -> int:
    """Routers crossed on the longest minimal route: a local, a global and a local hop (Kim et
    al. 2008, minimal routing) cross 4 routers between groups, 2 within a group, 1 with one router."""
    if counts.groups > 1:
        return 4
    return 2 if counts.routers_per_group > 1 else 1


def dragonfly_bisection_links(counts: DragonflyCounts) -> int:
    """Links cut by halving the routers: global links between the two halves of the groups,
    floor(g/2) ceil(g/2) m; for one group, the local links between its halves, floor(a/2) ceil(a/2)."""
    if counts.groups > 1:
        halves = (counts.groups // 2) * math.ceil(counts.groups / 2)
        return halves * counts.global_links_per_group_pair
    a = counts.routers_per_group
    return (a // 2) * math.ceil(a / 2)
