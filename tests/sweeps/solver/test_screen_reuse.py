"""What the screen reuses across designs (sections read once, rack packings and settled fabrics
kept, the floor left out) gives each design the figures it has when planned alone."""

import dataclasses
import gc

import pytest

from core.solver.errors import ScenarioError
from planner.solver.pipeline import plan_scenario
from planner.solver.rounds import CABLES_ENGINE, PlanOptions
from planner.solver.scenario import read_scenario
from sweeps.solver import engine
from sweeps.solver.engine import clear_sweep_caches, evaluate_batch
from sweeps.solver.keys import plan_value
from sweeps.solver.scenario_reader import ScenarioReader
from sweeps.solver.spec import read_sweep, reads_floor

REUSE_SWEEP = {
    "name": "reuse",
    "base": {
        "name": "base",
        "compute": {"system": "dgx-h100", "gpus": 1024},
        "racks": {"power_budget_kw": 60},
        "fabrics": {
            "compute": {"switch": "qm9700"},
            "oob": {"switch": "sn2201", "spine_switch": "sn4600c"},
        },
    },
    "axes": {
        "compute.gpus": [1024, 4096],
        "fabrics.compute.leaf_placement": ["rail_optimized", "top_of_rack"],
        "racks.cooling": ["air", "direct_liquid"],
        "facility.pue": [1.1, 1.4],
        "facility.electricity_usd_per_kwh": [0.05, 0.15],
        "finance.years": [3, 5],
    },
    "objectives": [{"key": "cost.tco_usd", "goal": "minimise"}],
}


@pytest.fixture(scope="module")
def reuse(catalog):
    clear_sweep_caches()
    spec = read_sweep(REUSE_SWEEP, catalog)
    return spec, evaluate_batch(spec, 0, spec.design_count, catalog)


def test_every_design_has_the_figures_of_its_plan_made_alone(catalog, reuse):
    spec, results = reuse
    assert len(results) == spec.design_count == 64
    for result in results:
        alone = plan_scenario(spec.design_document(result.index), catalog, PlanOptions(CABLES_ENGINE))
        assert result.feasible
        assert result.figures == {key: plan_value(alone, key) for key in spec.figure_keys}


@pytest.mark.parametrize("options", [PlanOptions(CABLES_ENGINE), PlanOptions()], ids=["screened", "full"])
def test_a_design_planned_with_what_others_kept_is_the_design_planned_alone(catalog, options):
    """The whole plan, not only the figures: the fabrics, packings, cooled racks, bill of
    materials and plan bases kept from the designs before (and the warnings they carry) are the
    design's own."""
    spec = read_sweep(REUSE_SWEEP, catalog)
    kept: dict = {}
    for index in range(spec.design_count):
        document = spec.design_document(index)
        shared = plan_scenario(document, catalog, options, cache=kept)
        assert shared.to_dict() == plan_scenario(document, catalog, options).to_dict()
    kinds = [key[0] for key in kept]
    assert {"cooled", "bom", "basis"} <= set(kinds)
    assert kinds.count("basis") == 64 // (2 * 2 * 2)  # a basis for any PUE, energy price and life


def test_the_prices_and_years_change_the_cost_not_the_racks(reuse):
    spec, results = reuse
    by_values = {tuple(spec.design_values(r.index).values()): r.figures for r in results}
    cheap, dear = by_values[(4096, "top_of_rack", "air", 1.4, 0.05, 5)], by_values[(4096, "top_of_rack", "air", 1.4, 0.15, 5)]
    assert cheap["racks.total"] == dear["racks.total"] and cheap["power.facility_kw"] == dear["power.facility_kw"]
    assert cheap["cost.tco_usd"] < dear["cost.tco_usd"]


def test_without_the_floor_only_the_floor_is_missing(catalog):
    document = {**REUSE_SWEEP["base"], "racks": {"power_budget_kw": 60, "cooling": "direct_liquid"}}
    laid_out = plan_scenario(document, catalog, PlanOptions(CABLES_ENGINE))
    bare = plan_scenario(document, catalog, PlanOptions(CABLES_ENGINE, lay_out_floor=False))
    assert bare.racks.floor is None and bare.racks.rows == 0
    assert laid_out.racks.floor.area_m2 > 0 and laid_out.racks.rows > 0
    assert dataclasses.replace(bare, racks=laid_out.racks) == laid_out


def test_the_full_plan_always_lays_out_the_floor(catalog):
    plan = plan_scenario(REUSE_SWEEP["base"], catalog, PlanOptions(lay_out_floor=False))
    assert plan.racks.floor is not None


def test_a_sweep_that_reads_the_floor_lays_it_out(catalog):
    assert not reads_floor(("racks.total", "racks.rows_of_racks"))
    assert reads_floor(("racks.rows",)) and reads_floor(("racks.floor.area_m2",))
    spec = read_sweep({**REUSE_SWEEP, "objectives": [{"key": "racks.floor.area_m2", "goal": "minimise"}]}, catalog)
    results = evaluate_batch(spec, 0, 4, catalog)
    for result in results:
        alone = plan_scenario(spec.design_document(result.index), catalog, PlanOptions(CABLES_ENGINE))
        assert result.figures["racks.floor.area_m2"] == alone.racks.floor.area_m2 > 0


BAD_VALUES = [
    {"racks.power_budget_kw": -5, "compute.gpus": 1024},
    {"racks.power_budget_kw": 60, "compute.gpus": "many"},
    {"racks.power_budget_kw": "lots", "compute.gpus": 0},
]


@pytest.mark.parametrize("values", BAD_VALUES, ids=str)
def test_the_reader_gives_the_errors_of_the_whole_read(values):
    reader = ScenarioReader(tuple(values))
    document = {"name": "bad", "compute": {"system": "dgx-h100", "gpus": values["compute.gpus"]},
                "racks": {"power_budget_kw": values["racks.power_budget_kw"]}}
    with pytest.raises(ScenarioError) as whole:
        read_scenario(document)
    for _ in range(2):  # read, then from its memo
        with pytest.raises(ScenarioError) as by_sections:
            reader.read(document, values)
        assert by_sections.value.errors == whole.value.errors


def test_the_reader_checks_across_sections_and_names_the_document():
    reader = ScenarioReader(("compute.nodes",))
    both = {"name": "both", "compute": {"system": "dgx-h100", "gpus": 1024, "nodes": 4}}
    with pytest.raises(ScenarioError) as whole:
        read_scenario(both)
    with pytest.raises(ScenarioError) as by_sections:
        reader.read(both, {"compute.nodes": 4})
    assert by_sections.value.errors == whole.value.errors
    one = {"name": "one", "compute": {"system": "dgx-h100", "nodes": 4}}
    reader = ScenarioReader(("compute.nodes",))  # a reader reads the designs of one base
    assert reader.read(one, {"compute.nodes": 4}) == read_scenario(one)
    renamed = reader.read({**one, "name": "two"}, {"compute.nodes": 4})
    assert renamed.name == "two" and renamed.compute == read_scenario(one).compute
    with pytest.raises(ScenarioError) as unknown:
        reader.read({**one, "colour": "red"}, {"compute.nodes": 4})
    assert unknown.value.errors[0].path == "colour"


def test_a_process_keeps_no_caches_of_a_sweep_gone(catalog):
    """A job worker runs one sweep after another: the caches of those gone are dropped."""
    clear_sweep_caches()
    for gpus in (256, 512, 768):
        spec = read_sweep({"name": "one after another", "base": {"name": "x", "compute": {"system": "dgx-h100"}},
                           "axes": {"compute.gpus": [gpus]}, "objectives": [{"key": "cost.tco_usd"}]}, catalog)
        evaluate_batch(spec, 0, 1, catalog)
        assert list(engine._caches.values())[-1].spec() is spec
        del spec
        gc.collect()
    assert len(engine._caches) == 1
