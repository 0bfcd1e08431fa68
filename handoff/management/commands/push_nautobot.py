import os
import sys
from pathlib import Path

from django.core.management.base import BaseCommand

from catalog.rows import catalog_snapshot
from core.solver.errors import ScenarioError
from handoff.nautobot_push import PushError, push_plan
from planner.models import Scenario
from planner.selectors import revision_current
from planner.services import IN_A_JOB, plan_document, revision_catalog
from planner.solver.documents import MAX_DOCUMENT_BYTES, parse_document

EXIT_PUSH_FAILED = 1
EXIT_BAD_SCENARIO = 2


class Command(BaseCommand):
    help = (
        "Push a plan to Nautobot through its REST API: a location, rack groups (one per row), racks, "
        "manufacturers, device types, roles, devices, interfaces, cables and power feeds, created or "
        "updated (a second push of the same plan changes nothing). Objects the plan no longer has are "
        "left in place and counted as left over. Prints one line per kind: created, updated, unchanged."
    )

    def add_arguments(self, parser):
        parser.add_argument("scenario", help="A saved scenario's id, or a scenario document (JSON or YAML).")
        parser.add_argument("--url", default=os.environ.get("NAUTOBOT_URL", ""),
                            help="Nautobot's address, e.g. https://nautobot.example.com (default $NAUTOBOT_URL).")
        parser.add_argument("--token", default=os.environ.get("NAUTOBOT_TOKEN", ""),
                            help="A Nautobot API token with write access (default $NAUTOBOT_TOKEN).")
        parser.add_argument("--location", help="The Nautobot location's name (default: the scenario's name).")

    def handle(self, *args, scenario, url, token, location=None, **options):
        try:
            plan, catalog = _plan_and_catalog(scenario)
        except ScenarioError as error:
            for problem in error.errors:
                self.stderr.write(str(problem))
            sys.exit(EXIT_BAD_SCENARIO)
        try:
            summary = push_plan(plan, catalog, url, token, location, progress=None)
        except PushError as error:
            self.stderr.write(f"push_nautobot: {error}")
            sys.exit(EXIT_PUSH_FAILED)
        for line in summary.lines():
            self.stdout.write(line)


def _plan_and_catalog(scenario: str):
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
