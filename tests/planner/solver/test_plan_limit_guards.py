"""The limits on what one plan may hold are guards inside the steps that yield the figures
(`power.solver.rack_limits`, `fabric.solver.cable_limit`, `storage.solver.storage_limits`): a plan made without the request's
work estimate (a sweep's design, any caller of the pipeline) stops there too, on the input that
drove it, before the floor is laid out or a cable counted. The limits are lowered here so that
small plans reach them."""

import pytest

from core.solver.errors import PlanLimitError
from fabric.solver import cable_limit
from planner.solver import rounds
from planner.solver.pipeline import plan_scenario
from power.solver import rack_limits, rack_packing
from storage.solver import storage_limits
from sweeps.solver.engine import evaluate_design
from sweeps.solver.spec import read_sweep

ROWS_OF_TWO = {
    "name": "rows of two",
    "compute": {"system": "dgx-b300", "gpus": 1000},
    "racks": {"racks_per_row": 2},
    "fabrics": {"compute": {"switch": "q3400"}},
}


def _fail(*args, **kwargs):
    raise AssertionError("the work a limit stops was done")


def test_a_plan_past_the_rows_limit_stops_before_its_floor_is_laid_out(catalog, monkeypatch):
    monkeypatch.setattr(rack_limits, "MAX_PLAN_ROWS", 10)
    monkeypatch.setattr(rack_packing, "lay_out_floor", _fail)
    with pytest.raises(PlanLimitError) as raised:
        plan_scenario(ROWS_OF_TWO, catalog)
    [error] = raised.value.errors
    assert error.path == "racks.racks_per_row"
    # 125 systems of 8 GPUs; however many a rack holds, 2 racks a row make more than 10 rows
    racks = int(error.message.split(" compute racks")[0].replace(",", ""))
    assert error.message.startswith(f"{racks:,} compute racks at 2 a row fill {-(-racks // 2):,} rows")
    assert "more than the 10 a plan may have" in error.message


def test_a_plan_past_the_racks_limit_names_what_keeps_the_systems_per_rack_down(catalog, monkeypatch):
    monkeypatch.setattr(rack_limits, "MAX_PLAN_RACKS", 20)
    document = {**ROWS_OF_TWO, "racks": {"max_nodes_per_rack": 2, "power_budget_kw": 130, "cooling": "direct_liquid"}}
    with pytest.raises(PlanLimitError) as raised:
        plan_scenario(document, catalog)
    [error] = raised.value.errors
    assert error.path == "racks.max_nodes_per_rack"
    # 125 systems at 2 a rack: ceil(125 / 2) = 63 racks
    assert error.message.startswith("125 systems at 2 a rack (racks.max_nodes_per_rack allows no more) fill 63 racks")


@pytest.mark.parametrize(("planes", "field"), [(1, "compute.gpus"), (2, "fabrics.compute.planes")])
def test_a_plan_past_the_cables_limit_stops_before_a_cable_is_placed(catalog, monkeypatch, planes, field):
    """1,000 GPUs of 8 compute NICs are 1,000 links to the leaves in each plane, and more to the
    spines: past a limit of 1,000 cables, on the systems' count or on the planes."""
    monkeypatch.setattr(cable_limit, "MAX_PLAN_CABLES", 1000)
    monkeypatch.setattr(rounds, "estimated_fabrics", _fail)
    monkeypatch.setattr(rounds, "counted_fabrics", _fail)
    document = {**ROWS_OF_TWO, "fabrics": {"compute": {"switch": "q3400", "planes": planes}}}
    with pytest.raises(PlanLimitError) as raised:
        plan_scenario(document, catalog)
    [error] = raised.value.errors
    assert error.path == field
    cables = int(error.message.split(" cables")[0].rsplit(" ", 1)[1].replace(",", ""))
    assert cables > 1000 * planes
    assert "more than the 1,000 a plan may have" in error.message


def test_a_sweeps_design_past_a_limit_is_refused_on_it_and_the_others_are_planned(catalog, monkeypatch):
    """A sweep plans its designs without the request's estimate: the guard refuses the one of
    2,000 GPUs at 2 racks a row (more than 20 rows) and plans the one of 64."""
    monkeypatch.setattr(rack_limits, "MAX_PLAN_ROWS", 20)
    sweep = read_sweep({
        "name": "rows", "base": {**ROWS_OF_TWO, "fabrics": {}},
        "axes": {"compute.gpus": [64, 2000]},
        "objectives": [{"key": "racks.rows", "goal": "minimise"}],
    }, catalog)
    small, large = (evaluate_design(sweep, index, catalog) for index in range(2))
    assert small.feasible and small.figures["racks.rows"] > 0
    assert large.refused_at == "racks.racks_per_row"
    assert "more than the 20 a plan may have" in large.reason


CHECKPOINTS_IN = {
    "name": "checkpoints",
    "compute": {"system": "dgx-h100", "gpus": 1024},
    "workload": {"parameters_billion": 405, "tokens_trillion": 15.6},
    "storage": {"tiers": [{"system": "ddn-ai400x2-turbo", "serves": ["training_reads", "checkpoint_writes"]}]},
}


def test_storage_past_the_systems_limit_names_the_write_time_that_needs_it(catalog, monkeypatch):
    """A 405B model's checkpoint (405e9 x 14 B = 5.67 TB) written in a second needs 5,670 GB/s,
    far more than one storage system writes: past a limit of 2 systems, on the write time."""
    monkeypatch.setattr(storage_limits, "MAX_STORAGE_SYSTEMS", 2)
    document = {**CHECKPOINTS_IN, "storage": {**CHECKPOINTS_IN["storage"], "checkpoint_write_s": 1}}
    with pytest.raises(PlanLimitError) as raised:
        plan_scenario(document, catalog)
    [error] = raised.value.errors
    assert error.path == "storage.checkpoint_write_s"
    assert error.message.startswith("storage tier 0 (ddn-ai400x2-turbo) would need ")
    assert error.message.endswith("more than the 2 a plan may have")


def test_a_write_time_beyond_a_float_is_refused_on_it_not_a_failure(catalog):
    """5e-324 s (the smallest float) asks for a write rate no float holds: the sizing says so on
    the field, where a sweep's design used to fail in the planner (OverflowError)."""
    document = {**CHECKPOINTS_IN, "storage": {**CHECKPOINTS_IN["storage"], "checkpoint_write_s": 5e-324}}
    with pytest.raises(PlanLimitError) as raised:
        plan_scenario(document, catalog)
    assert raised.value.as_dict() == {"storage.checkpoint_write_s": ["needs unboundedly many storage systems"]}


@pytest.mark.parametrize(("document", "field", "start"), [
    # 6 x 405e9 x 15.6e12 = 3.79e25 FLOP in a millionth of a day (0.0864 s) at 40 % of an
    # H100's 989 TFLOPS: 3.79e25 / (3.956e14 x 0.0864) = 1.11e12 GPUs
    ({"compute": {"system": "dgx-h100"}, "workload": {"parameters_billion": 405, "tokens_trillion": 15.6,
                                                      "days": 1e-6}},
     "workload.days", "the job needs 1.11e+12 GPUs to finish in 1e-06 days"),
    # 1,250,000 systems of 8 GPUs are the limit; one spare more is past it
    ({"compute": {"system": "dgx-h100", "nodes": 1_250_000, "spare_nodes": 1}},
     "compute.spare_nodes", "1,250,001 systems of 8 GPUs are 10,000,008 GPUs"),
])
def test_systems_past_the_gpus_limit_are_refused_as_they_are_sized(catalog, monkeypatch, document, field, start):
    monkeypatch.setattr(rack_packing, "pack_compute_racks", _fail)
    with pytest.raises(PlanLimitError) as raised:
        plan_scenario({"name": "big", **document}, catalog)
    [error] = raised.value.errors
    assert error.path == field
    assert error.message.startswith(start)


TWO_POOLS = {
    "name": "two pools",
    "pools": [{"name": "a", "system": "dgx-b300", "gpus": 1000}, {"name": "b", "system": "dgx-b300", "gpus": 1000}],
    "fabrics": {"compute": {"switch": "q3400"}},
}


@pytest.mark.parametrize(("module", "limit", "start"), [
    (rack_limits, "MAX_PLAN_RACKS", "the pools fill "),
    (cable_limit, "MAX_PLAN_CABLES", "the pools' fabrics would have "),
])
def test_pools_each_within_a_limit_are_refused_on_pools_when_together_past_it(catalog, monkeypatch, module, limit,
                                                                              start):
    """Two pools of 125 B300 systems: each pool's racks and cables within a limit set to just
    above one pool's, the two together past it."""
    one_pool = plan_scenario({**TWO_POOLS, "pools": TWO_POOLS["pools"][:1]}, catalog)
    figure = (one_pool.racks.compute if limit == "MAX_PLAN_RACKS"
              else sum(link.count for fabric in one_pool.fabrics.values() for link in fabric.links))
    monkeypatch.setattr(module, limit, figure + 1)
    monkeypatch.setattr(rounds, "counted_fabrics", _fail)
    with pytest.raises(PlanLimitError) as raised:
        plan_scenario(TWO_POOLS, catalog)
    [error] = raised.value.errors
    assert error.path == "pools"
    assert error.message.startswith(start)


def test_a_pools_workload_past_the_gpus_limit_is_refused_on_the_pools_own_days(catalog):
    pools = [TWO_POOLS["pools"][0], {"name": "job", "system": "dgx-h100",
                                     "workload": {"parameters_billion": 405, "tokens_trillion": 15.6, "days": 1e-6}}]
    with pytest.raises(PlanLimitError) as raised:
        plan_scenario({**TWO_POOLS, "pools": pools}, catalog)
    assert list(raised.value.as_dict()) == ["pools[1].workload.days"]
