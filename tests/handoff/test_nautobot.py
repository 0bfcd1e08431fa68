"""The plan's Nautobot objects (handoff/solver/nautobot.py): the NetBox bundle's racks, devices,
cables and power feeds, every reference resolvable, and the diff that makes a push idempotent."""

import csv
import io
import zipfile
from decimal import Decimal

import pytest

from handoff.formats import netbox_bundle
from handoff.nautobot_push import FIXED_FIELDS, _graphql_choice
from handoff.solver.nautobot import (
    KINDS,
    Ref,
    cable_key,
    desired_objects,
    diff,
    resolve,
    same_value,
    whole_length,
)


@pytest.fixture(scope="module")
def desired_4su(plan_4su, catalog):
    return desired_objects(plan_4su, catalog)


def bundle_rows(plan, catalog, name: str) -> list[dict]:
    with zipfile.ZipFile(io.BytesIO(netbox_bundle(plan, catalog, device_prefix=""))) as archive:
        return list(csv.DictReader(io.StringIO(archive.read(name).decode("utf-8"))))


def test_objects_are_the_netbox_bundles(desired_4su, plan_4su, catalog):
    racks = bundle_rows(plan_4su, catalog, "06-racks.csv")
    devices = bundle_rows(plan_4su, catalog, "10-devices.csv")
    cables = bundle_rows(plan_4su, catalog, "12-cables.csv")
    feeds = bundle_rows(plan_4su, catalog, "08-power-feeds.csv")
    site = desired_4su.location
    assert set(desired_4su.objects["racks"]) == {(site, row["name"]) for row in racks}
    assert set(desired_4su.objects["devices"]) == {(row["name"],) for row in devices}
    assert set(desired_4su.objects["cables"]) == {
        cable_key((row["side_a_device"], row["side_a_name"]), (row["side_b_device"], row["side_b_name"]))
        for row in cables}
    assert {key[-1] for key in desired_4su.objects["power_feeds"]} == {row["name"] for row in feeds}
    by_name = {row["name"]: row for row in devices}
    for (name,), fields in desired_4su.objects["devices"].items():
        row = by_name[name]
        assert (fields["position"] or "") == (int(row["position"]) if row["position"] else "")
        assert fields["rack"] == (Ref("racks", (site, row["rack"])) if row["rack"] else None)
        assert fields["device_type"].key[1] == row["device_type"]
    for row in cables:
        fields = desired_4su.objects["cables"][cable_key((row["side_a_device"], row["side_a_name"]),
                                                         (row["side_b_device"], row["side_b_name"]))]
        assert (fields["type"], fields["label"]) == (row["type"], row["label"])
        scale = {"m": 1, "cm": Decimal("0.01")}[fields["length_unit"]]
        assert row["length_unit"] == "m" and fields["length"] * scale == Decimal(row["length"])


def test_every_reference_names_an_object_of_the_plan(desired_4su):
    for kind in KINDS:
        for fields in desired_4su.objects[kind].values():
            for value in fields.values():
                if isinstance(value, Ref):
                    assert value.key in desired_4su.objects[value.kind], (kind, value)


def test_a_device_gets_its_types_interfaces_and_every_cable_end_is_one(desired_4su):
    templates = desired_4su.objects["interface_templates"]
    interfaces = desired_4su.objects["interfaces"]
    for (device,), fields in desired_4su.objects["devices"].items():
        type_key = fields["device_type"].key
        names = {key[-1] for key in templates if key[:2] == type_key}
        assert {name for dev, name in interfaces if dev == device} == names
    ends = [end for key in desired_4su.objects["cables"] for end in key]
    assert len(ends) == len(set(ends)), "an interface takes one cable"


def test_racks_are_grouped_by_row_and_statuses_allow_what_they_mark(desired_4su):
    groups = desired_4su.objects["rack_groups"]
    assert groups and all(fields["rack_group"].key in groups for fields in desired_4su.objects["racks"].values())
    allowed = set(desired_4su.objects["statuses"][("Planned",)]["content_types"])
    assert {"dcim.rack", "dcim.device", "dcim.cable", "dcim.interface", "dcim.powerfeed"} <= allowed


def test_more_nodes_mean_more_devices_and_cables(plan_4su, catalog, desired_4su):
    from planner.solver.pipeline import plan_scenario
    from tests.handoff.conftest import example_document
    document = example_document("dgx-h100-4su.yaml")
    document["compute"]["nodes"] = 32
    smaller = desired_objects(plan_scenario(document, catalog), catalog)
    assert len(smaller.objects["devices"]) < len(desired_4su.objects["devices"])
    assert len(smaller.objects["cables"]) < len(desired_4su.objects["cables"])


def test_diff_creates_updates_and_reports_left_over():
    desired = {("a",): {"name": "a", "length": 3.0, "content_types": ["dcim.rack"]},
               ("b",): {"name": "b", "length": 2}, ("c",): {"name": "c", "length": 1}}
    existing = {("a",): (1, {"name": "a", "length": "3.00", "content_types": ["dcim.device", "dcim.rack"]}),
                ("b",): (2, {"name": "b", "length": "2.50"}), ("z",): (9, {"name": "z"})}
    changes = diff(desired, existing)
    assert changes.create == [(("c",), {"name": "c", "length": 1})]
    assert changes.update == [(2, ("b",), {"length": 2})]
    assert changes.unchanged == 1
    assert changes.left_over == [("z",)]


def test_diff_adds_to_lists_without_removing_and_never_updates_fixed_fields():
    changes = diff({("s",): {"content_types": ["dcim.cable", "dcim.rack"], "end": 5}},
                   {("s",): ("id", {"content_types": ["dcim.device", "dcim.rack"], "end": 4})}, fixed=("end",))
    assert changes.update == [("id", ("s",), {"content_types": ["dcim.cable", "dcim.device", "dcim.rack"]})]


def test_a_second_diff_of_what_the_first_made_changes_nothing(desired_4su):
    ids = {kind: {key: f"{kind}-{n}" for n, key in enumerate(objects)} for kind, objects in desired_4su.objects.items()}
    for kind, objects in desired_4su.objects.items():
        resolved = {key: resolve(fields, ids) for key, fields in objects.items()}
        existing = {key: (ids[kind][key], {**fields, "id": ids[kind][key]}) for key, fields in resolved.items()}
        changes = diff(resolved, existing)
        assert (changes.create, changes.update, changes.left_over) == ([], [], [])
        assert changes.unchanged == len(objects)


@pytest.mark.parametrize(("length", "unit", "whole"), [
    (3.0, "m", (3, "m")), (2.5, "m", (250, "cm")), ("1.25", "m", (125, "cm")), ("", "m", (None, "m")),
])
def test_lengths_are_whole_numbers(length, unit, whole):
    assert whole_length(length, unit) == whole


@pytest.mark.parametrize(("want", "have", "same"), [
    (None, "", True), ("", None, True), (1, None, False), (2.5, "2.50", True), (2, "2.5", False),
    (True, True, True), (False, 0, False), ("front", "front", True), (["a"], ["a", "b"], True), (["c"], ["a"], False),
])
def test_same_value(want, have, same):
    assert same_value(want, have) is same


@pytest.mark.parametrize(("value", "constant"), [("1000base-t", "A_1000BASE_T"), ("infiniband-ndr", "INFINIBAND_NDR"),
                                                 ("100gbase-x-qsfp28", "A_100GBASE_X_QSFP28"), ("other", "OTHER")])
def test_an_interface_type_as_nautobots_graphql_names_it(value, constant):
    """As Nautobot 3.2.7 answered the live test's GraphQL read (`A_1000BASE_T`, `INFINIBAND_NDR`)."""
    assert _graphql_choice(value) == constant


def test_template_made_interfaces_keep_their_status():
    """The push never updates an interface's status: Nautobot gives the interfaces it makes from
    a device type's templates its own."""
    planned = {("node", "p1"): {"name": "p1", "type": "other", "status": "planned"}}
    active = {("node", "p1"): ("id-1", {"name": "p1", "type": "other", "status": "active"})}
    changes = diff(planned, active, FIXED_FIELDS["interfaces"])
    assert (changes.create, changes.update, changes.unchanged) == ([], [], 1)
