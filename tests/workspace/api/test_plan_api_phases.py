"""Phases from the API and the command line: the example plans, and every bad input is named on
its dotted path (400 from the API, exit status 2 from `plan`)."""

import copy
import json
from pathlib import Path

import pytest

from planner.solver.documents import parse_document
from tests.commands import run_command

pytestmark = pytest.mark.django_db

URL = "/api/v1/plan/"
EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "three-phase-expansion.yaml"


def example():
    return parse_document(EXAMPLE.read_text())


def changed(edit):
    document = example()
    edit(document)
    return document


BAD = [
    (lambda d: d["phases"][2]["pools"]["compute"].update(gpus=1800), "phases[2].pools.compute.gpus", "last phase is the site"),
    (lambda d: d["phases"][1]["pools"]["compute"].update(gpus=100), "phases[1].pools.compute.gpus", "must not shrink"),
    (lambda d: d["phases"][1].update(start="2026-02-01"), "phases[1].start", "must be after phases[0].start"),
    (lambda d: d["phases"][0]["pools"].update(foo={"gpus": 8}), "phases[0].pools.foo", "unknown pool"),
    (lambda d: d["phases"][1].update(name="validation"), "phases[1].name", "already the name of phases[0]"),
    (lambda d: d["phases"][0].update(start="1 March"), "phases[0].start", "YYYY-MM-DD"),
    (lambda d: d["phases"][0]["pools"].update(compute={"nodes": 25}), "phases[0].pools.compute.nodes", "give gpus"),
    (lambda d: d["phases"][1].update(pools={}), "phases[1].pools", "at least one pool"),
    (lambda d: d["phases"][0].update(storage={"scratch": {"systems": 2}}), "phases[0].storage.scratch", "unknown storage tier"),
    (lambda d: d.update(growth="sometimes"), "growth", "final, per_phase"),
]


def post(api, document):
    return api.generic("POST", URL, json.dumps(document), content_type="application/json")


def test_the_example_plans_from_the_api_with_its_phases(api):
    response = post(api, example())
    assert response.status_code == 200
    plan = response.json()
    assert [phase["gpus"] for phase in plan["phases"]] == [200, 800, 1904]
    assert plan["compute"]["gpus"] == 1904
    assert plan["cost"]["capex_usd"] == pytest.approx(plan["phases"][-1]["cumulative_capex_usd"], rel=1e-9)


@pytest.mark.parametrize(("edit", "path", "message"), BAD)
def test_bad_phases_get_400_on_their_path(api, edit, path, message):
    response = post(api, changed(edit))
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert path in errors and any(message in text for text in errors[path])


def test_the_example_plans_from_the_command_line(capsys):
    code, out, err = run_command(capsys, "plan", EXAMPLE)
    assert (code, err) == (0, "")
    assert [phase["name"] for phase in json.loads(out)["phases"]] == ["validation", "pre-production", "production"]


@pytest.mark.parametrize(("edit", "path", "message"), BAD)
def test_bad_phases_exit_2_on_their_path(capsys, tmp_path, edit, path, message):
    scenario = tmp_path / "phased.json"
    scenario.write_text(json.dumps(changed(edit)))
    code, out, err = run_command(capsys, "plan", scenario)
    assert (code, out) == (2, "")
    assert any(line.startswith(f"{path}: ") and message in line for line in err.splitlines())


def test_every_phase_document_is_left_as_given():
    document = example()
    before = copy.deepcopy(document)
    from core.solver.schema import read_spec
    from planner.solver.phase_spec import PhaseSpec
    from planner.solver.phases import phase_document

    phase = read_spec(PhaseSpec, document["phases"][0])
    phased = phase_document(document, phase, ())
    assert document == before
    assert phased["compute"]["gpus"] == 200 and "phases" not in phased and "growth" not in phased
