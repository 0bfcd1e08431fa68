"""Designs that differ only in the energy price and the finance's cost fields (`SweepSpec.priced_axes`)
are planned at once: the first design's scenario with an array of each such axis's values
(`engine.evaluate_priced`). Each design has the figures, refusal and reason it has planned alone."""

import dataclasses
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.solver.pipeline import PRICED_KEYS
from planner.solver.scenario import read_scenario
from sweeps.solver import engine
from sweeps.solver.engine import clear_sweep_caches, evaluate_batch, evaluate_design
from sweeps.solver.spec import read_sweep
from tests.properties.strategies import seed_catalog

PRICED_RANGES = {
    "facility.pue": (1.0, 2.5),
    "facility.electricity_usd_per_kwh": (0.0, 0.5),
    "facility.average_load": (0.05, 1.0),
    "facility.grid_gco2_per_kwh": (0.0, 1000.0),
    "facility.wue_l_per_kwh": (0.0, 3.0),
    "finance.discount_rate": (-0.5, 0.5),
    "finance.escalation_per_year": (-0.2, 0.3),
    "finance.maintenance_share_per_year": (0.0, 0.3),
    "finance.installation_share": (0.0, 0.2),
    "finance.colocation_usd_per_kw_month": (0.0, 400.0),
    "finance.build_usd_per_mw": (0.0, 2e7),
    "finance.staff_per_1000_gpus": (0.0, 5.0),
    "finance.staff_usd_per_year_each": (0.0, 4e5),
    "finance.software_usd_per_gpu_per_year": (0.0, 5000.0),
}
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
BASES = {
    "training": {"name": "priced", "compute": {"system": "dgx-h100", "gpus": 1024},
                 "fabrics": {"compute": {"switch": "qm9700"}}},
    # an inference load priced per token, and a site of a training and a serving pool
    **{name: yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text())
       for name in ("llama-70b-inference", "training-and-inference-site")},
}


def alone(spec, numbers):
    """Each design planned alone: no cache, no reader."""
    return [evaluate_design(spec, number, seed_catalog()) for number in numbers]


@settings(max_examples=25, deadline=None)
@given(
    base=st.sampled_from(sorted(BASES)),
    priced=st.lists(st.sampled_from(sorted(PRICED_RANGES)), min_size=1, max_size=2, unique=True).flatmap(
        lambda keys: st.fixed_dictionaries({
            key: st.lists(st.floats(*PRICED_RANGES[key]), min_size=1, max_size=3, unique=True) for key in keys
        })),
    years=st.lists(st.integers(1, 30), min_size=1, max_size=2, unique=True),
    facility=st.sampled_from(["leased", "built"]),
    priced_first=st.booleans(),
)
def test_designs_priced_at_once_are_the_designs_planned_alone(base, priced, years, facility, priced_first):
    """Any base (a training cluster, an inference load priced per token, a site of two pools),
    any of the priced axes with any values in their range, the priced axes first or last."""
    structural = {"finance.years": years, "finance.facility": [facility], "facility.ups_efficiency": [0.95, 0.97]}
    axes = {**priced, **structural} if priced_first else {**structural, **priced}
    spec = read_sweep({"name": "priced", "base": BASES[base], "axes": axes,
                       "objectives": [{"key": "cost.tco_usd"}, {"key": "cost.tco_present_value_usd"}],
                       "constraints": {"cost.usd_per_gpu_hour": {"max": 4.5}, **{key: {"min": 0} for key in (
                           "power.generators.units", "power.overhead_kw_by_category.cooling", "power.annual_water_m3",
                           "power.annual_carbon_t_co2", "cost.usd_per_million_output_tokens",
                       )}}}, seed_catalog())
    clear_sweep_caches()
    batch = evaluate_batch(spec, 0, spec.design_count, seed_catalog())
    assert batch == alone(spec, range(spec.design_count))
    assert all(result.figures["cost.tco_usd"] > 0 for result in batch)  # planned, if not all kept


def test_the_priced_designs_are_planned_once_a_group(monkeypatch):
    """5 energy prices x 4 discount rates at 2 UPS efficiencies: two plans, not forty."""
    spec = read_sweep({"name": "priced", "base": BASES["training"], "axes": {
        "facility.ups_efficiency": [0.95, 0.97],
        "facility.electricity_usd_per_kwh": [0.04, 0.06, 0.08, 0.1, 0.12],
        "finance.discount_rate": [0.0, 0.05, 0.1, 0.15],
    }, "objectives": [{"key": "cost.tco_present_value_usd"}]}, seed_catalog())
    plans = []
    planned = engine.plan_scenario
    monkeypatch.setattr(engine, "plan_scenario", lambda *args, **kw: plans.append(args) or planned(*args, **kw))
    clear_sweep_caches()
    batch = evaluate_batch(spec, 0, spec.design_count, seed_catalog())
    assert len(plans) == 2 and [result.index for result in batch] == list(range(40))
    costs = [result.figures["cost.tco_present_value_usd"] for result in batch]
    assert len(set(costs)) == 40 and all(isinstance(cost, float) for cost in costs)


@pytest.mark.parametrize("refused", [-0.5, -1.5])
def test_a_value_refused_or_a_cost_beyond_numbers_refuses_only_its_designs(refused):
    """A sweep read without a catalog keeps an energy price below 0: its designs are refused at
    it, the others planned. A discount rate near -1 over 50 years discounts beyond a float: the
    cost of ownership refuses those designs, not their group."""
    if refused < -1:  # a price below its minimum
        axes = {"facility.electricity_usd_per_kwh": [0.08, refused], "finance.discount_rate": [0.05, 0.1]}
        path = "facility.electricity_usd_per_kwh"
    else:
        axes = {"finance.years": [50], "finance.discount_rate": [0.05, -0.999999],
                "finance.escalation_per_year": [0, 0.5]}
        path = "finance.discount_rate"
    spec = read_sweep({"name": "priced", "base": BASES["training"], "axes": axes,
                       "objectives": [{"key": "cost.tco_usd"}]})
    clear_sweep_caches()
    batch = evaluate_batch(spec, 0, spec.design_count, seed_catalog())
    assert batch == alone(spec, range(spec.design_count))
    assert {result.refused_at for result in batch} == {None, path}


class _Unread:
    def __getattr__(self, name):
        raise AssertionError(f"the checks across sections read .{name}")


@pytest.mark.parametrize("example", sorted(EXAMPLES.glob("*.yaml")), ids=lambda path: path.stem)
def test_no_check_across_sections_reads_the_priced_sections(example):
    """A priced value is checked in its own section alone (`ScenarioReader.check_section`): the
    scenario's checks across sections must not read the facility or the finance, where every
    priced key lies."""
    assert {key.split(".")[0] for key in PRICED_KEYS} == {"facility", "finance"}
    scenario = read_scenario(yaml.safe_load(example.read_text()))
    unread = dataclasses.replace(scenario, facility=_Unread(), finance=_Unread())
    assert list(unread.problems()) == list(scenario.problems())
