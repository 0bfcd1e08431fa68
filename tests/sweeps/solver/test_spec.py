"""The sweep document: axes, constraints and objectives read by dotted key; every problem named
by its dotted path."""

import pytest

from core.solver.errors import ScenarioError
from sweeps.solver.spec import (
    MAX_DESIGNS_IN_MEMORY,
    MAX_DESIGNS_WITHOUT_SCHEDULER,
    Axis,
    SweepSpec,
    check_sweep_size,
    read_sweep,
)

BASE = {
    "name": "base",
    "compute": {"system": "dgx-h100", "gpus": 1024},
    "racks": {"power_budget_kw": 41},
    "fabrics": {"compute": {"switch": "qm9700"}},
}


def sweep(**changes) -> dict:
    document = {
        "name": "test",
        "base": BASE,
        "axes": {"compute.gpus": [512, 1024], "racks.cooling": ["air", "direct_liquid"]},
        "constraints": {"power.facility_kw": {"max": 20_000}},
        "objectives": [{"key": "cost.tco_usd", "goal": "minimise"}],
    }
    document.update(changes)
    return {key: value for key, value in document.items() if value is not None}


def problems(document, catalog=None) -> dict[str, list[str]]:
    with pytest.raises(ScenarioError) as error:
        read_sweep(document, catalog)
    return error.value.as_dict()


def test_reads_axes_constraints_and_objectives_in_order(catalog):
    spec = read_sweep(sweep(), catalog)
    assert [axis.key for axis in spec.axes] == ["compute.gpus", "racks.cooling"]
    assert spec.design_count == 4
    assert (spec.constraints[0].key, spec.constraints[0].maximum, spec.constraints[0].minimum) == (
        "power.facility_kw", 20_000, None,
    )
    assert [(o.key, o.goal, o.sign) for o in spec.objectives] == [("cost.tco_usd", "minimise", 1)]


def test_designs_enumerate_the_product_of_the_axes_last_axis_fastest(catalog):
    spec = read_sweep(sweep(), catalog)
    assert [spec.design_values(index) for index in range(4)] == [
        {"compute.gpus": 512, "racks.cooling": "air"},
        {"compute.gpus": 512, "racks.cooling": "direct_liquid"},
        {"compute.gpus": 1024, "racks.cooling": "air"},
        {"compute.gpus": 1024, "racks.cooling": "direct_liquid"},
    ]


def test_a_design_document_sets_the_axis_values_and_leaves_the_base_alone(catalog):
    spec = read_sweep(sweep(axes={"fabrics.compute.topology": ["rail_only"], "facility.pue": [1.2]}), catalog)
    document = spec.design_document(0)
    assert document["fabrics"]["compute"] == {"switch": "qm9700", "topology": "rail_only"}
    assert document["facility"] == {"pue": 1.2}
    assert BASE["fabrics"]["compute"] == {"switch": "qm9700"} and "facility" not in BASE


@pytest.mark.parametrize(
    ("given", "values"),
    [
        ({"from": 40, "to": 100, "step": 20}, (40, 60, 80, 100)),
        ({"from": 1.1, "to": 1.4, "step": 0.1}, (1.1, 1.2, 1.3, 1.4)),
        ({"from": 5, "to": 5, "step": 1}, (5,)),
        ({"values": [1.2, 1.5]}, (1.2, 1.5)),
    ],
)
def test_an_axis_is_a_list_a_range_with_both_ends_or_values(given, values):
    spec = read_sweep(sweep(axes={"facility.pue": given}))
    assert spec.axes[0].values == pytest.approx(values)


def test_a_section_written_as_a_bare_value_can_be_swept():
    spec = read_sweep(sweep(axes={"fabrics.compute.oversubscription": [1, 2, 3]}))
    assert spec.axes[0].values == (1, 2, 3)


@pytest.mark.parametrize(
    ("axes", "path", "words"),
    [
        ({"compute.gpu": [1]}, "axes.compute.gpu", "unknown key 'gpu' in compute"),
        ({"fabric.compute.switch": ["qm9700"]}, "axes.fabric.compute.switch", "unknown key 'fabric'"),
        ({"racks": [1]}, "axes.racks", "is a section"),
        ({"storage.tiers": [[]]}, "axes.storage.tiers", "list or a mapping"),
        ({"prices": [{}]}, "axes.prices", "list or a mapping"),
        ({"name": ["a", "b"]}, "axes.name", "not a design choice"),
        ({"compute.gpus.count": [1]}, "axes.compute.gpus.count", "no keys below it"),
        ({"compute.gpus": []}, "axes.compute.gpus", "non-empty list"),
        ({"compute.gpus": [1, 1]}, "axes.compute.gpus", "twice"),
        ({"compute.gpus": [[1]]}, "axes.compute.gpus[0]", "must be a number"),
        ({"facility.pue": {"from": 1.5, "to": 1.2, "step": 0.1}}, "axes.facility.pue.from", "must not exceed"),
        ({"facility.pue": {"from": 1.2, "to": 1.5, "step": 0}}, "axes.facility.pue.step", "greater than 0"),
        ({"facility.pue": {"from": 1.2, "to": 1.5}}, "axes.facility.pue.step", "is required"),
        ({"compute.gpus": {"from": 1, "to": 10_000_000, "step": 1}}, "axes.compute.gpus.step", "more than"),
        ({"facility.pue": {"from": -1e300, "to": 1e300, "step": 1e-300}}, "axes.facility.pue.step", "more than"),
        ({}, "axes", "at least one axis"),
    ],
)
def test_bad_axes_are_named_by_dotted_path(axes, path, words):
    found = problems(sweep(axes=axes))
    assert path in found, found
    assert words in " ".join(found[path])


@pytest.mark.parametrize(
    ("constraints", "path", "words"),
    [
        ({"power.facility_kw": {"min": 20_000, "max": 10_000}}, "constraints.power.facility_kw.min", "no design can meet both"),
        ({"power.facility_mw": {"max": 12}}, "constraints.power.facility_mw", "unknown key 'facility_mw' in power"),
        ({"power.pue_source": {"max": 1}}, "constraints.power.pue_source", "not a number"),
        ({"power.facility_kw": {"maximum": 1}}, "constraints.power.facility_kw.maximum", "expected min or max"),
        ({"power.facility_kw": {"max": "12 MW"}}, "constraints.power.facility_kw.max", "must be a number"),
        ({"power.facility_kw": {}}, "constraints.power.facility_kw", "min, max or both"),
    ],
)
def test_bad_constraints_are_named_by_dotted_path(constraints, path, words):
    found = problems(sweep(constraints=constraints))
    assert path in found, found
    assert words in " ".join(found[path])


def test_plan_keys_reach_into_the_plans_mappings():
    spec = read_sweep(sweep(
        constraints={"fabrics.compute.transceivers": {"max": 10_000}, "cost.capex_by_category_usd.network": {"max": 1e9}},
        objectives=[{"key": "workload.training_days", "goal": "minimise"}, {"key": "compute.gpus", "goal": "maximise"}],
    ))
    assert [constraint.key for constraint in spec.constraints] == [
        "fabrics.compute.transceivers", "cost.capex_by_category_usd.network",
    ]
    assert [objective.sign for objective in spec.objectives] == [1, -1]


@pytest.mark.parametrize(
    ("objectives", "path", "words"),
    [
        ([], "objectives", "at least one"),
        ([{"key": "cost.tco", "goal": "minimise"}], "objectives[0].key", "unknown key 'tco' in cost"),
        ([{"key": "cost.tco_usd", "goal": "lowest"}], "objectives[0].goal", "minimise, maximise"),
        ([{"goal": "minimise"}], "objectives[0].key", "is required"),
        ([{"key": "cost.tco_usd"}, {"key": "cost.tco_usd"}], "objectives[1].key", "already an objective"),
    ],
)
def test_bad_objectives_are_named_by_dotted_path(objectives, path, words):
    found = problems(sweep(objectives=objectives))
    assert path in found, found
    assert words in " ".join(found[path])


def test_unknown_top_level_keys_and_a_missing_base_are_named():
    found = problems({**sweep(base=None), "axis": {}})
    assert "axis" in found and "base" in found


def test_with_a_catalog_a_bad_axis_value_is_named_by_its_position(catalog):
    found = problems(sweep(axes={"compute.system": ["dgx-h100", "dgx-h1000"], "compute.gpus": [0, 8]}), catalog)
    assert "dgx-h1000" in " ".join(found["axes.compute.system[1]"])
    assert "positive" in " ".join(found["axes.compute.gpus[0]"])
    assert set(found) == {"axes.compute.system[1]", "axes.compute.gpus[0]"}


def test_with_a_catalog_a_problem_of_the_base_is_named_under_base(catalog):
    base = {**BASE, "racks": {"power_budget_kw": 41, "colling": "air"}}
    found = problems(sweep(base=base), catalog)
    assert set(found) == {"base.racks.colling"}


def _spec_of(designs: int) -> SweepSpec:
    return SweepSpec("big", BASE, (Axis("compute.gpus", tuple(range(1, designs + 1))),))


def test_more_designs_than_a_machine_sweeps_need_a_scheduler():
    spec = SweepSpec("huge", BASE, (Axis("compute.gpus", tuple(range(1, 10_001))), Axis("facility.pue", tuple(range(1001)))))
    assert spec.design_count > MAX_DESIGNS_WITHOUT_SCHEDULER
    with pytest.raises(ScenarioError) as error:
        check_sweep_size(spec, scheduler=False, output=True)
    assert "axes" in error.value.as_dict() and "scheduler" in str(error.value)
    check_sweep_size(spec, scheduler=True, output=True)


def test_more_designs_than_memory_holds_need_an_output_file():
    spec = _spec_of(MAX_DESIGNS_IN_MEMORY + 1)
    with pytest.raises(ScenarioError) as error:
        check_sweep_size(spec, scheduler=False, output=False)
    assert list(error.value.as_dict()) == ["output"]
    check_sweep_size(spec, scheduler=False, output=True)
    check_sweep_size(_spec_of(MAX_DESIGNS_IN_MEMORY), scheduler=False, output=False)


@pytest.mark.parametrize(("word", "goal"), [("min", "minimise"), ("max", "maximise"), ("maximize", "maximise")])
def test_the_contracts_short_goal_words_are_accepted(word, goal):
    spec = read_sweep(sweep(objectives=[{"key": "cost.tco_usd", "goal": word}]))
    assert spec.objectives[0].goal == goal
