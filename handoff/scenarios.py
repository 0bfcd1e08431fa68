"""A scenario named on a push command's line: a saved scenario's id (planned with its
revision's catalog) or a scenario document file (planned with the current catalog)."""

from pathlib import Path
from typing import Any

from catalog.rows import catalog_snapshot
from core.solver.errors import ScenarioError
from planner.models import Scenario
from planner.selectors import revision_current
from planner.services import IN_A_JOB, plan_document, revision_catalog
from planner.solver.documents import MAX_DOCUMENT_BYTES, parse_document


def scenario_plan_and_catalog(*, scenario: str) -> tuple[Any, Any]:
    if scenario.isdigit() and not Path(scenario).exists():
        found = Scenario.objects.filter(pk=int(scenario)).first()
        if found is None:
            raise ScenarioError.at("scenario", f"no saved scenario has the id {scenario}")
        revision = revision_current(scenario=found)
        catalog = revision_catalog(revision)
        return plan_document(revision.document, catalog, budget=IN_A_JOB), catalog
    path = Path(scenario)
    try:
        text = path.read_bytes()[:MAX_DOCUMENT_BYTES + 1]
    except OSError as error:
        raise ScenarioError.at("scenario", f"{scenario} cannot be read: {error.strerror}") from None
    syntax = {".json": "json", ".yaml": "yaml", ".yml": "yaml"}.get(path.suffix.lower(), "auto")
    catalog = catalog_snapshot()
    return plan_document(parse_document(text, syntax), catalog, budget=IN_A_JOB), catalog
