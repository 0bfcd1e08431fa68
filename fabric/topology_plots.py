"""A picture of a fabric's structure: one plane, its pods or scalable units side by side with
their leaves (coloured by rail where the leaves are rail-optimized), the spines and cores above
them, and the link bundles between tiers with their counts and speed; a dragonfly as a ring of
groups with their global links.

Repetition is elided: the first two units, "…", the last one, with the count. Every marker has a
hover: role, model, how many, ports used and free per switch, links down and up.

Every function here reads the fabric's result as it is planned (`FabricResult`, its
`TierResult`s and `LinkResult`s), not its JSON.
"""

import math
from dataclasses import dataclass, field

from core.plot_theme import PALETTE, base_layout
from fabric.solver.results import FabricResult, LinkResult, TierResult

RAIL_COLORS = ["#0b6bcb", "#e67e22", "#1b8a5a", "#c0392b", "#7a4fd1", "#138d9c", "#b7950b", "#d63384"]
SWITCH_COLOR = "#5b6b7c"
NODE_COLOR = "#1d2733"
LINK_COLOR = "rgba(91, 107, 124, 0.35)"
MESH_COLOR = "rgba(91, 107, 124, 0.16)"
"""Full meshes between tiers: faint, so the switches and the bundle labels stay readable."""
TIER_COLORS = ["#0b6bcb", "#34495e", "#8e44ad"]
"""Leaf (not rail-optimized), spine, core."""
MAX_SWITCHES_DRAWN = 16
"""Switches drawn in one unit's row (or across the top tiers); the hover gives the full count."""
MAX_NODES_DRAWN = 4
MAX_GROUPS_DRAWN = 10
UNIT_WIDTH = 1.0


@dataclass
class Drawing:
    """What a topology figure is made of, gathered before it becomes traces."""

    markers: dict[str, dict] = field(default_factory=dict)
    """Trace name -> {x, y, color, hover, symbol, size}: one scatter trace each."""
    lines: dict[str, dict] = field(default_factory=dict)
    """Trace name -> {x, y, color, width}: segments separated by None."""
    annotations: list[dict] = field(default_factory=list)
    shapes: list[dict] = field(default_factory=list)

    def marker(self, trace: str, x: float, y: float, hover: str, color: str, symbol="square", size=11):
        entry = self.markers.setdefault(trace, {"x": [], "y": [], "color": [], "hover": [], "symbol": symbol, "size": size})
        entry["x"].append(round(x, 4))
        entry["y"].append(y)
        entry["color"].append(color)
        entry["hover"].append(hover)

    def line(self, trace: str, x0: float, y0: float, x1: float, y1: float, color=LINK_COLOR, width=1.0):
        entry = self.lines.setdefault(trace, {"x": [], "y": [], "color": color, "width": width})
        entry["x"] += [round(x0, 4), round(x1, 4), None]
        entry["y"] += [y0, y1, None]

    def text(self, x: float, y: float, text: str, **style):
        self.annotations.append(
            {"x": x, "y": y, "text": text, "showarrow": False, "font": {"size": 11, "color": "#5b6b7c"}, **style}
        )


def shown_units(count: int) -> list[int | None]:
    """Indices of the units drawn: all up to four, else the first two, None ("…"), the last."""
    if count <= 4:
        return list(range(count))
    return [0, 1, None, count - 1]


def _spread(count: int, x0: float, x1: float) -> list[float]:
    """`count` positions evenly spread across [x0, x1]."""
    if count <= 1:
        return [(x0 + x1) / 2]
    step = (x1 - x0) / (count - 1)
    return [x0 + step * index for index in range(count)]


def plural(role: str) -> str:
    return "leaves" if role == "leaf" else f"{role}s"


def _drawn(count: int, limit: int = MAX_SWITCHES_DRAWN) -> int:
    return max(0, min(count, limit))


def _tier_hover(fabric: FabricResult, tier: TierResult, names: dict[str, str], extra: str = "") -> str:
    """A switch's hover: its tier's role, model and count, its ports and links per switch."""
    switches = tier.switches
    planes = fabric.planes
    per_switch_used = tier.ports_used / switches if switches else 0
    per_switch_free = tier.ports_free / switches if switches else 0
    model = names.get(tier.switch, tier.switch)
    count = f"{switches:,} in all" + (f" ({switches // planes:,} per plane)" if planes > 1 else "")
    return (
        f"<b>{tier.role.capitalize()}</b>{extra}<br>{model}<br>{count}<br>"
        f"ports per switch: {per_switch_used:,.0f} used, {per_switch_free:,.0f} free<br>"
        f"links per switch: {tier.down_links_per_switch:,} down, {tier.up_links_per_switch:,} up"
    )


def _link(fabric: FabricResult, lower: str, upper: str) -> LinkResult | None:
    """The fabric's links from the `lower` role up to the `upper` one, if it has any."""
    return next((link for link in fabric.links if link.from_ == lower and link.to == upper), None)


def _bundle_text(fabric: FabricResult, link: LinkResult | None) -> str:
    if link is None:
        return ""
    planes = fabric.planes
    per_plane = f"{link.count // planes:,} per plane, " if planes > 1 else ""
    return f"{per_plane}{link.count:,} links × {link.gbps:,.0f} Gb/s"


@dataclass(frozen=True)
class Units:
    """How a plane's first tier repeats: `count` units side by side, each with its leaves and
    nodes (and, in a three-tier fabric, its own spines)."""

    word: str
    count: int
    leaves: int
    nodes: int
    spines: int = 0
    sub_units: int = 0
    """Scalable units inside a pod (three tiers)."""


def _units(fabric: FabricResult, per_plane: dict[str, int]) -> Units:
    """How one plane of `fabric` repeats; `per_plane` is its switches of one plane by role."""
    nodes = fabric.endpoints
    first = fabric.tiers[0].role if fabric.tiers else "leaf"
    leaves = per_plane.get(first, 0)
    if fabric.topology != "fat_tree":
        return Units("fabric", 1, leaves, nodes)
    pods = fabric.pods
    scalable_units = fabric.scalable_units
    if fabric.tier_count >= 3 and pods > 1:
        return Units(
            "pod", pods, fabric.leaves_per_pod or leaves // pods,
            math.ceil(nodes / pods), fabric.spines_per_pod, scalable_units // pods,
        )
    word = "rack" if fabric.leaf_placement == "top_of_rack" else "SU"
    if scalable_units >= 1:
        return Units(word, scalable_units, max(1, leaves // scalable_units), math.ceil(nodes / scalable_units))
    return Units("fabric", 1, leaves, nodes)


def _per_plane(fabric: FabricResult) -> dict[str, int]:
    """Switches of one plane, by tier role."""
    return {tier.role: tier.switches // fabric.planes for tier in fabric.tiers}


def tree_drawing(fabric: FabricResult, names: dict[str, str], node_name: str) -> tuple[Drawing, list[str]]:
    """The drawing of one plane of a fat tree or rail-only fabric (with at least one tier), and
    the names of its rows from the bottom (systems, then each tier)."""
    planes = fabric.planes
    tiers = fabric.tiers
    per_plane = _per_plane(fabric)
    units = _units(fabric, per_plane)
    rails = fabric.rails
    by_rail = fabric.leaf_placement == "rail_optimized" or fabric.topology == "rail_only"
    drawing = Drawing()
    slots = shown_units(units.count)
    width = len(slots) * UNIT_WIDTH
    rows = ["Systems"] + [tier.role.capitalize() for tier in tiers]
    first_tier, top_tiers = tiers[0], tiers[1:]
    leaf_positions: dict[int, list[float]] = {}
    for slot, unit in enumerate(slots):
        x0, x1 = slot * UNIT_WIDTH + 0.08, (slot + 1) * UNIT_WIDTH - 0.08
        if unit is None:
            hidden = units.count - 3
            drawing.text((x0 + x1) / 2, 0.5, f"… {hidden:,} more {units.word}s …", font={"size": 12, "color": "#1d2733"})
            drawing.text((x0 + x1) / 2, 1.6 if units.spines else 1.0, "…", font={"size": 16, "color": "#1d2733"})
            continue
        label = f"{units.word if units.word == 'SU' else units.word.capitalize()} {unit + 1}"
        nodes_note = f"{units.nodes:,} systems"
        if units.word != "fabric":
            drawing.text((x0 + x1) / 2, -0.5, f"<b>{label}</b> of {units.count:,}<br>{nodes_note}")
        else:
            drawing.text((x0 + x1) / 2, -0.45, nodes_note)
        drawing.shapes.append(
            {"type": "rect", "x0": x0 - 0.03, "x1": x1 + 0.03, "y0": -0.3, "y1": 2.3 if units.spines else 1.3,
             "line": {"color": "#d5dce3", "width": 1, "dash": "dot"}, "layer": "below"}
        )
        leaves_drawn = _drawn(units.leaves)
        leaf_x = _spread(leaves_drawn, x0 + 0.04, x1 - 0.04)
        leaf_positions[slot] = leaf_x
        # Nodes of the unit's first scalable unit: every one takes a NIC to each of its leaves.
        nodes_in_first = units.nodes // units.sub_units if units.sub_units else units.nodes
        nodes_drawn = _drawn(nodes_in_first, MAX_NODES_DRAWN)
        node_x = _spread(nodes_drawn, x0 + 0.1, x1 - 0.1)
        leaves_of_first = min(leaves_drawn, rails if (units.sub_units and by_rail and rails) else leaves_drawn)
        for index, x in enumerate(node_x):
            number = index + 1 if index < nodes_drawn - 1 or nodes_drawn == nodes_in_first else nodes_in_first
            rail_note = f"<br>NIC i to rail leaf i ({rails} rails)" if by_rail and rails else "<br>all its NICs to this leaf"
            drawing.marker(
                "Systems", x, 0, f"<b>System {number:,}</b> of {label}<br>{node_name}{rail_note}",
                NODE_COLOR, symbol="square", size=9,
            )
            for leaf, lx in enumerate(leaf_x[:leaves_of_first]):
                color = RAIL_COLORS[leaf % rails % len(RAIL_COLORS)] if by_rail and rails else LINK_COLOR
                trace = f"rail {leaf % rails + 1}" if by_rail and rails else "node links"
                drawing.line(trace, x, 0, lx, 1, color=color, width=1.4 if by_rail else 1)
        if units.sub_units:
            drawing.text((x0 + x1) / 2, -0.2, f"SU 1 of {units.sub_units}", font={"size": 10})
        for leaf, lx in enumerate(leaf_x):
            rail = leaf % rails + 1 if by_rail and rails else None
            extra = f": rail {rail}" if rail else ""
            color = RAIL_COLORS[(rail - 1) % len(RAIL_COLORS)] if rail else TIER_COLORS[0]
            drawing.marker(first_tier.role, lx, 1, _tier_hover(fabric, first_tier, names, f" {leaf + 1} of {label}{extra}"), color)
        if units.leaves > leaves_drawn:
            drawing.text((x0 + x1) / 2, 1.26, f"{units.leaves:,} {plural(first_tier.role)}" + (f"<br>{units.sub_units} SUs × {rails} rails" if units.sub_units and by_rail else ""), font={"size": 10})
        if units.spines and top_tiers:
            spine_tier = top_tiers[0]
            spines_drawn = _drawn(units.spines)
            spine_x = _spread(spines_drawn, x0 + 0.04, x1 - 0.04)
            for index, sx in enumerate(spine_x):
                drawing.marker(spine_tier.role, sx, 2, _tier_hover(fabric, spine_tier, names, f" {index + 1} of {label}"), TIER_COLORS[1])
                for lx in leaf_x:
                    drawing.line("leaf links", lx, 1, sx, 2, color=MESH_COLOR, width=0.6)
            if units.spines > spines_drawn:
                drawing.text((x0 + x1) / 2, 2.2, f"{units.spines:,} {plural(spine_tier.role)}", font={"size": 10})
            leaf_positions[slot] = spine_x
    # Tiers shared by every unit, drawn across the whole width.
    shared = top_tiers[1:] if units.spines else top_tiers
    level_offset = 2 if units.spines else 1
    below_x = [(position, x) for slot in leaf_positions for position, x in enumerate(leaf_positions[slot])]
    for offset, tier in enumerate(shared):
        level = level_offset + offset + 1
        count = per_plane.get(tier.role, 0)
        drawn = _drawn(count)
        xs = _spread(drawn, 0.12, width - 0.12)
        for index, x in enumerate(xs):
            drawing.marker(tier.role, x, level, _tier_hover(fabric, tier, names, f" {index + 1}"), TIER_COLORS[min(level - 1, len(TIER_COLORS) - 1)])
        for _, bx in below_x:
            for x in xs:
                drawing.line(f"{tier.role} links", bx, level - 1, x, level, color=MESH_COLOR, width=0.6)
        if count > drawn:
            drawing.text(width - 0.1, level + 0.28, f"{count:,} {plural(tier.role)}" + (" per plane" if planes > 1 else ""), xanchor="right", font={"size": 10})
        below_x = list(enumerate(xs))
    # Bundles between tiers: counts and speed, at the left of each gap.
    roles = ["node"] + [tier.role for tier in tiers]
    for level in range(1, len(roles)):
        text = _bundle_text(fabric, _link(fabric, roles[level - 1], roles[level]))
        if text:
            text = f"{rows[level - 1]} → {roles[level]}: {text}"
            drawing.text(0.0, level - 0.5, text, xanchor="left", bgcolor="rgba(255,255,255,0.88)", font={"size": 11, "color": "#1d2733"})
    return drawing, rows


def dragonfly_drawing(fabric: FabricResult, names: dict[str, str]) -> Drawing:
    """Groups in a ring, every pair joined by its global links; routers all-to-all inside.
    `fabric` is a dragonfly: its `dragonfly` shape and its router tier are set."""
    shape = fabric.dragonfly
    groups = shape.groups
    routers = shape.routers_per_group
    tier = fabric.tiers[0]
    drawing = Drawing()
    drawn = min(groups, MAX_GROUPS_DRAWN)
    angles = [math.pi / 2 - 2 * math.pi * index / drawn for index in range(drawn)]
    centres = [(math.cos(angle), math.sin(angle)) for angle in angles]
    pair_links = shape.global_links_per_group_pair
    glob = next((link for link in fabric.links if link.segment == "global"), None)
    local = next((link for link in fabric.links if link.segment == "local"), None)
    for first in range(drawn):
        for second in range(first + 1, drawn):
            (ax, ay), (bx, by) = centres[first], centres[second]
            drawing.line("global links", ax, ay, bx, by, color="rgba(230, 126, 34, 0.55)", width=1.5)
            drawing.marker(
                "global link bundles", (ax + bx) / 2, (ay + by) / 2,
                f"<b>Global links</b> group {first + 1} ↔ group {second + 1}<br>"
                f"{pair_links or '?'} links" + (f" × {glob.gbps:,.0f} Gb/s" if glob else ""),
                "rgba(230, 126, 34, 0.9)", symbol="circle", size=6,
            )
    model = names.get(tier.switch, tier.switch)
    for index, (x, y) in enumerate(centres):
        number = index + 1 if index < drawn - 1 or drawn == groups else groups
        drawing.marker(
            "groups", x, y,
            f"<b>Group {number:,}</b> of {groups:,}<br>{routers:,} routers × {model}, all-to-all "
            f"inside<br>{shape.terminals_per_router} system links and "
            f"{shape.global_links_per_router} global links per router<br>"
            + _tier_hover(fabric, tier, names).replace("<br>", " · ", 1),
            PALETTE[0], symbol="circle", size=34,
        )
        drawing.text(x, y, f"<b>G{number}</b>", font={"size": 11, "color": "#ffffff"})
    if groups > drawn:
        drawing.text(0, -1.32, f"the first {drawn - 1} and the last of {groups:,} groups", font={"size": 11})
    summary = [f"{groups:,} groups × {routers:,} routers"]
    if local:
        summary.append(f"local: {local.count:,} links × {local.gbps:,.0f} Gb/s")
    if glob:
        summary.append(f"global: {glob.count:,} links × {glob.gbps:,.0f} Gb/s")
    drawing.text(-1.45, 1.38, "<br>".join(summary), xanchor="left", yanchor="top", align="left", font={"size": 11, "color": "#1d2733"})
    return drawing


def figure_of(drawing: Drawing, layout: dict) -> dict:
    data = []
    for name, entry in drawing.lines.items():
        data.append(
            {"type": "scatter", "mode": "lines", "name": name, "x": entry["x"], "y": entry["y"],
             "line": {"color": entry["color"], "width": entry["width"]}, "hoverinfo": "skip", "showlegend": False}
        )
    for name, entry in drawing.markers.items():
        data.append(
            {"type": "scatter", "mode": "markers", "name": name, "x": entry["x"], "y": entry["y"],
             "customdata": entry["hover"], "hovertemplate": "%{customdata}<extra></extra>",
             "marker": {"color": entry["color"], "symbol": entry["symbol"], "size": entry["size"],
                        "line": {"color": "#ffffff", "width": 1}},
             "showlegend": False}
        )
    layout.update(shapes=drawing.shapes, annotations=drawing.annotations, showlegend=False)
    return {"data": data, "layout": layout}


def topology_figure(
    fabric: FabricResult, names: dict[str, str] | None = None, node_name: str = "system"
) -> dict | None:
    """The structure of one fabric (see the module docstring), or None for a fabric without
    switches. `names` are the switch models' names by catalog slug (the slug where it has
    none), `node_name` the systems' name."""
    names = names or {}
    if not fabric.tiers:
        return None
    planes = fabric.planes
    plane_note = (
        {"x": 1, "y": 1, "xref": "paper", "yref": "paper", "xanchor": "right", "yanchor": "bottom",
         "text": f"<b>× {planes} planes</b>: one drawn, the others identical", "showarrow": False,
         "font": {"size": 12, "color": "#1d2733"}}
        if planes > 1 else None
    )
    if fabric.topology == "dragonfly" and fabric.dragonfly is not None:
        drawing = dragonfly_drawing(fabric, names)
        if plane_note:
            drawing.annotations.append(plane_note)
        layout = base_layout(
            height=460,
            margin={"l": 8, "r": 8, "t": 24, "b": 8},
            xaxis={"visible": False, "range": [-1.5, 1.5], "fixedrange": True},
            yaxis={"visible": False, "range": [-1.45, 1.45], "scaleanchor": "x", "fixedrange": True},
        )
        return figure_of(drawing, layout)
    drawing, rows = tree_drawing(fabric, names, node_name)
    if plane_note:
        drawing.annotations.append(plane_note)
    slots = len(shown_units(_units(fabric, _per_plane(fabric)).count))
    layout = base_layout(
        height=170 + 95 * len(rows),
        margin={"l": 64, "r": 8, "t": 24, "b": 8},
        xaxis={"visible": False, "range": [-0.02, slots * UNIT_WIDTH + 0.02], "fixedrange": True},
        yaxis={
            "range": [-0.75, len(rows) - 0.5],
            "tickvals": list(range(len(rows))),
            "ticktext": [f"<b>{row}</b>" for row in rows],
            "showgrid": False,
            "zeroline": False,
            "fixedrange": True,
        },
    )
    return figure_of(drawing, layout)
