"""The build-out timeline of a phased plan as a plotly figure dict: GPUs, IT and facility power
and cumulative capex at each phase's start date (planner.solver.phases). Built from the typed
plan (`Plan.phases`, PhaseResult), in the style of workspace/plots/figures.py; left out when the
plan has no phases.
The last phase is drawn to the end of the life the TCO covers, so its years show as long as
they last."""

import datetime

from core.plot_theme import COLORS, PALETTE, base_layout
from planner.key_figures import phase_figures
from planner.solver.plan import Plan

GRID = "#eef2f6"
DAYS_PER_YEAR = 365.25
"""As planner.solver.phases counts a phase's years from the first."""
PANELS = {"yaxis": [0.7, 1.0], "yaxis2": [0.36, 0.64], "yaxis3": [0.0, 0.3]}
"""Three panels over one date axis, top to bottom: GPUs, MW, cumulative spend."""


def life_end(plan: Plan) -> str:
    """The day the life the TCO covers ends, counted from the first phase's start (the years
    of `cost.opex_usd_by_year`); the last phase's start when the plan has no cost or yearly opex,
    or the life ends before it. For a plan with phases."""
    phases = plan.phases
    years = len(plan.cost.opex_usd_by_year) if plan.cost is not None else 0
    first = datetime.date.fromisoformat(phases[0].start)
    last = datetime.date.fromisoformat(phases[-1].start)
    end = first + datetime.timedelta(days=round(years * DAYS_PER_YEAR))
    return max(end, last).isoformat()


def phase_timeline_figure(plan: Plan) -> dict | None:
    """GPUs installed (steps), IT and facility MW (lines) and cumulative capex (steps) by phase
    start date, to the end of the life the TCO covers; the hover names each phase and what it
    buys. None for a plan without phases."""
    phases = plan.phases
    if not phases:
        return None
    # The last phase runs to the end of the life: its step is drawn to that day, not stopped
    # at its start.
    end = life_end(plan)
    dates = [phase.start for phase in phases] + [end]
    names = [phase.name for phase in phases]
    names.append(f"{names[-1]}, to the end of the life")
    # a phase's figures by key (planner.key_figures.phase_figures), as the comparison reads them
    figures = [phase_figures(plan, index) for index in range(len(phases))]
    figures.append({**figures[-1], "capex_usd": 0})
    step = {"shape": "hv"}
    data = [
        {
            "type": "scatter", "mode": "lines+markers", "name": "GPUs", "x": dates,
            "y": [figure["gpus"] for figure in figures], "customdata": names, "line": {**step, "color": COLORS["compute"]},
            "hovertemplate": "%{customdata} (%{x}): %{y:,} GPUs<extra></extra>", "yaxis": "y",
        },
        {
            "type": "scatter", "mode": "lines+markers", "name": "IT MW", "x": dates,
            "y": [figure["it_kw"] / 1000 for figure in figures], "customdata": names,
            "line": {**step, "color": PALETTE[1]}, "hovertemplate": "%{customdata}: IT %{y:,.2f} MW<extra></extra>",
            "yaxis": "y2",
        },
        {
            "type": "scatter", "mode": "lines+markers", "name": "Facility MW", "x": dates,
            "y": [figure["facility_kw"] / 1000 for figure in figures], "customdata": names,
            "line": {**step, "color": COLORS["facility"], "dash": "dot"},
            "hovertemplate": "%{customdata}: facility %{y:,.2f} MW<extra></extra>", "yaxis": "y2",
        },
        {
            "type": "scatter", "mode": "lines+markers", "name": "Cumulative capex", "x": dates,
            "y": [figure["cumulative_capex_usd"] for figure in figures],
            "customdata": [[name, figure["capex_usd"]] for name, figure in zip(names, figures, strict=True)],
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
