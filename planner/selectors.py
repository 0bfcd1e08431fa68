"""Read-only queries for scenarios: an owner sees only their own."""

from django.db.models import Exists, F, OuterRef, Q
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


def current_revisions():
    """Revisions that are their scenario's current one."""
    return ScenarioRevision.objects.filter(number=F("scenario__revision"))


def scenario_list_filtered(*, owner, text: str = "", system: str = ""):
    """The owner's scenarios whose name or system contains `text` and whose current revision
    plans on `system` (a catalog slug); either left empty matches every scenario."""
    scenarios = scenario_list(owner=owner)
    current = ScenarioRevision.objects.filter(scenario=OuterRef("pk"), number=OuterRef("revision"))
    if text:
        scenarios = scenarios.filter(
            Q(name__icontains=text) | Exists(current.filter(document__compute__system__icontains=text))
        )
    if system:
        scenarios = scenarios.filter(Exists(current.filter(document__compute__system=system)))
    return scenarios


def scenario_systems(*, owner) -> list[str]:
    """The systems (catalog slugs) the owner's scenarios plan on, sorted."""
    slugs = (
        current_revisions()
        .filter(scenario__owner=owner)
        .values_list("document__compute__system", flat=True)
        .distinct()
    )
    return sorted({slug for slug in slugs if isinstance(slug, str) and slug})


def revisions_for_list(scenarios) -> dict[int, ScenarioRevision]:
    """The current revision of each scenario, by scenario id, with its catalog version (without
    the version's snapshot)."""
    revisions = (
        current_revisions()
        .filter(scenario__in=[scenario.pk for scenario in scenarios])
        .select_related("catalog_version")
        .defer("catalog_version__snapshot")
    )
    return {revision.scenario_id: revision for revision in revisions}
