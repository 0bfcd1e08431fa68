"""A saved revision against today's catalog: whether the catalog changed since the revision was
saved, which parts the plan uses are gone or changed, and how the key figures move when it is
planned again with today's catalog."""

from dataclasses import dataclass, field

from catalog.models import CatalogVersion
from catalog.rows import (
    CatalogRows,
    catalog_digest,
    catalog_rows,
    catalog_snapshot_from_rows,
    catalog_sources,
)
from catalog.solver.snapshot import CatalogSnapshot
from catalog.versions import PartChange, catalog_changes
from core.diff import flatten
from core.solver.errors import ScenarioError
from planner.key_figures import ComparedCell, compare_figures
from planner.models import ScenarioRevision
from planner.services import plan_document, revision_catalog
from planner.solver.plan import Plan
from workspace.dashboard.sections import format_value, label


@dataclass(frozen=True)
class GonePart:
    kind: str
    slug: str
    name: str


@dataclass
class CatalogStatus:
    """The catalog a revision is planned against, next to today's."""

    version: CatalogVersion | None
    outdated: bool
    today_rows: CatalogRows
    today_digest: str
    gone: list[GonePart] = field(default_factory=list)
    """Parts the plan uses (in its bill of materials or named by the document) that today's
    catalog no longer holds."""


def used_slugs(document: dict, plan: Plan | None) -> set[str]:
    """Slugs a plan depends on: its bill of materials' parts and every text the document holds
    (the parts it names; other texts match no part)."""
    slugs = {line.sku for line in plan.bom} if plan is not None else set()
    slugs |= {value for value in flatten(document).values() if isinstance(value, str)}
    return {slug for slug in slugs if isinstance(slug, str)}


def _kind_of(catalog: CatalogSnapshot, slug: str) -> tuple[str, str] | None:
    kinds = {
        source.snapshot_field: source.model_class()._meta.verbose_name
        for source in catalog_sources()
    }
    for snapshot_field, parts in vars(catalog).items():
        if slug in parts:
            return str(kinds.get(snapshot_field, snapshot_field)), parts[slug].name
    return None


def catalog_status(revision: ScenarioRevision, plan: Plan | None) -> CatalogStatus:
    """Whether today's catalog differs from the revision's, and which parts it uses are gone."""
    rows = catalog_rows()
    digest = catalog_digest(rows)
    version = revision.catalog_version
    outdated = version is not None and version.digest != digest
    status = CatalogStatus(version, outdated, rows, digest)
    if outdated:
        pinned = revision_catalog(revision)
        today = catalog_snapshot_from_rows(rows, digest)
        for slug in sorted(used_slugs(revision.document, plan)):
            found = _kind_of(pinned, slug)
            if found is not None and _kind_of(today, slug) is None:
                status.gone.append(GonePart(found[0], slug, found[1]))
    return status


@dataclass
class Replan:
    """The revision planned again with today's catalog, beside its plan as saved."""

    status: CatalogStatus
    changes: list[PartChange]
    used: set[str]
    figures: list[tuple[str, str, list[ComparedCell]]]
    saved_errors: dict[str, list[str]]
    today_errors: dict[str, list[str]]

    @property
    def can_save(self) -> bool:
        return self.status.outdated and not self.today_errors

    @property
    def field_changes(self) -> list[tuple[PartChange, str, str, str]]:
        """(part, field in words, value then, value today) of every changed field."""
        return [
            (change, label(field.path), format_value(field.old), format_value(field.new))
            for change in self.changes if change.kind == "changed" for field in change.fields
        ]


def _planned(document: dict, catalog: CatalogSnapshot) -> tuple[Plan | None, dict]:
    try:
        return plan_document(document, catalog), {}
    except ScenarioError as error:
        return None, error.as_dict()


def revision_replan(revision: ScenarioRevision) -> Replan:
    """Today's catalog against the revision's: the parts that changed (those the plan uses
    marked), and the key figures of both plans (or why today's cannot be planned)."""
    saved, saved_errors = _planned(revision.document, revision_catalog(revision))
    status = catalog_status(revision, saved)
    today, today_errors = _planned(
        revision.document, catalog_snapshot_from_rows(status.today_rows, status.today_digest)
    )
    changes = []
    if status.outdated:
        version = CatalogVersion.objects.only("snapshot").get(pk=status.version.pk)
        changes = catalog_changes(version.snapshot, status.today_rows)
    return Replan(
        status,
        changes,
        used_slugs(revision.document, saved),
        compare_figures([saved, today]),
        saved_errors,
        today_errors,
    )
