"""The shipped scenarios of examples/ as templates to start from: each with its name, one line of
what it shows (the first sentence of its leading comment) and its key figures, planned once per
catalog version and example file."""

import re
import threading
from dataclasses import dataclass

from django.conf import settings

from catalog.rows import catalog_digest, catalog_rows, catalog_snapshot_from_rows
from core.solver.errors import ScenarioError
from planner.key_figures import KeyFigure, key_figures
from planner.services import plan_document
from planner.solver.documents import parse_document

EXAMPLES_DIRECTORY = "examples"
EXAMPLE_FIGURES = ("gpus", "racks", "facility_mw", "capex_usd")
"""The figures a template card shows: size, floor, power and money."""
SUMMARY_MAX_CHARS = 180
FIRST_SENTENCE = re.compile(r"^(.+?[.!?])(?:\s|$)", re.DOTALL)
SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")


@dataclass(frozen=True)
class Example:
    slug: str
    name: str
    summary: str
    figures: tuple[KeyFigure, ...]
    pools: int
    phases: int


def _summary(text: str) -> str:
    """The first sentence of a file's leading comment, on one line."""
    lines = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("#").strip())
    comment = " ".join(line for line in lines if line)
    match = FIRST_SENTENCE.match(comment)
    sentence = match.group(1) if match else comment
    if len(sentence) > SUMMARY_MAX_CHARS:
        sentence = sentence[: SUMMARY_MAX_CHARS].rsplit(" ", 1)[0] + " …"
    return sentence


def _directory():
    return settings.BASE_DIR / EXAMPLES_DIRECTORY


def example_document(slug: str) -> dict | None:
    """The scenario document of example `slug` (its file's stem), None when there is none."""
    if not SLUG.fullmatch(slug or ""):
        return None
    path = _directory() / f"{slug}.yaml"
    if not path.is_file():
        return None
    document = parse_document(path.read_bytes(), "yaml")
    return document if isinstance(document, dict) else None


_kept: dict[tuple, tuple[Example, ...]] = {}
_kept_lock = threading.Lock()


def examples() -> tuple[Example, ...]:
    """Every example, its figures planned against today's catalog (kept until the catalog or
    an example file changes)."""
    paths = sorted(_directory().glob("*.yaml"))
    rows = catalog_rows()
    digest = catalog_digest(rows)
    key = (digest, tuple((path.name, path.stat().st_mtime_ns) for path in paths))
    with _kept_lock:
        if key in _kept:
            return _kept[key]
    catalog = catalog_snapshot_from_rows(rows, digest)
    found = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        try:
            document = parse_document(text, "yaml")
        except ScenarioError:
            continue
        if not isinstance(document, dict):
            continue
        try:
            plan = plan_document(document, catalog)
        except ScenarioError:
            figures: tuple[KeyFigure, ...] = ()
        else:
            by_key = {figure.key: figure for figure in key_figures(plan)}
            figures = tuple(by_key[key] for key in EXAMPLE_FIGURES if key in by_key)
        found.append(Example(
            slug=path.stem,
            name=str(document.get("name") or path.stem),
            summary=_summary(text),
            figures=figures,
            pools=len(document.get("pools") or ()) or 1,
            phases=len(document.get("phases") or ()),
        ))
    with _kept_lock:
        _kept.clear()
        _kept[key] = tuple(found)
    return _kept[key]
