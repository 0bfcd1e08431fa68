"""Writing the catalog: loading the seed files, and staff edits in the admin. Every write records
a catalog version when the content changed.

A row remembers the seed values it was last loaded with (`seed_values`) and whether staff edited
it (`edited_at`). Loading the seed files again takes the seed's values for rows staff never
edited; for an edited row it merges field by field, as a three-way merge does: a field staff
left alone takes the seed's value, a field only staff changed keeps the edit, and a field both
changed (differently) keeps the edit and is reported as a conflict, until it is resolved (the
seed taken with `overwrite`, or the row edited to agree with the seed).
"""

import dataclasses
import json
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from catalog.models import CatalogVersion
from catalog.rows import catalog_file_parts, catalog_sources
from catalog.versions import catalog_version_latest, catalog_version_record


@dataclass(frozen=True)
class FieldConflict:
    """A field of an edited row that the seed file also changed: the row keeps its value."""

    model: str
    slug: str
    field: str
    seed: Any
    database: Any
    edited_by: str
    edited_at: datetime | None


@dataclass(frozen=True)
class CatalogLoad:
    """What loading the seed files did."""

    parts: dict[str, int]
    """Seed parts by model (`fabric.Switch`)."""
    created: int
    updated: int
    conflicts: list[FieldConflict]
    version: CatalogVersion
    new_version: bool


def merge_edited_part(
    *, seed: dict[str, Any], current: dict[str, Any], base: dict[str, Any] | None
) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """Merge the seed's values into an edited row's: (the row's values, its new base, the fields
    in conflict). `base` is what the row was last loaded with (None: not known, so every field
    that differs from the seed is a conflict). A conflicting field keeps its old base, so that
    the next load reports it again."""
    base = base or {}
    values, new_base, conflicts = {}, {}, []
    for name, seed_value in seed.items():
        value = current.get(name, seed_value)
        if value == seed_value or (name in base and value == base[name]):
            values[name], new_base[name] = seed_value, seed_value
        elif name in base and seed_value == base[name]:
            values[name], new_base[name] = value, seed_value
        else:
            values[name] = value
            conflicts.append(name)
            if name in base:
                new_base[name] = base[name]
    return values, new_base, conflicts


def _seed_values(part: Any) -> dict[str, Any]:
    """A seed part's values as the row stores them (JSON data: tuples become lists)."""
    return json.loads(json.dumps(dataclasses.asdict(part)))


@transaction.atomic
def catalog_load(*, overwrite: bool | Collection[str] = False) -> CatalogLoad:
    """Create or update every seed part in the database, by slug; parts added by hand stay.

    `overwrite`: True, or the slugs of the parts, whose staff edits the seed's values replace.
    """
    previous = catalog_version_latest()
    parts, created, updated, conflicts = {}, 0, 0, []
    for source in catalog_sources():
        model = source.model_class()
        names = [field.name for field in dataclasses.fields(model.spec_class)]
        rows = {row.slug: row for row in model.objects.all()}
        seed_parts = catalog_file_parts(source)
        for part in seed_parts:
            seed = _seed_values(part)
            row = rows.get(part.slug)
            if row is None:
                model.objects.create(**seed, seed_values=seed)
                created += 1
                continue
            current = {name: getattr(row, name) for name in names}
            taken = overwrite is True or (overwrite and part.slug in overwrite)
            if row.edited_at is None or taken:
                values, base, conflicting = seed, seed, []
            else:
                values, base, conflicting = merge_edited_part(
                    seed=seed, current=current, base=row.seed_values
                )
            conflicts += [
                FieldConflict(
                    source.model,
                    part.slug,
                    name,
                    seed[name],
                    current[name],
                    row.edited_by,
                    row.edited_at,
                )
                for name in conflicting
            ]
            edited = row.edited_at is not None and values != seed
            if (
                values == current
                and base == row.seed_values
                and edited == (row.edited_at is not None)
            ):
                continue
            for name, value in values.items():
                setattr(row, name, value)
            row.seed_values = base
            if not edited:
                row.edited_by, row.edited_at = "", None
            row.save()
            updated += 1
        parts[source.model] = len(seed_parts)
    reason = "loadcatalog --overwrite" if overwrite else "loadcatalog"
    version = catalog_version_record(reason=reason)
    new_version = previous is None or version.number != previous.number
    return CatalogLoad(parts, created, updated, conflicts, version, new_version)


def _kind(part) -> str:
    return f"{part._meta.verbose_name} {part.slug}"


def catalog_part_save(*, part, author, created: bool) -> CatalogVersion:
    """Save a part staff added or edited, marking it edited so that loading the seed files does
    not revert it, and record the catalog version it makes."""
    part.edited_by = author.get_username()
    part.edited_at = timezone.now()
    part.save()
    verb = "added" if created else "edited"
    return catalog_version_record(reason=f"admin: {verb} {_kind(part)} ({part.edited_by})")


def catalog_parts_delete(*, parts: Iterable, author) -> CatalogVersion:
    """Delete parts (saved revisions keep planning against the versions they were saved with)."""
    parts = list(parts)
    for part in parts:
        part.delete()
    names = ", ".join(_kind(part) for part in parts)
    return catalog_version_record(reason=f"admin: deleted {names} ({author.get_username()})")
