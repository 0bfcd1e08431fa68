"""The component catalog: the seed data files and the snapshot of parts the solver reads (loading
the files into the database is in `catalog_edits`). Each app lists its files in
`AppConfig.catalog_sources`.
"""

import dataclasses
import functools
import hashlib
import json
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from django.apps import apps

from catalog.cache import kept_snapshot
from catalog.solver.operating_points import InferenceOperatingPointSpec
from catalog.solver.snapshot import CatalogSnapshot, plan_catalog
from core.solver.errors import ScenarioError
from core.solver.schema import read_spec

logger = logging.getLogger(__name__)

TRUSTED_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""The project's own data files are parsed by libyaml where PyYAML has it: the operating points
took 140 ms of a worker's first plan with the pure-Python parser."""


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
        document = yaml.load(handle, Loader=TRUSTED_YAML_LOADER)  # noqa: S506 (a safe constructor)
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
        },
        inference_operating_points=inference_operating_points_table(),
    )


INFERENCE_OPERATING_POINTS_FILE = Path(__file__).parent.parent / "planner" / "catalog" / "inference_operating_points.yaml"


@functools.cache
def inference_operating_points_table() -> dict[str, InferenceOperatingPointSpec]:
    """The published inference operating points, by id: a table of figures read from its data
    file (not database rows: nobody edits a published result)."""
    with INFERENCE_OPERATING_POINTS_FILE.open(encoding="utf-8") as handle:
        rows = yaml.load(handle, Loader=TRUSTED_YAML_LOADER)["rows"]  # noqa: S506 (a safe constructor)
    label = "planner/catalog/inference_operating_points.yaml:rows"
    return {
        row["id"]: read_spec(InferenceOperatingPointSpec, row, f"{label}[{index}]") for index, row in enumerate(rows)
    }


CatalogRows = dict[str, dict[str, dict[str, Any]]]
"""Every part's values as JSON data, by snapshot field and slug: what a catalog version stores."""

SNAPSHOT_CACHE_SIZE = 32
"""Snapshots kept in memory, by digest (a snapshot of given content never changes)."""
_snapshots: "OrderedDict[str, CatalogSnapshot]" = OrderedDict()
_snapshots_lock = threading.Lock()


def catalog_rows() -> CatalogRows:
    """The catalog as it is in the database now, as plain values (no checks: cheap)."""
    rows = {}
    for source in catalog_sources():
        model = source.model_class()
        names = [field.name for field in dataclasses.fields(model.spec_class)]
        rows[source.snapshot_field] = {
            values["slug"]: values for values in model.objects.order_by("slug").values(*names)
        }
    return rows


def catalog_digest(rows: CatalogRows) -> str:
    """SHA-256 of the rows written canonically: equal content, equal digest."""
    text = json.dumps(rows, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def catalog_snapshot_cached(digest: str) -> CatalogSnapshot | None:
    """The snapshot of this digest if this process has read it already."""
    with _snapshots_lock:
        return _snapshots.get(digest)


def catalog_snapshot_from_rows(rows: CatalogRows, digest: str | None = None) -> CatalogSnapshot:
    """The solver's snapshot of `rows`, each part read into its dataclass; a row that no longer
    reads (a field the code dropped or now checks) is left out with a warning, so the parts
    that are gone show up as unknown slugs in the plans that name them."""
    digest = digest or catalog_digest(rows)
    with _snapshots_lock:
        if digest in _snapshots:
            _snapshots.move_to_end(digest)
            return _snapshots[digest]
    spec_classes = {source.snapshot_field: source.model_class().spec_class for source in catalog_sources()}
    fields = {}
    for snapshot_field, spec_class in spec_classes.items():
        names = {field.name for field in dataclasses.fields(spec_class)}
        parts = {}
        for slug, values in rows.get(snapshot_field, {}).items():
            try:
                parts[slug] = read_spec(spec_class, {k: v for k, v in values.items() if k in names})
            except ScenarioError as error:
                logger.warning("catalog part %s %s left out: %s", snapshot_field, slug, error)
        fields[snapshot_field] = parts
    snapshot = CatalogSnapshot(**fields, inference_operating_points=inference_operating_points_table())
    with _snapshots_lock:
        _snapshots[digest] = snapshot
        while len(_snapshots) > SNAPSHOT_CACHE_SIZE:
            _snapshots.popitem(last=False)
    return snapshot


def catalog_snapshot() -> CatalogSnapshot:
    """The catalog as it is in the database now, for the solver (kept by each process until the
    catalog changes: catalog/cache.py)."""
    return kept_snapshot(lambda: catalog_snapshot_from_rows(catalog_rows()))


def export_catalog(plan: Any, catalog: CatalogSnapshot | None = None) -> CatalogSnapshot:
    """The catalog an export of `plan` reads: the one the plan carries, else `catalog` (the
    database's now when left out) with the plan's inline parts (`snapshot.plan_catalog`)."""
    if catalog is None and getattr(plan, "catalog", None) is None:
        catalog = catalog_snapshot()
    return plan_catalog(plan, catalog)
