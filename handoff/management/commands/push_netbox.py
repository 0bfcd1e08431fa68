import os
import sys

from django.core.management.base import BaseCommand

from handoff.netbox_push import PushError, push_plan
from handoff.scenarios import scenario_plan_and_catalog
from core.solver.errors import ScenarioError

EXIT_PUSH_FAILED = 1
EXIT_BAD_SCENARIO = 2


class Command(BaseCommand):
    help = (
        "Push a plan to NetBox through its REST API: exactly what the NetBox bundle lists (site, "
        "manufacturers, roles, device types, racks, power panels and feeds, virtual chassis, devices, "
        "the plan's own interfaces, cables and power cables), created or updated (a second push of the "
        "same plan changes nothing). Shared objects and an existing device type of the same model are "
        "reused; objects the plan no longer has are left in place and counted as left over. Prints one "
        "line per kind: created, updated, unchanged."
    )

    def add_arguments(self, parser):
        parser.add_argument("scenario", help="A saved scenario's id, or a scenario document (JSON or YAML).")
        parser.add_argument("--url", default=os.environ.get("NETBOX_URL", ""),
                            help="NetBox's address, e.g. https://netbox.example.com (default $NETBOX_URL).")
        parser.add_argument("--token", default=os.environ.get("NETBOX_TOKEN", ""),
                            help="A NetBox API token with write access (default $NETBOX_TOKEN).")
        parser.add_argument("--site", help="The NetBox site's name (default: the scenario's name).")
        parser.add_argument("--device-prefix", dest="device_prefix",
                            help="The start of every device name (default: the site's slug; '' for none).")

    def handle(self, *args, scenario, url, token, site=None, device_prefix=None, **options):
        try:
            plan, catalog = scenario_plan_and_catalog(scenario=scenario)
            summary = push_plan(plan, catalog, url, token, device_prefix=device_prefix, site=site)
        except ScenarioError as error:
            for problem in error.errors:
                self.stderr.write(str(problem))
            sys.exit(EXIT_BAD_SCENARIO)
        except PushError as error:
            self.stderr.write(f"push_netbox: {error}")
            sys.exit(EXIT_PUSH_FAILED)
        for line in summary.lines():
            self.stdout.write(line)
