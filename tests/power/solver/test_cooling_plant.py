"""Cooling plant counts with redundancy, and the power it draws, by hand."""

import pytest

from power.solver.cooling_plant import cooling_unit_paid_by, size_cooling_plant, units_with_redundancy
from power.solver.rack_loads import RackGroup, RackItem, describe_rack_group
from power.solver.specs import FacilitySpec, RacksSpec


@pytest.mark.parametrize(("needed", "redundancy", "installed"), [
    (7, "N", 7), (7, "N+1", 8), (7, "2N", 14), (0, "N+1", 0), (0, "2N", 0),
])
def test_units_with_redundancy(needed, redundancy, installed):
    assert units_with_redundancy(needed, redundancy) == installed


def groups_of(catalog, count, it_kw, cooling, facility=FacilitySpec()):
    group = RackGroup("compute", count, "rack-42u-600", (RackItem("x", 1),), 8, 42, it_kw, 100.0, cooling=cooling)
    return (describe_rack_group(group, RacksSpec(cooling=cooling), facility, catalog),)


def by_role(plant):
    return {unit.role: unit for unit in plant.units}


def test_air_cooled_plant_by_hand(catalog):
    # 32 racks x 40.8 kW = 1,305.6 kW, all to air.
    plant = size_cooling_plant(groups_of(catalog, 32, 40.8, "air"), FacilitySpec(), catalog)
    units = by_role(plant)
    # CRAH 200 kW: ceil(1,305.6 / 200) = 7, N+1 = 8; fans 10 / 200 = 5 % -> 65.28 kW
    assert (units["air_handlers"].needed, units["air_handlers"].count) == (7, 8)
    assert units["air_handlers"].power_kw == pytest.approx(65.28)
    # chilled water 1,305.6 + 65.28 = 1,370.88 kW -> 1 MW chillers: 2, N+1 = 3;
    # compressors run half the year in a temperate climate at 300 / 1,000 kW/kW:
    # 1,370.88 x 0.5 x 0.3 = 205.632 kW
    assert plant.chilled_water_kw == pytest.approx(1_370.88)
    assert (units["chilled_water_rejection"].needed, units["chilled_water_rejection"].count) == (2, 3)
    assert units["chilled_water_rejection"].power_kw == pytest.approx(205.632)
    assert plant.cooling_kw == pytest.approx(65.28 + 205.632)
    assert "cdus" not in units and plant.liquid_kw == 0


def test_direct_liquid_plant_by_hand(catalog):
    # 16 GB200 NVL72 racks x 132 kW = 2,112 kW: 80 % liquid (1,689.6 kW), 20 % air (422.4 kW).
    facility = FacilitySpec(cooling_redundancy="2N", climate="cool")
    plant = size_cooling_plant(groups_of(catalog, 16, 132.0, "direct_liquid", facility), facility, catalog)
    units = by_role(plant)
    assert (plant.liquid_kw, plant.air_kw) == (pytest.approx(1_689.6), pytest.approx(422.4))
    # CDUs, the cheapest for the load: 1 x 2.3 MW ($350k) -> 2N = 2 units ($700k), against
    # 3 x 600 kW ($120k) -> 6 units ($720k).
    assert (units["cdus"].unit, units["cdus"].needed, units["cdus"].count) == ("cdu-inrow-2300", 1, 2)
    pumps_kw = 1_689.6 * 35 / 2_300
    assert units["cdus"].power_kw == pytest.approx(pumps_kw)
    assert plant.ups_backed_kw == pytest.approx(pumps_kw)
    # Warm water (liquid + pumps) to dry coolers: fans 3 %, no compressors in a cool climate.
    warm_kw = 1_689.6 + pumps_kw
    assert units["warm_water_rejection"].unit == "dry-cooler-1000"
    assert units["warm_water_rejection"].power_kw == pytest.approx(warm_kw * 0.03)
    assert (units["warm_water_rejection"].needed, units["warm_water_rejection"].count) == (2, 4)


def test_rear_doors_one_per_rack(catalog):
    plant = size_cooling_plant(groups_of(catalog, 10, 50.0, "rear_door"), FacilitySpec(), catalog)
    doors = by_role(plant)["rear_doors"]
    # 90 % of 50 kW per rack goes to its door: 10 doors, whatever the redundancy
    assert (doors.unit, doors.count, doors.load_kw) == ("rdhx-60", 10, pytest.approx(450.0))
    assert "cdus" not in by_role(plant)


def test_a_named_cooling_tower_takes_all_heat(catalog):
    facility = FacilitySpec(heat_rejection="cooling-tower-2000", cooling_redundancy="N")
    plant = size_cooling_plant(groups_of(catalog, 32, 40.8, "air"), facility, catalog)
    tower = by_role(plant)["heat_rejection"]
    # 1,370.88 kW (racks + CRAH fans) / 2,000 kW -> 1 tower; fans 40 / 2,000 = 2 %
    assert (tower.count, tower.power_kw) == (1, pytest.approx(1_370.88 * 0.02))


def test_chiller_share_given_replaces_the_climate(catalog):
    facility = FacilitySpec(chiller_share=1.0)
    plant = size_cooling_plant(groups_of(catalog, 32, 40.8, "air"), facility, catalog)
    assert by_role(plant)["chilled_water_rejection"].power_kw == pytest.approx(1_370.88 * 0.3)


@pytest.mark.parametrize(("kind", "leased", "built"), [
    ("chiller", "colocation fee", "construction cost per MW"),
    ("dry_cooler", "colocation fee", "construction cost per MW"),
    ("cooling_tower", "colocation fee", "construction cost per MW"),
    ("crah", "colocation fee", "construction cost per MW"),
    ("cdu", "bill of materials", "bill of materials"),
    ("rdhx", "bill of materials", "bill of materials"),
])
def test_the_building_pays_for_its_plant_and_the_cluster_for_its_racks_cooling(kind, leased, built):
    assert cooling_unit_paid_by(kind, "leased") == leased
    assert cooling_unit_paid_by(kind, "built") == built
