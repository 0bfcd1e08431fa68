"""The plan dashboard: every section of a plan as facts, tables and figures.

Sections are described from the plan's plain data, whatever their shape: scalars become facts,
lists of records become tables, nested records become subsections. A section a step adds to the
plan therefore shows up without changes here; the figures that explain a section (a Sankey for
power, elevations for racks) are added beside it when it is present.
"""

import dataclasses
import logging
from dataclasses import dataclass, field
from typing import Any

from fabric.plots import fabric_figures
from planner import floor_plots, plots, rack_plots
from planner.solver.scenario import ScenarioSpec
from planner.solver.warning_groups import WarningGroup, group_warnings
from planner.words import PHRASES, choice_label, is_key, words_of
from power.plots import power_flow_figure

logger = logging.getLogger(__name__)

SCENARIO_SECTIONS = {item.name for item in dataclasses.fields(ScenarioSpec)}
"""First parts of the scenario paths a plan names (`limited_by: racks.power_budget_kw`)."""

SECTION_ORDER = [
    "compute",
    "workload",
    "racks",
    "fabrics",
    "power",
    "storage",
    "reliability",
    "cost",
    "bom",
    "sources",
]
SECTION_TITLES = {
    "bom": "Bill of materials",
    "racks": "Racks and floor",
    "cost": "Cost of ownership",
    "sources": "Sources of the catalog figures",
    "power": "Power and cooling",
    "fabrics": "Fabrics",
}
SKIPPED = {"name", "warnings", "inputs"}
"""Not sections of the plan: `inputs` echoes the scenario, which has its own pages."""
MAX_TABLE_ROWS = 200
LARGEST_PLAIN_NUMBER = 1e15
"""Larger numbers (training FLOPs) are shown as 8.40 × 10²³."""
SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
MAX_DEPTH = 2
UNIT_SUFFIXES = [
    ("_usd_per_kwh", "USD/kWh"),
    ("_usd_per_year", "USD/year"),
    ("_usd_per_gpu_hour", "USD/GPU-h"),
    ("_kg_per_m2", "kg/m²"),
    ("_btu_per_h", "BTU/h"),
    ("_l_per_min", "L/min"),
    ("_m3_per_h", "m³/h"),
    ("_l_per_kwh", "L/kWh"),
    ("_gbytes_per_s", "GB/s"),
    ("_mwh", "MWh"),
    ("_kwh", "kWh"),
    ("_kw", "kW"),
    ("_mw", "MW"),
    ("_w", "W"),
    ("_usd", "USD"),
    ("_m2", "m²"),
    ("_m", "m"),
    ("_kg", "kg"),
    ("_gbps", "Gb/s"),
    ("_tb", "TB"),
    ("_gb", "GB"),
    ("_s", "s"),
    ("_h", "h"),
    ("_cfm", "CFM"),
    ("_u", "U"),
    ("_k", "K"),
    ("_pflops", "PFLOPS"),
    ("_tflops", "TFLOPS"),
]


@dataclass
class Table:
    title: str
    columns: list[tuple[str, bool]]
    """(heading, numeric)"""
    rows: list[list[tuple[str, bool, bool]]]
    """(text, numeric, whether the text is a web address) of every cell: decided here rather
    than in the template, which would test each of the thousands of cells of a large plan."""
    hidden_rows: int = 0


@dataclass
class SectionView:
    key: str
    title: str
    facts: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    subsections: list["SectionView"] = field(default_factory=list)
    charts: list[tuple[str, str, bool]] = field(default_factory=list)
    """(element id, title, whether it takes the whole width) of the section's figures."""

    @property
    def anchor(self) -> str:
        return "plan-" + self.key.replace(".", "-")


def label(key: str) -> str:
    """`it_kw` -> `IT (kW)`; `nodes_per_rack` -> `Nodes per rack`; a dotted path stays as it is."""
    if "." in key:
        return path_words(key) if is_scenario_path(key) else key
    if key in PHRASES:
        return PHRASES[key]
    unit = ""
    for suffix, name in UNIT_SUFFIXES:
        if key.endswith(suffix) and len(key) > len(suffix):
            key, unit = key[: -len(suffix)], name
            break
    text = words_of(key)
    return f"{text} ({unit})" if unit else text


def format_value(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)) and abs(value) >= LARGEST_PLAIN_NUMBER:
        mantissa, exponent = f"{value:.2e}".split("e")
        return f"{mantissa} × 10{str(int(exponent)).translate(SUPERSCRIPTS)}"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return f"{int(value):,}"
        if abs(value) >= 100:
            return f"{value:,.0f}"
        if abs(value) >= 1:
            return f"{value:,.2f}".rstrip("0").rstrip(".")
        return f"{value:.3g}"
    if isinstance(value, list):
        if all(isinstance(item, dict) for item in value):
            return ", ".join(_compact(item) for item in value)
        return ", ".join(format_value(item) for item in value)
    if isinstance(value, dict):
        return ", ".join(f"{_sub_label(key)}: {format_value(item)}" for key, item in value.items())
    if isinstance(value, str) and is_key(value):
        return choice_label(value)
    if isinstance(value, str) and is_scenario_path(value):
        return path_words(value)
    return str(value)


def is_scenario_path(text: str) -> bool:
    """Whether a text is the dotted path of a scenario field (`racks.power_budget_kw`)."""
    parts = text.split(".")
    return len(parts) > 1 and parts[0] in SCENARIO_SECTIONS and all(is_key(part) or part.isalpha() for part in parts)


def path_words(path: str) -> str:
    """A scenario field's path in words: `racks.power_budget_kw` -> "Racks › Power budget (kW)"."""
    *sections, name = path.split(".")
    return " › ".join([*(words_of(section) for section in sections), label(name)])


def _sub_label(key: str) -> str:
    """A key inside a record in words; a slug (`qm9700`, `chiller-air-1000`) as it is."""
    if is_scenario_path(key):
        return path_words(key)
    return words_of(key) if is_key(key) else key


def _compact(record: dict) -> str:
    values = [format_value(item) for item in record.values()]
    return " × ".join(values) if len(values) == 2 else "/".join(values)


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _cell(text: str, numeric: bool) -> tuple[str, bool, bool]:
    return text, numeric, text.startswith(("https://", "http://"))


def _table(title: str, records: list[dict]) -> Table:
    columns: list[str] = []
    for record in records:
        for key in record:
            if key not in columns:
                columns.append(key)
    numeric = {
        key: all(
            isinstance(record.get(key), (int, float)) and not isinstance(record.get(key), bool)
            for record in records
            if record.get(key) is not None
        )
        for key in columns
    }
    rows = [
        [_cell(format_value(record.get(key)), numeric[key]) for key in columns]
        for record in records[:MAX_TABLE_ROWS]
    ]
    return Table(
        title,
        [(label(key), numeric[key]) for key in columns],
        rows,
        max(0, len(records) - MAX_TABLE_ROWS),
    )


def describe(key: str, value: Any, title: str | None = None, depth: int = 0) -> SectionView:
    view = SectionView(
        key, title or SECTION_TITLES.get(key.split(".")[-1], label(key.split(".")[-1]))
    )
    if isinstance(value, list):
        if value and all(isinstance(item, dict) for item in value):
            view.tables.append(_table("", value))
        else:
            view.notes.extend(format_value(item) for item in value)
        return view
    if not isinstance(value, dict):
        view.facts.append((view.title, format_value(value)))
        return view
    for name, item in value.items():
        if _is_scalar(item):
            view.facts.append((label(name), format_value(item)))
        elif isinstance(item, list) and item and all(isinstance(entry, dict) for entry in item):
            view.tables.append(_table(label(name), item))
        elif isinstance(item, list) and all(isinstance(entry, str) for entry in item) and item:
            view.notes.extend(item)
        elif isinstance(item, list):
            view.facts.append((label(name), format_value(item) if item else "none"))
        elif isinstance(item, dict) and item and all(_is_scalar(entry) for entry in item.values()):
            if depth < MAX_DEPTH and len(item) > 3:
                view.subsections.append(describe(f"{key}.{name}", item, label(name), depth + 1))
            else:
                view.facts.extend(
                    (f"{label(name)}: {_sub_label(sub)}", format_value(entry))
                    for sub, entry in item.items()
                )
        elif isinstance(item, dict) and depth < MAX_DEPTH:
            view.subsections.append(describe(f"{key}.{name}", item, label(name), depth + 1))
        elif isinstance(item, dict):
            view.facts.append((label(name), format_value(item)))
    return view


def plan_sections(plan: dict) -> list[SectionView]:
    keys = [key for key in SECTION_ORDER if key in plan]
    keys += [key for key in plan if key not in keys and key not in SKIPPED]
    sections = []
    for key in keys:
        value = plan[key]
        if value in (None, [], {}):
            continue
        if key == "fabrics" and isinstance(value, dict):
            view = SectionView(key, SECTION_TITLES[key])
            view.subsections = [
                describe(f"fabrics.{name}", fabric, f"{label(name)} fabric", 1)
                for name, fabric in value.items()
                if isinstance(fabric, dict)
            ]
        else:
            view = describe(key, value)
        sections.append(view)
    return sections


def plan_figures(plan: dict, scenario=None, catalog=None) -> dict[str, dict]:
    """Figures of the sections the plan has, by element id (`chart-<section>-<name>`).

    A figure that cannot be drawn from a section of a shape it does not know is left out (and
    logged): the page still shows the section's tables.
    """
    racks_spec = getattr(scenario, "racks", None)
    builders = {
        "chart-bom-cost": lambda: plots.cost_breakdown_figure(plan),
        "chart-racks-elevation": lambda: rack_plots.rack_elevation_figure(
            plan,
            catalog,
            getattr(racks_spec, "usable_u", 42),
            _unit_overrides(racks_spec),
        ),
        "chart-racks-floor": lambda: floor_plots.floor_plan_figure(plan),
        "chart-power-flow": lambda: power_flow_figure(plan),
        "chart-cost-years": lambda: plots.cost_over_years_figure(plan),
    }
    figures = {key: _drawn(key, build) for key, build in builders.items()}
    fabrics = _drawn("chart-fabrics", lambda: fabric_figures(plan, catalog)) or {}
    for name, figure in fabrics.items():
        figures[f"chart-fabrics-{name}"] = figure
    return {key: figure for key, figure in figures.items() if figure is not None}


def _drawn(key: str, build):
    try:
        return build()
    except (KeyError, TypeError, ValueError, AttributeError, ZeroDivisionError):
        logger.warning(
            "figure %s left out: the plan section has an unexpected shape", key, exc_info=True
        )
        return None


WIDE_CHARTS = {
    "chart-racks-elevation",
    "chart-racks-floor",
    "chart-power-flow",
    *(f"chart-fabrics-{name}" for name in ("compute", "storage", "inband", "oob")),
}
"""Figures that take the page's whole width (racks side by side; the hall; the power path;
pods side by side)."""

CHART_TITLES = {
    "chart-bom-cost": "Capex by category and part",
    "chart-racks-elevation": "Rack elevations: every distinct rack, front view",
    "chart-racks-floor": "Floor plan: rows, aisles and racks by kind, to scale",
    "chart-power-flow": "Power path from the grid to the racks",
    "chart-cost-years": "Cost over the years",
}


def attach_charts(sections: list[SectionView], figures: dict[str, dict]) -> None:
    """Give each section the ids of its figures, so the page draws them beside its tables."""
    by_key = {section.key: section for section in sections}
    for section in sections:
        by_key.update({sub.key: sub for sub in section.subsections})
    for chart_id in figures:
        key = chart_id.removeprefix("chart-").split("-")
        title = CHART_TITLES.get(chart_id, "")
        if key[0] == "fabrics":
            title = f"{label('-'.join(key[1:]))} fabric: tiers with their switches and links"
        if key[0] == "fabrics":
            target = by_key.get(f"fabrics.{'-'.join(key[1:])}")
        elif key[0] == "cost" and "cost" not in by_key:
            target = by_key.get("bom")
        else:
            target = by_key.get(key[0])
        if target is not None:
            target.charts.append((chart_id, title, chart_id in WIDE_CHARTS))


def _unit_overrides(racks_spec) -> dict[str, int]:
    """Rack units the scenario gives its management server instead of the catalog's."""
    units = getattr(racks_spec, "management_server_u", None)
    return {racks_spec.management_server: units} if units else {}


@dataclass(frozen=True)
class WarningLine:
    group: WarningGroup
    anchor: str
    """The id of the section the warning is about on the page ("" when the page has none)."""
    section_title: str

    @property
    def text(self) -> str:
        """The message, its ranges (3–17 m) never broken across lines (a word joiner)."""
        return self.group.message.replace("–", "–\u2060")


def warning_lines(warnings, sections: list[SectionView]) -> list[WarningLine]:
    """The plan's warnings grouped (planner.solver.warning_groups), each linked to its section."""
    shown = {section.key: section for section in sections}
    lines = []
    for group in group_warnings(list(warnings or ())):
        section = shown.get(group.section)
        lines.append(
            WarningLine(group, section.anchor if section else "", section.title if section else "")
        )
    return lines
