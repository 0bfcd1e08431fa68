"""Network, storage and management racks: bulk packing by hand calculation."""

import pytest

from core.solver.errors import InfeasibleError
from power.solver.support_racks import Equipment, pack_equipment, support_cooling


def qm9700(catalog) -> Equipment:
    switch = catalog.switches["qm9700"]
    return Equipment("qm9700", switch.name, switch.rack_units, switch.power_w / 1_000, switch.weight_kg)


def q3400(catalog) -> Equipment:
    switch = catalog.switches["q3400"]
    return Equipment("q3400", switch.name, switch.rack_units, switch.power_w / 1_000, switch.weight_kg)


def network_racks(catalog, items, budget_kw=30.0):
    rack = catalog.rack_types["rack-52u-800"]
    # 52 U less 4 U for patch panels = 48 U
    return pack_equipment("network", items, rack, rack.usable_u - 4, budget_kw, catalog.cooling_types["air"],
                          rack.slug, fabric="compute")


def test_one_model_fills_whole_racks_then_a_last_one(catalog):
    # QM9700: 1 U, 750 W, 14.8 kg. Per rack: min(48 U, 30 kW / 0.75 kW = 40, 1,800 kg / 14.8 kg = 121) = 40.
    # 300 switches -> 7 racks of 40 and one of 20.
    groups = network_racks(catalog, [(qm9700(catalog), 300)])
    assert [(g.count, g.contents[0].count) for g in groups] == [(7, 40), (1, 20)]
    assert groups[0].it_kw == pytest.approx(30.0) and groups[0].units_used == 40
    assert groups[0].equipment_weight_kg == pytest.approx(40 * 14.8)


def test_mixed_models_share_the_open_rack(catalog):
    # Q3400 (4 U, 3.6 kW, 60 kg) first: per rack min(48 / 4 = 12, 30 / 3.6 = 8, 1,800 / 60 = 30) = 8.
    # 10 Q3400 -> a rack of 8, then 2 left open (8 U, 7.2 kW, 120 kg).
    # 50 QM9700: the open rack takes min(40 U, (30 - 7.2) / 0.75 = 30, ...) = 30; the other 20 start a rack.
    groups = network_racks(catalog, [(qm9700(catalog), 50), (q3400(catalog), 10)])
    contents = [(g.count, {item.slug: item.count for item in g.contents}) for g in groups]
    assert contents == [(1, {"q3400": 8}), (1, {"q3400": 2, "qm9700": 30}), (1, {"qm9700": 20})]
    assert groups[1].it_kw == pytest.approx(2 * 3.6 + 30 * 0.75)


def test_nothing_to_rack_gives_no_rack(catalog):
    assert network_racks(catalog, [(qm9700(catalog), 0)]) == []


def test_equipment_beyond_the_budget(catalog):
    rack = catalog.rack_types["rack-52u-800"]
    switch = q3400(catalog)
    with pytest.raises(InfeasibleError) as caught:
        pack_equipment("network", [(switch, 1)], rack, 48, 3.0, catalog.cooling_types["air"], rack.slug,
                       field_path="fabrics.compute.switch")
    assert caught.value.as_dict() == {"fabrics.compute.switch": [
        f"one {switch.name} draws 3.6 kW, more than the 3 kW a network rack may draw "
        "(racks.support_power_budget_kw)"
    ]}


def test_support_racks_stay_on_air_unless_the_hall_has_rear_doors(catalog):
    assert support_cooling("direct_liquid", catalog.cooling_types).slug == "air"
    assert support_cooling("immersion", catalog.cooling_types).slug == "air"
    assert support_cooling("rear_door", catalog.cooling_types).slug == "rear_door"
