"""The objects push_netbox sends (handoff/solver/netbox_objects.py): the NetBox bundle's rows,
one object per row, every reference naming an object the plan makes or NetBox makes from a
device type's templates."""

import pytest

from handoff.formats import netbox_tables
from handoff.solver.nautobot import Ref
from handoff.solver.netbox_objects import KINDS, TEMPLATE_MADE_KINDS, netbox_objects
from planner.solver.pipeline import plan_scenario
from tests.handoff.conftest import example_document

ROWS_OF = {"sites": "sites", "manufacturers": "manufacturers", "rack_roles": "rack-roles",
           "device_roles": "device-roles", "racks": "racks", "power_panels": "power-panels",
           "power_feeds": "power-feeds", "virtual_chassis": "virtual-chassis", "devices": "devices",
           "cables": "cables", "power_cables": "power-cables"}


@pytest.fixture(scope="module", params=["dgx-h100-4su.yaml", "cloudmatrix-384.yaml"])
def tables(request, catalog):
    return netbox_tables(plan_scenario(example_document(request.param), catalog), catalog)


def test_one_object_per_row_of_the_bundle(tables):
    desired = netbox_objects(tables)
    for kind, name in ROWS_OF.items():
        assert len(desired.objects[kind]) == len(tables.tables[name][1]), kind
    assert len(desired.objects["device_types"]) == len(tables.device_types)
    own = {(row["device"], row["name"]) for row in tables.records("interfaces")}
    assert own <= set(desired.objects["interfaces"])


def test_every_reference_names_an_object_of_the_plan(tables):
    desired = netbox_objects(tables)
    for kind in KINDS:
        for key, fields in desired.objects[kind].items():
            for name, value in fields.items():
                if isinstance(value, Ref):
                    assert value.key in desired.objects[value.kind], (kind, key, name, value)


def test_a_device_has_the_components_of_its_type(tables):
    desired = netbox_objects(tables)
    types = {(data["manufacturer"], data["model"]): data for data in tables.device_types.values()}
    for (name,), fields in desired.objects["devices"].items():
        data = types[fields["device_type"].key]
        made = {kind: {key[1] for key in desired.objects[kind] if key[0] == name} for kind in TEMPLATE_MADE_KINDS}
        assert {item["name"] for item in data.get("interfaces", [])} <= made["interfaces"]
        assert made["power_ports"] == {item["name"] for item in data.get("power-ports", [])}
        assert made["power_outlets"] == {item["name"] for item in data.get("power-outlets", [])}
