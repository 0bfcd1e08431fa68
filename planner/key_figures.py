"""The headline figures of a plan, as the dashboard, the editor and the comparison show them.

They are read from the plan as plain data (`Plan.to_dict()`): a figure whose section the
pipeline did not compute is left out, so the page grows as the pipeline does.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

KW_PER_MW = 1000
HOURS_PER_YEAR = 8760


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


def _get(plan: dict, *path: str) -> Any:
    value: Any = plan
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value


def _number(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return None


def _first(plan: dict, *paths: tuple[str, ...]) -> float | None:
    for path in paths:
        value = _number(_get(plan, *path))
        if value is not None:
            return value
    return None


def _fabrics(plan: dict) -> list[dict]:
    fabrics = plan.get("fabrics")
    if isinstance(fabrics, dict):
        return [fabric for fabric in fabrics.values() if isinstance(fabric, dict)]
    if isinstance(fabrics, list):
        return [fabric for fabric in fabrics if isinstance(fabric, dict)]
    return []


def _fabric_sum(plan: dict, list_key: str, count_key: str) -> float | None:
    fabrics = _fabrics(plan)
    if not fabrics:
        return None
    total = 0.0
    for fabric in fabrics:
        for item in fabric.get(list_key) or ():
            total += _number(item.get(count_key)) or 0 if isinstance(item, dict) else 0
    return total


def _optics(plan: dict) -> float | None:
    fabrics = _fabrics(plan)
    if not fabrics:
        return None
    total = 0.0
    for fabric in fabrics:
        value = fabric.get("transceivers")
        if isinstance(value, dict):
            value = value.get("total", value.get("count"))
        if isinstance(value, list):
            value = sum(_number(item.get("count")) or 0 for item in value if isinstance(item, dict))
        total += _number(value) or 0
    return total


def _megawatts(*paths: tuple[str, ...]) -> Callable[[dict], float | None]:
    def read(plan: dict) -> float | None:
        value = _first(plan, *paths)
        return None if value is None else value / KW_PER_MW

    return read


def _bom_total(plan: dict) -> float | None:
    bom = plan.get("bom")
    if not bom:
        return None
    return sum(_number(line.get("extended_price_usd")) or 0 for line in bom)


def _capex(plan: dict) -> float | None:
    value = _first(plan, ("cost", "capex_usd"))
    return value if value is not None else _bom_total(plan)


FIGURES: list[tuple[str, str, str, int, bool | None, Callable[[dict], float | None]]] = [
    ("gpus", "GPUs", "", 0, None, lambda plan: _first(plan, ("compute", "gpus"))),
    (
        "nodes",
        "Nodes",
        "",
        0,
        None,
        lambda plan: _first(plan, ("compute", "total_nodes"), ("compute", "nodes")),
    ),
    (
        "racks",
        "Racks",
        "",
        0,
        None,
        lambda plan: _first(plan, ("racks", "total"), ("racks", "compute")),
    ),
    ("switches", "Switches", "", 0, None, lambda plan: _fabric_sum(plan, "tiers", "switches")),
    ("links", "Links", "", 0, None, lambda plan: _fabric_sum(plan, "links", "count")),
    ("optics", "Optics", "", 0, None, _optics),
    ("it_mw", "IT power", "MW", 2, None, _megawatts(("power", "it_kw"), ("compute", "it_kw"))),
    ("facility_mw", "Facility power", "MW", 2, None, _megawatts(("power", "facility_kw"))),
    ("pue", "PUE", "", 2, True, lambda plan: _first(plan, ("power", "pue"))),
    ("capex_usd", "Capex", "USD", 0, None, _capex),
    ("tco_usd", "TCO", "USD", 0, None, lambda plan: _first(plan, ("cost", "tco_usd"))),
    (
        "usd_per_gpu_hour",
        "Per GPU-hour",
        "USD",
        2,
        True,
        lambda plan: _first(
            plan,
            ("cost", "usd_per_gpu_hour"),
            ("cost", "tco_usd_per_gpu_hour"),
            ("cost", "cost_per_gpu_hour_usd"),
        ),
    ),
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
