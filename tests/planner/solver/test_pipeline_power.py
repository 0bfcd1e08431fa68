"""The pipeline's racks, floor, power and cooling sections; the scenario keys they read."""

import pytest

from core.solver.errors import InfeasibleError, ScenarioError
from planner.solver.pipeline import plan_scenario
from planner.solver.scenario import read_scenario

NVIDIA_RA_H100_4SU = {
    "name": "DGX SuperPOD H100, 4 SU",
    "compute": {"system": "dgx-h100", "nodes": 128},
    "racks": {"power_budget_kw": 41},
}


def test_plan_carries_racks_and_power(catalog):
    plan = plan_scenario(NVIDIA_RA_H100_4SU, catalog).to_dict()
    racks = plan["racks"]
    # 32 compute racks of 4 DGX H100 and one management rack; 16 per row -> 2 compute rows + 1
    assert {key: racks[key] for key in ("compute", "network", "storage", "total", "rows")} == {
        "compute": 32, "network": 0, "storage": 0, "total": 33, "rows": 3}
    assert [(group["kind"], group["count"]) for group in racks["per_rack"]] == [("compute", 32), ("management", 1)]
    power = plan["power"]
    # IT: 128 x 10.2 kW + 4 management servers x 1 kW = 1,309.6 kW
    assert power["it_kw"] == pytest.approx(1_309.6)
    assert power["facility_kw"] == pytest.approx(power["it_kw"] * power["pue"], rel=1e-6)
    assert power["pue_source"] == "modelled" and 1.1 < power["pue"] < 1.6
    categories = {line["category"] for line in plan["bom"]}
    assert {"compute", "racks", "power"} <= categories and "cooling" not in categories  # the building's plant


def test_a_given_pue(catalog):
    plan = plan_scenario({**NVIDIA_RA_H100_4SU, "facility": {"pue": 1.4}}, catalog)
    assert (plan.power.pue, plan.power.pue_source) == (1.4, "given")
    assert plan.power.facility_kw == pytest.approx(1.4 * 1_309.6)


def test_documented_defaults_of_the_new_keys():
    scenario = read_scenario({"name": "n", "compute": {"system": "dgx-h100", "gpus": 8}})
    racks, facility = scenario.racks, scenario.facility
    assert (racks.rack_type, racks.network_rack_type, racks.pdu) == ("rack-42u-600", "rack-52u-800", "pdu-415v-60a-3ph")
    assert (racks.power_feeds, racks.pdus_per_rack, racks.max_weight_kg) == ("a_b", None, None)
    assert (racks.cold_aisle_m, racks.hot_aisle_m, racks.end_aisle_m) == (1.2, 0.9, 1.2)
    assert racks.network_placement == "middle_of_row" and racks.management_servers == 4
    assert (facility.pue, facility.climate, facility.chiller_share) == ("auto", "temperate", "auto")
    assert (facility.air_delta_t_k, facility.water_delta_t_k) == (12.0, 10.0)
    assert (facility.ups_redundancy, facility.generator_redundancy, facility.cooling_redundancy) == ("N+1",) * 3
    assert (facility.average_load, facility.grid_gco2_per_kwh, facility.wue_l_per_kwh) == (0.75, 481.0, "auto")


def errors_of(catalog, section, **values):
    document = {**NVIDIA_RA_H100_4SU, section: {**NVIDIA_RA_H100_4SU.get(section, {}), **values}}
    with pytest.raises(ScenarioError) as caught:
        plan_scenario(document, catalog)
    return caught.value


@pytest.mark.parametrize(("section", "values", "expected"), [
    ("facility", {"pue": 0.9}, {"facility.pue": ["must be auto or a number of at least 1"]}),
    ("racks", {"cold_aisle_m": -1.2}, {"racks.cold_aisle_m": ["must be a number greater than 0 m"]}),
    ("racks", {"hot_aisle_m": 0}, {"racks.hot_aisle_m": ["must be a number greater than 0 m"]}),
    ("facility", {"ups_redundancy": "3N"}, {"facility.ups_redundancy": ["must be one of: N, N+1, 2N"]}),
    ("racks", {"power_feeds": "ab"}, {"racks.power_feeds": ["must be one of: a_b, single"]}),
    ("racks", {"cooling": "water"},
     {"racks.cooling": ["must be one of: air, rear_door, direct_liquid, immersion"]}),
    ("facility", {"climate": "arctic"}, {"facility.climate": ["must be one of: cool, temperate, hot"]}),
    ("facility", {"average_load": 0}, {"facility.average_load": ["must be a number greater than 0"]}),
    ("racks", {"usable_u": 0}, {"racks.usable_u": ["must be a positive whole number"]}),
    ("racks", {"power_budget_kw": 0}, {"racks.power_budget_kw": ["must be a number greater than 0 kW"]}),
])
def test_bad_input_is_named_by_its_field(catalog, section, values, expected):
    error = errors_of(catalog, section, **values)
    assert not isinstance(error, InfeasibleError)
    assert error.as_dict() == expected


@pytest.mark.parametrize(("section", "values", "path", "start"), [
    ("racks", {"rack_type": "rack-42u"}, "racks.rack_type", "no rack type 'rack-42u' in the catalog"),
    ("racks", {"pdu": "pdu-9000"}, "racks.pdu", "no PDU 'pdu-9000' in the catalog"),
    ("facility", {"cdu": "crah-200"}, "facility.cdu", "no CDU 'crah-200' in the catalog"),
    ("facility", {"heat_rejection": "cdu-inrow-600"}, "facility.heat_rejection",
     "no chiller, dry cooler or cooling tower 'cdu-inrow-600'"),
])
def test_names_that_do_not_exist(catalog, section, values, path, start):
    [message] = errors_of(catalog, section, **values).as_dict()[path]
    assert message.startswith(start)


@pytest.mark.parametrize(("values", "path", "message"), [
    ({"power_budget_kw": 10}, "racks.power_budget_kw",
     "one NVIDIA DGX H100 draws 10.2 kW, more than the 10 kW rack budget: raise the budget to at least 10.2 kW"),
    ({"usable_u": 6}, "racks.usable_u",
     "one NVIDIA DGX H100 takes 8 U, more than the 6 U available: allow at least 8 U"),
    ({"max_weight_kg": 100}, "racks.max_weight_kg",
     "one NVIDIA DGX H100 weighs 130.45 kg, more than the 100 kg a rack may hold: allow at least 130.45 kg"),
])
def test_racks_that_hold_nothing(catalog, values, path, message):
    error = errors_of(catalog, "racks", **values)
    assert isinstance(error, InfeasibleError)
    assert error.as_dict() == {path: [message]}


POWER_RACKS_KEYS = (
    "rack_type", "network_rack_type", "pdu", "power_feeds", "pdus_per_rack", "max_weight_kg",
    "empty_rack_weight_kg", "support_power_budget_kw", "network_reserved_u", "network_placement",
    "management_servers", "management_server_kw", "management_server_u", "management_server_weight_kg",
    "cold_aisle_m", "hot_aisle_m", "end_aisle_m", "cable_tray_height_m", "cable_slack_m",
    "cable_slack_fraction",
)
POWER_FACILITY_KEYS = (
    "pue", "climate", "chiller_share", "air_delta_t_k", "water_delta_t_k", "cdu", "air_handler",
    "heat_rejection", "cooling_redundancy", "ups_redundancy", "ups_module_kw", "ups_efficiency",
    "generator_redundancy", "generator_kw", "distribution_loss_fraction", "other_loss_fraction",
    "floor_load_limit_kg_per_m2", "average_load", "grid_gco2_per_kwh", "wue_l_per_kwh",
)


def test_the_facility_example_plans_and_names_every_key(catalog):
    from pathlib import Path

    import yaml

    from power.solver.specs import FacilitySpec, RacksSpec

    example = Path(__file__).resolve().parents[3] / "examples" / "gb200-nvl72-liquid-facility.yaml"
    document = yaml.safe_load(example.read_text())
    # Every key this step added is shown (others may add keys of their own to these sections).
    assert set(POWER_RACKS_KEYS) <= set(document["racks"]) <= set(RacksSpec.__dataclass_fields__)
    assert set(POWER_FACILITY_KEYS) <= set(document["facility"]) <= set(FacilitySpec.__dataclass_fields__)
    plan = plan_scenario(document, catalog)
    assert (plan.racks.compute, plan.racks.total) == (16, 17)
    assert plan.power.ups.units == 2 * plan.power.ups.needed  # 2N


@pytest.mark.parametrize("topology", ["fat_tree", "dragonfly"])
def test_cables_are_counted_once_where_they_end_up(catalog, monkeypatch, topology):
    """10,000 B300 GPUs on four fabrics: the racks are first packed with the optics of a sample
    of the cables (the engine's one length a segment puts the dragonfly's local links on copper
    where most need optics), so every cable is counted once, on the floor the plan reports."""
    from fabric.solver.cabling_racks import placement_key
    from planner.solver import rounds

    counts = []
    count = rounds.counted_fabrics
    monkeypatch.setattr(rounds, "counted_fabrics", lambda *args: counts.append(args[0].plan.racks) or count(*args))
    document = {
        "name": "B300, 10k GPUs",
        "compute": {"system": "dgx-b300", "gpus": 10_000},
        "racks": {"power_budget_kw": 130, "cooling": "direct_liquid"},
        "fabrics": {
            "compute": {"switch": "q3400", "topology": topology},
            "storage": {"switch": "q3400"},
            "inband": {"switch": "q3400"},
            "oob": {"switch": "sn2201", "spine_switch": "sn5600"},
        },
    }
    plan = plan_scenario(document, catalog)
    assert len(counts) == 1
    assert placement_key(counts[0]) == placement_key(plan.racks)
    switch_optics_kw = sum(kw for fabric in plan.fabrics.values()
                           for device, kw in fabric.optics_power_kw_by_device.items() if device != "dgx-b300")
    assert switch_optics_kw > 0
    assert not any("largest count" in warning for warning in plan.warnings)


def test_a_sites_cables_are_counted_once_where_they_end_up(catalog, monkeypatch):
    """A site goes through the same rounds (`rounds.settle`): two pools of 4,096 B300 GPUs, each
    on its own dragonfly, with the site's storage and oob fabrics, counted once."""
    from fabric.solver.cabling_racks import placement_key
    from planner.solver import rounds

    counts = []
    count = rounds.counted_fabrics
    monkeypatch.setattr(rounds, "counted_fabrics", lambda *args: counts.append(args[0].plan.racks) or count(*args))
    pool = {"system": "dgx-b300", "gpus": 4096, "fabric": {"switch": "q3400", "topology": "dragonfly"}}
    document = {
        "name": "two B300 pools",
        "pools": [{"name": "a", **pool}, {"name": "b", **pool}],
        "racks": {"power_budget_kw": 130, "cooling": "direct_liquid"},
        "fabrics": {"storage": {"switch": "q3400"}, "oob": {"switch": "sn2201", "spine_switch": "sn5600"}},
    }
    plan = plan_scenario(document, catalog)
    assert len(counts) == 1
    assert placement_key(counts[0]) == placement_key(plan.racks)
    assert {"compute-a", "compute-b", "storage", "oob"} <= set(plan.fabrics)
