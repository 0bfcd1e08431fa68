"""The headline figures of a plan, as the dashboard, the editor and the comparison show them.

They are read from the plan as plain data (`Plan.to_dict()`): a figure whose section the
pipeline did not compute is left out, so the page grows as the pipeline does.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

KW_PER_MW = 1000


@dataclass(frozen=True)
class KeyFigure:
    key: str
    label: str
    value: float
    unit: str
    decimals: int
    lower_is_better: bool | None = None
    """For a comparison: whether less of it is the better design. None for the figures that
    grow with the cluster (racks, power, capex): more of them is neither better nor worse."""

    @property
    def text(self) -> str:
        return format_figure(self.value, self.decimals)


def format_figure(value: float, decimals: int) -> str:
    if abs(value) >= 1e9 and decimals == 0:
        return f"{value / 1e9:,.2f} bn"
    if abs(value) >= 1e6 and decimals == 0:
        return f"{value / 1e6:,.1f} M"
    return f"{value:,.{decimals}f}"


def _get(plan: dict, path: str) -> Any:
    value: Any = plan
    for key in path.split("."):
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value


def _fabric_total(read: Callable[[dict], float]) -> Callable[[dict], float | None]:
    """A figure summed over the plan's fabrics; None when it has none."""
    return lambda plan: sum(map(read, plan["fabrics"].values())) if plan.get("fabrics") else None


def _megawatts(path: str) -> Callable[[dict], float | None]:
    return lambda plan: None if _get(plan, path) is None else _get(plan, path) / KW_PER_MW


FIGURES: list[tuple[str, str, str, int, bool | None, Callable[[dict], float | None]]] = [
    ("gpus", "GPUs", "", 0, None, lambda plan: _get(plan, "compute.gpus")),
    ("nodes", "Nodes", "", 0, None, lambda plan: _get(plan, "compute.total_nodes")),
    ("racks", "Racks", "", 0, None, lambda plan: _get(plan, "racks.total")),
    ("switches", "Switches", "", 0, None,
     _fabric_total(lambda fabric: sum(tier["switches"] for tier in fabric["tiers"]))),
    ("links", "Links", "", 0, None, _fabric_total(lambda fabric: sum(link["count"] for link in fabric["links"]))),
    ("optics", "Optics", "", 0, None, _fabric_total(lambda fabric: fabric["transceivers"])),
    ("it_mw", "IT power", "MW", 2, None, _megawatts("power.it_kw")),
    ("facility_mw", "Facility power", "MW", 2, None, _megawatts("power.facility_kw")),
    ("pue", "PUE", "", 2, True, lambda plan: _get(plan, "power.pue")),
    ("capex_usd", "Capex", "USD", 0, None, lambda plan: _get(plan, "cost.capex_usd")),
    ("tco_usd", "TCO", "USD", 0, None, lambda plan: _get(plan, "cost.tco_usd")),
    ("usd_per_gpu_hour", "Per GPU-hour", "USD", 2, True, lambda plan: _get(plan, "cost.usd_per_gpu_hour")),
]


def key_figures(plan: dict) -> list[KeyFigure]:
    """The headline figures the plan has, in a fixed order."""
    figures = []
    for key, label, unit, decimals, lower_is_better, read in FIGURES:
        value = read(plan)
        if value is not None:
            figures.append(KeyFigure(key, label, value, unit, decimals, lower_is_better))
    return figures


@dataclass(frozen=True)
class ComparedCell:
    text: str
    change: str = ""
    """The difference to the first scenario, e.g. "+12.5 %"; empty for the first or no change."""
    direction: str = ""
    """"better", "worse" or "changed" (for figures that are neither)."""


def compare_figures(plans: list[dict | None]) -> list[tuple[str, str, list[ComparedCell]]]:
    """Rows of (label, unit, one cell per plan) for every figure at least one plan has."""
    figures = [
        {figure.key: figure for figure in key_figures(plan)} if plan else {} for plan in plans
    ]
    rows = []
    for key, label, unit, _, _, _ in FIGURES:
        if not any(key in by_key for by_key in figures):
            continue
        first = figures[0].get(key) if figures else None
        cells = []
        for index, by_key in enumerate(figures):
            figure = by_key.get(key)
            if figure is None:
                cells.append(ComparedCell("—"))
                continue
            if index == 0 or first is None or figure.value == first.value:
                cells.append(ComparedCell(figure.text))
                continue
            delta = figure.value - first.value
            change = f"{delta / first.value:+.1%}" if first.value else f"{delta:+,g}"
            if figure.lower_is_better is None:
                direction = "changed"
            else:
                direction = "better" if (delta < 0) == figure.lower_is_better else "worse"
            cells.append(ComparedCell(figure.text, change.replace("%", " %"), direction))
        rows.append((label, unit, cells))
    return rows


STORED_FIGURES = ["gpus", "racks", "it_mw", "facility_mw", "capex_usd", "usd_per_gpu_hour"]
"""The figures kept with each saved revision, for the scenario list (which never plans)."""


def revision_figures(plan: dict | None, errors: int = 0) -> dict:
    """What a revision keeps of its plan for the list: the system, the STORED_FIGURES the plan
    has and its number of warnings; `{"planned": False, "errors": n}` for a revision that could
    not be planned. Plain JSON, so that it can be stored as it is."""
    if plan is None:
        return {"planned": False, "errors": errors}
    figures = {figure.key: figure.value for figure in key_figures(plan)}
    stored = {key: figures[key] for key in STORED_FIGURES if key in figures}
    stored.update(
        planned=True,
        system=_get(plan, "compute.system") or "",
        warnings=len(plan.get("warnings") or ()),
    )
    return stored
