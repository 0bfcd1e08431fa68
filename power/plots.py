"""Figures of the power section of a plan: where the power goes, from the grid to each load."""

from planner.plots import COLORS, base_layout
from planner.words import words_of


def power_flow_figure(plan: dict) -> dict | None:
    """Sankey from the grid through the facility to IT loads and facility overheads [kW]."""
    power = plan.get("power")
    if not isinstance(power, dict) or not power.get("facility_kw"):
        return None
    it_kw = power.get("it_kw") or 0
    it_parts = {
        name: value for name, value in (power.get("it_kw_by_category") or {}).items() if value > 0
    }
    overheads = {
        name: value
        for name, value in (power.get("overhead_kw_by_category") or {}).items()
        if value > 0
    }
    if not overheads and power["facility_kw"] > it_kw:
        overheads = {"overhead": power["facility_kw"] - it_kw}
    labels = ["Grid", "IT load"]
    colors = [COLORS["facility"], COLORS["compute"]]
    sources, targets, values = [0], [1], [it_kw]
    for name, value in overheads.items():
        labels.append(words_of(name))
        colors.append(COLORS.get(name, COLORS["cooling"] if "cool" in name else COLORS["power"]))
        sources.append(0)
        targets.append(len(labels) - 1)
        values.append(value)
    for name, value in it_parts.items():
        labels.append(words_of(name))
        colors.append(COLORS.get(name, COLORS["other"]))
        sources.append(1)
        targets.append(len(labels) - 1)
        values.append(value)
    trace = {
        "type": "sankey",
        "arrangement": "snap",
        "valueformat": ",.0f",
        "valuesuffix": " kW",
        "node": {
            "label": labels,
            "color": colors,
            "pad": 14,
            "thickness": 16,
            "line": {"color": "#fff", "width": 0.5},
        },
        "link": {
            "source": sources,
            "target": targets,
            "value": values,
            "color": "rgba(91, 107, 124, 0.25)",
        },
    }
    return {
        "data": [trace],
        "layout": base_layout(height=380, margin={"l": 8, "r": 8, "t": 8, "b": 8}),
    }
