"""Catalog versions: the catalog recorded whenever its content changes, so that a saved revision
is planned against the catalog it was saved with, and what changed between two of them."""

from dataclasses import dataclass

from django.db import IntegrityError, transaction

from catalog.models import CatalogVersion
from catalog.rows import (
    CatalogRows,
    catalog_digest,
    catalog_rows,
    catalog_snapshot_cached,
    catalog_snapshot_from_rows,
    catalog_sources,
)
from catalog.solver.snapshot import CatalogSnapshot
from core.diff import Change, document_changes

REASON_MAX_LENGTH = CatalogVersion._meta.get_field("reason").max_length
FOUND_ON_SAVE = "the catalog in the database changed (found when a scenario was saved)"
"""The reason of a version recorded by a save: the rows changed other than through the admin or
`loadcatalog` (a shell, a migration, a restored database)."""


def catalog_version_latest() -> CatalogVersion | None:
    return CatalogVersion.objects.defer("snapshot").order_by("-number").first()


def catalog_version_record(*, reason: str, rows: CatalogRows | None = None) -> CatalogVersion:
    """The version holding the catalog as it is now (`rows`, read from the database when left
    out): the latest one when its content is the same, else a new version saying `reason`.

    Two processes that record the same change at once: one inserts the number, the other's
    insert fails on the unique number and it takes the version the first one recorded.
    """
    rows = catalog_rows() if rows is None else rows
    digest = catalog_digest(rows)
    for _ in range(3):
        latest = catalog_version_latest()
        if latest is not None and latest.digest == digest:
            return latest
        number = (latest.number if latest else 0) + 1
        try:
            with transaction.atomic():
                return CatalogVersion.objects.create(
                    number=number, digest=digest, snapshot=rows, reason=reason[:REASON_MAX_LENGTH]
                )
        except IntegrityError:
            continue
    raise RuntimeError("could not record a catalog version: the numbers kept being taken")


def catalog_version_snapshot(version: CatalogVersion) -> CatalogSnapshot:
    """The solver's snapshot of a version (kept in memory by digest: it never changes)."""
    if "snapshot" in version.get_deferred_fields():
        cached = catalog_snapshot_cached(version.digest)
        if cached is not None:
            return cached
        version.refresh_from_db(fields=["snapshot"])
    return catalog_snapshot_from_rows(version.snapshot, version.digest)


@dataclass(frozen=True)
class PartChange:
    """A part added, removed or changed between two catalogs, with its changed fields."""

    kind: str
    """added, removed or changed."""
    part_kind: str
    """`switch`, `GPU system`, ... (the model's verbose name)."""
    slug: str
    name: str
    fields: tuple[Change, ...] = ()


def catalog_changes(old: CatalogRows, new: CatalogRows) -> list[PartChange]:
    """Parts that differ between two catalogs, by kind of part then slug."""
    kinds = {
        source.snapshot_field: source.model_class()._meta.verbose_name
        for source in catalog_sources()
    }
    changes = []
    for snapshot_field in sorted(set(old) | set(new)):
        before, after = old.get(snapshot_field, {}), new.get(snapshot_field, {})
        kind = str(kinds.get(snapshot_field, snapshot_field))
        for slug in sorted(set(before) | set(after)):
            if slug not in after:
                changes.append(PartChange("removed", kind, slug, before[slug].get("name", slug)))
            elif slug not in before:
                changes.append(PartChange("added", kind, slug, after[slug].get("name", slug)))
            elif before[slug] != after[slug]:
                fields = tuple(document_changes(before[slug], after[slug]))
                changes.append(
                    PartChange("changed", kind, slug, after[slug].get("name", slug), fields)
                )
    return changes
