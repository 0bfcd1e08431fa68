"""Read-only queries for scenarios: an owner sees only their own."""

from django.http import Http404
from django.shortcuts import get_object_or_404

from planner.models import Scenario, ScenarioRevision

MAX_ID = 2**63 - 1
"""The largest primary key (a 64-bit signed integer, as both databases store it)."""


def scenario_list(*, owner):
    return Scenario.objects.filter(owner=owner)


def scenario_get(*, owner, pk) -> Scenario:
    """The owner's scenario, or 404 (never a glimpse of another user's, nor an error for an id
    that is not a number or too large for the database)."""
    try:
        pk = int(str(pk))
    except ValueError:
        raise Http404("no such scenario") from None
    if not 0 < pk <= MAX_ID:
        raise Http404("no such scenario")
    return get_object_or_404(scenario_list(owner=owner), pk=pk)


def revision_current(*, scenario: Scenario) -> ScenarioRevision:
    """The scenario's current revision with its catalog version (without the version's snapshot,
    which the planner reads only when it has not kept it in memory)."""
    return (
        scenario.revisions.select_related("catalog_version", "author")
        .defer("catalog_version__snapshot")
        .get(number=scenario.revision)
    )
