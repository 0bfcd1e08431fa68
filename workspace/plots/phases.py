"""The build-out timeline of a phased plan as a plotly figure dict: GPUs, IT and facility power
and cumulative capex at each phase's start date (planner.solver.phases). Built from the plan's
plain data, in the style of workspace/plots/figures.py; left out when the plan has no phases.
The last phase is drawn to the end of the life the TCO covers, so its years show as long as
they last."""

import datetime

from core.plot_theme import COLORS, PALETTE, base_layout
from planner.key_figures import phase_figures

GRID = "#eef2f6"
DAYS_PER_YEAR = 365.25
"""As planner.solver.phases counts a phase's years from the first."""
PANELS = {"yaxis": [0.7, 1.0], "yaxis2": [0.36, 0.64], "yaxis3": [0.0, 0.3]}
"""Three panels over one date axis, top to bottom: GPUs, MW, cumulative spend."""


def life_end(plan: dict) -> str:
    """The day the life the TCO covers ends, counted from the first phase's start (the years
    of `cost.opex_usd_by_year`); the last phase's start when the plan has no yearly opex or the
    life ends before it."""
    phases = plan["phases"]
    years = len((plan.get("cost") or {}).get("opex_usd_by_year") or ())
    first = datetime.date.fromisoformat(phases[0]["start"])
    last = datetime.date.fromisoformat(phases[-1]["start"])
    end = first + datetime.timedelta(days=round(years * DAYS_PER_YEAR))
    return max(end, last).isoformat()


def phase_timeline_figure(plan: dict) -> dict | None:
    """GPUs installed (steps), IT and facility MW (lines) and cumulative capex (steps) by phase
    start date, to the end of the life the TCO covers; the hover names each phase and what it
    buys."""
    phases = plan.get("phases")
    if not isinstance(phases, list) or not phases:
        return None
    # The last phase runs to the end of the life: its step is drawn to that day, not stopped
    # at its start.
    end = life_end(plan)
    dates = [phase["start"] for phase in phases] + [end]
    names = [phase["name"] for phase in phases]
    names.append(f"{names[-1]}, to the end of the life")
    phases = [phase_figures(plan, index) for index in range(len(phases))]
    phases.append({**phases[-1], "capex_usd": 0})
    step = {"shape": "hv"}
    data = [
        {
            "type": "scatter", "mode": "lines+markers", "name": "GPUs", "x": dates,
            "y": [phase["gpus"] for phase in phases], "customdata": names, "line": {**step, "color": COLORS["compute"]},
            "hovertemplate": "%{customdata} (%{x}): %{y:,} GPUs<extra></extra>", "yaxis": "y",
        },
        {
            "type": "scatter", "mode": "lines+markers", "name": "IT MW", "x": dates,
            "y": [phase["it_kw"] / 1000 for phase in phases], "customdata": names,
            "line": {**step, "color": PALETTE[1]}, "hovertemplate": "%{customdata}: IT %{y:,.2f} MW<extra></extra>",
            "yaxis": "y2",
        },
        {
            "type": "scatter", "mode": "lines+markers", "name": "Facility MW", "x": dates,
            "y": [phase["facility_kw"] / 1000 for phase in phases], "customdata": names,
            "line": {**step, "color": COLORS["facility"], "dash": "dot"},
            "hovertemplate": "%{customdata}: facility %{y:,.2f} MW<extra></extra>", "yaxis": "y2",
        },
        {
            "type": "scatter", "mode": "lines+markers", "name": "Cumulative capex", "x": dates,
            "y": [phase["cumulative_capex_usd"] for phase in phases],
            "customdata": [[name, phase["capex_usd"]] for name, phase in zip(names, phases, strict=True)],
            "line": {**step, "color": "#1d2733"},
            "hovertemplate": "%{customdata[0]}: buys USD %{customdata[1]:,.0f}, USD %{y:,.0f} in all<extra></extra>",
            "yaxis": "y3",
        },
    ]
    titles = {"yaxis": "GPUs", "yaxis2": "MW", "yaxis3": "USD"}
    axes = {
        axis: {"domain": domain, "title": {"text": titles[axis]}, "gridcolor": GRID, "rangemode": "tozero",
               **({"tickformat": "~s"} if axis == "yaxis3" else {})}
        for axis, domain in PANELS.items()
    }
    layout = base_layout(
        height=460,
        xaxis={"type": "date", "anchor": "y3", "gridcolor": GRID},
        legend={"orientation": "h", "y": -0.12},
        hovermode="x unified",
        **axes,
    )
    return {"data": data, "layout": layout}
