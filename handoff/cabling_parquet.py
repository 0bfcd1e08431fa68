"""The cabling plan as Parquet (Apache Arrow's columnar file, read by pandas, Polars, DuckDB and
Spark): the CSV's columns and rows (`cabling.CABLING_COLUMNS`), typed. Numbers are numbers, a
device without a rack unit (a PDU on the rack's side) has none (null), and each text column is
dictionary-encoded as `cabling_columns` makes it: a rack's or device's name is stored once per
row group, not once a row. Written a row group at a time, as the rows are made, so a plan of
millions of cables streams in constant memory.
"""

import io
from collections import OrderedDict
from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from catalog.rows import export_catalog
from fabric.solver.cabling import CABLING_COLUMNS, cabling_columns

if TYPE_CHECKING:
    from catalog.solver.snapshot import CatalogSnapshot
    from planner.solver.plan import Plan

TEXT = pa.dictionary(pa.int32(), pa.string())
COLUMN_TYPES = {
    "link": pa.int64(), "from_u": pa.int16(), "to_u": pa.int16(), "length_m": pa.float64(),
    "stock_length_m": pa.float64(), "plane": pa.int16(),
}
"""Every other column is a text."""
SCHEMA = pa.schema([pa.field(name, COLUMN_TYPES.get(name, TEXT)) for name in CABLING_COLUMNS])
ROWS_PER_GROUP = 32_768
"""Rows a row group holds (the last one fewer): about 200 kB of file, a block of the stream;
10 to 20 MB of columns held while it is gathered, whatever the plan's size."""
CONTENT_TYPE = "application/vnd.apache.parquet"


def plan_export_cabling_parquet(plan: "Plan", catalog: "CatalogSnapshot | None" = None) -> Iterator[bytes]:
    """The cabling plan as a Parquet file: its bytes a row group at a time, then the footer.
    `catalog` gives the devices' rack units (the database's catalog when left out)."""
    sink = io.BytesIO()
    group = RowGroup()
    with pq.ParquetWriter(sink, SCHEMA, compression="zstd", write_statistics=False) as writer:
        for columns in cabling_columns(plan, export_catalog(plan, catalog)):
            group.add(columns)
            if group.rows >= ROWS_PER_GROUP:
                writer.write_table(group.table(), row_group_size=group.rows)
                group = RowGroup(group)
                yield _drained(sink)
        if group.rows:
            writer.write_table(group.table(), row_group_size=group.rows)
    yield _drained(sink)


NUMBER_LISTS_HELD = 4
"""Lists of numbers a row group keeps read as arrays, the last used: the lengths' table of metres
that every chunk shares stays among them."""


class RowGroup:
    """The (codes, values) columns of the chunks of links a row group holds, gathered: a text
    column's codes and values appended (one dictionary a row group), a number column read at its
    codes. A list of numbers shared by the chunks (the lengths' table of metres) is read into an
    array once."""

    def __init__(self, before: "RowGroup | None" = None) -> None:
        self.rows = 0
        self.codes: list[list[np.ndarray]] = [[] for _ in SCHEMA]
        self.values: list[list] = [[] for _ in SCHEMA]
        self.numbers: OrderedDict[int, tuple[list, np.ndarray]] = before.numbers if before else OrderedDict()

    def add(self, columns: list[tuple[np.ndarray, list]]) -> None:
        for codes, values, field, held_codes, held_values in zip(*zip(*columns), SCHEMA, self.codes, self.values):
            if field.type == TEXT:
                held_codes.append(codes + len(held_values))
                held_values += values
            else:
                held_codes.append(self._numbers(values)[codes])
        self.rows += len(columns[0][0])

    def _numbers(self, values: list) -> np.ndarray:
        held = self.numbers.get(id(values))
        if held is not None and held[0] is values:
            self.numbers.move_to_end(id(values))
            return held[1]
        # A rack unit "" (a device on the rack's side) is none: NaN, written as null.
        numbers = np.array([np.nan if value == "" else value for value in values] if "" in values else values,
                           dtype=float)
        self.numbers[id(values)] = values, numbers
        if len(self.numbers) > NUMBER_LISTS_HELD:
            self.numbers.popitem(last=False)
        return numbers

    def table(self) -> pa.Table:
        arrays = []
        for codes, values, field in zip(self.codes, self.values, SCHEMA):
            joined = np.concatenate(codes)
            if field.type == TEXT:
                # The chunks' values, each once: a smaller dictionary, written faster.
                distinct = pa.array(values, pa.string()).dictionary_encode()
                codes_of = distinct.indices.to_numpy()
                arrays.append(pa.DictionaryArray.from_arrays(pa.array(codes_of[joined], pa.int32()), distinct.dictionary))
            else:
                missing = np.isnan(joined) if joined.dtype.kind == "f" and field.type != pa.float64() else None
                arrays.append(pa.array(np.where(missing, 0, joined) if missing is not None else joined,
                                       field.type, mask=missing, from_pandas=False))
        return pa.Table.from_arrays(arrays, schema=SCHEMA)


def _drained(sink: io.BytesIO) -> bytes:
    """What the writer put in `sink` since the last call, `sink` emptied."""
    written = sink.getvalue()
    sink.seek(0)
    sink.truncate()
    return written
