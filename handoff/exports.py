"""Exports of a plan: the JSON plan, the bill of materials as CSV, a workbook for people, the
point-to-point cabling plan, and the hand-off files (`handoff/`: Slurm topology, UFM
point-to-point workbook, NetBox bundle).

All exports but the cabling plan are made from the plan's plain data (`Plan.to_dict()`), so every
section a step adds to the plan appears in the workbook without changes here. The cabling plan
is streamed: its CSV lines are made from the `Plan` a chunk of links at a time, as they are asked
for (`fabric.solver.cabling.cabling_columns`), never held all at once.
"""

import csv
import io
import json
import re
from collections.abc import Iterable, Iterator
from itertools import zip_longest
from typing import TYPE_CHECKING, Any

import numpy as np
import orjson
import xlsxwriter

from catalog.rows import export_catalog
from core.solver.cells import spreadsheet_text
from core.solver.errors import ScenarioError
from fabric.solver.cabling import CABLING_COLUMNS, cabling_columns
from fabric.solver.cabling_columns import object_array
from handoff.cabling_parquet import CONTENT_TYPE as PARQUET_CONTENT_TYPE
from handoff.cabling_parquet import plan_export_cabling_parquet
from handoff.formats import (
    handoff_available,
    handoff_check,
    netbox_bundle,
    slurm_block_conf,
    slurm_topology_conf,
    slurm_topology_yaml,
    ufm_bundle,
)

if TYPE_CHECKING:
    from catalog.solver.snapshot import CatalogSnapshot
    from planner.solver.plan import Plan

BOM_COLUMNS = ["category", "sku", "description", "length_m", "quantity", "spares", "unit_price_usd",
               "extended_price_usd", "price_source"]
SUMMARY_FIGURES = [
    ("GPUs", "compute.gpus", "#,##0"),
    ("Systems (with spares)", "compute.total_nodes", "#,##0"),
    ("Compute racks", "racks.compute", "#,##0"),
    ("Racks in all", "racks.total", "#,##0"),
    ("Rows", "racks.rows", "#,##0"),
    ("IT power (kW)", "power.it_kw", "#,##0.0"),
    ("Facility power (kW)", "power.facility_kw", "#,##0.0"),
    ("PUE", "power.pue", "0.00"),
    ("Capex (USD)", "cost.capex_usd", "#,##0"),
    ("Opex, first year (USD)", "cost.opex_usd_per_year", "#,##0"),
    ("TCO (USD)", "cost.tco_usd", "#,##0"),
    ("USD per GPU-hour", "cost.usd_per_gpu_hour", "0.000"),
]
HEADER_FONT_COLOR = "#FFFFFF"
HEADER_FILL_COLOR = "#14202E"
SOLID_FILL = 1
"""XlsxWriter's number for a solid fill pattern."""
DIGIT_WIDTH_PX = 7
"""The width of a digit of the default font (Calibri 11), the unit of a column's width."""
MAX_SHEET_TITLE = 31
XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def plan_export_json(plan: dict[str, Any]) -> bytes:
    """The plan's JSON, indented: orjson writes a 1M-GPU plan (535 kB) in 1.6 ms where the
    standard library's indenting encoder took 67 ms (measured here, best of 5)."""
    return orjson.dumps(plan, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS) + b"\n"


def csv_lines(rows: Iterable[Iterable[Any]]) -> Iterator[str]:
    """Each row as one CSV line, made as it is asked for (for streaming responses); texts that
    would be formulas are neutralised."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for row in rows:
        writer.writerow([spreadsheet_text(value) for value in row])
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()


def bom_rows(plan: dict[str, Any]) -> Iterator[list[Any]]:
    yield BOM_COLUMNS
    for line in plan.get("bom", []):
        yield [line.get(column) for column in BOM_COLUMNS]


def plan_export_bom_csv(plan: dict[str, Any]) -> bytes:
    return "".join(csv_lines(bom_rows(plan))).encode("utf-8")


def lookup(data: dict[str, Any], dotted_path: str) -> Any:
    """The value at `a.b.c`, or None where the plan has no such key."""
    for key in dotted_path.split("."):
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return data


def plan_export_xlsx(plan: dict[str, Any]) -> bytes:
    """A workbook: Summary, BOM, one sheet per plan section, and the Assumptions: every input
    of the scenario (defaults filled in) and the source of every part.

    Written in XlsxWriter's constant_memory mode: each row goes to a temporary file as soon as
    the next one begins, so the workbook costs the memory of a row, not of its cells. Every text
    is written as text (`write_string`), never read as a formula: a name such as `=1+1` is a
    text cell showing `=1+1`, and numbers stay numbers."""
    buffer = io.BytesIO()
    workbook = xlsxwriter.Workbook(buffer, {"constant_memory": True, "nan_inf_to_errors": True})
    styles = _Styles(workbook)
    _write_summary(_Sheet(workbook, "Summary", styles), plan)
    _write_bom(_Sheet(workbook, "BOM", styles), plan)
    for section, value in plan.items():
        if section != "inputs" and isinstance(value, dict):
            _write_section(_Sheet(workbook, _sheet_title(section), styles), value)
    assumptions = {"inputs": plan.get("inputs", {}), "part sources": plan.get("sources", [])}
    _write_section(_Sheet(workbook, "Assumptions", styles), assumptions)
    workbook.close()
    return buffer.getvalue()


def _sheet_title(section: str) -> str:
    return section.replace("_", " ").capitalize()[:MAX_SHEET_TITLE]


class _Styles:
    """The workbook's cell formats, one per combination used (a workbook keeps each once)."""

    def __init__(self, workbook):
        self.workbook = workbook
        self.made: dict[tuple, Any] = {}

    def __call__(self, **properties) -> Any:
        key = tuple(sorted(properties.items()))
        if key not in self.made:
            self.made[key] = self.workbook.add_format(properties)
        return self.made[key]

    def header(self, **more) -> Any:
        return self(bold=True, font_color=HEADER_FONT_COLOR, pattern=SOLID_FILL, bg_color=HEADER_FILL_COLOR, **more)


class _Sheet:
    """A worksheet written row by row, in order (constant_memory mode takes no row twice),
    keeping what its column widths are fitted to: the longest value of each column."""

    def __init__(self, workbook, title: str, styles: _Styles):
        taken = {sheet.name.casefold() for sheet in workbook.worksheets()}
        title = _free_title(title, taken)
        self.worksheet = workbook.add_worksheet(title)
        self.styles = styles
        self.rows = 0
        self.columns = 0
        self.longest: dict[int, int] = {}

    def append(self, values: list[Any], formats: Any = None) -> int:
        """The row written below the others; `formats`: one format for every cell of the row,
        blank ones included, or a list of one per column (None where a cell has none). An empty
        text is a blank cell. Returns the row's index (from 0)."""
        row = self.rows
        for column, value in enumerate(values):
            if value is None or value == "":
                if formats is not None and not isinstance(formats, list):
                    self.worksheet.write_blank(row, column, None, formats)
                continue
            cell_format = formats[column] if isinstance(formats, list) else formats
            _write_cell(self.worksheet, row, column, value, cell_format)
            self.longest[column] = max(self.longest.get(column, 0), len(str(value)))
        self.columns = max(self.columns, len(values))
        self.rows += 1
        return row

    def set_widths(self, widths_chars: dict[int, int]) -> None:
        for column, width_chars in widths_chars.items():
            # A column of W characters is W digits of the default font's 7 px (ECMA-376, 18.3.1.13):
            # the file then says width W, as it did when openpyxl wrote it.
            self.worksheet.set_column_pixels(column, column, width_chars * DIGIT_WIDTH_PX)

    def fit_widths(self) -> None:
        """Each column as wide as its longest value and two more, from 10 to 60 characters (8
        for a column with no value)."""
        self.set_widths({column: min(max(10, self.longest.get(column, 8) + 2), 60) for column in range(self.columns)})


def _free_title(title: str, taken: set[str]) -> str:
    """The title, numbered when another sheet has it (as openpyxl did: `Racks1`)."""
    candidate, number = title, 0
    while candidate.casefold() in taken:
        number += 1
        candidate = f"{title[:MAX_SHEET_TITLE - len(str(number))]}{number}"
    return candidate


def _write_cell(worksheet, row: int, column: int, value: Any, cell_format: Any) -> None:
    if isinstance(value, bool):
        worksheet.write_boolean(row, column, value, cell_format)
    elif isinstance(value, (int, float)):
        worksheet.write_number(row, column, value, cell_format)
    elif isinstance(value, str):
        worksheet.write_string(row, column, value, cell_format)
    else:
        raise TypeError(f"a workbook cell takes a number, a text or a boolean, not {type(value).__name__}")


def _write_summary(sheet: _Sheet, plan: dict[str, Any]) -> None:
    sheet.append(["Scenario", plan.get("name", "")], sheet.styles(bold=True, font_size=13))
    sheet.append([])
    for label, path, number_format in SUMMARY_FIGURES:
        value = lookup(plan, path)
        if value is not None:
            sheet.append([label, value], [None, sheet.styles(num_format=number_format)])
    if plan.get("warnings"):
        sheet.append([])
        sheet.append(["Warnings"], sheet.styles(bold=True))
        for warning in plan["warnings"]:
            sheet.append([warning])
    sheet.set_widths({0: 28, 1: 40})


def _write_bom(sheet: _Sheet, plan: dict[str, Any]) -> None:
    """The BOM's lines, numbers formatted by column (USD without decimals), and their total."""
    rows = bom_rows(plan)
    columns = next(rows)
    sheet.append([name.replace("_", " ") for name in columns], sheet.styles.header(valign="vcenter"))
    sheet.worksheet.freeze_panes(sheet.rows, 0)
    number_formats = ["#,##0" if name.endswith("_usd") else "#,##0.##" for name in columns]

    def formats(row: list[Any], **more) -> list[Any]:
        return [sheet.styles(num_format=number_format, **more)
                if isinstance(value, (int, float)) and not isinstance(value, bool) else None
                for value, number_format in zip(row, number_formats)]

    total_column = columns.index("extended_price_usd")
    total, lines = 0, 0
    for row in rows:
        sheet.append(row, formats(row))
        total += row[total_column]
        lines += 1
    if lines:
        total_row = ["Total"] + [None] * (total_column - 1) + [total]
        sheet.append(total_row, [sheet.styles(bold=True)] + formats(total_row, bold=True)[1:])
    sheet.fit_widths()


def _write_section(sheet: _Sheet, section: dict[str, Any]) -> None:
    """Scalars as (field, value) rows; lists of records as tables below them."""
    sheet.append(["field", "value"], sheet.styles.header())
    sheet.worksheet.freeze_panes(1, 0)
    tables = []
    for path, value in _flatten(section):
        if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
            tables.append((path, value))
        else:
            sheet.append([path, _cell_value(value)])
    for path, records in tables:
        sheet.append([])
        sheet.append([path], sheet.styles(bold=True))
        columns = list(dict.fromkeys(key for record in records for key in record))
        header = [column.replace("_", " ") for column in columns]
        # The header's band runs to the widest table above it, as it always has in this workbook.
        sheet.append(header + [None] * (sheet.columns - len(header)), sheet.styles.header())
        for record in records:
            sheet.append([_cell_value(record.get(column)) for column in columns])
    sheet.fit_widths()


def _cell_value(value: Any) -> Any:
    return json.dumps(value) if isinstance(value, (list, dict)) else value


def _flatten(data: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in data.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict) and value:
            yield from _flatten(value, path)
        else:
            yield path, value


EXPORTS = {
    "json": (plan_export_json, "application/json", "plan.json"),
    "csv": (plan_export_bom_csv, "text/csv; charset=utf-8", "bom.csv"),
    "xlsx": (plan_export_xlsx, XLSX_CONTENT_TYPE, "xlsx"),
}


def plan_export_cabling_lines(plan: "Plan", catalog: "CatalogSnapshot | None" = None) -> Iterator[str]:
    """The cabling plan as CSV text: the header, then blocks of lines, made as they are asked
    for; each distinct value of a chunk of links' column is formatted once.
    `catalog` gives the devices' rack units (the database's catalog when left out)."""
    yield from csv_lines([CABLING_COLUMNS])
    formatted: list[tuple[list, np.ndarray]] = []  # each column's values and their texts
    for columns in cabling_columns(plan, export_catalog(plan, catalog)):
        # Values shared with the chunk before (the lengths' table) are formatted once.
        formatted = [
            before if before[0] is values else (values, object_array(csv_texts(values)))
            for (_, values), before in zip_longest(columns, formatted, fillvalue=(None, None))
        ]
        texts = _joined_columns([(codes, texts) for (codes, _), (_, texts) in zip(columns, formatted)])
        for start in range(0, len(texts[0][0]), CSV_LINES_PER_BLOCK):
            cells = [held[codes[start:start + CSV_LINES_PER_BLOCK]].tolist() for codes, held in texts]
            yield "\n".join(map(",".join, zip(*cells))) + "\n"


def _joined_columns(texts: list[tuple[np.ndarray, np.ndarray]]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Neighbouring columns read by the same codes (a link's medium and cable) or constant in
    the chunk (segment, fabric, plane) as one column of texts joined by commas: fewer cells a row."""
    joined = [texts[0]]
    for codes, held in texts[1:]:
        before_codes, before = joined[-1]
        if codes is before_codes or len(held) == 1 == len(before):
            joined[-1] = (before_codes, before + "," + held)
        else:
            joined.append((codes, held))
    return joined


CSV_LINES_PER_BLOCK = 1_024
"""Cabling lines made at once: a block's cells are a few hundred kB whatever the plan's size."""


CSV_SPECIAL = re.compile(r'[",\r\n]')
"""What may make the csv module quote a field (which of these it quotes varies with Python's
version): such a field, rare, is written by the csv module itself."""


PLAIN_TEXTS = re.compile(r'[",\r\n]|\x00[=+\-@\t]')
"""In a column's texts joined by NULs after a NUL: a character the csv module may quote, or a
formula's first character (`spreadsheet_text`)."""


def csv_texts(values: list) -> list[str]:
    """`csv_field` of each value; a column of numbers, or of texts none of which needs
    quoting or a leading apostrophe (names and ports, nearly always), in one pass of C."""
    kinds = set(map(type, values))
    if kinds == {str}:
        if not PLAIN_TEXTS.search("\x00" + "\x00".join(values)):
            return values
    elif kinds <= {int, float}:
        return list(map(str, values))
    return list(map(csv_field, values))


def csv_field(value: Any) -> str:
    """`value` as `csv_lines` writes it in a row of several fields."""
    if type(value) is int:  # the link numbers and U: most of the values
        return str(value)
    if value is None:
        return ""
    if not isinstance(value, str):
        return str(value)
    if CSV_SPECIAL.search(value):
        return "".join(csv_lines([[value, ""]]))[:-2]  # the field, without ",\n"
    return spreadsheet_text(value)


STREAMED_EXPORTS = {
    "cabling": (plan_export_cabling_lines, "text/csv; charset=utf-8", "cabling.csv"),
    "cabling-parquet": (plan_export_cabling_parquet, PARQUET_CONTENT_TYPE, "cabling.parquet"),
}
"""Exports made from the `Plan` a block at a time, for a streaming response: lines of text, or
a binary file's bytes (`BINARY_EXPORTS`) a row group at a time."""
HANDOFF_EXPORTS = {
    "slurm-topology": (slurm_topology_conf, "text/plain; charset=utf-8", "topology.conf"),
    "slurm-block": (slurm_block_conf, "text/plain; charset=utf-8", "block-topology.conf"),
    "slurm-yaml": (slurm_topology_yaml, "application/yaml; charset=utf-8", "topology.yaml"),
    "ufm-p2p": (ufm_bundle, "application/zip", "ufm-p2p.zip"),
    "netbox": (netbox_bundle, "application/zip", "netbox.zip"),
}
"""Exports made whole from the `Plan` and its catalog (handoff/formats.py)."""
NODE_PATTERN_EXPORTS = frozenset({"slurm-topology", "slurm-block", "slurm-yaml", "netbox"})
"""Exports that name the Slurm nodes (`node_pattern`)."""
CABLE_SIZED_EXPORTS = frozenset({*STREAMED_EXPORTS, "ufm-p2p", "netbox"})
"""Exports that grow with the cables: a background job past `settings.HEAVY_EXPORT_CABLES`."""
BINARY_EXPORTS = frozenset({"xlsx", "ufm-p2p", "netbox", "cabling-parquet"})
EXPORT_FORMATS = (*EXPORTS, *STREAMED_EXPORTS, *HANDOFF_EXPORTS)


def check_export_format(export_format: str) -> None:
    if export_format not in EXPORT_FORMATS:
        raise ScenarioError.at("format", f"must be one of: {', '.join(EXPORT_FORMATS)}")


def plan_export(plan: dict[str, Any], export_format: str) -> tuple[bytes, str, str]:
    """The plan in `export_format`: its bytes, content type and file name suffix. Streamed
    formats (`STREAMED_EXPORTS`) come from `plan_export_lines` instead."""
    check_export_format(export_format)
    if export_format in STREAMED_EXPORTS:
        raise ValueError(f"{export_format} is streamed from the Plan: use plan_export_lines")
    make, content_type, suffix = EXPORTS[export_format]
    return make(plan), content_type, suffix


def plan_export_lines(
    plan: "Plan", export_format: str, catalog: "CatalogSnapshot | None" = None
) -> tuple[Iterator[str] | Iterator[bytes], str, str]:
    """A streamed export of the plan: its lines (made as they are asked for; a binary format's
    blocks of bytes), content type and file name suffix."""
    check_export_format(export_format)
    if export_format not in STREAMED_EXPORTS:
        raise ValueError(f"{export_format} is not streamed: use plan_export")
    make, content_type, suffix = STREAMED_EXPORTS[export_format]
    return make(plan, catalog), content_type, suffix


STREAM_BLOCK_CHARS = 64 * 1024
"""A streamed export is sent in blocks of about this many characters: a WSGI server writes each
item a response yields with a call of its own, and gunicorn sending a 1k-GPU cabling plan one
line at a time took 3 times its in-process time (315 ms for 97)."""


def in_blocks(lines: Iterable[str], size_chars: int = STREAM_BLOCK_CHARS) -> Iterator[str]:
    """The lines joined into blocks of at least `size_chars` (the last one shorter), lazily."""
    block: list[str] = []
    length = 0
    for line in lines:
        block.append(line)
        length += len(line)
        if length >= size_chars:
            yield "".join(block)
            block, length = [], 0
    if block:
        yield "".join(block)


def plan_export_of(
    plan: "Plan", export_format: str, *, catalog: "CatalogSnapshot | None" = None, node_pattern: str | None = None,
    device_prefix: str | None = None,
) -> tuple[bytes, str, str]:
    """A whole (not streamed) export of the `Plan`: its bytes, content type and file name suffix.
    `node_pattern` names the Slurm nodes (`gpu####`) in the formats that list them;
    `device_prefix` starts the NetBox bundle's device names (default: the site's slug)."""
    check_export_format(export_format)
    if export_format not in HANDOFF_EXPORTS:
        return plan_export(plan.to_dict(), export_format)
    if catalog is None:
        from catalog.rows import catalog_snapshot

        catalog = catalog_snapshot()
    make, content_type, suffix = HANDOFF_EXPORTS[export_format]
    if export_format == "netbox":
        content = make(plan, catalog, node_pattern, device_prefix)
    elif export_format in NODE_PATTERN_EXPORTS:
        content = make(plan, catalog, node_pattern)
    else:
        content = make(plan, catalog)
    return content, content_type, suffix


def check_export(plan: "Plan", export_format: str, *, catalog: "CatalogSnapshot | None" = None,
                 node_pattern: str | None = None, device_prefix: str | None = None) -> None:
    """Raise, naming the field, when the plan cannot give this export (a bad format or node
    pattern, a UFM file without InfiniBand, ...), before any work is queued for it."""
    check_export_format(export_format)
    if export_format in HANDOFF_EXPORTS:
        if catalog is None:
            from catalog.rows import catalog_snapshot

            catalog = catalog_snapshot()
        handoff_check(plan, catalog, export_format, node_pattern, device_prefix)


def export_available(plan: "Plan", export_format: str, catalog: "CatalogSnapshot | None" = None) -> bool:
    """Whether the plan has what the format needs (a hand-off file may not apply: a UFM file to a
    plan without InfiniBand, blocks to a system without NVLink domains across nodes)."""
    if export_format not in HANDOFF_EXPORTS:
        return export_format in EXPORT_FORMATS
    if catalog is None:
        from catalog.rows import catalog_snapshot

        catalog = catalog_snapshot()
    return handoff_available(plan, catalog, export_format)
