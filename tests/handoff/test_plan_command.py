"""`manage.py plan`: the plan on stdout or in a file; one line per bad field on stderr, exit 2."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.commands import run_command

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


def test_plans_the_example_scenario(capsys):
    code, out, err = run_command(capsys, "plan", ROOT / "examples" / "dgx-h100-4su.yaml")
    assert (code, err) == (0, "")
    plan = json.loads(out)
    assert (plan["compute"]["gpus"], plan["racks"]["compute"]) == (1024, 32)


def test_writes_the_plan_to_a_file(capsys, tmp_path):
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps({"name": "s", "compute": {"system": "dgx-b200", "nodes": 2}}))
    code, out, _ = run_command(capsys, "plan", scenario, "--format", "json", "--output", tmp_path / "plan.json")
    assert (code, out) == (0, "")
    assert json.loads((tmp_path / "plan.json").read_text())["compute"]["gpus"] == 16


@pytest.mark.parametrize(
    ("text", "suffix", "lines"),
    [
        ("name: x\ncompute: {system: dgx-h100, gpus: 0}\n", ".yaml",
         ["compute.gpus: must be a positive whole number"]),
        ("name: x\ncompute: {system: dgx-h100, gpus: 8, nodes: 1}\nextra: 1\n", ".yaml",
         ["extra: unknown key; expected one of: name, compute, pools, workload, inference, racks, fabrics, storage, "
          "reliability, facility, finance, components, prices, phases, growth, salvage_share", "compute.gpus: give either gpus or nodes, not both"]),
        ('{"name": "x",', ".json",
         ["document: is not valid JSON: Expecting property name enclosed in double quotes at line 1 column 14"]),
        ("name: x\ncompute: {system: dgx-h100, nodes: 1}\nracks: {power_budget_kw: 9}\n", ".yml",
         ["racks.power_budget_kw: one NVIDIA DGX H100 draws 10.2 kW, more than the 9 kW rack "
          "budget: raise the budget to at least 10.2 kW"]),
    ],
)
def test_bad_scenarios_exit_2_with_one_line_per_field(capsys, tmp_path, text, suffix, lines):
    scenario = tmp_path / f"s{suffix}"
    scenario.write_text(text)
    code, out, err = run_command(capsys, "plan", scenario)
    assert (code, out) == (2, "")
    assert sorted(err.splitlines()) == sorted(lines)


def test_csv_and_xlsx_formats(capsys, tmp_path):
    scenario = ROOT / "examples" / "dgx-h100-4su.yaml"
    code, out, _ = run_command(capsys, "plan", scenario, "--format", "csv")
    assert code == 0 and out.splitlines()[0].startswith("category,sku,")
    code, _, err = run_command(capsys, "plan", scenario, "--format", "xlsx")
    assert (code, err.strip()) == (2, "--output: an xlsx workbook is binary: name the file to write")
    code, _, _ = run_command(capsys, "plan", scenario, "--format", "xlsx", "--output", tmp_path / "plan.xlsx")
    assert code == 0 and (tmp_path / "plan.xlsx").read_bytes()[:2] == b"PK"


def test_cabling_format_writes_one_row_per_link(capsys, tmp_path):
    import csv

    scenario = ROOT / "examples" / "dgx-h100-4su.yaml"
    code, out, err = run_command(capsys, "plan", scenario, "--format", "cabling")
    assert (code, err) == (0, "")
    rows = list(csv.DictReader(out.splitlines()))
    assert len(rows) == 2048  # 1,024 node-leaf and 1,024 leaf-spine links
    assert rows[0]["from_device"] == "r001-node-01"
    code, out, _ = run_command(capsys, "plan", scenario, "--format", "cabling", "--output", tmp_path / "cabling.csv")
    assert (code, out) == (0, "")
    with (tmp_path / "cabling.csv").open(newline="") as handle:
        assert list(csv.DictReader(handle)) == rows


def test_a_missing_file_exits_2(capsys, tmp_path):
    code, _, err = run_command(capsys, "plan", tmp_path / "nope.yaml")
    assert code == 2 and err.strip() == f"{tmp_path / 'nope.yaml'}: cannot be read: No such file or directory"


def test_an_unknown_format_exits_2_without_a_traceback():
    result = subprocess.run(
        [sys.executable, "manage.py", "plan", "examples/dgx-h100-4su.yaml", "--format", "pdf"],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert result.returncode == 2
    assert "invalid choice: 'pdf'" in result.stderr and "Traceback" not in result.stderr
