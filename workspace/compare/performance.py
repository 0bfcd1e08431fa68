"""The comparison's performance rows: dense PFLOPS and capex per PFLOPS, so that TCO per GPU
is not read alone (a cheaper GPU may buy fewer FLOPS per dollar)."""

from planner.key_figures import KeyFigure, _compared_cell, compared_figures
from planner.solver.plan import Plan

PERFORMANCE_TITLE = "Performance"


def _performance(plan: Plan | None) -> dict[str, KeyFigure]:
    """Dense PFLOPS at the training precision [PFLOP/s] and capex per dense PFLOPS [USD].

    Notes: the plan's cost gives USD per GPU-hour and USD per PFLOP-hour of the same throughput,
    so their ratio is the dense PFLOP/s of one GPU (planner/solver/tco.py)."""
    if plan is None or plan.cost is None:
        return {}
    figures = compared_figures(plan)
    per_gpu_hour, per_pflop_hour = plan.cost.usd_per_gpu_hour, plan.cost.usd_per_pflop_hour
    if not per_gpu_hour or not per_pflop_hour:
        return {}
    pflops = figures["gpus"].value * per_gpu_hour / per_pflop_hour
    found = {"dense_pflops": KeyFigure("dense_pflops", "Dense compute", pflops, "PFLOPS", 0, False)}
    if "capex_usd" in figures and pflops:
        found["capex_per_pflops_usd"] = KeyFigure(
            "capex_per_pflops_usd", "Capex per dense PFLOPS", figures["capex_usd"].value / pflops, "USD", 0, True
        )
    return found


def performance_group(plans: list[Plan | None], reference: int):
    """("Performance", rows) in the shape of `compare_groups`, or None when no plan has them."""
    figures = [_performance(plan) for plan in plans]
    rows = []
    for key in ("dense_pflops", "capex_per_pflops_usd"):
        if not any(key in by_key for by_key in figures):
            continue
        any_figure = next(by_key[key] for by_key in figures if key in by_key)
        cells = [
            _compared_cell(by_key.get(key), figures[reference].get(key), index == reference)
            for index, by_key in enumerate(figures)
        ]
        rows.append((any_figure.label, any_figure.unit, cells))
    return (PERFORMANCE_TITLE, rows) if rows else None
