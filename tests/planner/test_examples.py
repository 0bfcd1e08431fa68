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
