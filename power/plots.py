"""Figures of the power section of a plan: the power path from the grid to the racks.

They read the power section as it is planned (`PowerResult`), not its JSON."""

from dataclasses import dataclass

from core.plot_theme import COLORS, base_layout
from power.solver.facility import PowerResult

RACK_NODES = {
    "compute": "Compute racks",
    "network": "Network racks",
    "storage": "Storage racks",
    "management": "Management racks",
}


@dataclass(frozen=True)
class Flow:
    source: str
    target: str
    kw: float
    note: str = ""


def power_path(power: PowerResult) -> list[Flow]:
    """The flows of the power path [kW], which balance at every node and sum to facility kW.

    Grid → UPS → distribution → racks by kind carries the critical load; the UPS and the
    distribution lose their share on the way; cooling and other overheads are fed from the grid
    beside the UPS, except the liquid-cooling pumps the UPS backs. The split follows the loss
    model of power/solver/facility.py: UPS loss on IT plus UPS-backed cooling, distribution loss
    a fraction of IT plus cooling, other a fraction of IT.
    """
    it_by_kind = {kind: kw for kind, kw in power.it_kw_by_category.items() if kw > 0}
    it_kw = sum(it_by_kind.values()) or power.it_kw
    if not it_by_kind and it_kw:
        it_by_kind = {"compute": it_kw}
    overheads = power.overhead_kw_by_category
    cooling_kw = overheads.get("cooling", 0.0)
    ups_loss_kw = overheads.get("ups_losses", 0.0)
    distribution_loss_kw = overheads.get("distribution_losses", 0.0)
    other_kw = overheads.get("other", 0.0)
    ups_backed_kw = min(cooling_kw, power.cooling.ups_backed_kw)
    # The IT feeders' share of the distribution loss; the cooling feeders carry the rest.
    loads_kw = it_kw + cooling_kw
    distribution_it_kw = distribution_loss_kw * it_kw / loads_kw if loads_kw else 0.0
    distribution_cooling_kw = distribution_loss_kw - distribution_it_kw
    flows = [
        Flow("Grid", "UPS", it_kw + distribution_it_kw + ups_backed_kw + ups_loss_kw),
        Flow("UPS", "UPS losses", ups_loss_kw),
        Flow("UPS", "Distribution", it_kw + distribution_it_kw),
        Flow("UPS", "Cooling", ups_backed_kw, "liquid-cooling pumps on the UPS"),
        Flow("Distribution", "Distribution losses", distribution_it_kw, "PDUs and feeders to the racks"),
    ]
    flows += [Flow("Distribution", RACK_NODES.get(kind, kind.capitalize()), kw) for kind, kw in it_by_kind.items()]
    flows += [
        Flow("Grid", "Cooling", cooling_kw - ups_backed_kw),
        Flow("Grid", "Distribution losses", distribution_cooling_kw, "feeders to the cooling plant"),
        Flow("Grid", "Other overhead", other_kw, "lighting, security, offices"),
    ]
    known = {"cooling", "ups_losses", "distribution_losses", "other"}
    flows += [
        Flow("Grid", name.replace("_", " ").capitalize(), kw)
        for name, kw in overheads.items()
        if name not in known and kw > 0
    ]
    return [flow for flow in flows if flow.kw > 1e-9]


NODE_COLORS = {
    "Grid": COLORS["facility"],
    "UPS": COLORS["power"],
    "Distribution": "#d35400",
    "Cooling": COLORS["cooling"],
    "UPS losses": "#95a5a6",
    "Distribution losses": "#95a5a6",
    "Other overhead": COLORS["other"],
    "Compute racks": COLORS["compute"],
    "Network racks": COLORS["network"],
    "Storage racks": COLORS["storage"],
    "Management racks": COLORS["management"],
}


def power_flow_figure(power: PowerResult | None) -> dict | None:
    """Sankey of the power path from the grid to the racks by kind [kW], with the UPS and
    distribution losses, cooling and other overheads branching off; hover gives kW and the
    share of the facility's power. `power` is the plan's power section; None (no section, or
    no facility power) draws nothing."""
    if power is None or not power.facility_kw:
        return None
    flows = power_path(power)
    if not flows:
        return None
    facility_kw = sum(flow.kw for flow in flows if flow.source == "Grid")
    labels = list(dict.fromkeys(name for flow in flows for name in (flow.source, flow.target)))
    index = {name: position for position, name in enumerate(labels)}
    through = {name: 0.0 for name in labels}
    for flow in flows:
        through[flow.target] += flow.kw
    through["Grid"] = facility_kw
    trace = {
        "type": "sankey",
        "arrangement": "snap",
        "valueformat": ",.0f",
        "valuesuffix": " kW",
        "node": {
            "label": [f"{name}: {through[name]:,.0f} kW" for name in labels],
            "color": [NODE_COLORS.get(name, COLORS["other"]) for name in labels],
            "customdata": [f"{through[name] / facility_kw:.1%}" for name in labels],
            "hovertemplate": "<b>%{label}</b><br>%{value:,.0f} kW, %{customdata} of the "
            "facility<extra></extra>",
            # Room between the small nodes (losses, management racks) for their labels.
            "pad": 24,
            "thickness": 16,
            "line": {"color": "#fff", "width": 0.5},
        },
        "link": {
            "source": [index[flow.source] for flow in flows],
            "target": [index[flow.target] for flow in flows],
            "value": [round(flow.kw, 3) for flow in flows],
            "customdata": [
                f"{flow.kw / facility_kw:.1%} of the facility" + (f"<br>{flow.note}" if flow.note else "")
                for flow in flows
            ],
            "hovertemplate": "%{source.label} → %{target.label}<br>%{value:,.0f} kW, "
            "%{customdata}<extra></extra>",
            "color": [
                "rgba(149, 165, 166, 0.35)" if "losses" in flow.target or "Other" in flow.target
                else "rgba(91, 107, 124, 0.22)"
                for flow in flows
            ],
        },
    }
    return {
        "data": [trace],
        "layout": base_layout(height=440, margin={"l": 8, "r": 8, "t": 8, "b": 8}),
    }
