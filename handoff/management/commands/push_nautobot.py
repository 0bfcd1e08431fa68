import os
import sys

from django.core.management.base import BaseCommand

from core.solver.errors import ScenarioError
from handoff.nautobot_push import PushError, push_plan
from handoff.scenarios import scenario_plan_and_catalog

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
            plan, catalog = scenario_plan_and_catalog(scenario=scenario)
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
