"""Figures of a plan as plotly figure dicts (data and layout), drawn in the page by plotly.js.

Every figure is built from the typed plan (planner.solver.plan.Plan, read by attribute; for part
sizes, the catalog snapshot the plan was made with), never from the database. This module holds
the cost figures and the comparison charts (the shared style is core/plot_theme.py); rack
elevations and the floor plan live in workspace/plots/racks.py and floor.py. A figure whose plan
section is absent is left out, so the dashboard grows with the pipeline.
"""

from typing import Any

from core.plot_theme import COLORS, PALETTE, base_layout
from planner.solver.plan import Plan
from planner.solver.tco import CostResult
from workspace.words import words_of


def _color(category: str) -> str:
    return COLORS.get(category, COLORS["other"])


def cost_breakdown_figure(plan: Plan) -> dict | None:
    """Capex by category and part (treemap): area is the extended price of each BOM line."""
    lines = [line for line in plan.bom if line.extended_price_usd > 0]
    if not lines:
        return None
    total = sum(line.extended_price_usd for line in lines)
    ids, labels, parents, values, colors, hover = (
        ["capex"],
        ["Capex"],
        [""],
        [total],
        ["#ffffff"],
        [""],
    )
    by_category: dict[str, float] = {}
    for line in lines:
        by_category[line.category] = by_category.get(line.category, 0) + line.extended_price_usd
    for category, value in by_category.items():
        ids.append(f"c:{category}")
        labels.append(words_of(category))
        parents.append("capex")
        values.append(value)
        colors.append(_color(category))
        hover.append(f"{value / total:.1%} of capex")
    for index, line in enumerate(lines):
        ids.append(f"l:{index}")
        labels.append(line.description or line.sku)
        parents.append(f"c:{line.category}")
        values.append(line.extended_price_usd)
        colors.append(_color(line.category))
        hover.append(f"{line.sku}: {line.quantity:,} × USD {line.unit_price_usd:,.0f}")
    trace = {
        "type": "treemap",
        "ids": ids,
        "labels": labels,
        "parents": parents,
        "values": values,
        "branchvalues": "total",
        "marker": {"colors": colors, "line": {"width": 1, "color": "#fff"}},
        "customdata": hover,
        "texttemplate": "%{label}<br>USD %{value:,.3s}",
        "hovertemplate": "%{label}<br>USD %{value:,.0f}<br>%{customdata}<extra></extra>",
        "tiling": {"pad": 2},
        "pathbar": {"visible": False},
    }
    return {
        "data": [trace],
        "layout": base_layout(height=380, margin={"l": 4, "r": 4, "t": 4, "b": 4}),
    }


OPEX_COLORS = {
    "energy": "#e67e22",
    "maintenance": "#b7950b",
    "colocation": "#8a6d3b",
    "staff": "#138d9c",
    "software": "#7a4fd1",
}


def opex_by_category_and_year(cost: CostResult) -> dict[str, list[float]]:
    """Each year's operating cost split by category [USD]. The plan escalates every category at
    the one rate (planner/solver/tco.py), so each keeps its first year's share every year."""
    opex = cost.opex_usd_by_year
    first_year = {name: value for name, value in cost.opex_by_category_usd_per_year.items() if value > 0}
    total = sum(first_year.values())
    if not total:
        return {"operating cost": list(opex)}
    return {name: [year * value / total for year in opex] for name, value in first_year.items()}


def cost_over_years_figure(plan: Plan) -> dict | None:
    """Capex in year 0 and each year's operating cost stacked by category (bars), with the
    cumulative cost and, when the plan discounts, its present value (lines); None without a
    cost or years of operation."""
    cost = plan.cost
    if cost is None or not cost.opex_usd_by_year:
        return None
    opex = cost.opex_usd_by_year
    capex = cost.capex_usd
    labels = ["Year 0"] + [f"Year {year}" for year in range(1, len(opex) + 1)]
    cumulative, total = [], 0.0
    for value in [capex, *opex]:
        total += value
        cumulative.append(total)
    hover = "%{x}: USD %{y:,.0f}<extra>%{fullData.name}</extra>"
    capex_hover = "<br>".join(
        f"{words_of(name)}: USD {value:,.0f}" for name, value in cost.capex_by_category_usd.items() if value
    )
    data = [
        {
            "type": "bar",
            "name": "Capex",
            "x": labels[:1],
            "y": [capex],
            "customdata": [capex_hover],
            "marker": {"color": PALETTE[0]},
            "hovertemplate": "Year 0: USD %{y:,.0f}<br>%{customdata}<extra>Capex</extra>",
        }
    ]
    for name, values in opex_by_category_and_year(cost).items():
        data.append(
            {
                "type": "bar",
                "name": words_of(name).capitalize(),
                "x": labels[1:],
                "y": values,
                "marker": {"color": OPEX_COLORS.get(name, PALETTE[1])},
                "hovertemplate": hover,
            }
        )
    data.append(
        {
            "type": "scatter",
            "mode": "lines+markers",
            "name": "Cumulative",
            "x": labels,
            "y": cumulative,
            "line": {"color": "#1d2733", "width": 2},
            "hovertemplate": hover,
        }
    )
    rate = cost.assumptions.discount_rate
    if rate > 0:
        present, total = [], 0.0
        for year, value in enumerate([capex, *opex]):
            total += value / (1 + rate) ** year
            present.append(total)
        data.append(
            {
                "type": "scatter",
                "mode": "lines",
                "name": f"Present value ({rate:.0%} discount)",
                "x": labels,
                "y": present,
                "line": {"color": "#1d2733", "width": 1.5, "dash": "dot"},
                "hovertemplate": hover,
            }
        )
    layout = base_layout(
        height=380,
        barmode="stack",
        yaxis={"title": {"text": "USD"}, "gridcolor": "#eef2f6", "tickformat": "~s"},
        xaxis={"type": "category"},
        legend={"orientation": "h", "y": -0.15, "traceorder": "normal"},
        hovermode="x unified",
    )
    return {"data": data, "layout": layout}


COMPARE_GROUPS = [
    ("Counts", ["gpus", "nodes", "racks", "switches"], ""),
    ("Power", ["it_mw", "facility_mw"], "MW"),
    ("Cost", ["capex_usd", "tco_usd"], "USD"),
    ("Cost per GPU", ["capex_per_gpu_usd", "tco_per_gpu_usd"], "USD"),
]
LOG_SPREAD = 10
"""Bars whose largest value is this many times their smallest start on a log axis, so that a
128-GPU pilot stays visible beside a 10,000-GPU cluster."""


def _axis_modes(values: list[list[float | None]], reference: list[float | None], unit: str) -> dict:
    """The y values and axis of each way to read a comparison chart: the values on a linear or
    a log axis, or each as a percentage of the reference scenario's value."""
    percent = [
        [
            None if value is None or not base else value / base * 100
            for value, base in zip(trace, reference)
        ]
        for trace in values
    ]
    suffix = f" {unit}" if unit else ""
    return {
        # A log axis ticks each power of ten only: its 2s and 5s crowd a small chart.
        "Linear": (values, {"type": "linear", "dtick": None, "ticksuffix": "", "title.text": unit}),
        "Log": (values, {"type": "log", "dtick": 1, "ticksuffix": "", "title.text": f"{unit} (log)".strip()}),
        "% of reference": (percent, {"type": "linear", "dtick": None, "ticksuffix": " %", "title.text": ""}),
    }, suffix


def compare_figures(names: list[str], figures: list[dict[str, Any]], reference: int = 0) -> list[dict]:
    """Grouped bar charts of the key figures of several scenarios (one trace per scenario),
    with buttons to read them on a linear or log axis or as percentages of scenario number
    `reference`; a log axis first when the values span LOG_SPREAD times or more.

    `figures`: for each scenario, its KeyFigure objects by key.
    """
    charts = []
    for title, keys, unit in COMPARE_GROUPS:
        keys = [key for key in keys if any(key in by_key for by_key in figures)]
        if not keys:
            continue
        labels = {}
        for by_key in figures:
            for key in keys:
                if key in by_key:
                    labels[key] = by_key[key].label
        values = [[by_key[key].value if key in by_key else None for key in keys] for by_key in figures]
        modes, suffix = _axis_modes(values, values[reference], unit)
        positive = [value for trace in values for value in trace if value and value > 0]
        first = "Log" if positive and max(positive) >= LOG_SPREAD * min(positive) else "Linear"
        data = []
        for index, name in enumerate(names):
            data.append(
                {
                    "type": "bar",
                    "name": name + (" (reference)" if index == reference else ""),
                    "x": [labels[key] for key in keys],
                    "y": modes[first][0][index],
                    "customdata": values[index],
                    "marker": {"color": PALETTE[index % len(PALETTE)]},
                    "hovertemplate": "%{x}: %{customdata:,.4~s}" + suffix + "<extra>%{fullData.name}</extra>",
                }
            )
        buttons = [
            {
                "label": label,
                "method": "update",
                "args": [{"y": ys}, {f"yaxis.{name}": value for name, value in axis.items()}],
            }
            for label, (ys, axis) in modes.items()
        ]
        layout = base_layout(
            title=title,
            height=340,
            barmode="group",
            yaxis={
                "gridcolor": "#eef2f6",
                "type": modes[first][1]["type"],
                "dtick": modes[first][1]["dtick"],
                "title": {"text": modes[first][1]["title.text"]},
            },
            legend={"orientation": "h", "y": -0.2},
            updatemenus=[
                {
                    "type": "buttons",
                    "direction": "right",
                    "x": 1,
                    "xanchor": "right",
                    "y": 1.18,
                    "yanchor": "top",
                    "showactive": True,
                    "active": list(modes).index(first),
                    "pad": {"r": 0, "t": 0},
                    "font": {"size": 11},
                    "buttons": buttons,
                }
            ],
        )
        charts.append({"data": data, "layout": layout})
    return charts
