"""The work estimate of a whole request (planner/solver/limits.py): the closed forms' figures
summed over pools and phases before anything is planned, and the budget that refuses it on the
input that drove it (issue 27, point 1)."""

import importlib.util
import time
from pathlib import Path

import pytest

from planner.solver import limits
from core.solver.errors import InfeasibleError
from planner.solver.pipeline import validate_scenario


def _load_test_script():
    """scripts/loadtest.py, whose attacks are these reproducers (a script, not a package)."""
    path = Path(__file__).resolve().parents[3] / "scripts" / "loadtest.py"
    spec = importlib.util.spec_from_file_location("loadtest", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LOAD_TEST = _load_test_script()
pools = LOAD_TEST.pools_document
phases = LOAD_TEST.phases_document


def test_the_cpu_time_is_the_linear_model_of_the_figures():
    estimate = limits.WorkEstimate(plans=3, fabrics=2, cables=1_000_000, racks=10_000, rows=500,
                                   driver="compute.gpus")
    assert estimate.cpu_s == pytest.approx(
        3 * limits.CPU_S_PER_PLAN + 2 * limits.CPU_S_PER_FABRIC + 1e6 * limits.CPU_S_PER_CABLE
        + 1e4 * limits.CPU_S_PER_RACK + 500 * limits.CPU_S_PER_ROW
    )
    assert limits.WorkEstimate(plans=3, fabrics=2, cables=1_000_000, racks=10_000, rows=500, driver="x",
                               designs=7).cpu_s == pytest.approx(7 * estimate.cpu_s)


def test_a_site_sums_its_pools_figures(catalog):
    one = limits.work_estimate(pools(1, 4_000), catalog)
    ten = limits.work_estimate(pools(10, 4_000), catalog)
    assert (ten.plans, ten.fabrics, ten.cables, ten.racks, ten.rows) == (
        10, 10, 10 * one.cables, 10 * one.racks, 10 * one.rows)
    assert one.driver == "pools[0].gpus"
    assert ten.driver == "pools"  # no one pool is most of the work: their number is


def test_phases_sum_the_figures_of_each_phase_planned_alone(catalog):
    document = phases(5, 40_000)
    estimate = limits.work_estimate(document, catalog)
    alone = [limits.check_work_limits(*validate_scenario(
        {**{key: value for key, value in document.items() if key not in ("phases", "growth")},
         "pools": [{"name": "compute", "system": "dgx-b300", "gpus": phase["pools"]["compute"]["gpus"]}]},
        catalog)) for phase in document["phases"]]
    assert estimate.phases == 5
    assert estimate.plans == 5
    assert estimate.cables == sum(work.cables for work in alone)
    assert estimate.racks == sum(work.racks for work in alone)


def test_fifty_phases_to_240k_gpus_are_past_a_request_and_name_the_phases(catalog):
    """Issue 27: 13.5 s of CPU in one anonymous request. The estimate stops adding phases once
    past the budget, so that refusing costs milliseconds."""
    started = time.process_time()
    estimate = limits.work_estimate(phases(50, 240_000), catalog, budget_cpu_s=2.0)
    assert time.process_time() - started < 1.0
    assert estimate.cpu_s > 2.0 and estimate.driver == "phases"
    with pytest.raises(InfeasibleError) as refused:
        limits.check_work_budget(estimate, 2.0)
    [error] = refused.value.errors
    assert error.path == "phases" and "more than the 2 a request may take" in error.message


def test_the_count_of_plans_alone_can_refuse_before_any_is_worked_out(catalog):
    document = {**phases(50, 80_000), "pools": [
        {"name": f"p{index}", "system": "dgx-b300", "gpus": 800} for index in range(100)]}
    for phase in document["phases"]:
        phase["pools"] = {f"p{index}": {"gpus": 800} for index in range(100)}
    estimate = limits.work_estimate(document, catalog, budget_cpu_s=2.0)
    assert estimate.plans == 5_000 and estimate.cables == 0  # counted, not worked out
    assert estimate.driver == "phases"


def test_one_large_pool_among_small_ones_is_named_itself(catalog):
    document = pools(3, 800)
    document["pools"][1]["gpus"] = 200_000
    assert limits.work_estimate(document, catalog).driver == "pools[1].gpus"


def test_planes_that_drive_the_cables_are_named(catalog):
    document = {"name": "planes", "compute": {"system": "dgx-b300", "gpus": 100_000},
                "fabrics": {"compute": {"switch": "q3400", "planes": 4}}}
    assert limits.work_estimate(document, catalog).driver == "fabrics.compute.planes"


def test_rows_of_racks_are_estimated_by_their_count():
    assert limits.workbook_cpu_s(39_063) == pytest.approx(39_063 * limits.CPU_S_PER_WORKBOOK_ROW)
    assert limits.workbook_cpu_s(39_063) > 2.0  # the 10 M-GPU workbook, 9.45 s measured
