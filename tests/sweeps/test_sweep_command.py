"""`manage.py sweep`: the summary on stdout, a progress bar on stderr, every design in a CSV file
with --output; one line per bad field on stderr and exit status 2."""

import csv
import json
from pathlib import Path

import pytest
import yaml

from tests.commands import run_command
from tests.sweeps.solver.test_engine import SMALL_SWEEP

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


@pytest.fixture
def small_file(tmp_path) -> Path:
    path = tmp_path / "small.yaml"
    path.write_text(yaml.safe_dump(SMALL_SWEEP, sort_keys=False))
    return path


def test_prints_feasible_count_refusals_front_and_best(capsys, small_file):
    code, out, err = run_command(capsys, "sweep", small_file)
    assert code == 0
    assert "24 designs over 4 axes" in out
    assert "Feasible: 8 of 24" in out
    assert "12  fabrics.compute.switch:" in out
    assert "4  constraints.power.facility_kw.max: " in out
    assert "Pareto front over cost.tco_usd (minimise), power.facility_kw (minimise), racks.total (minimise)" in out
    assert "cost.tco_usd (minimise): design 1: compute.gpus=256, fabrics.compute.switch=qm9700" in out
    assert "24/24 designs" in err  # the progress bar


def test_writes_every_design_to_a_csv_file(capsys, small_file, tmp_path):
    output = tmp_path / "designs.csv"
    code, out, _ = run_command(capsys, "sweep", small_file, "--output", output, "--workers", 2, "--no-progress")
    assert code == 0 and str(output) in out
    rows = list(csv.DictReader(output.open()))
    assert sorted(int(row["design"]) for row in rows) == list(range(24))
    refused = [row for row in rows if row["feasible"] == "False"]
    assert len(refused) == 16 and {row["refused_at"] for row in refused} == {
        "fabrics.compute.switch", "constraints.power.facility_kw.max",
    }
    feasible = next(row for row in rows if row["feasible"] == "True")
    assert float(feasible["power.facility_kw"]) <= 1500 and feasible["compute.gpus"] in {"256", "512", "1024"}


def test_the_example_finds_the_designs_under_12_mw(capsys):
    code, out, _ = run_command(capsys, "sweep", ROOT / "examples/sweeps/cheapest-8192-gpus-under-12mw.yaml", "--no-progress")
    assert code == 0
    assert "12 designs over 3 axes" in out and "Feasible: 4 of 12" in out
    assert "8  constraints.power.facility_kw.max" in out


def test_the_405b_example_trades_training_days_against_tco_under_the_budget(capsys):
    code, out, _ = run_command(
        capsys, "sweep", ROOT / "examples/sweeps/fastest-405b-training-under-budget.yaml", "--no-progress"
    )
    assert code == 0
    assert "30 designs over 3 axes" in out and "constraints.cost.capex_usd.max: " in out
    assert "is above the maximum 1,500,000,000" in out
    fastest = out.split("workload.training_days (minimise): design ")[1].split("\n")[0]
    assert "workload.precision=fp8" in fastest


def test_base_file_is_read_relative_to_the_sweep(capsys, tmp_path):
    (tmp_path / "base.json").write_text(json.dumps(SMALL_SWEEP["base"]))
    sweep = {key: value for key, value in SMALL_SWEEP.items() if key != "base"}
    (tmp_path / "sweep.yaml").write_text(yaml.safe_dump({**sweep, "base_file": "base.json"}, sort_keys=False))
    code, out, _ = run_command(capsys, "sweep", tmp_path / "sweep.yaml", "--no-progress")
    assert code == 0 and "Feasible: 8 of 24" in out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("base: {}\naxes: {compute.gpu: [1]}\nobjectives: [{key: cost.tco_usd}]\n", "axes.compute.gpu: unknown key 'gpu'"),
        ("base: &a {x: [*a]}\n", "aliases are not accepted"),
        ("base_file: missing.yaml\naxes: {}\n", "base_file: "),
        (("base: {name: x}\naxes: {compute.gpus: [1]}\nconstraints: {power.facility_kw: {min: 5, max: 1}}\n"
          "objectives: [{key: cost.tco_usd}]\n"), "constraints.power.facility_kw.min: must not exceed max"),
    ],
)
def test_a_bad_sweep_is_one_line_per_problem_and_status_2(capsys, tmp_path, text, expected):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    code, out, err = run_command(capsys, "sweep", path)
    assert (code, out) == (2, "")
    assert expected in err


def test_a_large_sweep_without_output_is_refused(capsys, tmp_path):
    big = {**SMALL_SWEEP, "axes": {
        "compute.gpus": {"from": 1, "to": 1000, "step": 1}, "racks.power_budget_kw": {"from": 20, "to": 120, "step": 1},
    }}
    path = tmp_path / "big.json"
    path.write_text(json.dumps(big))
    code, _, err = run_command(capsys, "sweep", path)
    assert code == 2 and err.startswith("output: the sweep has 101,000 designs")


def test_the_designs_are_written_to_a_csv_or_a_parquet_file_alike(capsys, small_file, tmp_path):
    """The Parquet file holds the CSV's rows, typed: axis values and figures as numbers, a
    refused design's missing figures and a feasible design's refusal as null."""
    import pyarrow.parquet as pq

    for name in ("designs.csv", "designs.parquet"):
        code, _, _ = run_command(capsys, "sweep", small_file, "--output", tmp_path / name, "--no-progress")
        assert code == 0
    rows = list(csv.DictReader((tmp_path / "designs.csv").open()))
    table = pq.read_table(tmp_path / "designs.parquet")
    assert table.column_names == list(rows[0])
    assert table.schema.field("compute.gpus").type == "int64"

    def read(value):
        """A CSV cell as the value it writes ("" for none; a number's digits as the number)."""
        if value in ("", None):
            return None
        try:
            return float(value)
        except (TypeError, ValueError):
            return {"True": True, "False": False}.get(value, value)

    def by_design(table_rows):
        return sorted(({key: read(value) for key, value in row.items()} for row in table_rows),
                      key=lambda row: row["design"])

    assert by_design(table.to_pylist()) == by_design(rows)
    code, _, err = run_command(capsys, "sweep", small_file, "--output", tmp_path / "designs.xlsx")
    assert code == 2 and "output: write the designs to a .csv or a .parquet file" in err


def test_the_best_design_is_saved_as_a_scenario_that_plans(capsys, small_file, tmp_path, catalog):
    from planner.solver.documents import parse_document
    from planner.solver.pipeline import plan_scenario

    saved = tmp_path / "best.yaml"
    code, out, _ = run_command(capsys, "sweep", small_file, "--save-best", saved, "--no-progress")
    assert code == 0 and f"as a scenario: {saved}" in out
    document = parse_document(saved.read_text())
    assert (document["compute"]["gpus"], document["fabrics"]["compute"]) == (
        256, {"switch": "qm9700", "topology": "rail_only"},
    )
    assert document["racks"]["cooling"] == "air" and document["name"] == "small: design 1"
    plan_scenario(document, catalog)


@pytest.mark.parametrize("workers", [0, 257])
def test_a_number_of_processes_out_of_bounds_is_refused_on_its_option(capsys, small_file, workers):
    code, _, err = run_command(capsys, "sweep", small_file, "--workers", workers)
    assert code == 2 and "--workers: must be from 1 to 256" in err
