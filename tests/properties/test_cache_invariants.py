"""What a plan keeps for the plans after it (fabrics, rack packings, settled designs, cooled
racks, priced bills of materials, plan bases: `plan_scenario`'s `cache`, a sweep's and a
request's) is kept by everything it reads: a scenario planned with what any scenarios before it
kept is the scenario planned alone. One cache serves one catalog, and inline parts are not
swept, so the scenarios here have none."""

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from core.solver.errors import ScenarioError
from planner.solver.pipeline import plan_scenario
from planner.solver.rounds import CABLES_ENGINE, FULL_PLAN, PlanOptions
from tests.properties.strategies import scenarios, seed_catalog, site_scenarios

KEPT: dict[str, dict] = {"screened": {}, "full": {}}
"""Shared by every example of the run, as a sweep's cache is by its designs."""


def _plan(document: dict, options: PlanOptions, cache: dict | None):
    try:
        return plan_scenario(document, seed_catalog(), options, cache=cache).to_dict()
    except ScenarioError as error:
        return [(problem.path, problem.message) for problem in error.errors]


@pytest.mark.parametrize("name, options", [("screened", PlanOptions(CABLES_ENGINE)), ("full", FULL_PLAN)])
@settings(max_examples=settings.default.max_examples * 3 // 8)  # 150 of the ci profile's 400: three scenarios each
@given(document=st.one_of(scenarios(max_gpus=8_000), site_scenarios(max_gpus=4_000)), pue=st.floats(1.05, 1.8),
       years=st.integers(1, 20))
def test_a_plan_made_with_what_others_kept_is_the_plan_made_alone(name, options, document, pue, years):
    """The scenario (one cluster, or a site of two pools), then the same with another PUE and
    with another life: each on the first one's plan basis, powered and priced anew."""
    assume(not document.get("components"))
    other_pue = {**document, "facility": {**document.get("facility", {}), "pue": pue}}
    other_life = {**document, "finance": {**document.get("finance", {}), "years": years}}
    for planned in (document, other_pue, other_life):
        assert _plan(planned, options, KEPT[name]) == _plan(planned, options, None)
