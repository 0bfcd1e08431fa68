"""A system in racks whose cooling it is not built for: one sentence, by hand for each kind of
mismatch, none where they match; the plan carries it for one cluster and for each pool of a site."""

import copy
from pathlib import Path

import pytest
import yaml

from core.solver.errors import InfeasibleError
from planner.solver.pipeline import plan_scenario
from power.solver.cooling_fit import cooling_mismatch_warning

ROOT = Path(__file__).resolve().parents[3]
TWO_POOLS = yaml.safe_load((ROOT / "examples" / "two-pool-site.yaml").read_text())


def _cooling_warnings(plan):
    return [warning for warning in plan.warnings if ", but the racks are " in warning]


@pytest.mark.parametrize(
    ("system", "cooling"),
    [
        ("dgx-h100", "air"),
        ("dgx-h100", "rear_door"),
        ("l40s-8", "air"),
        ("gb200-nvl72", "direct_liquid"),
        ("mi355x-8", "direct_liquid"),
    ],
)
def test_a_system_in_the_cooling_it_is_built_for_gets_no_warning(catalog, system, cooling):
    assert cooling_mismatch_warning(catalog.systems[system], cooling) is None


def test_an_air_cooled_system_in_immersion_racks(catalog):
    assert cooling_mismatch_warning(catalog.systems["dgx-h100"], "immersion") == (
        "The NVIDIA DGX H100 is air-cooled, but the racks are immersion-cooled (tanks of dielectric "
        "fluid): its fans and drives are built for air, and a tank takes only an immersion-ready "
        "variant whose price and power the catalog does not give. Choose air or rear-door cooling, "
        "or a system built for immersion."
    )


def test_an_air_cooled_system_in_direct_liquid_racks(catalog):
    warning = cooling_mismatch_warning(catalog.systems["dgx-h100"], "direct_liquid")
    assert warning.startswith(
        "The NVIDIA DGX H100 is air-cooled, but the racks are cooled by direct-to-chip liquid "
        "(cold plates and CDUs): it has no cold plates,"
    )
    assert warning.endswith("Choose air or rear-door cooling, or a liquid-cooled system.")


@pytest.mark.parametrize("cooling", ["air", "rear_door", "immersion"])
def test_a_direct_liquid_system_in_other_racks(catalog, cooling):
    warning = cooling_mismatch_warning(catalog.systems["gb200-nvl72"], cooling)
    assert warning.startswith("The NVIDIA GB200 NVL72 (rack) needs direct liquid cooling, but the racks are ")
    assert "direct liquid cooling for the racks" in warning
    assert "_" not in warning  # words, not keys


def test_the_plan_warns_of_an_air_cooled_system_in_immersion_racks(catalog):
    scenario = {"name": "tank", "compute": {"system": "hgx-h100", "gpus": 256}, "racks": {"cooling": "immersion"}}
    [warning] = _cooling_warnings(plan_scenario(scenario, catalog))
    assert warning.startswith("The Generic 8-GPU HGX H100 server (OEM, air-cooled) is air-cooled, but the racks are immersion-cooled")


def test_the_plan_warns_of_a_liquid_cooled_server_behind_rear_doors(catalog):
    # 14 kW fits a rear door's 60 kW a rack, so only the warning says the server cannot run there.
    scenario = {"name": "doors", "compute": {"system": "mi355x-8", "gpus": 64}, "racks": {"cooling": "rear_door"}}
    [warning] = _cooling_warnings(plan_scenario(scenario, catalog))
    assert "needs direct liquid cooling, but the racks are cooled by rear-door heat exchangers" in warning


def test_a_plan_that_matches_its_cooling_has_no_such_warning(catalog):
    for system, cooling, budget_kw in [("dgx-h100", "air", 41), ("gb200-nvl72", "direct_liquid", 140)]:
        racks = {"cooling": cooling, "power_budget_kw": budget_kw}
        scenario = {"name": "fits", "compute": {"system": system, "gpus": 576}, "racks": racks}
        assert _cooling_warnings(plan_scenario(scenario, catalog)) == []


def test_a_liquid_only_system_in_air_racks_is_refused_not_warned(catalog):
    scenario = {"name": "air", "compute": {"system": "gb200-nvl72", "gpus": 72}, "racks": {"cooling": "air"}}
    with pytest.raises(InfeasibleError, match="needs liquid cooling"):
        plan_scenario(scenario, catalog)


def test_each_pool_of_a_site_is_warned_on_its_own(catalog):
    site = copy.deepcopy(TWO_POOLS)
    site["racks"]["cooling"] = "immersion"
    warnings = _cooling_warnings(plan_scenario(site, catalog))
    assert [warning.split(":")[0] for warning in warnings] == [
        "Pool training", "Pool finetune",
    ]
    assert "The NVIDIA DGX H100 is air-cooled" in warnings[0]
    assert "HGX A100" in warnings[1] and "is air-cooled" in warnings[1]
    assert _cooling_warnings(plan_scenario(TWO_POOLS, catalog)) == []
