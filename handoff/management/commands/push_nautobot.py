from handoff.management.commands._push import PushCommand
from handoff.nautobot_push import PushError, push_plan


class Command(PushCommand):
    help = (
        "Push a plan to Nautobot through its REST API: a location, rack groups (one per row), racks, "
        "manufacturers, device types, roles, devices, interfaces, cables and power feeds, created or "
        "updated (a second push of the same plan changes nothing). Objects the plan no longer has are "
        "left in place and counted as left over. Prints one line per kind: created, updated, unchanged."
    )
    name = "push_nautobot"
    tool = "Nautobot"
    environment = "NAUTOBOT"
    push_error = PushError

    def add_tool_arguments(self, parser):
        parser.add_argument("--location", help="The Nautobot location's name (default: the scenario's name).")

    def push(self, plan, catalog, url, token, options):
        return push_plan(plan, catalog, url, token, options.get("location"))
