"""The cabling plan as Parquet (`handoff.cabling_parquet`): read back with pyarrow, its rows are
the cabling plan's rows (a device without a rack unit null), its columns typed, written a row
group at a time; from the API, the command line and a background job."""

import io
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml

from fabric.solver.cabling import CABLING_COLUMNS, cabling_rows
from fabric.solver.cabling_links import CHUNK_LINKS
from handoff import cabling_parquet
from handoff.cabling_parquet import plan_export_cabling_parquet
from planner.solver.pipeline import plan_scenario
from tests.commands import run_command

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
U_COLUMNS = (CABLING_COLUMNS.index("from_u"), CABLING_COLUMNS.index("to_u"))


def read_back(content: bytes) -> pa.Table:
    return pq.read_table(io.BytesIO(content))


def rows_as_parquet_holds_them(plan, catalog) -> list[tuple]:
    """The cabling plan's rows with a rack unit "" (a PDU on the rack's side) as None."""
    return [tuple(None if index in U_COLUMNS and value == "" else value for index, value in enumerate(row))
            for row in cabling_rows(plan, catalog)]


@pytest.mark.parametrize("example", ["dgx-h100-4su", "two-pool-site", "gb200-nvl72-liquid-facility", "cloudmatrix-384"])
def test_the_parquet_rows_are_the_cabling_plans_rows(catalog, example):
    plan = plan_scenario(yaml.safe_load((EXAMPLES / f"{example}.yaml").read_text()), catalog)
    table = read_back(b"".join(plan_export_cabling_parquet(plan, catalog)))
    assert table.column_names == list(CABLING_COLUMNS)
    assert list(zip(*(column.to_pylist() for column in table.columns))) == rows_as_parquet_holds_them(plan, catalog)
    types = dict(zip(table.column_names, table.schema.types))
    assert types["link"] == pa.int64() and types["length_m"] == pa.float64() and types["from_u"] == pa.int16()
    assert pa.types.is_dictionary(types["from_device"])  # names stored once a row group


def test_a_large_plan_is_written_a_row_group_at_a_time(catalog, monkeypatch):
    """The 10,000-GPU GB200 design's 40,000 cables in row groups of 5,000: a group closes with
    the chunk of links that takes it to 5,000 rows or more, the stream yields each as it is
    written (then the footer), and the file reads back whole."""
    monkeypatch.setattr(cabling_parquet, "ROWS_PER_GROUP", 5_000)
    document = {
        "name": "GB200 NVL72", "compute": {"system": "gb200-nvl72", "gpus": 10_008},
        "racks": {"power_budget_kw": 140, "cooling": "direct_liquid"},
        "fabrics": {"compute": {"switch": "qm9700"}, "oob": {"switch": "sn2201", "spine_switch": "sn5600"}},
    }
    plan = plan_scenario(document, catalog)
    blocks = list(plan_export_cabling_parquet(plan, catalog))
    content = b"".join(blocks)
    metadata = pq.ParquetFile(io.BytesIO(content)).metadata
    groups = [metadata.row_group(index).num_rows for index in range(metadata.num_row_groups)]
    assert sum(groups) == metadata.num_rows == len(rows_as_parquet_holds_them(plan, catalog)) > 20_000
    assert all(5_000 <= rows < 5_000 + CHUNK_LINKS for rows in groups[:-1]) and groups[-1] < 5_000 + CHUNK_LINKS
    assert len(blocks) in (len(groups), len(groups) + 1)  # the footer alone when the last group was full
    assert content[:4] == content[-4:] == b"PAR1"


@pytest.mark.django_db
def test_the_api_streams_the_parquet_file(api):
    document = yaml.safe_load((EXAMPLES / "dgx-h100-4su.yaml").read_text())
    response = api.post("/api/v1/plan/export.cabling-parquet", document, format="json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/vnd.apache.parquet"
    assert response["Content-Disposition"].endswith('.cabling.parquet"')
    table = read_back(b"".join(response.streaming_content))
    assert table.num_rows == 2048 and table.column("from_device")[0].as_py() == "r001-node-01"


@pytest.mark.django_db
def test_the_command_writes_the_parquet_file_and_only_to_a_file(capsys, tmp_path):
    scenario = EXAMPLES / "dgx-h100-4su.yaml"
    code, _, err = run_command(capsys, "plan", scenario, "--format", "cabling-parquet")
    assert code == 2 and "--output: a Parquet file is binary: name the file to write" in err
    code, out, _ = run_command(capsys, "plan", scenario, "--format", "cabling-parquet", "--output",
                               tmp_path / "cabling.parquet")
    assert (code, out) == (0, "")
    assert pq.read_table(tmp_path / "cabling.parquet").num_rows == 2048
