"""The designs of a sweep written to a file as their batches finish: one row per design, its
axis values, whether it was refused (where and why) and its figures. A `.csv` file, or a
`.parquet` file (typed: numbers as numbers, a figure a refused design has not as null) written
a row group at a time.
"""

import csv
from pathlib import Path
from typing import IO, Any

import pyarrow as pa
import pyarrow.parquet as pq

from core.solver.errors import ScenarioError
from sweeps.solver.engine import DesignResult
from sweeps.solver.spec import SweepSpec

OUTPUT_SUFFIXES = (".csv", ".parquet")
PARQUET_ROWS_PER_GROUP = 65_536


def column_names(spec: SweepSpec) -> list[str]:
    """The header: the design number, its axes, its refusal and its figures."""
    return ["design", *(axis.key for axis in spec.axes), "feasible", "refused_at", "reason", *figure_columns(spec)]


def figure_columns(spec: SweepSpec) -> list[str]:
    """Each figure's column: its key, or `<key> (planned)` where an axis sets that key (an axis
    of 250 GPUs plans 256), so that no two columns share a name."""
    axes = {axis.key for axis in spec.axes}
    return [f"{key} (planned)" if key in axes else key for key in spec.figure_keys]


def design_columns(spec: SweepSpec, designs: list[DesignResult], missing: Any = "") -> list[list]:
    """The designs' rows as columns (`column_names`); `missing` where a design has no refusal
    or no figure ("" in a CSV, None in Parquet)."""
    def given(values: list) -> list:
        return [missing if value is None else value for value in values]

    numbers = [design.index for design in designs]
    return [
        numbers, *spec.axis_values(numbers).values(), [design.feasible for design in designs],
        given([design.refused_at for design in designs]), given([design.reason for design in designs]),
        *(given([design.figures.get(key) for design in designs]) for key in spec.figure_keys),
    ]


def parquet_schema(spec: SweepSpec) -> pa.Schema:
    """The design number; each axis as its values are (whole numbers, numbers or texts); refusal;
    each figure a number."""
    fields = [pa.field("design", pa.int64())]
    for axis in spec.axes:
        kinds = set(map(type, axis.values))
        arrow_type = pa.int64() if kinds == {int} else pa.float64() if kinds <= {int, float} else pa.string()
        fields.append(pa.field(axis.key, arrow_type))
    fields += [pa.field("feasible", pa.bool_()), pa.field("refused_at", pa.string()), pa.field("reason", pa.string())]
    fields += [pa.field(name, pa.float64()) for name in figure_columns(spec)]
    return pa.schema(fields)


class DesignWriter:
    """Writes rows as they come; a context manager around the open file."""

    def __init__(self, spec: SweepSpec, path: str):
        if Path(path).suffix.lower() not in OUTPUT_SUFFIXES:
            raise ScenarioError.at("output", "write the designs to a .csv or a .parquet file")
        self.spec = spec
        self.path = path
        self.parquet = Path(path).suffix.lower() == ".parquet"
        self.handle: IO[str] | None = None
        self.rows: list[DesignResult] = []

    def __enter__(self) -> "DesignWriter":
        try:
            if self.parquet:
                self.schema = parquet_schema(self.spec)
                self.writer = pq.ParquetWriter(self.path, self.schema, compression="zstd")
            else:
                self.handle = Path(self.path).open("w", encoding="utf-8", newline="")
                self.writer = csv.writer(self.handle)
                self.writer.writerow(column_names(self.spec))
        except OSError as error:
            raise ScenarioError.at("output", f"{self.path} cannot be written: {error.strerror}") from None
        return self

    def write(self, designs: list[DesignResult]) -> None:
        if not self.parquet:
            self.writer.writerows(zip(*design_columns(self.spec, designs)))
            return
        self.rows += designs
        if len(self.rows) >= PARQUET_ROWS_PER_GROUP:
            self._write_row_group()

    def _write_row_group(self) -> None:
        columns = [pa.array(values, field.type)
                   for values, field in zip(design_columns(self.spec, self.rows, missing=None), self.schema)]
        self.writer.write_table(pa.Table.from_arrays(columns, schema=self.schema), row_group_size=len(self.rows))
        self.rows = []

    def __exit__(self, *exc) -> None:
        if self.parquet:
            if self.rows:
                self._write_row_group()
            self.writer.close()
        else:
            self.handle.close()
