"""The cabling plan: one row per link the fabric engine counts, no port used twice, names that
follow the scheme, and rows made one at a time."""

import math
import re
import tracemalloc
import types
from collections import Counter, defaultdict
from dataclasses import replace

import numpy as np
import pytest

from fabric.solver.cabling import CABLING_COLUMNS, PlanCabling, cabling_rows
from fabric.solver.cabling_links import SAMPLE_LINKS, fabric_segments
from fabric.solver.cabling_tally import count_fabric, sampled_optics_w
from planner.solver.pipeline import plan_scenario

RACK = r"r\d{3,}"
DEVICE = re.compile(rf"({RACK})-([a-z]+(?:-[a-z]+)*)-(\d{{2,}})")
SWITCH_PORT = re.compile(r"p(\d+)(?:/(\d+))?")
NIC_PORT = re.compile(r"(compute|storage|inband|oob)-p(\d+)(?:/(\d+))?")
SWITCH_ROLES = {"leaf", "spine", "core", "rail", "router"}
OTHER_FABRICS = {
    "storage": {"switch": "qm9700", "fabric_manager_ports": 2},
    "inband": {"switch": "sn5600"},
    "oob": {"switch": "sn2201", "spine_switch": "sn5600"},
}


def nvidia_ra_h100_4su_document(nodes: int = 127, fabric_manager_ports: int = 4) -> dict:
    """DGX SuperPOD H100, 4 SU (RA-11333-001): 127 DGX and the UFM appliance's 4 leaf links
    (128 DGX without the appliance fill the 4 units exactly)."""
    compute = {"switch": "qm9700", "tiers": 2, "fabric_manager_ports": fabric_manager_ports}
    return {
        "name": "DGX H100 4 SU",
        "compute": {"system": "dgx-h100", "nodes": nodes},
        "racks": {"power_budget_kw": 41, "cooling": "air"},
        "fabrics": {"compute": compute},
    }


CASES = {
    "top_of_rack": {
        "name": "top of rack", "compute": {"system": "dgx-h100", "nodes": 62},
        "fabrics": {
            "compute": {"switch": "qm9700", "leaf_placement": "top_of_rack", "fabric_manager_ports": 4},
            "oob": {"switch": "sn2201", "spine_switch": "sn5600", "leaf_placement": "top_of_rack"},
        },
    },
    "two_planes": {
        "name": "two planes", "compute": {"system": "dgx-b300", "nodes": 64},
        "racks": {"power_budget_kw": 130, "cooling": "direct_liquid"},
        "fabrics": {"compute": {"switch": "qm9700", "planes": 2, "fabric_manager_ports": 4}, **OTHER_FABRICS},
    },
    "three_tiers": {
        "name": "three tiers", "compute": {"system": "dgx-h100", "nodes": 300},
        "fabrics": {"compute": {"switch": "qm8700", "planes": 2, "tiers": 3}, **OTHER_FABRICS},
    },
    "three_tiers_top_of_rack": {
        "name": "three tiers, top of rack", "compute": {"system": "dgx-h100", "nodes": 150},
        "fabrics": {"compute": {"switch": "qm8700", "planes": 2, "tiers": 3, "leaf_placement": "top_of_rack"}},
    },
    "rail_only": {
        "name": "rail only", "compute": {"system": "dgx-h100", "nodes": 50},
        "fabrics": {"compute": {"switch": "qm9700", "topology": "rail_only", "fabric_manager_ports": 4}},
    },
    "rail_only_two_tiers": {
        "name": "rail only, two tiers", "compute": {"system": "dgx-h100", "nodes": 200},
        "fabrics": {"compute": {"switch": "qm8700", "planes": 2, "topology": "rail_only"}},
    },
    "dragonfly": {
        "name": "dragonfly", "compute": {"system": "dgx-h100", "nodes": 150},
        "fabrics": {"compute": {"switch": "qm9700", "topology": "dragonfly", "fabric_manager_ports": 4}},
    },
    "dragonfly_split_ports": {
        "name": "dragonfly, 800G ports split", "compute": {"system": "dgx-h100", "nodes": 40},
        "fabrics": {"compute": {"switch": "sn5600", "topology": "dragonfly"}},
    },
    "one_switch_and_storage": {
        "name": "one switch, storage systems", "compute": {"system": "dgx-h100", "nodes": 4},
        "storage": {"read_gbytes_per_s": 100,
                    "tiers": [{"system": "ddn-ai400x2-turbo", "serves": ["training_reads"]}]},
        "fabrics": {"compute": {"switch": "qm9700", "fabric_manager_ports": 4}, **OTHER_FABRICS},
    },
}


@pytest.fixture(scope="module")
def rack_units(catalog):
    return {slug: switch.rack_units for slug, switch in catalog.switches.items()}


def plan_and_rows(document, catalog, rack_units):
    plan = plan_scenario(document, catalog)
    return plan, list(cabling_rows(plan, catalog))


def as_records(rows):
    return [dict(zip(CABLING_COLUMNS, row)) for row in rows]


def engine_counts(plan) -> Counter:
    counts = Counter()
    for fabric in plan.fabrics.values():
        for link in fabric.links:
            counts[(fabric.name, link.segment)] += link.count
    return counts


def check_rows(plan, rows):
    """The properties every cabling plan has; returns the rows as records."""
    records = as_records(rows)
    assert Counter((row["fabric"], row["segment"]) for row in records) == engine_counts(plan)
    assert len(records) == sum(link.count for fabric in plan.fabrics.values() for link in fabric.links)
    assert [row["link"] for row in records] == list(range(1, len(records) + 1))
    ends = Counter()
    for row in records:
        ends[(row["from_device"], row["from_port"])] += 1
        ends[(row["to_device"], row["to_port"])] += 1
    assert [end for end, uses in ends.items() if uses > 1] == []
    tiers = {(fabric.name, tier.role): tier for fabric in plan.fabrics.values() for tier in fabric.tiers}
    for row in records:
        for end in ("from", "to"):
            device, port = row[f"{end}_device"], row[f"{end}_port"]
            match = DEVICE.fullmatch(device)
            assert match, device
            assert match.group(1) == row[f"{end}_rack"]
            assert 1 <= int(match.group(1)[1:]) <= plan.racks.total
            role = match.group(2)
            if role == "pdu":  # a 0U PDU takes no rack unit
                assert row[f"{end}_u"] == ""
            else:
                assert 1 <= row[f"{end}_u"] <= 60
            if port == "mgmt":
                assert role in SWITCH_ROLES | {"pdu", "storage"} and row["fabric"] == "oob"
            elif role in SWITCH_ROLES:
                number = SWITCH_PORT.fullmatch(port)
                assert number, port
                assert int(number.group(1)) <= tiers[(row["fabric"], role)].ports_per_switch
            else:
                assert NIC_PORT.fullmatch(port).group(1) == row["fabric"]
        assert 0 < row["length_m"] < 1000
        assert 1 <= row["plane"] <= plan.fabrics[row["fabric"]].planes
    return records


def test_dgx_h100_4su_has_the_reference_architecture_cables(catalog, rack_units, nvidia_ra_h100_table4):
    _, nodes, _, leaves, spines, node_leaf, leaf_spine = nvidia_ra_h100_table4[3]
    plan, rows = plan_and_rows(nvidia_ra_h100_4su_document(nodes), catalog, rack_units)
    records = check_rows(plan, rows)
    by_segment = Counter(row["segment"] for row in records)
    assert by_segment == {"node-leaf": node_leaf, "leaf-spine": leaf_spine}
    leaf_names = {row["to_device"] for row in records if row["segment"] == "node-leaf"}
    spine_names = {row["to_device"] for row in records if row["segment"] == "leaf-spine"}
    assert (len(leaf_names), len(spine_names)) == (leaves, spines)


def test_dgx_h100_4su_rows_worked_by_hand(catalog, rack_units):
    """127 DGX, 4 per rack; floor row 0 holds 7 compute racks, the first network rack (r008: 28
    QM9700, 1 U each, from U48 down: the 30 kW budget over 1.06 kW each, the switch and the
    modules in its own cages as the rows count them, the DGX NIC modules being in the DGX's
    10.2 kW), then 8 compute racks; row 1 holds 16 compute racks; row 2 the second network rack
    (r033: 20 QM9700) and the last compute rack; the management rack is r035. 32 down links per
    leaf.

    - link j = 8 i + r (system i, NIC r): leaf 8 (q // 32) + r, q = j // 8, port q mod 32 + 1;
    - system 32 (first of unit 2) is the first of compute rack 9, which is r010 on the floor;
    - leaves and spines (one model) share the racks interleaved: leaf m ranks m + ceil((2m - 1) / 4)
      (0, 2, 3, 5, 6, 8, 9, 11, 12, ...), spine k ranks 3k + 1 (1, 4, 7, ...): ranks 0..27 are
      r008 from U48 down, 28..47 r033;
    - system 32 (first of unit 2) is the first of compute rack 9, which is r010 on the floor; its
      leaf 8 ranks 12: r008, U48 - 12 = U36, after 8 leaves: r008-leaf-09;
    - the UFM's links j = 1016..1019: q = 127, leaves 24..27, port 32; leaf 24 ranks 36: r033's
      slot 8, U40, after 5 leaves of r033 (ranks 29, 30, 32, 33, 35);
    - leaf-spine: 32 uplinks (p33..p64) over 16 spines, 2 per spine: p33, p34 -> spine 1 (rank 1:
      r008, U47), p35 -> spine 2 (rank 4: U44).
    """
    _, rows = plan_and_rows(nvidia_ra_h100_4su_document(127), catalog, rack_units)
    ends = {row[0]: row[1:9] for row in rows}
    assert ends[1] == ("r001", 1, "r001-node-01", "compute-p1", "r008", 48, "r008-leaf-01", "p1")
    assert ends[9] == ("r001", 9, "r001-node-02", "compute-p1", "r008", 48, "r008-leaf-01", "p2")
    assert ends[257][2:] == ("r010-node-01", "compute-p1", "r008", 36, "r008-leaf-09", "p1")
    assert ends[1017][2:] == ("r035-fabric-manager-01", "compute-p1", "r033", 40, "r033-leaf-06", "p32")
    assert ends[1021][2:] == ("r008-leaf-01", "p33", "r008", 47, "r008-spine-01", "p1")
    assert ends[1022][2:] == ("r008-leaf-01", "p34", "r008", 47, "r008-spine-01", "p2")
    assert ends[1023][2:] == ("r008-leaf-01", "p35", "r008", 44, "r008-spine-02", "p1")


def test_rail_optimized_puts_nic_r_of_a_scalable_unit_on_one_leaf(catalog, rack_units):
    """Node i of unit s, NIC r -> leaf (s, r): a leaf's systems all use the same NIC, and
    every leaf takes its unit's 32 systems."""
    _, rows = plan_and_rows(nvidia_ra_h100_4su_document(128, fabric_manager_ports=0), catalog, rack_units)
    node_links = [row for row in as_records(rows) if row["segment"] == "node-leaf"]
    nics_by_leaf, systems_by_leaf = defaultdict(set), defaultdict(set)
    for row in node_links:
        nics_by_leaf[row["to_device"]].add(row["from_port"])
        systems_by_leaf[row["to_device"]].add(row["from_device"])
    assert len(nics_by_leaf) == 32
    assert all(len(nics) == 1 for nics in nics_by_leaf.values())
    assert all(len(systems) == 32 for systems in systems_by_leaf.values())
    # The 8 leaves of one unit serve the same 32 systems.
    units = Counter(frozenset(systems) for systems in systems_by_leaf.values())
    assert sorted(units.values()) == [8, 8, 8, 8]


def test_every_leaf_has_the_same_links_to_every_spine(catalog, rack_units):
    _, rows = plan_and_rows(nvidia_ra_h100_4su_document(128, fabric_manager_ports=0), catalog, rack_units)
    pairs = Counter((row["from_device"], row["to_device"]) for row in as_records(rows)
                    if row["segment"] == "leaf-spine")
    assert len(pairs) == 32 * 16
    assert set(pairs.values()) == {2}  # 32 uplinks over 16 spines


@pytest.mark.parametrize("case", sorted(CASES))
def test_one_row_per_link_and_no_port_twice(catalog, rack_units, case):
    plan, rows = plan_and_rows(CASES[case], catalog, rack_units)
    check_rows(plan, rows)


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_cable_reaches_and_is_a_medium_the_segment_buys(catalog, rack_units, case):
    plan, rows = plan_and_rows(CASES[case], catalog, rack_units)
    bought = defaultdict(set)
    for fabric in plan.fabrics.values():
        for link in fabric.links:
            bought[(fabric.name, link.segment)].update(link.media_counts)
    for row in as_records(rows):
        assert catalog.cables[row["cable"]].reach_m >= row["length_m"], row
        assert row["length_m"] <= row["stock_length_m"], row
        for end in ("from_transceiver", "to_transceiver"):
            if row[end]:
                assert catalog.transceivers[row[end]].reach_m >= row["length_m"], row
        assert row["media"] in bought[(row["fabric"], row["segment"])], row


def rows_modules(plan, catalog, records) -> Counter:
    """Modules the rows' ends need: one per (device, cage, part); a switch port pN sits in cage
    (N - 1) // ports per cage, a NIC port <fabric>-pN in (N - 1) // the NIC's ports per cage."""
    switch_of = {(fabric.name, tier.role): tier.switch for fabric in plan.fabrics.values() for tier in fabric.tiers}
    system = catalog.systems[plan.compute.system]
    cages = set()
    for row in records:
        for side in ("from", "to"):
            module = row[f"{side}_transceiver"]
            if not module:
                continue
            device, port = row[f"{side}_device"], row[f"{side}_port"]
            named = DEVICE.fullmatch(device)
            role = named.group(2) if named else device.rsplit("-", 1)[0]
            if role in SWITCH_ROLES:
                per_cage = catalog.switches[switch_of[(row["fabric"], role)]].ports_per_cage
                ports, native = "", int(SWITCH_PORT.fullmatch(port).group(1))
            else:
                nic = NIC_PORT.fullmatch(port)
                per_cage = system.nic(nic.group(1)).ports_per_cage if role == "node" else 1
                ports, native = nic.group(1), int(nic.group(2))
            cages.add((device, ports, (native - 1) // per_cage, module))
    return Counter(cage[-1] for cage in cages)


@pytest.mark.parametrize("case", sorted(CASES))
def test_bom_cables_and_optics_are_the_rows(catalog, rack_units, case):
    """One BOM line per cable part and stock length, its installed quantity the rows' count;
    each transceiver part's the cages the rows' ends need."""
    plan, rows = plan_and_rows(CASES[case], catalog, rack_units)
    records = as_records(rows)
    installed = Counter()
    for line in plan.bom:
        installed[(line.category, line.sku, line.length_m)] += line.quantity - line.spares
    cables = Counter(("cables", row["cable"], row["stock_length_m"]) for row in records)
    assert {key: count for key, count in installed.items() if key[0] == "cables"} == cables
    optics = {("optics", sku, None): count for sku, count in rows_modules(plan, catalog, records).items()}
    assert {key: count for key, count in installed.items() if key[0] == "optics"} == optics
    assert sum(fabric.transceivers for fabric in plan.fabrics.values()) == sum(optics.values())


def test_top_of_rack_systems_cable_to_a_leaf_in_their_own_rack(catalog, rack_units):
    plan, rows = plan_and_rows(CASES["top_of_rack"], catalog, rack_units)
    records = check_rows(plan, rows)
    node_links = [row for row in records if "-node-" in row["from_device"]]
    assert node_links
    assert all(row["from_rack"] == row["to_rack"] for row in node_links)
    # Two fabrics' leaves at the top of each compute rack, numbered in the rack.
    first_rack = [row for row in node_links if row["from_rack"] == "r001"]
    assert {row["to_device"] for row in first_rack} == {"r001-leaf-01", "r001-leaf-02"}
    assert {row["to_u"] for row in first_rack} == {42, 41}
    # Within a rack the cable is shorter than any run between racks of the same plan.
    between = [row["length_m"] for row in records if row["from_rack"] != row["to_rack"]]
    assert max(row["length_m"] for row in node_links) < min(between)


def test_two_planes_give_each_nic_port_one_link_per_plane(catalog, rack_units):
    plan, rows = plan_and_rows(CASES["two_planes"], catalog, rack_units)
    records = check_rows(plan, rows)
    first = [row for row in records if row["from_device"] == "r001-node-01" and row["fabric"] == "compute"]
    assert sorted(row["from_port"] for row in first) == sorted(
        f"compute-p{port}/{plane}" for port in range(1, 9) for plane in (1, 2)
    )
    assert {row["plane"] for row in first} == {1, 2}
    leaves = {plane: {row["to_device"] for row in records
                      if row["segment"] == "node-leaf" and row["plane"] == plane and row["fabric"] == "compute"}
              for plane in (1, 2)}
    assert leaves[1].isdisjoint(leaves[2])


def test_three_tiers_wire_every_spine_to_its_core_group(catalog, rack_units):
    plan, rows = plan_and_rows(CASES["three_tiers"], catalog, rack_units)
    fabric = plan.fabrics["compute"]
    assert fabric.tier_count == 3
    records = check_rows(plan, rows)
    core_links = Counter((row["from_device"], row["to_device"]) for row in records
                         if row["segment"] == "spine-core" and row["plane"] == 1)
    spines = {spine for spine, _ in core_links}
    tiers = {tier.role: tier for tier in fabric.tiers}
    assert len(spines) == tiers["spine"].switches // fabric.planes
    per_spine = Counter(spine for spine, _ in core_links.elements())
    assert set(per_spine.values()) == {tiers["spine"].up_links_per_switch}


def test_rail_only_sends_nic_r_to_rail_r(catalog, rack_units):
    plan, rows = plan_and_rows(CASES["rail_only"], catalog, rack_units)
    records = check_rows(plan, rows)
    rails = defaultdict(set)
    for row in records:
        if "-node-" in row["from_device"]:
            rails[row["from_port"]].add(row["to_device"])
    assert len(rails) == 8 and all(len(switches) == 1 for switches in rails.values())
    assert len(set().union(*rails.values())) == 8


def test_dragonfly_joins_routers_of_a_group_once_and_groups_evenly(catalog, rack_units):
    plan, rows = plan_and_rows(CASES["dragonfly"], catalog, rack_units)
    shape = plan.fabrics["compute"].dragonfly
    records = check_rows(plan, rows)
    local = Counter(frozenset((row["from_device"], row["to_device"])) for row in records if row["segment"] == "local")
    assert set(local.values()) == {1}
    assert len(local) == shape.groups * shape.routers_per_group * (shape.routers_per_group - 1) // 2
    assert Counter(row["segment"] for row in records)["global"] == (
        shape.groups * (shape.groups - 1) // 2 * shape.global_links_per_group_pair
    )


def test_storage_systems_and_fabric_managers_have_places(catalog, rack_units):
    plan, rows = plan_and_rows(CASES["one_switch_and_storage"], catalog, rack_units)
    records = check_rows(plan, rows)
    devices = {row["from_device"] for row in records}
    assert any("-storage-" in device for device in devices)
    managers = {(row["fabric"], row["from_device"], row["from_port"])
                for row in records if "-fabric-manager-" in row["from_device"]}
    # UFM appliances have 2 fabric ports each: compute's 4 links -> 2 appliances, storage's 2 -> 1,
    # racked in that order at the top of the management rack
    rack = next(device for _, device, _ in managers).split("-")[0]
    assert managers == {
        ("compute", f"{rack}-fabric-manager-01", "compute-p1"), ("compute", f"{rack}-fabric-manager-01", "compute-p2"),
        ("compute", f"{rack}-fabric-manager-02", "compute-p1"), ("compute", f"{rack}-fabric-manager-02", "compute-p2"),
        ("storage", f"{rack}-fabric-manager-03", "storage-p1"), ("storage", f"{rack}-fabric-manager-03", "storage-p2"),
        # and each one's BMC on the oob network
        ("oob", f"{rack}-fabric-manager-01", "oob-p1"), ("oob", f"{rack}-fabric-manager-02", "oob-p1"),
        ("oob", f"{rack}-fabric-manager-03", "oob-p1"),
    }
    management = {row["from_device"] for row in records
                  if row["from_port"] == "mgmt" and DEVICE.fullmatch(row["from_device"]).group(2) in SWITCH_ROLES}
    switches = sum(tier.switches for name, fabric in plan.fabrics.items() if name != "oob" for tier in fabric.tiers)
    assert len(management) == switches


def test_oob_cables_every_management_port_where_its_device_stands(catalog, rack_units):
    """PDUs in their racks (`r001-pdu-01`..`-04` for a compute rack on A/B feeds of 2 PDUs
    each), fabric managers then head nodes in the management rack, storage systems in theirs,
    every one once: as many oob rows per kind as the plan racks."""
    plan, rows = plan_and_rows(CASES["one_switch_and_storage"], catalog, rack_units)
    records = [row for row in check_rows(plan, rows) if row["fabric"] == "oob"]
    by_role = Counter(DEVICE.fullmatch(row["from_device"]).group(2) for row in records)
    racked_pdus = sum(group.pdus * group.count for group in plan.racks.per_rack)
    storage = sum(group.count for group in plan.racks.per_rack if group.kind == "storage")
    assert by_role["pdu"] == racked_pdus
    # 4 compute links / 2 ports + 2 storage links / 2 ports = 3 UFM; 4 head nodes by default
    assert (by_role["fabric-manager"], by_role["management-server"]) == (3, 4)
    assert by_role["storage"] == sum(count for _, count in plan_storage_counts(plan)) and storage
    compute_racks = {row["from_rack"] for row in records if row["from_device"].endswith("-node-01")}
    for rack in compute_racks:
        assert {row["from_device"] for row in records if row["from_rack"] == rack and "-pdu-" in row["from_device"]} == {
            f"{rack}-pdu-0{n}" for n in range(1, 5)}
    management = {row["from_rack"] for row in records if DEVICE.fullmatch(row["from_device"]).group(2)
                  in ("fabric-manager", "management-server")}
    [management_rack] = management
    kinds = {group.kind for group in plan.racks.per_rack}
    assert "management" in kinds and management_rack not in compute_racks


def plan_storage_counts(plan):
    return [(tier.system, tier.systems) for tier in plan.storage.tiers]


def test_racks_are_numbered_in_floor_order(catalog, rack_units):
    plan, rows = plan_and_rows(nvidia_ra_h100_4su_document(128, fabric_manager_ports=0), catalog, rack_units)
    records = as_records(rows)
    # Row 0 of the floor: 7 compute racks, its network rack, then compute racks again.
    first_row = plan.racks.floor.rows[0].segments
    network_number = first_row[0].count + 1
    assert records[0]["from_device"] == "r001-node-01"
    assert records[0]["to_rack"] == f"r{network_number:03d}"
    node_racks = {int(row["from_rack"][1:]) for row in records if row["segment"] == "node-leaf"}
    assert network_number not in node_racks


def test_without_floor_positions_the_segment_length_is_used(catalog, rack_units):
    """Rounded up to the decimetre, as measured lengths are (the plan's segments carry the
    average of the lengths counted on its floor)."""
    plan = plan_scenario(nvidia_ra_h100_4su_document(128, fabric_manager_ports=0), catalog)
    plan = replace(plan, racks=replace(plan.racks, floor=None))
    records = as_records(cabling_rows(plan, catalog))
    lengths = {link.segment: math.ceil(link.length_m * 10 - 1e-6) / 10 for link in plan.fabrics["compute"].links}
    assert all(row["length_m"] == lengths[row["segment"]] for row in records)
    assert records[0]["from_rack"] == "r001"


def test_a_plan_without_fabrics_has_no_cables(catalog):
    plan = plan_scenario({"name": "x", "compute": {"system": "dgx-h100", "nodes": 4}}, catalog)
    assert list(cabling_rows(plan, catalog)) == []


def test_rows_are_made_one_at_a_time_in_bounded_memory(catalog, rack_units):
    """Five times the links must not take five times the memory: links are measured a chunk at
    a time (`cabling_links.CHUNK_LINKS`); what stays is a few numbers per device and cage."""
    def three_tiers(nodes: int) -> dict:
        fabrics = {**CASES["three_tiers"]["fabrics"], "compute": {"switch": "qm9700", "planes": 2, "tiers": 3}}
        return {**CASES["three_tiers"], "compute": {"system": "dgx-h100", "nodes": nodes}, "fabrics": fabrics}

    medium = plan_scenario(three_tiers(300), catalog)
    large = plan_scenario(three_tiers(1500), catalog)
    assert isinstance(cabling_rows(large, catalog), types.GeneratorType)

    def peak_bytes(plan) -> tuple[int, int]:
        tracemalloc.start()
        count = sum(1 for _ in cabling_rows(plan, catalog))
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return count, peak

    medium_links, medium_peak = peak_bytes(medium)
    large_links, large_peak = peak_bytes(large)
    assert large_links > 4.5 * medium_links
    assert large_peak < 2 * medium_peak and large_peak < 4_000_000


def test_network_racks_of_each_fabric_are_spread_along_the_floor():
    """Four compute-fabric racks and one oob rack: the oob rack stands in the middle."""
    from types import SimpleNamespace

    from fabric.solver.cabling_racks import network_slots

    groups = (
        SimpleNamespace(kind="compute", count=10, fabric=""),
        SimpleNamespace(kind="network", count=3, fabric="compute"),
        SimpleNamespace(kind="network", count=1, fabric="compute"),
        SimpleNamespace(kind="network", count=1, fabric="oob"),
    )
    assert network_slots(groups) == [0, 1, 3, 4, 2]


def test_rack_numbers_and_positions_are_the_floor_layouts(catalog):
    from fabric.solver.cabling_racks import RackIndex
    from power.solver.floor import rack_positions

    plan = plan_scenario(CASES["three_tiers"], catalog)
    index = RackIndex(plan.racks, {})
    positions = list(rack_positions(plan.racks.floor))
    assert len(positions) == plan.racks.total
    xs, ys = index.position_arrays(np.arange(1, len(positions) + 1))
    for number, (_, position) in enumerate(positions):
        assert (xs[number], ys[number]) == pytest.approx((position.x_m, position.y_m))
    kinds = Counter(kind for kind, _ in positions)
    for kind, count in kinds.items():
        numbers = [index.number(kind, rack) for rack in range(count)]
        assert sorted(numbers) == [n for n, (k, _) in enumerate(positions, start=1) if k == kind]


def optics_w_counted_and_sampled(plan, catalog, sample_links=SAMPLE_LINKS):
    cabling = PlanCabling(plan, catalog)
    for fabric in cabling.fabrics:
        segments = fabric_segments(cabling, fabric)
        yield fabric.name, count_fabric(cabling, segments).optics_w, sampled_optics_w(cabling, segments, sample_links)


@pytest.mark.parametrize("case, fabric", [
    ("top_of_rack", "compute"), ("three_tiers", "compute"), ("three_tiers", "inband"),
    ("rail_only_two_tiers", "compute"), ("dragonfly_split_ports", "compute"),
])
def test_optics_power_of_every_link_sampled_is_the_count_where_cages_hold_one_module(catalog, case, fabric):
    """Each link end carries module power / links of a full cage: summed over a cage whose
    links all need one module, that is the module's power (these fabrics have no cage whose
    links need different modules)."""
    plan = plan_scenario(CASES[case], catalog)
    counted, sampled = next((counted, sampled) for name, counted, sampled in optics_w_counted_and_sampled(plan, catalog)
                            if name == fabric)
    assert counted
    assert sampled == pytest.approx(counted)


def test_optics_power_sampled_from_large_segments_is_near_the_count(catalog):
    """Every 8th link of the two-plane B300 design (1,024 links a segment) against every
    cable counted: within 10 % for each switch model."""
    plan = plan_scenario(CASES["two_planes"], catalog)
    for name, counted, sampled in optics_w_counted_and_sampled(plan, catalog, sample_links=128):
        for device, watts in counted.items():
            assert sampled[device] == pytest.approx(watts, rel=0.1), (name, device)
