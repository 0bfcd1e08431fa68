"""Figures of the fabrics of a plan: each fabric's tiers with their switch and link counts."""

from planner.plots import PALETTE, base_layout


def fabric_figure(name: str, fabric: dict, nodes: int | None = None) -> dict | None:
    """One fabric as layers from the systems up to its top tier, with the links between them."""
    tiers = [tier for tier in fabric.get("tiers") or () if isinstance(tier, dict)]
    if not tiers:
        return None
    layers = [("node", nodes)] if nodes else []
    layers += [(str(tier.get("role", "tier")), tier.get("switches")) for tier in tiers]
    links = {
        (str(link.get("from")), str(link.get("to"))): link.get("count")
        for link in fabric.get("links") or ()
        if isinstance(link, dict)
    }
    x, y, text, hover, colors = [], [], [], [], []
    shapes, annotations = [], []
    for level, (role, count) in enumerate(layers):
        label = "systems" if role == "node" else role
        x.append(0.5)
        y.append(level)
        text.append(f"<b>{label}</b>  × {count:,}" if isinstance(count, int) else f"<b>{label}</b>")
        hover.append(f"{label}: {count:,}" if isinstance(count, int) else label)
        colors.append("#5b6b7c" if role == "node" else PALETTE[level % len(PALETTE)])
        shapes.append(
            {
                "type": "rect",
                "x0": 0.15,
                "x1": 0.85,
                "y0": level - 0.22,
                "y1": level + 0.22,
                "line": {"color": colors[-1], "width": 1.5},
                "fillcolor": "rgba(255,255,255,0.9)",
                "layer": "below",
            }
        )
        if level:
            below = layers[level - 1][0]
            count_links = links.get((below, role))
            shapes.append(
                {
                    "type": "line",
                    "x0": 0.5,
                    "x1": 0.5,
                    "y0": level - 0.78,
                    "y1": level - 0.22,
                    "line": {"color": "#9aa7b4", "width": 2},
                }
            )
            if isinstance(count_links, int):
                annotations.append(
                    {
                        "x": 0.52,
                        "y": level - 0.5,
                        "text": f"{count_links:,} links",
                        "showarrow": False,
                        "xanchor": "left",
                        "font": {"size": 11, "color": "#5b6b7c"},
                    }
                )
    trace = {
        "type": "scatter",
        "mode": "text",
        "x": x,
        "y": y,
        "text": text,
        "hovertext": hover,
        "hoverinfo": "text",
        "textfont": {"size": 13},
        "showlegend": False,
    }
    layout = base_layout(
        height=40 + 80 * len(layers),
        shapes=shapes,
        annotations=annotations,
        xaxis={"visible": False, "range": [0, 1], "fixedrange": True},
        yaxis={"visible": False, "range": [-0.5, len(layers) - 0.5], "fixedrange": True},
    )
    return {"data": [trace], "layout": layout}


def fabric_figures(plan: dict) -> dict[str, dict]:
    fabrics = plan.get("fabrics")
    if not isinstance(fabrics, dict):
        return {}
    nodes = (plan.get("compute") or {}).get("total_nodes")
    figures = {}
    for name, fabric in fabrics.items():
        if isinstance(fabric, dict):
            figure = fabric_figure(name, fabric, nodes)
            if figure is not None:
                figures[name] = figure
    return figures
