"""The power step as a whole: published DGX cases, a mixed layout by hand, BOM lines, warnings."""

from dataclasses import replace

import pytest

from core.solver.interfaces import SwitchGroup
from core.solver.management import server_groups
from fabric.solver.specs import FabricsSpec
from power.solver.facility import FACILITY_POWER_FIELDS
from power.solver.power_plan import (
    RackDemand,
    cooled_racks,
    cooled_racks_facility,
    packed_racks,
    racks_and_power,
)
from power.solver.specs import FacilitySpec, RacksSpec
from tests.fields_read import FieldsRead


def plan(catalog, system, nodes, racks=RacksSpec(), facility=FacilitySpec(), **inputs):
    """The racks and power with the scenario's management servers (4 x 1 U head nodes by default)."""
    servers = server_groups(racks, FabricsSpec(), catalog.servers)
    return racks_and_power(RackDemand.of(nodes, catalog.systems[system], racks, servers=servers, **inputs), facility,
                           catalog)


def test_nvidia_ra_h100_rack_power_and_units(catalog):
    """DGX H100: 8 U, 10.2 kW; four to a rack, "power consumption per rack exceeds 40 kW"."""
    result = plan(catalog, "dgx-h100", 128, RacksSpec(power_budget_kw=41))
    [compute] = [group for group in result.racks.per_rack if group.kind == "compute"]
    assert (compute.count, compute.contents[0].count, compute.units_used) == (32, 4, 32 + 0)  # 0U PDUs
    assert compute.it_kw == pytest.approx(40.8) and compute.it_kw > 40
    assert compute.heat_btu_per_h == pytest.approx(40_800 * 3.412)
    # A/B feeds of 34.5 kW PDUs: 2 per feed
    assert (compute.pdus, compute.pdus_per_feed) == (4, 2)


def test_nvidia_dgx_b200_power_and_units(catalog):
    """DGX B200: 10 U, 14.3 kW, 142.4 kg. 42 U hold 4 (40 U, 57.2 kW), on direct liquid cooling
    with a 60 kW budget; air (45 kW) holds only 3 (42.9 kW)."""
    liquid = plan(catalog, "dgx-b200", 32, RacksSpec(power_budget_kw=60, cooling="direct_liquid"))
    assert liquid.racks.nodes_per_rack == 4  # power: floor(60 / 14.3) = 4; U: floor(42 / 10) = 4
    assert liquid.racks.nodes_per_rack_by_limit["racks.usable_u"] == 4
    assert liquid.racks.compute_rack_it_kw == pytest.approx(57.2)
    assert liquid.racks.per_rack[0].weight_kg == pytest.approx(4 * 142.4 + 150)
    air = plan(catalog, "dgx-b200", 32, RacksSpec(power_budget_kw=60))
    assert (air.racks.nodes_per_rack, air.racks.limited_by) == (3, "racks.cooling")


def test_mixed_layout_by_hand(catalog):
    """128 DGX H100; compute fabric of 16 rail leaves and 8 spines in network racks; 8 SN2201
    management switches in compute racks; 4 DDN AI400X2 in a storage rack; 4 management servers.

    - compute: 4 x 10.2 + 0.1 = 40.9 kW <= 41, so still 4 per rack: 32 racks, a switch in the first 8
    - network: 24 QM9700 in a 52 U rack less 4 U: min(48, 30 / 0.75 = 40) = 40 per rack -> 1 rack
    - storage: 4 x 2 U, 2.2 kW -> 1 rack; management: 4 x 1 U -> 1 rack; total 35
    - rows of 16: 33 compute and network racks -> 3 rows; the one network rack goes to row
      floor(0.5 x 3) = 1, in its middle; then a row with the storage and management racks
    """
    groups = [
        SwitchGroup("compute", "leaf", "qm9700", 16, "network_rack"),
        SwitchGroup("compute", "spine", "qm9700", 8, "network_rack"),
        SwitchGroup("oob", "leaf", "sn2201", 8, "compute_rack"),
    ]
    result = plan(catalog, "dgx-h100", 128, RacksSpec(power_budget_kw=41), switch_groups=groups,
                  storage_systems=[("ddn-ai400x2", 4)])
    racks = result.racks
    assert (racks.compute, racks.network, racks.storage, racks.management, racks.total) == (32, 1, 1, 1, 35)
    assert racks.rows == 4
    rows = [[(segment.kind, segment.count) for segment in row.segments] for row in racks.floor.rows]
    assert rows == [
        [("compute", 16)],
        [("compute", 7), ("network", 1), ("compute", 8)],
        [("compute", 1)],
        [("storage", 1), ("management", 1)],
    ]
    [network] = [group for group in racks.per_rack if group.kind == "network"]
    assert (network.rack_type, network.fabric, network.contents[0].count) == ("rack-52u-800", "compute", 24)
    # IT load by category: compute 128 x 10.2; network 24 x 0.75 + 8 x 0.1; storage 4 x 2.2; 4 x 1 kW
    power = result.power
    assert power.it_kw_by_category == pytest.approx(
        {"compute": 1_305.6, "network": 18.8, "storage": 8.8, "management": 4.0})
    assert power.it_kw == pytest.approx(sum(group.it_kw * group.count for group in racks.per_rack))
    assert power.facility_kw == pytest.approx(power.it_kw * power.pue)
    # The longest compute-network cable: from the far corner of row 2 to the middle of row 1.
    assert racks.floor.longest_compute_to_network_cable_m > 0
    # BOM lines: enclosures, PDUs, cooling units
    lines: dict = {}
    for count in result.part_counts:
        lines[count.category, count.sku] = lines.get((count.category, count.sku), 0) + count.quantity
    assert lines[("racks", "rack-42u-600")] == 34
    assert lines[("racks", "rack-52u-800")] == 1
    assert lines[("power", "pdu-415v-60a-3ph")] == power.pdus == 32 * 4 + 3 * 2
    assert lines[("management", "head-node-1u")] == 4
    # air cooling: CRAHs and chillers are the building's (colocation fee), not on the BOM
    assert {category for category, _ in lines} == {"racks", "power", "management"}


def test_optics_power_is_shared_over_the_switches_that_hold_it(catalog):
    groups = [SwitchGroup("compute", "leaf", "qm9700", 40, "network_rack"),
              SwitchGroup("oob", "leaf", "sn2201", 2, "network_rack")]
    result = plan(catalog, "dgx-h100", 32, switch_groups=groups, optics_kw_by_switch={"qm9700": 20.0})
    oob = [group for group in result.racks.per_rack if group.kind == "network" and group.fabric == "oob"]
    # the copper management switches draw only their own power
    assert oob[0].it_kw == pytest.approx(2 * catalog.switches["sn2201"].power_w / 1000)
    network = [group for group in result.racks.per_rack if group.kind == "network" and group.fabric == "compute"]
    # 40 x (0.75 + 20 / 40) = 50 kW: 30 kW racks hold floor(30 / 1.25) = 24 -> racks of 24 and 16
    assert result.power.it_kw_by_category["network"] == pytest.approx(50.0 + oob[0].it_kw)
    assert [group.contents[0].count for group in network] == [24, 16] and result.racks.network == 3


def test_a_rack_scale_system_is_not_bought_an_enclosure(catalog):
    result = plan(catalog, "gb200-nvl72", 8, RacksSpec(power_budget_kw=140, cooling="direct_liquid"))
    skus = {count.sku for count in result.part_counts if count.category == "racks"}
    assert "gb200-nvl72" not in skus
    assert result.power.cooling.liquid_kw == pytest.approx(8 * 132 * 0.8)


def test_warnings_floor_loading(catalog):
    result = plan(catalog, "gb200-nvl72", 8, RacksSpec(power_budget_kw=140, cooling="direct_liquid"))
    # 1,360 kg on 0.6 x 1.068 m = 2,122 kg/m2 > 1,224 kg/m2
    assert any(warning.startswith("8 compute racks weigh 1,360 kg each, 2,122 kg/m²") for warning in result.warnings)


def test_warnings_a_lost_feed(catalog):
    result = plan(catalog, "dgx-h100", 128, RacksSpec(pdus_per_rack=2))
    assert any("losing a feed would overload the other" in warning for warning in result.warnings)


def test_warnings_cooling_that_caps_the_rack(catalog):
    result = plan(catalog, "dgx-b200", 32, RacksSpec(power_budget_kw=60))
    assert any(warning.startswith("air cooling removes at most 45 kW per rack, so each compute rack holds 3")
               and "direct_liquid" in warning for warning in result.warnings)


def test_warnings_stranded_power(catalog):
    # 129 DGX H100 at 4 per rack: the 33rd rack holds 1 of 4.
    result = plan(catalog, "dgx-h100", 129, RacksSpec(power_budget_kw=41))
    assert "The last compute rack holds 1 of 4 systems: 30.8 kW of its 41 kW power budget stay unused." in (
        result.warnings)
    # 8 U systems in a 16 U rack: 2 x 10.2 = 20.4 of 41 kW used, 20.6 kW stranded per rack
    cramped = plan(catalog, "dgx-h100", 8, RacksSpec(power_budget_kw=41, usable_u=16))
    assert any(warning.startswith("Each full compute rack draws 20.4 kW of its 41 kW") for warning in cramped.warnings)


def test_no_warnings_for_the_reference_design(catalog):
    assert plan(catalog, "dgx-h100", 128, RacksSpec(power_budget_kw=41)).warnings == []


def test_one_hundred_thousand_gpus_stay_compact(catalog):
    groups = [
        SwitchGroup("compute", "leaf", "qm9700", 3_125, "network_rack"),
        SwitchGroup("compute", "spine", "qm9700", 3_125, "network_rack"),
        SwitchGroup("compute", "core", "qm9700", 1_563, "network_rack"),
        SwitchGroup("oob", "leaf", "sn2201", 782, "compute_rack"),
    ]
    result = plan(catalog, "dgx-h100", 12_500, switch_groups=groups, storage_systems=[("ddn-ai400x2", 100)])
    # 12,500 nodes at 4 per rack (40.8 kW + a 0.1 kW SN2201 in 782 of them) = 3,125 racks
    assert result.racks.compute == 3_125 and result.racks.total > 3_300
    assert len(result.racks.per_rack) <= 10
    assert sum(group.count for group in result.racks.per_rack) == result.racks.total


def test_the_racks_alone_are_the_racks_racks_and_power_packs(catalog):
    """A plan-and-pack round reads `packed_racks`; the last is powered from that same packing
    (`packed`), which is what `racks_and_power` gives packing it itself."""
    racks = RacksSpec(power_budget_kw=60, cooling="direct_liquid")
    servers = server_groups(racks, FabricsSpec(), catalog.servers)
    system = catalog.systems["dgx-b200"]
    oob = [SwitchGroup("oob", "leaf", "sn2201", 6, "network_rack")]
    demand = RackDemand.of(96, system, racks, switch_groups=oob, servers=servers, optics_kw_by_switch={"sn2201": 0.3})
    cache: dict = {}
    alone = packed_racks(demand, FacilitySpec(pue=1.3), catalog, packing_cache=cache)
    assert packed_racks(demand, FacilitySpec(pue=1.5), catalog, packing_cache=cache) is alone
    whole = racks_and_power(demand, FacilitySpec(pue=1.3), catalog)
    assert alone == whole.racks and alone.network >= 1
    from_alone = racks_and_power(demand, FacilitySpec(pue=1.3), catalog, packed=alone)
    assert from_alone == whole
    assert from_alone.power.facility_kw == pytest.approx(1.3 * from_alone.power.it_kw, rel=0.05)




@pytest.mark.parametrize(
    ("cooling", "facility"),
    [
        ("air", FacilitySpec(pue=1.3)),
        ("direct_liquid", FacilitySpec(climate="hot", chiller_share=0.5, cooling_redundancy="2N")),
        ("rear_door", FacilitySpec(heat_rejection="cooling-tower-2000", air_handler="crah-200", cdu="cdu-inrow-600")),
    ],
)
def test_the_cooled_racks_read_no_facility_power_field(catalog, cooling, facility):
    """A sweep keeps the cooled racks by the facility without its power fields
    (`cooled_racks_facility`): the racks, cooling plant, parts and warnings must not read them."""
    racks = RacksSpec(power_budget_kw=60, cooling=cooling)
    system = catalog.systems["dgx-b200" if cooling == "direct_liquid" else "dgx-h100"]
    demand = RackDemand.of(64, system, racks, servers=server_groups(racks, FabricsSpec(), catalog.servers))
    noted = FieldsRead(facility)
    cooled = cooled_racks(demand, noted, catalog)
    assert noted.read and not noted.read & FACILITY_POWER_FIELDS
    assert cooled.cooling.units and cooled.part_counts
    # the key holds every field the cooled racks read, and the same racks come of any power fields
    other = replace(facility, pue=1.9, electricity_usd_per_kwh=0.3, ups_efficiency=0.9, average_load=0.5)
    assert cooled_racks_facility(other) == cooled_racks_facility(facility)
    assert cooled_racks(demand, other, catalog) == cooled
    assert cooled_racks_facility(replace(facility, climate="cool")) != cooled_racks_facility(facility)


def test_a_lone_rack_is_warned_of_in_the_singular(catalog):
    """One GB200 NVL72: "1 compute rack weighs 1,360 kg, ... over its footprint", not "weigh ... each
    ... their"."""
    result = plan(catalog, "gb200-nvl72", 1, RacksSpec(power_budget_kw=140, cooling="direct_liquid"))
    assert any(warning.startswith("1 compute rack weighs 1,360 kg, 2,122 kg/m² over its 0.64 m²")
               for warning in result.warnings), result.warnings
