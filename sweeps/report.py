"""A sweep's summary as lines of text, for the sweep command."""

from planner.solver.rounds import CABLES_COUNTED, CABLES_ENGINE, CABLES_SAMPLED
from sweeps.solver.engine import DesignResult
from sweeps.solver.summary import SweepSummary

MAX_FRONT_LINES = 50
"""Front designs printed; the file written with --output holds them all."""


def _number(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.2f}" if abs(value) < 1e6 else f"{value:,.0f}"
    return f"{value:,.0f}" if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)


def design_text(summary: SweepSummary, design: DesignResult) -> str:
    values = summary.spec.design_values(design.index)
    return ", ".join(f"{key}={value}" for key, value in values.items())


CABLES_TEXT = {
    CABLES_COUNTED: "planned in full, every cable counted",
    CABLES_SAMPLED: "screened (racks packed with a sample of the optics; cables not counted)",
    CABLES_ENGINE: "screened (the fabric engine's cables and optics; cables not counted)",
}


def summary_lines(summary: SweepSummary, cables: str) -> list[str]:
    spec = summary.spec
    how = CABLES_TEXT[cables]
    lines = [
        f"{spec.name}: {summary.designs:,} designs over {len(spec.axes)} axes, {how}",
        f"Feasible: {summary.feasible:,} of {summary.designs:,}",
    ]
    if summary.refusals:
        lines.append("Refused, by reason (designs, where, e.g.):")
        lines += [f"  {refusals.count:>9,}  {path}: {refusals.example}" for path, refusals in summary.sorted_refusals()]
    if not summary.feasible:
        lines.append("No design is feasible.")
        return lines
    objectives = ", ".join(f"{objective.key} ({objective.goal})" for objective in spec.objectives)
    lines.append(f"Pareto front over {objectives}: {len(summary.front):,} designs")
    for design in summary.front[:MAX_FRONT_LINES]:
        figures = "  ".join(f"{objective.key}={_number(design.figures[objective.key])}" for objective in spec.objectives)
        lines.append(f"  design {design.index}: {design_text(summary, design)}  →  {figures}")
    if len(summary.front) > MAX_FRONT_LINES:
        lines.append(f"  … and {len(summary.front) - MAX_FRONT_LINES:,} more")
    lines.append("Best by objective:")
    for objective, design in zip(spec.objectives, summary.best):
        key_figures = "  ".join(f"{key}={_number(value)}" for key, value in design.figures.items())
        lines.append(f"  {objective.key} ({objective.goal}): design {design.index}: {design_text(summary, design)}")
        lines.append(f"      {key_figures}")
    return lines


def design_dict(summary: SweepSummary, design: DesignResult) -> dict:
    return {"design": design.index, "values": summary.spec.design_values(design.index), "figures": design.figures}


def refused_by_constraint(design: DesignResult) -> bool:
    """Planned, with its figures, and refused by one of the sweep's constraints (not by the
    planner, which leaves no figures)."""
    return not design.feasible and bool(design.figures) and design.refused_at.startswith("constraints.")


def refused_design_dict(summary: SweepSummary, design: DesignResult) -> dict:
    """A design refused by a constraint: its values and figures, where it was refused (the
    constraint's bound, `constraints.power.facility_kw.max`) and why."""
    return {**design_dict(summary, design), "refused_at": design.refused_at, "reason": design.reason}


def summary_dict(summary: SweepSummary, cables: str) -> dict:
    """The summary as JSON-ready data: what a sweep job keeps and the API gives back."""
    spec = summary.spec
    return {
        "name": spec.name,
        "designs": summary.designs,
        "feasible": summary.feasible,
        "cables": cables,
        "axes": {axis.key: list(axis.values) for axis in spec.axes},
        "objectives": [{"key": objective.key, "goal": objective.goal} for objective in spec.objectives],
        "constraints": [
            {"key": constraint.key, "min": constraint.minimum, "max": constraint.maximum}
            for constraint in spec.constraints
        ],
        "refusals": [
            {"path": path, "designs": refusals.count, "example": refusals.example}
            for path, refusals in summary.sorted_refusals()
        ],
        "front": [design_dict(summary, design) for design in summary.front],
        "best": [
            {"key": objective.key, "goal": objective.goal,
             "design": design_dict(summary, design) if design is not None else None}
            for objective, design in zip(spec.objectives, summary.best)
        ],
    }
