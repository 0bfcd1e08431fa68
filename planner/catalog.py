"""The component catalog: the seed data files, loading them into the database, and the
snapshot of parts the solver reads. Each app lists its files in `AppConfig.catalog_sources`.
"""

import dataclasses
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from django.apps import apps
from django.db import transaction

from planner.catalog_cache import kept_snapshot
from planner.solver.catalog import CatalogSnapshot
from planner.solver.errors import ScenarioError
from planner.solver.schema import read_spec

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class CatalogSource:
    """One seed data file: which snapshot field and model it fills, and under which key."""

    snapshot_field: str
    model: str
    """`app_label.ModelName`"""
    path: str
    """Relative to the app's folder."""
    key: str = "rows"

    def model_class(self) -> type:
        return apps.get_model(self.model)

    def file(self) -> Path:
        return Path(apps.get_app_config(self.model.split(".")[0]).path) / self.path


def catalog_sources() -> list[CatalogSource]:
    """Every app's seed files, as its AppConfig lists them in `catalog_sources`."""
    return [
        source
        for config in apps.get_app_configs()
        for source in getattr(config, "catalog_sources", ())
    ]


def catalog_file_parts(source: CatalogSource) -> list[Any]:
    """The parts of one seed file, each read into its dataclass (ScenarioError names a bad row)."""
    with source.file().open(encoding="utf-8") as handle:
        document = yaml.safe_load(handle)
    label = source.file().relative_to(source.file().parents[2])
    spec_class = source.model_class().spec_class
    rows = document.get(source.key) if isinstance(document, dict) else None
    if not isinstance(rows, list):
        raise ScenarioError.at(str(label), f"must hold a list under '{source.key}'")
    return [read_spec(spec_class, row, f"{label}:{source.key}[{index}]") for index, row in enumerate(rows)]


def catalog_snapshot_from_files() -> CatalogSnapshot:
    """The catalog exactly as the seed files give it, without the database."""
    return CatalogSnapshot(
        **{
            source.snapshot_field: {part.slug: part for part in catalog_file_parts(source)}
            for source in catalog_sources()
        }
    )


@transaction.atomic
def catalog_load() -> dict[str, int]:
    """Create or update every seed part in the database, by slug. Parts added by hand stay."""
    counts = {}
    for source in catalog_sources():
        model = source.model_class()
        parts = catalog_file_parts(source)
        for part in parts:
            values = {
                name: list(value) if isinstance(value, tuple) else value
                for name, value in dataclasses.asdict(part).items()
            }
            model.objects.update_or_create(slug=values.pop("slug"), defaults=values)
        counts[source.model] = len(parts)
    return counts


def catalog_snapshot() -> CatalogSnapshot:
    """The catalog as it is in the database now, for the solver (kept by each process until the
    catalog changes: planner/catalog_cache.py)."""
    return kept_snapshot(catalog_snapshot_from_database)


def catalog_snapshot_from_database() -> CatalogSnapshot:
    fields = {}
    for source in catalog_sources():
        parts = {}
        for row in source.model_class().objects.all():
            try:
                parts[row.slug] = row.as_spec()
            except ScenarioError as error:
                logger.warning("catalog row %s %s left out: %s", source.model, row.slug, error)
        fields[source.snapshot_field] = parts
    return CatalogSnapshot(**fields)
