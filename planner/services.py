"""Scenario and planning services: the only code that writes scenarios or runs the pipeline."""

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from planner.catalog import catalog_snapshot
from planner.models import Scenario, ScenarioRevision
from planner.solver.catalog import CatalogSnapshot
from planner.solver.documents import check_document_shape
from planner.solver.limits import check_work_limits
from planner.solver.pipeline import plan_scenario, validate_scenario
from planner.solver.plan import Plan
from planner.solver.scenario import ScenarioSpec


class RevisionConflict(Exception):
    """An edit made against a revision that is no longer the current one."""

    def __init__(self, base_revision: int, current_revision: int):
        self.base_revision = base_revision
        self.current_revision = current_revision
        super().__init__(
            f"this edit is based on revision {base_revision}, but the scenario is at revision "
            f"{current_revision}: reload it and apply the edit again"
        )


def plan_document(document, catalog: CatalogSnapshot | None = None) -> Plan:
    """Plan a scenario document against `catalog`, by default the catalog as it is now.

    A valid document whose plan would pass the limits of `planner.solver.limits` is refused
    (InfeasibleError) before any of the work is done.
    """
    catalog = catalog or catalog_snapshot()
    check_document_shape(document)
    check_work_limits(*validate_scenario(document, catalog))
    return plan_scenario(document, catalog)


def scenario_validate(document) -> ScenarioSpec:
    """The document read and checked against the catalog, or ScenarioError.

    Documents built by the editor's form, not parsed from text, get the parser's limits here
    (depth, lengths, NUL characters and lone surrogates, which PostgreSQL cannot store)."""
    check_document_shape(document)
    scenario, _ = validate_scenario(document, catalog_snapshot())
    return scenario


@transaction.atomic
def scenario_create(*, owner, document: dict) -> Scenario:
    spec = scenario_validate(document)
    scenario = Scenario.objects.create(owner=owner, name=spec.name, revision=1)
    ScenarioRevision.objects.create(scenario=scenario, number=1, document=document, author=owner)
    return scenario


@transaction.atomic
def scenario_update(*, scenario: Scenario, document: dict, base_revision: int, author) -> Scenario:
    """Save `document` as the next revision, unless someone saved since `base_revision`."""
    spec = scenario_validate(document)
    updated = Scenario.objects.filter(pk=scenario.pk, revision=base_revision).update(
        revision=F("revision") + 1, name=spec.name, updated_at=timezone.now()
    )
    if not updated:
        current = Scenario.objects.values_list("revision", flat=True).get(pk=scenario.pk)
        raise RevisionConflict(base_revision, current)
    ScenarioRevision.objects.create(
        scenario=scenario, number=base_revision + 1, document=document, author=author
    )
    scenario.refresh_from_db()
    return scenario


def scenario_delete(*, scenario: Scenario) -> None:
    scenario.delete()


def scenario_plan(*, scenario: Scenario) -> Plan:
    return plan_document(scenario.document)
