"""Every example in examples/ plans as written: from the command line, from the API, and after a
trip through the form (the document the form posts back reads as the example)."""

import json
from pathlib import Path

import pytest
import yaml

from planner.solver.scenario import read_scenario
from tests.commands import run_command
from tests.workspace.test_editor import posted_back

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.yaml"))


@pytest.mark.django_db
@pytest.mark.parametrize("path", EXAMPLES, ids=[path.stem for path in EXAMPLES])
def test_the_example_plans_from_the_command_line_the_api_and_the_form(path, capsys, api, catalog):
    document = yaml.safe_load(path.read_text())
    code, out, err = run_command(capsys, "plan", path)
    assert (code, err) == (0, "")
    planned = json.loads(out)
    response = api.post("/api/v1/plan/", document, format="json")
    assert response.status_code == 200, response.content[:300]
    assert response.json()["compute"] == planned["compute"]
    assert read_scenario(posted_back(document, catalog)) == read_scenario(document)


def _growth_modes(path):
    document = yaml.safe_load(path.read_text())
    return [(path, growth) for growth in ("final", "per_phase")] if document.get("phases") else [(path, None)]


GROWTH_CASES = [case for path in EXAMPLES for case in _growth_modes(path)]


@pytest.mark.parametrize(("path", "growth"), GROWTH_CASES,
                         ids=[f"{path.stem}-{growth or 'once'}" for path, growth in GROWTH_CASES])
def test_the_bom_lines_add_up_to_the_bom_total_in_every_growth_mode(path, growth, catalog):
    """The plan's BOM is the site as built; its lines sum to cost.bom_total_usd (parts bought
    and retired on the way are the phases' added and removed, and are in the capex), whether the
    site is laid out for its last phase (final) or designed phase by phase (per_phase). An
    example whose phases change a fabric or a storage tier is per_phase only (final installs the
    last phase's from the first: a 400, see tests/workspace/api/test_plan_api_phase_technology.py)."""
    from core.solver.errors import ScenarioError
    from planner.solver.pipeline import plan_scenario

    document = yaml.safe_load(path.read_text())
    if growth:
        document["growth"] = growth
    try:
        plan = plan_scenario(document, catalog)
    except ScenarioError as error:
        assert growth == "final" and "growth: per_phase" in str(error)
        return
    assert sum(line.extended_price_usd for line in plan.bom) == pytest.approx(plan.cost.bom_total_usd, abs=0.01)
    if plan.phases:
        assert plan.cost.capex_usd == pytest.approx(sum(phase.capex_usd for phase in plan.phases))
