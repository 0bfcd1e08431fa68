"""Exports parse back with the same totals: CSV reader, openpyxl, JSON."""

import csv
import io
import json

import pytest
import yaml
from hypothesis import example, given
from hypothesis import strategies as st
from openpyxl import load_workbook

from core.solver.errors import ScenarioError
from fabric.solver.cabling import CABLING_COLUMNS, cabling_rows
from handoff.exports import (
    csv_field,
    csv_lines,
    csv_texts,
    plan_export,
    plan_export_cabling_lines,
    plan_export_lines,
)
from planner.solver.pipeline import plan_scenario

H100_4SU = {
    "name": "DGX H100 4 SU",
    "compute": {"system": "dgx-h100", "nodes": 128},
    "prices": {"dgx-h100": 250_000},
}


@pytest.fixture(scope="module")
def plan(catalog):
    return plan_scenario(H100_4SU, catalog).to_dict()


def test_json_export_is_the_plan(plan):
    content, content_type, suffix = plan_export(plan, "json")
    assert json.loads(content) == plan
    assert (content_type, suffix) == ("application/json", "plan.json")


def test_bom_csv_parses_back_with_the_same_totals(plan):
    content, _, _ = plan_export(plan, "csv")
    rows = list(csv.DictReader(io.StringIO(content.decode())))
    assert len(rows) == len(plan["bom"])
    assert sum(float(row["extended_price_usd"]) for row in rows) == pytest.approx(
        sum(line["extended_price_usd"] for line in plan["bom"]))
    assert rows[0]["sku"] == "dgx-h100" and float(rows[0]["unit_price_usd"]) == 250_000


def test_workbook_has_a_sheet_per_section_and_the_bom_total(plan):
    content, _, _ = plan_export(plan, "xlsx")
    workbook = load_workbook(io.BytesIO(content))
    assert workbook.sheetnames[:2] == ["Summary", "BOM"]
    for section in plan:
        if isinstance(plan[section], dict) and section != "inputs":
            assert section.replace("_", " ").capitalize()[:31] in workbook.sheetnames
    assumptions = [row[:2] for row in workbook["Assumptions"].iter_rows(values_only=True)]
    assert ("inputs.finance.discount_rate", 0.08) in assumptions
    assert ("part sources", None) in assumptions
    bom = workbook["BOM"]
    assert bom.freeze_panes == "A2"
    header = [cell.value for cell in bom[1]]
    total_row = [cell.value for cell in bom[bom.max_row]]
    assert total_row[0] == "Total"
    assert total_row[header.index("extended price usd")] == pytest.approx(
        sum(line["extended_price_usd"] for line in plan["bom"]))
    summary = {row[0].value: row[1].value for row in workbook["Summary"].iter_rows() if row[0].value}
    assert summary["Scenario"] == "DGX H100 4 SU" and summary["GPUs"] == 1024


def test_unknown_format_is_a_field_error(plan):
    with pytest.raises(ScenarioError) as caught:
        plan_export(plan, "pdf")
    assert caught.value.as_dict() == {"format": [
        "must be one of: json, csv, xlsx, cabling, cabling-parquet, slurm-topology, slurm-block, slurm-yaml, ufm-p2p, netbox"]}


H100_4SU_FABRIC = {**H100_4SU, "fabrics": {"compute": {"switch": "qm9700", "tiers": 2}}}


def test_cabling_csv_parses_back_with_one_row_per_link(catalog):
    plan = plan_scenario(H100_4SU_FABRIC, catalog)
    lines, content_type, suffix = plan_export_lines(plan, "cabling", catalog)
    assert (content_type, suffix) == ("text/csv; charset=utf-8", "cabling.csv")
    assert next(lines) == ",".join(CABLING_COLUMNS) + "\n"
    rows = list(csv.DictReader(io.StringIO("".join([",".join(CABLING_COLUMNS) + "\n", *lines]))))
    links = plan.fabrics["compute"].links
    assert len(rows) == sum(link.count for link in links) == 2048
    assert rows[0]["from_device"] == "r001-node-01" and rows[0]["from_port"] == "compute-p1"
    assert {row["segment"] for row in rows} == {"node-leaf", "leaf-spine"}
    assert all(float(row["length_m"]) > 0 for row in rows)


@pytest.mark.parametrize("document", [H100_4SU_FABRIC, "examples/two-pool-site.yaml"])
def test_cabling_csv_is_its_rows_as_the_csv_module_writes_them(catalog, document):
    """The CSV is made a chunk of links at a time, each distinct value formatted once: the same
    text as writing the rows one by one."""
    if isinstance(document, str):
        with open(document) as file:
            document = yaml.safe_load(file)
    plan = plan_scenario(document, catalog)
    one_by_one = "".join(csv_lines([CABLING_COLUMNS, *cabling_rows(plan, plan.catalog)]))
    assert "".join(plan_export_cabling_lines(plan)) == one_by_one
    assert one_by_one.count("\n") == 1 + sum(link.count for fabric in plan.fabrics.values() for link in fabric.links)


HOSTILE_STARTS = ["=", "+", "-", "@", "\t", "\r", '"', ","]


@given(st.one_of(st.text(), st.integers(), st.floats(allow_nan=False), st.none()))
@example("\r")
@example("a\rb")
@example('a"b')
@example("=1,2")
@example("\n")
def test_a_field_is_written_as_the_csv_module_writes_it(value):
    assert csv_field(value) + ",x\n" == "".join(csv_lines([[value, "x"]]))


CELL = st.one_of(st.text(), st.integers(), st.floats(allow_nan=False), st.none(), st.sampled_from(HOSTILE_STARTS))


@given(st.one_of(st.lists(CELL), st.lists(st.text()), st.lists(st.one_of(st.integers(), st.floats(allow_nan=False)))))
@example(["r001-node-01", "=1+1"])
@example(["a\x00=b", "c"])
@example(["", "\tx"])
@example([1, 2.5, -3])
def test_a_column_is_written_as_its_fields_one_by_one(values):
    """A column formatted at once (numbers, or texts none of which needs quoting or an
    apostrophe) is each field as `csv_field` writes it."""
    assert csv_texts(values) == [csv_field(value) for value in values]


def test_cabling_is_streamed_not_made_from_the_plan_data(catalog):
    plan = plan_scenario(H100_4SU_FABRIC, catalog)
    with pytest.raises(ValueError):
        plan_export(plan.to_dict(), "cabling")
    with pytest.raises(ScenarioError):
        plan_export_lines(plan, "pdf", catalog)


HOSTILE = ['=1+1', '=HYPERLINK("http://example.invalid","x")', "+1", "-2+3", "@SUM(A1)"]


def hostile_plan(plan):
    hostile = json.loads(json.dumps(plan))
    hostile["name"] = HOSTILE[0]
    for line, text in zip(hostile["bom"], HOSTILE[1:]):
        line["description"] = text
    return hostile


def test_csv_writes_formulas_as_text_and_numbers_as_numbers(plan):
    content, _, _ = plan_export(hostile_plan(plan), "csv")
    rows = list(csv.DictReader(io.StringIO(content.decode())))
    assert [row["description"] for row in rows[:4]] == ["'" + text for text in HOSTILE[1:]]
    assert float(rows[0]["unit_price_usd"]) == 250_000
    assert not any(value.startswith(("=", "+", "@")) for row in rows for value in row.values())


def test_workbook_writes_formulas_as_text_and_numbers_as_numbers(plan):
    content, _, _ = plan_export(hostile_plan(plan), "xlsx")
    workbook = load_workbook(io.BytesIO(content))
    cells = [cell for sheet in workbook.worksheets for row in sheet.iter_rows() for cell in row]
    assert not [cell.coordinate for cell in cells if cell.data_type == "f"]
    summary = workbook["Summary"]
    assert (summary["B1"].value, summary["B1"].data_type) == ("=1+1", "s")
    bom = workbook["BOM"]
    descriptions = [cell.value for cell in bom[2][:]]
    assert HOSTILE[1] in descriptions
    assert any(isinstance(cell.value, (int, float)) and cell.data_type == "n" for cell in bom[2])
