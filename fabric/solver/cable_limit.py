"""The cables one plan may have: a guard on the fabrics as first planned (their counts are
closed forms), applied by the step that plans them, before any cable is placed or counted."""

from collections.abc import Mapping
from typing import Any

from core.solver.errors import PlanLimitError
from fabric.solver.results import FabricResult

MAX_PLAN_CABLES = 5_000_000
"""Cables of one plan, every fabric and plane, as the fabrics are first planned: to the systems,
storage systems, fabric managers, servers and switches. The rack PDUs' management cables, known
once racks are packed, come on top (one per PDU: 3 % more at a million GPUs). A million GPUs on
every fabric have 3.5 to 4.9 million (DGX B300 on a fat tree, a dragonfly, rail-only). Counting
and placing them for the bill of materials is the plan's one cost that grows with its size: at
this limit a plan takes about a CPU second and 60 to 110 MB (scripts/benchmark_limits.py),
where 16 planes of 10 million GPUs took minutes and 9 GB."""


def check_cable_limit(fabrics: Mapping[str, FabricResult], specs: Any, size_field: str) -> tuple[int, str]:
    """The fabrics' cables and the input that drove them: the largest fabric's planes when it has
    several, else `size_field` (what set the systems' count); PlanLimitError there past
    MAX_PLAN_CABLES. `specs` are the scenario's fabrics (`FabricsSpec`)."""
    if not fabrics:
        return 0, size_field
    cables = {name: sum(link.count for link in fabric.links) for name, fabric in fabrics.items()}
    total = sum(cables.values())
    largest = max(cables, key=cables.__getitem__)
    planes = getattr(specs, largest).planes
    field = f"fabrics.{largest}.planes" if planes > 1 else size_field
    if total > MAX_PLAN_CABLES:
        raise PlanLimitError.at(
            field,
            f"the fabrics would have {total:,} cables ({cables[largest]:,} in the {largest} fabric"
            f"{f' of {planes} planes' if planes > 1 else ''}), more than the {MAX_PLAN_CABLES:,} a plan "
            "may have: plan fewer systems or planes, or raise the oversubscription",
        )
    return total, field
