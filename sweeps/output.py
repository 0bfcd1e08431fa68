"""The designs of a sweep written to a CSV file as their batches finish: one row per design,
its axis values, whether it was refused (where and why) and its figures.

CSV only: Parquet would need pyarrow, which the project does not install.
"""

import csv
from pathlib import Path
from typing import IO

from core.solver.errors import ScenarioError
from sweeps.solver.engine import DesignResult
from sweeps.solver.spec import SweepSpec

OUTPUT_SUFFIXES = (".csv",)


def design_columns(spec: SweepSpec) -> list[str]:
    return ["design", *(axis.key for axis in spec.axes), "feasible", "refused_at", "reason", *spec.figure_keys]


def design_row(spec: SweepSpec, design: DesignResult) -> list:
    values = spec.design_values(design.index)
    return [
        design.index, *values.values(), design.feasible, design.refused_at or "", design.reason or "",
        *("" if design.figures.get(key) is None else design.figures[key] for key in spec.figure_keys),
    ]


class DesignWriter:
    """Writes rows as they come; a context manager around the open file."""

    def __init__(self, spec: SweepSpec, path: str):
        if Path(path).suffix.lower() not in OUTPUT_SUFFIXES:
            raise ScenarioError.at("output", "write the designs to a .csv file (Parquet needs pyarrow, not installed)")
        self.spec = spec
        self.path = path
        self.handle: IO[str] | None = None

    def __enter__(self) -> "DesignWriter":
        try:
            self.handle = Path(self.path).open("w", encoding="utf-8", newline="")
        except OSError as error:
            raise ScenarioError.at("output", f"{self.path} cannot be written: {error.strerror}") from None
        self.writer = csv.writer(self.handle)
        self.writer.writerow(design_columns(self.spec))
        return self

    def write(self, designs: list[DesignResult]) -> None:
        self.writer.writerows(design_row(self.spec, design) for design in designs)

    def __exit__(self, *exc) -> None:
        self.handle.close()
