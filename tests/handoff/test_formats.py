"""The UFM workbook and the NetBox bundle of the 4-SU DGX H100 SuperPOD: every count equals the
plan's, and the bundle's device types follow the device-type library's rules."""

import csv
import io
import zipfile
from collections import Counter

import pytest
import yaml
from openpyxl import load_workbook

from fabric.solver.cabling import cabling_rows
from handoff.formats import netbox_bundle, ufm_workbook
from handoff.solver.netbox_choices import INTERFACE_TYPES, device_type_problems
from handoff.solver.ufm import UFM_COLUMNS, ufm_port
from planner.solver.errors import ScenarioError
from planner.solver.pipeline import plan_scenario


def plan_cables(plan) -> dict[str, int]:
    return {name: sum(link.count for link in fabric.links) for name, fabric in plan.fabrics.items()}


def plan_switches(plan) -> int:
    return sum(tier.switches for fabric in plan.fabrics.values() for tier in fabric.tiers)


def plan_pdus(plan) -> int:
    return sum(group.count * group.pdus for group in plan.racks.per_rack)


@pytest.fixture(scope="module")
def bundle(plan_4su, catalog):
    archive = zipfile.ZipFile(io.BytesIO(netbox_bundle(plan_4su, catalog)))
    tables = {
        name.split("-", 1)[1].removesuffix(".csv"): list(csv.DictReader(io.StringIO(archive.read(name).decode())))
        for name in archive.namelist() if name.endswith(".csv")
    }
    device_types = {
        name: yaml.safe_load(archive.read(name)) for name in archive.namelist() if name.startswith("device-types/")
    }
    return tables, device_types


def test_ufm_port_names_drop_our_prefixes_and_keep_the_split():
    assert [ufm_port(name) for name in ("p17", "p17/2", "compute-p3", "compute-p3/2", "mgmt")] == [
        "17", "17/2", "3", "3/2", "mgmt"]


def test_ufm_workbook_has_one_row_per_infiniband_cable_in_the_documented_fields(plan_4su, catalog):
    workbook = load_workbook(io.BytesIO(ufm_workbook(plan_4su, catalog)), read_only=True)
    assert workbook.sheetnames == ["compute"]
    rows = list(workbook["compute"].iter_rows(values_only=True))
    # The headers of the InfiniBand sample sheet in NVIDIA's "P2P File" page (Cable Validation
    # Tool 1.4-1.8): host end, then switch end.
    assert rows[0] == UFM_COLUMNS == ("Rack", "U", "Name", "HCA/Port", "Rack", "U", "Name", "Port")
    assert len(rows) - 1 == plan_cables(plan_4su)["compute"] == 2048
    cabled = [row for row in cabling_rows(plan_4su, catalog) if row[16] == "compute"]
    first, last = rows[1], rows[-1]
    assert first[:3] == tuple(cabled[0][1:4]) and first[3] == cabled[0][4].removeprefix("compute-p")
    assert last[4:7] == tuple(cabled[-1][5:8]) and last[7] == cabled[-1][8].removeprefix("p")
    ends = Counter((row[2], row[3]) for row in rows[1:]) + Counter((row[6], row[7]) for row in rows[1:])
    assert max(ends.values()) == 1, "a port is cabled twice"


def test_ufm_of_an_ethernet_only_plan_is_refused_at_format_naming_its_fabrics(catalog):
    plan = plan_scenario({"name": "Ethernet", "compute": {"system": "hgx-h100", "nodes": 32},
                          "fabrics": {"compute": {"switch": "sn5600"}}}, catalog)
    with pytest.raises(ScenarioError) as raised:
        ufm_workbook(plan, catalog)
    error = raised.value.errors[0]
    assert error.path == "format" and "compute (ethernet)" in error.message


def test_netbox_counts_equal_the_plans(bundle, plan_4su):
    tables, device_types = bundle
    roles = Counter(row["role"] for row in tables["devices"])
    assert len(tables["racks"]) == plan_4su.racks.total == 35
    assert roles["node"] == plan_4su.compute.total_nodes == 128
    assert roles["leaf"] + roles["spine"] == plan_switches(plan_4su) == 48
    assert roles["management-server"] == sum(server.count for server in plan_4su.racks.servers)
    assert roles["pdu"] == plan_pdus(plan_4su) == len(tables["power-feeds"])
    assert len(tables["devices"]) == 128 + 48 + roles["management-server"] + roles["pdu"]
    assert len(tables["cables"]) == plan_cables(plan_4su)["compute"]
    assert {row["status"] for table in ("racks", "devices", "cables", "power-feeds") for row in tables[table]} == {
        "planned"}
    assert sorted(data["model"] for data in device_types.values()) == sorted(
        {row["device_type"] for row in tables["devices"]})


def test_every_netbox_cable_end_is_an_interface_of_its_devices_type(bundle):
    tables, device_types = bundle
    interfaces = {data["model"]: {interface["name"] for interface in data["interfaces"]}
                  for data in device_types.values()}
    type_of = {row["name"]: row["device_type"] for row in tables["devices"]}
    for cable in tables["cables"]:
        for side in ("a", "b"):
            assert cable[f"side_{side}_name"] in interfaces[type_of[cable[f"side_{side}_device"]]]
        assert cable["type"] and cable["length_unit"] == "m" and float(cable["length"]) > 0


def test_netbox_devices_stand_in_their_racks_without_overlap(bundle):
    tables, _ = bundle
    racks = {row["name"]: int(row["u_height"]) for row in tables["racks"]}
    heights = {model: data["u_height"] for model, data in
               ((data["model"], data) for data in bundle[1].values())}
    taken: dict[str, set[int]] = {}
    for row in tables["devices"]:
        if not row["position"]:
            assert heights[row["device_type"]] == 0
            continue
        units = set(range(int(row["position"]), int(row["position"]) + heights[row["device_type"]]))
        assert max(units) <= racks[row["rack"]] and not units & taken.setdefault(row["rack"], set())
        taken[row["rack"]] |= units
    nodes = [row for row in tables["devices"] if row["role"] == "node"]
    assert [row["description"] for row in nodes[:2]] == ["gpu0001", "gpu0002"]


def test_netbox_device_types_follow_the_library_rules(bundle):
    _, device_types = bundle
    assert len(device_types) == 4  # dgx-h100, qm9700, head node, PDU
    for name, data in device_types.items():
        assert device_type_problems(data) == [], name
        assert name == f"device-types/{data['manufacturer']}/{data['model']}.yaml"
    qm9700 = next(data for data in device_types.values() if data["model"] == "qm9700")
    assert qm9700["u_height"] == 1 and qm9700["is_full_depth"] is True
    assert Counter(interface["type"] for interface in qm9700["interfaces"])["infiniband-ndr"] == 64
    assert qm9700["power-ports"][0]["maximum_draw"] > 0


def test_the_library_rules_catch_a_bad_device_type():
    bad = {"manufacturer": "NVIDIA", "model": "x", "slug": "Not A Slug", "u_height": 1.25,
           "interfaces": [{"name": "p1", "type": "800g-magic"}, {"name": "p1", "type": "1000base-t"}],
           "power-ports": [{"name": "PSU1", "type": "iec-60320-c14", "maximum_draw": 0}]}
    problems = device_type_problems(bad)
    assert len(problems) == 5
    assert device_type_problems({"model": "x"}) == ["missing manufacturer", "missing slug"]
    assert "800gbase-x-osfp" in INTERFACE_TYPES and "400gbase-x-osfp" in INTERFACE_TYPES


EVERY_FABRIC = {
    "name": "B200 pod", "compute": {"system": "dgx-b200", "nodes": 32}, "racks": {"power_budget_kw": 60},
    "fabrics": {"compute": {"switch": "qm9700"}, "storage": {"switch": "sn5600"}, "inband": {"switch": "sn5600"},
                "oob": {"switch": "sn2201", "spine_switch": "sn5600"}},
    "storage": {"tiers": [{"system": "ddn-ai400x2", "serves": ["training_reads"]}]},
}


def test_a_plan_with_every_fabric_and_storage_cables_only_typed_interfaces(catalog):
    """Split switch ports (`p1/3` of a 4-way breakout), uplink ports, storage and management
    ports: each cable end is an interface of its device's type, typed by NetBox's names."""
    plan = plan_scenario(EVERY_FABRIC, catalog)
    archive = zipfile.ZipFile(io.BytesIO(netbox_bundle(plan, catalog)))
    device_types = [yaml.safe_load(archive.read(name)) for name in archive.namelist()
                    if name.startswith("device-types/")]
    assert {data["model"] for data in device_types} >= {"dgx-b200", "qm9700", "sn5600", "sn2201", "ddn-ai400x2"}
    interfaces = {data["model"]: {item["name"]: item["type"] for item in data["interfaces"]} for data in device_types}
    for data in device_types:
        assert device_type_problems(data) == [], data["model"]
        assert "other" not in interfaces[data["model"]].values(), data["model"]
    type_of = {row["name"]: row["device_type"]
               for row in csv.DictReader(io.StringIO(archive.read("csv/4-devices.csv").decode()))}
    cables = list(csv.DictReader(io.StringIO(archive.read("csv/5-cables.csv").decode())))
    assert len(cables) == sum(plan_cables(plan).values())
    for cable in cables:
        for side in ("a", "b"):
            assert cable[f"side_{side}_name"] in interfaces[type_of[cable[f"side_{side}_device"]]]
    assert interfaces["sn2201"]["mgmt"] == "1000base-t"
