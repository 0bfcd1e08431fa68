"""What the editor's preview panel shows besides the key figures: how each figure moved against
the saved revision, a few small charts, the warnings grouped, and the sliders over the drivers
people explore. Translation only: the plan's figures and the figure builders are used as
they are."""

import copy
import dataclasses
import math
from dataclasses import dataclass

from planner.key_figures import KeyFigure, format_figure, key_figures
from planner.solver.plan import Plan
from planner.solver.warning_groups import WarningGroup, group_warnings
from power.plots import power_flow_figure
from workspace.dashboard.plan_text import with_part_names
from workspace.plots import figures as plots

MINUS = "\u2212"
PERCENT_FIGURES = {"capex_usd", "tco_usd", "usd_per_gpu_hour"}
"""Figures whose change reads better as a share of the saved value (money)."""


@dataclass(frozen=True)
class FigureChange:
    """How one key figure differs from the saved revision's."""

    text: str
    """Signed, in the figure's unit: "+12", "−0.40 MW", "+3.1 %"."""
    direction: str
    """"better" or "worse" when less (or more) of the figure is the better design, "up" or
    "down" for figures that are neither (racks, MW, capex grow with the cluster)."""

    @property
    def words(self) -> str:
        """The direction in words, so that the change does not rest on its colour."""
        return {"better": "better", "worse": "worse", "up": "more", "down": "less"}[self.direction]


def _signed(value: float, decimals: int) -> str:
    text = format_figure(abs(value), decimals)
    return ("+" if value > 0 else MINUS) + text


def figure_change(figure: KeyFigure, saved: KeyFigure | None) -> FigureChange | None:
    """The change of `figure` from `saved`; None when there is none to show (no saved figure,
    or a difference that rounds away at the figure's precision)."""
    if saved is None:
        return None
    delta = figure.value - saved.value
    if format_figure(abs(delta), figure.decimals) == format_figure(0, figure.decimals):
        return None
    if figure.key in PERCENT_FIGURES and saved.value:
        text = f"{delta / abs(saved.value):+,.1%}".replace("%", " %").replace("-", MINUS)
    else:
        text = _signed(delta, figure.decimals) + (f" {figure.unit}" if figure.unit else "")
    if figure.lower_is_better is None:
        direction = "up" if delta > 0 else "down"
    else:
        direction = "better" if (delta < 0) == figure.lower_is_better else "worse"
    return FigureChange(text, direction)


@dataclass(frozen=True)
class PreviewFigure:
    figure: KeyFigure
    change: FigureChange | None


def preview_figures(plan: Plan, saved: list[KeyFigure] | None) -> list[PreviewFigure]:
    """The plan's key figures, each with its change against the `saved` revision's figures
    (none for a scenario not saved yet)."""
    by_key = {figure.key: figure for figure in saved or ()}
    return [
        PreviewFigure(figure, figure_change(figure, by_key.get(figure.key)))
        for figure in key_figures(plan)
    ]


CHART_HEIGHT_PX = 190
PREVIEW_CHARTS = (
    ("preview-chart-capex", "Capex by category", lambda plan: plots.cost_breakdown_figure(plan)),
    ("preview-chart-years", "Cost over the years", lambda plan: plots.cost_over_years_figure(plan)),
    ("preview-chart-power", "Power from the grid to the loads", lambda plan: power_flow_figure(plan.power)),
)
"""(element id, title, builder): the small charts of the preview, built by the dashboard's
builders and shrunk to the panel."""


def _small(figure: dict) -> dict:
    figure = copy.deepcopy(figure)
    layout = figure["layout"]
    layout["height"] = CHART_HEIGHT_PX
    layout["margin"] = {"l": 8, "r": 8, "t": 8, "b": 8}
    layout.pop("title", None)
    for trace in figure["data"]:
        if trace.get("type") == "treemap":
            # Categories only: a panel a third of a page wide cannot show every BOM line.
            trace["maxdepth"] = 2
    if "yaxis" in layout:
        layout["margin"].update(l=44, b=28)
        layout["legend"] = {"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0}
        layout["margin"]["t"] = 24
    return figure


def preview_charts(plan: Plan) -> dict[str, dict]:
    """The preview's charts the plan can draw, by element id."""
    charts = {}
    for chart_id, _, build in PREVIEW_CHARTS:
        figure = build(plan)
        if figure is not None:
            charts[chart_id] = _small(figure)
    return charts


MAX_WARNING_LINES = 5


@dataclass(frozen=True)
class PreviewWarnings:
    lines: list[WarningGroup]
    """The most serious kinds first, at most MAX_WARNING_LINES."""
    hidden_kinds: int
    hidden_count: int
    """Warnings in the kinds not shown."""
    total: int


def preview_warnings(warnings, names: dict[str, str] | None = None) -> PreviewWarnings:
    """The plan's warnings grouped, in words: parts by their names, scenario paths as fields."""
    groups = [
        dataclasses.replace(group, message=with_part_names(group.message, names or {}))
        for group in group_warnings(list(warnings or ()))
    ]
    shown, hidden = groups[:MAX_WARNING_LINES], groups[MAX_WARNING_LINES:]
    return PreviewWarnings(
        shown, len(hidden), sum(group.count for group in hidden), sum(g.count for g in groups)
    )


# ---------------------------------------------------------------------------------------------
# Sliders


@dataclass(frozen=True)
class Slider:
    """A range input bound to the form field of `path` (the page's script keeps them in step)."""

    key: str
    path: str
    label: str
    unit: str
    minimum: float
    maximum: float
    step: float
    decimals: int

    @property
    def input_id(self) -> str:
        return f"slide-{self.key}"


GPU_SLIDER_MINIMUM = 8
GPU_SLIDER_MAXIMUM = 100_000

SLIDERS = (
    # GPUs move on a list of whole-system counts (built by the script from the chosen system's
    # GPUs per system), so its range here is only the GPU span.
    Slider("gpus", "compute.gpus", "GPUs", "GPUs", GPU_SLIDER_MINIMUM, GPU_SLIDER_MAXIMUM, 1, 0),
    Slider("rack-kw", "racks.power_budget_kw", "Rack power budget", "kW", 5, 150, 1, 0),
    Slider("pue", "facility.pue", "PUE", "", 1.02, 2.0, 0.01, 2),
    Slider(
        "price", "facility.electricity_usd_per_kwh", "Electricity price", "USD/kWh",
        0.02, 0.40, 0.005, 3,
    ),
    Slider("years", "finance.years", "Years of the TCO", "years", 1, 10, 1, 0),
)


def gpus_per_system(catalog, document: dict) -> dict[str, int]:
    """GPUs in one system of each kind the form can choose, the scenario's own parts included."""
    counts = {slug: part.gpus for slug, part in catalog.systems.items()}
    components = document.get("components") if isinstance(document, dict) else None
    parts = components.get("systems") if isinstance(components, dict) else None
    for part in parts if isinstance(parts, list) else ():
        if isinstance(part, dict) and isinstance(part.get("gpus"), int) and part.get("slug"):
            counts[part["slug"]] = part["gpus"]
    return {slug: gpus for slug, gpus in counts.items() if isinstance(gpus, int) and gpus > 0}


def pue_of(plan: Plan | None) -> tuple[float | None, str]:
    """The plan's PUE and whether it was given or modelled."""
    power = plan.power if plan is not None else None
    if power is None or not math.isfinite(power.pue):
        return None, ""
    return power.pue, power.pue_source


def slider_defaults(editor) -> dict:
    """The default of each slider's field, where the slider stands while its field is blank."""
    paths = {slider.path for slider in SLIDERS}
    return {
        field.path: field.default
        for field in editor.all_fields()
        if field.path in paths and isinstance(field.default, (int, float, str))
    }
