"""The plan dashboard: every section of a plan as facts, tables and figures.

Sections are described from the plan's plain data, whatever their shape: scalars become facts,
lists of records become tables, nested records become subsections. A section a step adds to the
plan therefore shows up without changes here; the figures that explain a section (a Sankey for
power, elevations for racks) are added beside it when it is present.
"""

import logging
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from fabric.plots import fabric_figures
from planner.solver.plan import Plan
from planner.solver.warning_groups import WarningGroup, group_warnings
from power.plots import power_flow_figure
from workspace.dashboard.plan_text import (
    CODE_KEYS,
    NAME_KEYS,
    fabric_title,
    format_value,
    is_scenario_path,
    label,
    part_names,
    path_words,
    short_name,
    shown_value,
    sub_label,
    with_part_names,
)
from workspace.plots import figures as plots
from workspace.plots import floor as floor_plots
from workspace.plots import racks as rack_plots

logger = logging.getLogger(__name__)

SECTION_ORDER = [
    "compute",
    "pools",
    "workload",
    "inference",
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
    "inference": "Inference sizing",
    "pools": "Pools",
}
SKIPPED = {"name", "warnings", "inputs", "phases"}
"""Shown elsewhere: the phases by workspace/dashboard/phases.py, above the sections."""
"""Not sections of the plan: `inputs` echoes the scenario, which has its own pages."""
MAX_TABLE_ROWS = 200
MAX_DEPTH = 2


class Fact(NamedTuple):
    name: str
    value: str

    @property
    def long(self) -> bool:
        """Whether the value is prose that may wrap between its words (short values never wrap)."""
        return len(self.value) > LONGEST_UNWRAPPED or (len(self.value) > LONGEST_WORD and " " not in self.value)


LONGEST_UNWRAPPED = 32
LONGEST_WORD = 20
"""A value of one word longer than this (a slug, an address) takes the row, as prose does: on
one line beside its label it would squeeze the label to a letter a line."""


@dataclass
class Table:
    title: str
    columns: list[tuple[str, bool]]
    """(heading, numeric)"""
    rows: list[list[tuple[str, bool, bool, str, bool]]]
    """(text, numeric, whether the text is a web address, its tooltip, whether it is code) of
    every cell: decided here rather than in the template, which would test each of the thousands
    of cells of a large plan (and a lookup the template misses costs an exception)."""
    hidden_rows: int = 0


@dataclass
class SectionView:
    key: str
    title: str
    facts: list[Fact] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    subsections: list["SectionView"] = field(default_factory=list)
    charts: list[tuple[str, str, bool]] = field(default_factory=list)
    """(element id, title, whether it takes the whole width) of the section's figures."""

    @property
    def fact_rows(self) -> list[tuple[str, str, str, str]]:
        """(label, value, its class, its tooltip) of each fact, for the template to unpack: a
        lookup the template misses costs it an exception, hundreds of them on a large plan."""
        return [
            (
                fact.name,
                fact.value,
                "text" if fact.long else "value",
                getattr(fact.value, "slug", ""),
            )
            for fact in self.facts
        ]

    @property
    def anchor(self) -> str:
        return "plan-" + self.key.replace(".", "-")


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _cell(text: str, numeric: bool) -> tuple[str, bool, bool, str, bool]:
    link = text.startswith(("https://", "http://"))
    return text, numeric, link, getattr(text, "slug", ""), getattr(text, "code", False)


def _by_name(key: str) -> str:
    """The key under which a SKU column shows the parts' names instead of their SKUs."""
    return "part" if key in CODE_KEYS else key


def _table(title: str, records: list[dict], names: dict[str, str]) -> Table:
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
    # A SKU stays code beside a column that names the part; alone, the part is shown by name.
    named = bool(NAME_KEYS & set(columns))
    shown_as = [(key, key if named else _by_name(key), numeric[key]) for key in columns]
    rows = [
        [
            _cell(_shown(as_key, record.get(key), names), is_number)
            for key, as_key, is_number in shown_as
        ]
        for record in records[:MAX_TABLE_ROWS]
    ]
    return Table(
        title,
        [(label(key), numeric[key]) for key in columns],
        rows,
        max(0, len(records) - MAX_TABLE_ROWS),
    )


def _shown(key: str, value: Any, names: dict[str, str]) -> str:
    return shown_value(key, value, names)


def _is_empty(value: Any) -> bool:
    """A value the page leaves out (an absent dragonfly, no warnings), rather than "—" or "none"."""
    return value is None or value == "" or value == [] or value == {}


def describe(
    key: str,
    value: Any,
    title: str | None = None,
    depth: int = 0,
    names: dict[str, str] | None = None,
) -> SectionView:
    names = names or {}
    view = SectionView(
        key, title or SECTION_TITLES.get(key.split(".")[-1], label(key.split(".")[-1]))
    )
    if isinstance(value, list):
        if value and all(isinstance(item, dict) for item in value):
            view.tables.append(_table("", value, names))
        else:
            view.notes.extend(with_part_names(format_value(item), names) for item in value)
        return view
    if not isinstance(value, dict):
        view.facts.append(Fact(view.title, _shown(key, value, names)))
        return view
    for name, item in value.items():
        if _is_empty(item):
            continue
        if isinstance(item, str) and " " in item:
            view.facts.append(Fact(_fact_label(name, names), with_part_names(item, names)))
        elif _is_scalar(item):
            view.facts.append(Fact(_fact_label(name, names), _shown(name, item, names)))
        elif isinstance(item, list) and all(isinstance(entry, dict) for entry in item):
            view.tables.append(_table(label(name), item, names))
        elif isinstance(item, list) and all(isinstance(entry, str) for entry in item):
            view.notes.extend(with_part_names(entry, names) for entry in item)
        elif isinstance(item, list):
            view.facts.append(Fact(_fact_label(name, names), _shown(name, item, names)))
        elif isinstance(item, dict) and all(_is_scalar(entry) for entry in item.values()):
            if depth < MAX_DEPTH and len(item) > 3:
                view.subsections.append(
                    describe(f"{key}.{name}", item, label(name), depth + 1, names)
                )
            else:
                view.facts.extend(
                    Fact(f"{label(name)}: {_fact_sub_label(sub, names)}", _shown(sub, entry, names))
                    for sub, entry in item.items()
                )
        elif isinstance(item, dict) and depth < MAX_DEPTH:
            view.subsections.append(describe(f"{key}.{name}", item, label(name), depth + 1, names))
        elif isinstance(item, dict):
            view.facts.append(Fact(_fact_label(name, names), _shown(name, item, names)))
    return view


def _fact_label(key: str, names: dict[str, str]) -> str:
    """A fact's label: its key in words, or the part it is about (`crah-200`) by its name."""
    return short_name(names[key]) if key in names else label(key)


def _fact_sub_label(key: str, names: dict[str, str]) -> str:
    return path_words(key) if is_scenario_path(key) else sub_label(key, names)


def plan_sections(plan: Plan) -> list[SectionView]:
    """The plan's sections in SECTION_ORDER (then any other), described for the page from its
    plain data (`Plan.to_dict()`, every section whatever its shape); parts are named from the
    plan's catalog."""
    names = part_names(plan.catalog, plan)
    data = plan.to_dict()
    keys = [key for key in SECTION_ORDER if key in data]
    keys += [key for key in data if key not in keys and key not in SKIPPED]
    sections = []
    for key in keys:
        value = data[key]
        if value in (None, [], {}):
            continue
        if key == "fabrics":
            view = SectionView(key, SECTION_TITLES[key])
            view.subsections = [
                describe(f"fabrics.{name}", fabric, f"{fabric_title(name)} fabric", 1, names)
                for name, fabric in value.items()
            ]
        else:
            view = describe(key, value, names=names)
        sections.append(view)
    return sections


def plan_figures(plan: Plan) -> dict[str, dict]:
    """Figures of the sections the plan has, by element id (`chart-<section>-<name>`).

    A figure that fails to draw is left out (and logged): the page still shows the section's
    tables.
    """
    builders = {
        "chart-bom-cost": lambda: plots.cost_breakdown_figure(plan),
        "chart-racks-elevation": lambda: rack_plots.rack_elevation_figure(plan),
        "chart-racks-floor": lambda: floor_plots.floor_plan_figure(plan),
        "chart-power-flow": lambda: power_flow_figure(plan.power),
        "chart-cost-years": lambda: plots.cost_over_years_figure(plan),
    }
    figures = {key: _drawn(key, build) for key, build in builders.items()}
    fabrics = _drawn("chart-fabrics", lambda: fabric_figures(plan.fabrics, plan.catalog, plan.compute.system)) or {}
    for name, figure in fabrics.items():
        figures[f"chart-fabrics-{name}"] = figure
    return {key: figure for key, figure in figures.items() if figure is not None}


def _drawn(key: str, build):
    try:
        return build()
    except (KeyError, TypeError, ValueError, AttributeError, ZeroDivisionError):
        logger.warning("figure %s left out: it failed to draw", key, exc_info=True)
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


@dataclass(frozen=True)
class WarningLine:
    group: WarningGroup
    anchor: str
    """The id of the section the warning is about on the page ("" when the page has none)."""
    section_title: str
    message: str = ""
    """The group's message with the parts it names by their names ("" for the planner's words)."""
    members: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """The message, its ranges (3–17 m) never broken across lines (a word joiner)."""
        return (self.message or self.group.message).replace("–", "–\u2060")


def warning_lines(
    warnings, sections: list[SectionView], names: dict[str, str] | None = None
) -> list[WarningLine]:
    """The plan's warnings grouped (planner.solver.warning_groups), each linked to its section,
    the parts they name by their names."""
    shown = {section.key: section for section in sections}
    names = names or {}
    lines = []
    for group in group_warnings(list(warnings or ())):
        section = shown.get(group.section)
        lines.append(
            WarningLine(
                group,
                section.anchor if section else "",
                section.title if section else "",
                with_part_names(group.message, names),
                tuple(with_part_names(member, names) for member in group.members),
            )
        )
    return lines
