"""The UFM workbook and the NetBox bundle of the 4-SU DGX H100 SuperPOD: every count equals the
plan's, and the bundle's device types follow the device-type library's rules."""

import csv
import io
import zipfile
from collections import Counter

import pytest
import yaml
from openpyxl import load_workbook

from core.solver.errors import ScenarioError
from fabric.solver.cabling import cabling_rows
from handoff.formats import netbox_bundle, ufm_bundle, ufm_workbook
from handoff.solver.netbox_choices import INTERFACE_TYPES, device_type_problems
from handoff.solver.ufm import UFM_COLUMNS, ufm_port
from planner.solver.pipeline import plan_scenario
from tests.handoff.conftest import example_document


def plan_cables(plan) -> dict[str, int]:
    return {name: sum(link.count for link in fabric.links) for name, fabric in plan.fabrics.items()}


def plan_switches(plan) -> int:
    return sum(tier.switches for fabric in plan.fabrics.values() for tier in fabric.tiers)


def plan_pdus(plan) -> int:
    return sum(group.count * group.pdus for group in plan.racks.per_rack)


def read_bundle(content: bytes):
    archive = zipfile.ZipFile(io.BytesIO(content))
    tables = {
        name.split("-", 1)[1].removesuffix(".csv"): list(csv.DictReader(io.StringIO(archive.read(name).decode())))
        for name in archive.namelist() if name.endswith(".csv")
    }
    device_types = {
        name: yaml.safe_load(archive.read(name)) for name in archive.namelist() if name.startswith("05-device-types/")
    }
    return tables, device_types


@pytest.fixture(scope="module")
def bundle(plan_4su, catalog):
    return read_bundle(netbox_bundle(plan_4su, catalog))


def ufm_archive(plan, catalog):
    archive = zipfile.ZipFile(io.BytesIO(ufm_bundle(plan, catalog)))
    return load_workbook(io.BytesIO(archive.read("p2p.xlsx"))), archive


def test_ufm_port_names_drop_our_prefixes_and_keep_the_split():
    assert [ufm_port(name) for name in ("p17", "p17/2", "compute-p3", "compute-p3/2", "mgmt")] == [
        "17", "17/2", "3", "3/2", "mgmt"]


def test_ufm_workbook_has_one_row_per_infiniband_cable_in_the_documented_fields(plan_4su, catalog):
    workbook, archive = ufm_archive(plan_4su, catalog)
    assert workbook.sheetnames == ["compute"]
    rows = list(workbook["compute"].iter_rows(values_only=True))
    # The headers of the InfiniBand sample sheet in NVIDIA's "P2P File" page (Cable Validation
    # Tool 1.4-1.8): host end, then switch end.
    assert rows[0] == UFM_COLUMNS == ("Rack", "U", "Name", "HCA/Port", "Rack", "U", "Name", "Port")
    assert len(rows) - 1 == plan_cables(plan_4su)["compute"] == 2048
    cabled = [row for row in cabling_rows(plan_4su, catalog) if row[16] == "compute"]
    first, last = rows[1], rows[-1]
    # Numbers as numbers, as in the documented sample (`316`, `22`, `1`): U and ports.
    assert first[:4] == (cabled[0][1], cabled[0][2], cabled[0][3], 1)
    assert isinstance(first[1], int) and isinstance(first[3], int) and isinstance(first[7], int)
    assert last[4:7] == tuple(cabled[-1][5:8]) and last[7] == int(cabled[-1][8].removeprefix("p"))
    ends = Counter((row[2], row[3]) for row in rows[1:]) + Counter((row[6], row[7]) for row in rows[1:])
    assert max(ends.values()) == 1, "a port is cabled twice"
    mapping = archive.read("hca_mapping.csv").decode().splitlines()
    # "Optional Files": `port,hca-name`, by default 1 -> mlx5_0 ... 8 -> mlx5_7.
    assert mapping[:3] == ["port,hca-name", "1,mlx5_0", "2,mlx5_1"] and len(mapping) == 1 + 8


def test_ufm_numbers_a_hosts_ports_once_across_its_infiniband_fabrics(catalog):
    """Compute and storage on InfiniBand: a DGX H100's 8 compute ports are 1-8 on the compute
    sheet and its 2 storage ports 9-10 on the storage sheet, so no number names two HCAs."""
    plan = plan_scenario({"name": "Two IB fabrics", "compute": {"system": "dgx-h100", "nodes": 32},
                          "fabrics": {"compute": {"switch": "qm9700"}, "storage": {"switch": "qm9700"}},
                          "storage": {"tiers": [{"system": "ddn-ai400x2", "serves": ["training_reads"]}]}}, catalog)
    workbook, archive = ufm_archive(plan, catalog)
    assert workbook.sheetnames == ["compute", "storage"]
    node = "r001-node-01"
    compute = {row[3] for row in workbook["compute"].iter_rows(min_row=2, values_only=True) if row[2] == node}
    storage = {row[3] for row in workbook["storage"].iter_rows(min_row=2, values_only=True) if row[2] == node}
    assert compute == set(range(1, 9)) and storage == {9, 10}
    mapping = archive.read("hca_mapping.csv").decode().splitlines()
    assert mapping[-1] == "10,mlx5_9" and len(mapping) == 1 + 10
    assert "dgx-h100: 1 compute-p1" in archive.read("README.txt").decode()


def test_ufm_names_nvos_xdr_switch_ports_as_the_xdr_sample(catalog):
    """The XDR sample sheet names a Q3400 port `sw1p1` (cage 1, port 1)."""
    plan = plan_scenario({"name": "XDR", "compute": {"system": "dgx-b200", "nodes": 32},
                          "fabrics": {"compute": {"switch": "q3400"}}}, catalog)
    workbook, _ = ufm_archive(plan, catalog)
    ports = [row[7] for row in workbook["compute"].iter_rows(min_row=2, values_only=True)]
    assert ports and all(isinstance(port, str) and port.startswith("sw") for port in ports)
    assert ports[0] in ("sw1p1", "sw1p1s1")
    assert all(__import__("re").fullmatch(r"sw\d+p[12](s\d)?", port) for port in ports)


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
    assert len(tables["devices"]) == 128 + 48 + roles["management-server"] + roles["pdu"] == 314
    assert len(tables["cables"]) == plan_cables(plan_4su)["compute"] == 2048
    assert {row["status"] for table in ("racks", "devices", "cables", "power-feeds") for row in tables[table]} == {
        "planned"}
    assert sorted(data["model"] for data in device_types.values()) == sorted(
        {row["device_type"] for row in tables["devices"]})


def test_netbox_files_are_numbered_in_import_order_and_the_readme_lists_them(plan_4su, catalog):
    archive = zipfile.ZipFile(io.BytesIO(netbox_bundle(plan_4su, catalog)))
    files = sorted({name.split("/")[0] for name in archive.namelist()} - {"README.txt"})
    assert files == ["01-sites.csv", "02-manufacturers.csv", "03-rack-roles.csv", "04-device-roles.csv",
                     "05-device-types", "06-racks.csv", "07-power-panels.csv", "08-power-feeds.csv",
                     "10-devices.csv", "12-cables.csv", "13-power-cables.csv"]
    readme = archive.read("README.txt").decode()
    steps = [line.split(" ")[1].rstrip(":") for line in readme.splitlines() if line[:2].isdigit()]
    assert steps == files
    assert "35 racks, 314 devices, 2,048 cables" in readme


def test_two_plans_name_their_devices_apart_and_share_their_device_types(plan_4su, catalog):
    """A second plan's devices coexist with the first's; a DGX H100 is one device type in a
    one-pool plan and in a site of two pools."""
    first, first_types = read_bundle(netbox_bundle(plan_4su, catalog))
    sites = plan_scenario(example_document("two-pool-site.yaml"), catalog)
    second, second_types = read_bundle(netbox_bundle(sites, catalog))
    assert not {row["name"] for row in first["devices"]} & {row["name"] for row in second["devices"]}
    assert first["devices"][0]["name"] == "dgx-h100-superpod-4-scal-r001-node-01"
    dgx = [data for data in first_types.values() if data["model"] == "DGX H100"]
    assert dgx == [data for data in second_types.values() if data["model"] == "DGX H100"]
    for tables in (first, second):
        sites_named = {row["name"] for row in tables["sites"]}
        for cable in tables["cables"]:
            assert {cable["side_a_site"], cable["side_b_site"]} <= sites_named
    assert "interfaces" not in second, "every port of the two pools is one of its type's own"
    # The pools' own fabrics (`compute-training`) cable the type's own compute ports.
    names = {cable["side_a_name"] for cable in second["cables"]}
    assert "compute-p1" in names and not any(name.startswith("compute-training") for name in names)


def test_a_device_prefix_can_be_set_or_left_out(plan_4su, catalog):
    tables, _ = read_bundle(netbox_bundle(plan_4su, catalog, device_prefix="dc2"))
    assert tables["devices"][0]["name"] == "dc2-r001-node-01"
    assert tables["cables"][0]["side_a_device"].startswith("dc2-")
    tables, _ = read_bundle(netbox_bundle(plan_4su, catalog, device_prefix=""))
    assert tables["devices"][0]["name"] == "r001-node-01"
    with pytest.raises(ScenarioError) as raised:
        netbox_bundle(plan_4su, catalog, device_prefix="=cmd")
    assert raised.value.errors[0].path == "device_prefix"


def test_every_netbox_cable_end_is_an_interface_of_its_device(bundle):
    tables, device_types = bundle
    interfaces = {data["model"]: {interface["name"] for interface in data["interfaces"]}
                  for data in device_types.values()}
    type_of = {row["name"]: row["device_type"] for row in tables["devices"]}
    own = {(row["device"], row["name"]) for row in tables.get("interfaces", [])}
    for cable in tables["cables"]:
        for side in ("a", "b"):
            device, name = cable[f"side_{side}_device"], cable[f"side_{side}_name"]
            assert name in interfaces[type_of[device]] or (device, name) in own
        assert cable["type"] and cable["length_unit"] == "m" and float(cable["length"]) > 0


def test_power_runs_from_feed_to_pdu_to_every_psu(bundle, plan_4su):
    """Each feed to its PDU's inlet; each device's PSUs to its rack's PDUs, odd PSUs on side A,
    even ones on side B; no outlet used twice."""
    tables, device_types = bundle
    feeds = {row["name"]: row for row in tables["power-feeds"]}
    power = tables["power-cables"]
    inlets = [row for row in power if row["side_a_type"] == "dcim.powerfeed"]
    assert len(inlets) == len(feeds) == plan_pdus(plan_4su)
    assert all(row["side_b_type"] == "dcim.powerport" and row["side_b_name"] == "inlet" for row in inlets)
    assert {row["side_a_name"] for row in inlets} == set(feeds)
    assert {row["side_a_power_panel"] for row in inlets} == {"panel-a", "panel-b"}
    supplies = {data["model"]: len(data["power-ports"]) for data in device_types.values()}
    assert supplies["DGX H100"] == 6 and supplies["QM9700"] == 2
    expected = sum(supplies[row["device_type"]] for row in tables["devices"] if row["role"] != "pdu")
    outlets = [row for row in power if row["side_a_type"] == "dcim.poweroutlet"]
    assert len(outlets) == expected == 128 * 6 + 48 * 2 + 4 * 2
    assert len({(row["side_a_device"], row["side_a_name"]) for row in outlets}) == len(outlets)
    rack_of = {row["name"]: row["rack"] for row in tables["devices"]}
    side_of = {row["name"].replace("-feed-", "-pdu-"): row["power_panel"] for row in tables["power-feeds"]}
    for row in outlets:
        assert rack_of[row["side_a_device"]] == rack_of[row["side_b_device"]]
        psu = int(row["side_b_name"].removeprefix("PSU"))
        assert side_of[row["side_a_device"]] == ("panel-a" if psu % 2 else "panel-b")


def test_netbox_devices_stand_in_their_racks_without_overlap(bundle):
    tables, device_types = bundle
    racks = {row["name"]: int(row["u_height"]) for row in tables["racks"]}
    heights = {data["model"]: data["u_height"] for data in device_types.values()}
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
        assert name == f"05-device-types/{data['manufacturer']}/{data['model']}.yaml"
    qm9700 = next(data for data in device_types.values() if data["model"] == "QM9700")
    assert qm9700["manufacturer"] == "Nvidia" and qm9700["part_number"] == "MQM9700-NS2F"
    assert qm9700["u_height"] == 1 and qm9700["is_full_depth"] is True
    assert Counter(interface["type"] for interface in qm9700["interfaces"])["infiniband-ndr"] == 64
    assert [port["name"] for port in qm9700["power-ports"]] == ["PSU1", "PSU2"]
    assert all(port["maximum_draw"] > 0 for port in qm9700["power-ports"])


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
    """Split switch ports (lanes of a 4-way breakout), uplink ports, storage and management
    ports: each cable end is an interface of its device's type or the plan's own child of one,
    typed by NetBox's names; vendor names on Cumulus switches (`swp1s0`, `eth0`)."""
    plan = plan_scenario(EVERY_FABRIC, catalog)
    tables, device_types = read_bundle(netbox_bundle(plan, catalog, device_prefix=""))
    models = {data["model"] for data in device_types.values()}
    assert models >= {"dgx-b200", "QM9700", "SN5600", "SN2201", "ddn-ai400x2"}
    interfaces = {data["model"]: {item["name"]: item["type"] for item in data.get("interfaces", [])}
                  for data in device_types.values()}
    for data in device_types.values():
        assert device_type_problems(data) == [], data["model"]
        assert "other" not in interfaces[data["model"]].values(), data["model"]
    type_of = {row["name"]: row["device_type"] for row in tables["devices"]}
    own = {(row["device"], row["name"]): row for row in tables.get("interfaces", [])}
    assert len(tables["cables"]) == sum(plan_cables(plan).values())
    for cable in tables["cables"]:
        for side in ("a", "b"):
            device, name = cable[f"side_{side}_device"], cable[f"side_{side}_name"]
            if name not in interfaces[type_of[device]]:
                row = own[(device, name)]
                port = row["description"].removeprefix("lane of ")
                assert port in interfaces[type_of[device]] and row["type"] in INTERFACE_TYPES
    assert interfaces["SN2201"]["eth0"] == "1000base-t"
    assert all(name == "eth0" or name.startswith("swp") for name in interfaces["SN5600"])


HOSTILE_NAMES = ('=HYPERLINK("http://attacker.example","open")', "+cmd|' /C calc'!A0", "@SUM(1)", "-1+1")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_no_text_cell_of_the_netbox_bundle_or_ufm_workbook_is_a_formula(catalog, name):
    """Scenario text (the plan's name: the site of every row) is made text where it starts like a
    formula (`'=HYPERLINK...`) in every CSV of the bundle, and the UFM workbook holds no formula
    cell, for a site of two pools on InfiniBand compute and storage fabrics."""
    plan = plan_scenario({**example_document("two-pool-site.yaml"), "name": name}, catalog)
    archive = zipfile.ZipFile(io.BytesIO(netbox_bundle(plan, catalog)))
    cells = [cell for member in archive.namelist() if member.endswith(".csv")
             for row in csv.reader(io.StringIO(archive.read(member).decode())) for cell in row]
    assert cells and not [cell for cell in cells if cell.startswith(FORMULA_STARTS)]
    assert "'" + name in cells
    workbook, archive = ufm_archive(plan, catalog)
    assert workbook.sheetnames
    for sheet in workbook.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (sheet.title, cell.coordinate, cell.value)
    for member in ("hca_mapping.csv",):
        assert not [line for line in archive.read(member).decode().splitlines() if line.startswith(FORMULA_STARTS)]


def test_a_multi_rack_system_is_a_device_per_server_in_its_rack_grouped_as_a_virtual_chassis(catalog):
    """CloudMatrix 384 x 2: each system's 48 servers stand 4 to a rack in its 12 compute racks,
    its scale-up switching in its 4 switch racks, all 52 in one virtual chassis; the cables reach
    the servers' own ports (8 compute, 1 in-band, 1 oob each), and every rack holds something."""
    plan = plan_scenario(example_document("cloudmatrix-384.yaml"), catalog)
    tables, device_types = read_bundle(netbox_bundle(plan, catalog, device_prefix=""))
    system = catalog.systems["cloudmatrix-384"]
    trays = [row for row in tables["devices"] if row["device_type"] == "cloudmatrix-384-tray"]
    switching = [row for row in tables["devices"] if row["device_type"] == "cloudmatrix-384-scale-up"]
    assert len(trays) == 2 * system.compute_trays == 96 and len(switching) == 2 * system.switch_racks == 8
    assert [row["name"] for row in tables["virtual-chassis"]] == ["r001-node-01", "r017-node-01"]
    members = Counter(row["virtual_chassis"] for row in trays + switching)
    assert members == {"r001-node-01": 52, "r017-node-01": 52}
    per_rack = Counter(row["rack"] for row in trays)
    assert len(per_rack) == 24 and set(per_rack.values()) == {4}
    assert len({row["rack"] for row in switching}) == 8
    racked = {row["rack"] for row in tables["devices"] if row["role"] != "pdu"}
    assert racked == {row["name"] for row in tables["racks"]}
    tray_type = next(data for data in device_types.values() if data["model"] == "cloudmatrix-384-tray")
    assert Counter(item["name"].rsplit("-p", 1)[0] for item in tray_type["interfaces"]) == {
        "compute": 8, "inband": 1, "oob": 1}
    names = {row["name"] for row in trays}
    tray_ends = Counter((cable[f"side_{side}_device"], cable[f"side_{side}_name"]) for cable in tables["cables"]
                        for side in "ab" if cable[f"side_{side}_device"] in names)
    assert len(tray_ends) == 96 * 10 and set(tray_ends.values()) == {1}
    assert {port for _, port in tray_ends} == {item["name"] for item in tray_type["interfaces"]}
    assert sum(plan_cables(plan).values()) == len(tables["cables"])
    assert [row["description"] for row in trays[:2]] == ["gpu0001", "gpu0002"]
