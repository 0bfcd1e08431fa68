from handoff.management.commands._push import PushCommand
from handoff.netbox_push import PushError, push_plan


class Command(PushCommand):
    help = (
        "Push a plan to NetBox through its REST API: exactly what the NetBox bundle lists (site, "
        "manufacturers, roles, device types, racks, power panels and feeds, virtual chassis, devices, "
        "the plan's own interfaces, cables and power cables), created or updated (a second push of the "
        "same plan changes nothing). Shared objects and an existing device type of the same model are "
        "reused; objects the plan no longer has are left in place and counted as left over. Prints one "
        "line per kind: created, updated, unchanged."
    )
    name = "push_netbox"
    tool = "NetBox"
    environment = "NETBOX"
    push_error = PushError

    def add_tool_arguments(self, parser):
        parser.add_argument("--site", help="The NetBox site's name (default: the scenario's name).")
        parser.add_argument("--device-prefix", dest="device_prefix",
                            help="The start of every device name (default: the site's slug; '' for none).")

    def push(self, plan, catalog, url, token, options):
        return push_plan(plan, catalog, url, token, device_prefix=options.get("device_prefix"),
                         site=options.get("site"))
