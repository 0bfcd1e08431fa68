"""The engine on a small sweep: each design as the pipeline plans it, refusals by path, and the
summary's front and best against brute force over every design."""

import random

import pytest

from planner.solver.pipeline import plan_scenario
from planner.solver.rounds import PlanOptions
from sweeps.solver.engine import evaluate_batch, evaluate_design
from sweeps.solver.pareto import dominates
from sweeps.solver.spec import read_sweep
from sweeps.solver.summary import SweepSummary

SMALL_SWEEP = {
    "name": "small",
    "base": {
        "name": "base",
        "compute": {"system": "dgx-h100", "gpus": 256},
        "racks": {"power_budget_kw": 41},
        "fabrics": {"compute": {"switch": "qm9700"}},
    },
    "axes": {
        "compute.gpus": [256, 512, 1024],
        "fabrics.compute.switch": ["qm9700", "sn2201"],  # sn2201's 1G ports cannot take 400G NICs
        "racks.cooling": ["air", "direct_liquid"],
        "fabrics.compute.topology": ["fat_tree", "rail_only"],
    },
    "constraints": {"power.facility_kw": {"max": 1500}},
    "objectives": [
        {"key": "cost.tco_usd", "goal": "minimise"},
        {"key": "power.facility_kw", "goal": "minimise"},
        {"key": "racks.total", "goal": "minimise"},
    ],
}


@pytest.fixture(scope="module")
def small(catalog):
    spec = read_sweep(SMALL_SWEEP, catalog)
    return spec, evaluate_batch(spec, 0, spec.design_count, catalog)


def test_a_design_carries_the_plans_figures(catalog, small):
    spec, results = small
    design = results[0]
    plan = plan_scenario(spec.design_document(0), catalog, PlanOptions("engine"))
    assert design.feasible
    assert design.figures["compute.gpus"] == 256
    assert design.figures["power.facility_kw"] == plan.power.facility_kw
    assert design.figures["cost.tco_usd"] == plan.cost.tco_usd
    assert design.figures["racks.total"] == plan.racks.total


def test_a_full_design_is_the_full_plan(catalog, small):
    spec, _ = small
    design = evaluate_design(spec, 1, catalog, cables="counted")
    assert design.figures["cost.capex_usd"] == plan_scenario(spec.design_document(1), catalog).cost.capex_usd


def test_refusals_name_the_scenario_path_or_the_constraints_bound(small):
    spec, results = small
    by_path = {}
    for result in results:
        if not result.feasible:
            by_path.setdefault(result.refused_at, []).append(result)
    slow_switch = by_path["fabrics.compute.switch"]
    assert {spec.design_values(r.index)["fabrics.compute.switch"] for r in slow_switch} == {"sn2201"}
    assert len(slow_switch) == 12
    too_much_power = by_path["constraints.power.facility_kw.max"]
    assert too_much_power and all(r.figures["power.facility_kw"] > 1500 for r in too_much_power)
    assert "above the maximum 1,500" in too_much_power[0].reason
    assert set(by_path) == {"fabrics.compute.switch", "constraints.power.facility_kw.max"}


def test_the_summary_counts_and_groups_the_refusals(small):
    spec, results = small
    summary = SweepSummary(spec)
    summary.add(results)
    refused = [r for r in results if not r.feasible]
    assert summary.designs == spec.design_count == 24
    assert summary.feasible == 24 - len(refused)
    assert {path: refusals.count for path, refusals in summary.refusals.items()} == {
        path: sum(r.refused_at == path for r in refused) for path in {r.refused_at for r in refused}
    }


def _objectives(spec, design):
    return [design.figures[objective.key] for objective in spec.objectives]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_front_and_best_match_brute_force_whatever_the_batch_order(small, seed):
    spec, results = small
    shuffled = results[:]
    random.Random(seed).shuffle(shuffled)
    summary = SweepSummary(spec)
    for start in range(0, len(shuffled), 5):
        summary.add(shuffled[start:start + 5])
    feasible = [r for r in results if r.feasible]
    signs = [objective.sign for objective in spec.objectives]
    front = {r.index for r in summary.front}
    assert len(feasible) == 8 and len(front) >= 2, "a front with a trade-off to check"
    for design in feasible:
        dominated = any(dominates(_objectives(spec, other), _objectives(spec, design), signs) for other in feasible)
        assert (design.index in front) == (not dominated)
    for position, (objective, best) in enumerate(zip(spec.objectives, summary.best)):
        # Brute force: the least value, ties to the least of the other objectives in order, then
        # to the lowest design number.
        def rank(design, position=position):
            values = [o.sign * design.figures[o.key] for o in spec.objectives]
            return values[position], values[:position] + values[position + 1:], design.index
        assert best.index == min(feasible, key=rank).index
        assert best.index in front


def test_with_no_design_feasible_the_summary_says_which_constraint_refused_how_many(catalog):
    spec = read_sweep({**SMALL_SWEEP, "constraints": {"power.facility_kw": {"max": 10}}}, catalog)
    summary = SweepSummary(spec)
    summary.add(evaluate_batch(spec, 0, spec.design_count, catalog))
    assert summary.feasible == 0 and summary.front == [] and summary.best == [None, None, None]
    assert [(path, refusals.count) for path, refusals in summary.sorted_refusals()] == [
        ("constraints.power.facility_kw.max", 12), ("fabrics.compute.switch", 12),
    ]
