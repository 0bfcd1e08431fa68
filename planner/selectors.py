"""Read-only queries for scenarios: an owner sees only their own."""

from django.shortcuts import get_object_or_404

from planner.models import Scenario


def scenario_list(*, owner):
    return Scenario.objects.filter(owner=owner)


def scenario_get(*, owner, pk) -> Scenario:
    """The owner's scenario, or 404 (never a glimpse of another user's)."""
    return get_object_or_404(scenario_list(owner=owner), pk=pk)
