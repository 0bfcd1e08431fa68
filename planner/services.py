"""Scenario and planning services: the only code that writes scenarios or runs the pipeline."""

import time
from collections.abc import Callable

from django.conf import settings
from django.db import OperationalError, transaction
from django.db.models import F
from django.utils import timezone

from catalog.models import CatalogVersion
from catalog.rows import catalog_rows, catalog_snapshot, catalog_snapshot_from_rows
from catalog.solver.snapshot import CatalogSnapshot
from catalog.versions import FOUND_ON_SAVE, catalog_version_record, catalog_version_snapshot
from core.solver.errors import InfeasibleError, ScenarioError
from planner.key_figures import revision_figures
from planner.models import Scenario, ScenarioRevision
from planner.selectors import revision_current
from planner.solver.documents import check_document_shape
from planner.solver.limits import JOB_CPU_S, WorkEstimate, check_work_budget, work_estimate
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


SAVE_ATTEMPTS = 3
"""Tries of a save's write transaction when SQLite stays locked past its busy timeout."""
SAVE_RETRY_PAUSE_S = 0.5


def _write(write):
    """Run `write` (a function of one write transaction) again when the database stays locked
    past its busy timeout (SQLite under another heavy write): the save waits longer rather than
    failing; past the last try the error stands (a 503 saying the database is busy)."""
    for attempt in range(1, SAVE_ATTEMPTS + 1):
        try:
            with transaction.atomic():
                return write()
        except OperationalError as error:
            if attempt == SAVE_ATTEMPTS or "locked" not in str(error).lower():
                raise
            time.sleep(SAVE_RETRY_PAUSE_S * attempt)
    raise AssertionError("unreachable")


INTERACTIVE = "interactive"
"""A request's budget: `settings.PLAN_INTERACTIVE_CPU_S`."""
IN_A_JOB = "job"
"""A background job's budget: `planner.solver.limits.JOB_CPU_S`."""


def budget_cpu_s(budget: str) -> float:
    """The CPU seconds of work a budget allows."""
    return settings.PLAN_INTERACTIVE_CPU_S if budget == INTERACTIVE else JOB_CPU_S


def document_work(document, catalog: CatalogSnapshot, *, budget: str = INTERACTIVE, cache: dict | None = None,
                  ) -> WorkEstimate:
    """The work the document's plan would take (`planner.solver.limits.work_estimate`), or
    ScenarioError when the document is invalid or its plan would pass a limit. `document` may be
    the spec `scenario_validate` read from it: a request reads its document once. `cache` keeps
    the fabrics the estimate plans for the plan that follows."""
    return work_estimate(_read(document, catalog), catalog, budget_cpu_s=budget_cpu_s(budget), cache=cache)


def plan_document(document, catalog: CatalogSnapshot | None = None, *, budget: str = INTERACTIVE,
                  remedy: str = "") -> Plan:
    """Plan a scenario document (or the spec `scenario_validate` read from it) against
    `catalog`, by default the catalog as it is now.

    A valid document whose plan would pass the limits of `planner.solver.limits`, or take more
    work than `budget` allows (a request's, by default: about 2 CPU seconds), is refused
    (InfeasibleError naming the input that drove it) before any of the work is done. `remedy`
    ends that refusal's message (what else the user may do).
    """
    catalog = catalog or catalog_snapshot()
    scenario = _read(document, catalog)
    planned: dict = {}  # the estimate's fabrics, which the plan's first round plans alike
    check_work_budget(document_work(scenario, catalog, budget=budget, cache=planned), budget_cpu_s(budget),
                      remedy=remedy)
    return plan_scenario(scenario, catalog, cache=planned)


def scenario_validate(document, catalog: CatalogSnapshot | None = None) -> ScenarioSpec:
    """The document read and checked against the catalog (by default today's), or ScenarioError.

    Documents built by the editor's form, not parsed from text, get the parser's limits here
    (depth, lengths, NUL characters and lone surrogates, which PostgreSQL cannot store)."""
    check_document_shape(document)
    scenario, _ = validate_scenario(document, catalog or catalog_snapshot())
    return scenario


def _read(document, catalog: CatalogSnapshot) -> ScenarioSpec:
    """The spec of a document, read once: a spec already read is taken as it is."""
    return document if isinstance(document, ScenarioSpec) else scenario_validate(document, catalog)


def scenario_checked_for_save(document, catalog: CatalogSnapshot) -> tuple[ScenarioSpec, dict]:
    """`scenario_validate`, the document's plan within a request's work (a saved scenario is
    planned by its dashboard, edit and replan pages), and the key figures of that plan:
    ScenarioError, InfeasibleError on the input that drove the work, otherwise. The work is
    estimated once, and its fabrics planned once for the estimate and the plan."""
    spec = scenario_validate(document, catalog)
    planned: dict = {}
    try:
        estimate = document_work(spec, catalog, cache=planned)
    except InfeasibleError as error:
        # A plan past a limit is saved: its pages say why, as they always have.
        return spec, revision_figures(None, errors=error.count)
    check_work_budget(estimate, budget_cpu_s(INTERACTIVE))
    return spec, _figures_of(lambda: plan_scenario(spec, catalog, cache=planned))


def catalog_for_save() -> tuple[CatalogVersion, CatalogSnapshot]:
    """Today's catalog and its version, recorded if the rows changed since the latest version
    (so that a revision is always pinned to exactly the catalog it was checked against)."""
    rows = catalog_rows()
    version = catalog_version_record(reason=FOUND_ON_SAVE, rows=rows)
    return version, catalog_snapshot_from_rows(rows, version.digest)


def revision_catalog(revision: ScenarioRevision) -> CatalogSnapshot:
    """The catalog a revision is planned against: the version it was saved with (today's for a
    revision saved before catalog versions began and never given one)."""
    if revision.catalog_version is None:
        return catalog_snapshot()
    return catalog_version_snapshot(revision.catalog_version)


def document_key_figures(document, catalog: CatalogSnapshot) -> dict:
    """The figures the scenario list shows of a document's plan (planner.key_figures); the
    document may be the spec read from it."""
    return _figures_of(lambda: plan_document(document, catalog))


def _figures_of(plan: Callable[[], Plan]) -> dict:
    """The key figures of the plan `plan` makes, or the count of its errors."""
    try:
        return revision_figures(plan())
    except ScenarioError as error:
        return revision_figures(None, errors=error.count)


def revision_key_figures_fill(revisions) -> None:
    """Plan and store the key figures of the revisions that have none yet (saved before they
    were kept, or restored from a backup), so that each is planned once, not on every view."""
    for revision in revisions:
        if revision.key_figures:
            continue
        revision.key_figures = document_key_figures(revision.document, revision_catalog(revision))
        ScenarioRevision.objects.filter(pk=revision.pk).update(key_figures=revision.key_figures)


def scenario_create(*, owner, document: dict) -> Scenario:
    """Save `document` as a new scenario's first revision, planned against today's catalog.

    The document is checked and planned before the write transaction begins, which then only
    writes: on SQLite a transaction holds the database's one write lock from its start, and a
    heavy plan inside it once made other users' saves and sign-ins wait a minute and fail.
    """
    version, catalog = catalog_for_save()
    spec, key_figures = scenario_checked_for_save(document, catalog)

    def write() -> Scenario:
        scenario = Scenario.objects.create(owner=owner, name=spec.name, revision=1)
        ScenarioRevision.objects.create(
            scenario=scenario,
            number=1,
            document=document,
            author=owner,
            catalog_version=version,
            key_figures=key_figures,
        )
        return scenario

    return _write(write)


def scenario_update(*, scenario: Scenario, document: dict, base_revision: int, author) -> Scenario:
    """Save `document` as the next revision, planned against today's catalog, unless someone
    saved since `base_revision`. Checked and planned before the write transaction, as in
    `scenario_create`; the transaction's conditional update still refuses a stale base."""
    version, catalog = catalog_for_save()
    spec, key_figures = scenario_checked_for_save(document, catalog)

    def write() -> None:
        updated = Scenario.objects.filter(pk=scenario.pk, revision=base_revision).update(
            revision=F("revision") + 1, name=spec.name, updated_at=timezone.now()
        )
        if not updated:
            current = Scenario.objects.values_list("revision", flat=True).get(pk=scenario.pk)
            raise RevisionConflict(base_revision, current)
        ScenarioRevision.objects.create(
            scenario=scenario,
            number=base_revision + 1,
            document=document,
            author=author,
            catalog_version=version,
            key_figures=key_figures,
        )

    _write(write)
    scenario.refresh_from_db()
    return scenario


def scenario_delete(*, scenario: Scenario) -> None:
    scenario.delete()


def scenario_plan(*, scenario: Scenario, budget: str = INTERACTIVE) -> Plan:
    """The plan of the current revision, against the catalog it was saved with."""
    revision = revision_current(scenario=scenario)
    return plan_document(revision.document, revision_catalog(revision), budget=budget)
