"""The floor plan of a plan: rows of racks, aisles and the hall, to scale, from
`plan.racks.floor`."""

from dataclasses import dataclass

from core.plot_theme import COLORS, base_layout
from planner.solver.plan import Plan
from power.solver.floor import FloorResult
from workspace.plots.racks import KIND_WORDS

FLOOR_KINDS = ("compute", "network", "storage", "management")
AISLE_COLORS = {"cold": "rgba(19, 141, 156, 0.16)", "hot": "rgba(192, 57, 43, 0.14)", "end": "#f4f6f8"}
TURN_WHEN_DEEPER = 1.5
"""A hall this many times deeper (across the rows) than long is drawn with its rows upright."""
AISLES_LABELLED_UP_TO = 24
"""Aisles get a written width while there are this many rows or fewer; beyond, colour alone."""
RACKS_DRAWN_UP_TO = 3_000
"""Racks drawn one by one (each with its hover) up to this many; beyond, each row's run of racks
of one kind is one box whose hover gives its count (issue 27: 312,500 markers of a 10 M-GPU
plan made a 35 MB page)."""
BOXES_DRAWN_UP_TO = 2_000
"""Boxes of one kind drawn at most: past it, rows are drawn together in blocks of consecutive
rows (a block's box spans its rows and their racks of the kind), and the aisles are left out."""


@dataclass(frozen=True)
class FloorRack:
    kind: str
    row: int
    position: int
    """In its row, from 1 at the start of the row."""
    x0_m: float
    x1_m: float
    y0_m: float
    y1_m: float


def floor_racks(floor: FloorResult) -> list[FloorRack]:
    """Every rack of the floor as a rectangle [m]: x along the rows from the wall (the end aisle
    first), y across them; the row's centre line and each kind's width and depth come from the
    plan's floor section."""
    racks = []
    for row in floor.rows:
        x_m = floor.end_aisle_m
        position = 0
        for segment in row.segments:
            kind = segment.kind
            width_m, depth_m = floor.width_m_by_kind[kind], floor.depth_m_by_kind[kind]
            for _ in range(segment.count):
                position += 1
                racks.append(
                    FloorRack(
                        kind, row.index, position, x_m, x_m + width_m,
                        row.y_m - depth_m / 2, row.y_m + depth_m / 2,
                    )
                )
                x_m += width_m
    return racks


@dataclass(frozen=True)
class FloorBox:
    """Racks of one kind drawn as one box: one rack, a row's run, or a block of rows' runs."""

    kind: str
    first_row: int
    last_row: int
    racks: int
    position: int
    """The first rack's position in its row (from 1)."""
    x0_m: float
    x1_m: float
    y0_m: float
    y1_m: float

    def hover(self) -> str:
        if self.racks == 1:
            return f"row {self.first_row + 1}, position {self.position}"
        rows = (f"row {self.first_row + 1}" if self.first_row == self.last_row
                else f"rows {self.first_row + 1}–{self.last_row + 1}")
        return f"{rows}, {self.racks:,} racks"


def floor_boxes(floor: FloorResult) -> list[FloorBox]:
    """The racks of the floor as the floor plan draws them: each rack up to RACKS_DRAWN_UP_TO,
    else each row's runs of one kind, in blocks of rows past BOXES_DRAWN_UP_TO boxes of a kind."""
    total = sum(segment.count for row in floor.rows for segment in row.segments)
    if total <= RACKS_DRAWN_UP_TO:
        return [FloorBox(rack.kind, rack.row, rack.row, 1, rack.position, rack.x0_m, rack.x1_m, rack.y0_m, rack.y1_m)
                for rack in floor_racks(floor)]
    runs = []
    for row in floor.rows:
        x_m, position = floor.end_aisle_m, 1
        for segment in row.segments:
            kind, count = segment.kind, segment.count
            width_m, depth_m = floor.width_m_by_kind[kind], floor.depth_m_by_kind[kind]
            if count:
                runs.append(FloorBox(kind, row.index, row.index, count, position, x_m, x_m + width_m * count,
                                     row.y_m - depth_m / 2, row.y_m + depth_m / 2))
            x_m += width_m * count
            position += count
    by_kind: dict[str, int] = {}
    for run in runs:
        by_kind[run.kind] = by_kind.get(run.kind, 0) + 1
    if max(by_kind.values(), default=0) <= BOXES_DRAWN_UP_TO:
        return runs
    block = -(-len(floor.rows) // BOXES_DRAWN_UP_TO)
    blocks: dict[tuple[str, int], list[FloorBox]] = {}
    for run in runs:
        blocks.setdefault((run.kind, run.first_row // block), []).append(run)
    return [
        FloorBox(kind, min(run.first_row for run in members), max(run.last_row for run in members),
                 sum(run.racks for run in members), 1, min(run.x0_m for run in members),
                 max(run.x1_m for run in members), min(run.y0_m for run in members), max(run.y1_m for run in members))
        for (kind, _), members in blocks.items()
    ]


def _row_depths(floor: FloorResult) -> list[tuple[float, float, float]]:
    """(front y, back y, length) of each row's band [m]: its deepest rack sets its depth."""
    bands = []
    for row in floor.rows:
        depth_m = max(floor.depth_m_by_kind[segment.kind] for segment in row.segments)
        bands.append((row.y_m - depth_m / 2, row.y_m + depth_m / 2, row.length_m))
    return bands


def aisles(floor: FloorResult) -> list[tuple[str, float, float]]:
    """(cold or hot, y from, y to) of every aisle along the rows [m]: a cold aisle along each
    wall, then hot and cold in turn between rows (power/solver/floor.py lays rows out so)."""
    bands = _row_depths(floor)
    if not bands:
        return []
    result = [("cold", 0.0, bands[0][0])]
    for index in range(1, len(bands)):
        result.append(("hot" if index % 2 else "cold", bands[index - 1][1], bands[index][0]))
    result.append(("cold", bands[-1][1], floor.width_m))
    return result


def _rectangles(boxes) -> tuple[list, list]:
    """Closed outlines of (x0, x1, y0, y1) boxes in one trace, separated by gaps."""
    xs, ys = [], []
    for x0, x1, y0, y1 in boxes:
        x0, x1, y0, y1 = (round(value, 3) for value in (x0, x1, y0, y1))
        xs += [x0, x1, x1, x0, x0, None]
        ys += [y0, y0, y1, y1, y0, None]
    return xs, ys


def _kw_text(values: list[float]) -> str:
    if not values:
        return ""
    low, high = min(values), max(values)
    return f"{low:,.1f} kW" if abs(high - low) < 0.05 else f"{low:,.1f}–{high:,.1f} kW (by rack)"


def _aisle_width_m(floor: FloorResult, temperature: str) -> float:
    """Of a cold or a hot aisle [m]."""
    return floor.cold_aisle_m if temperature == "cold" else floor.hot_aisle_m


def floor_plan_figure(plan: Plan) -> dict | None:
    """The hall seen from above, to scale: rows of racks coloured by kind (network racks stand
    out), cold and hot aisles between them, end aisles at both ends, kW in each rack's hover.

    One trace per kind of rack and per kind of aisle, whatever the number of racks, so a plan of
    thousands of racks stays light.
    """
    floor = plan.racks.floor
    if floor is None or not floor.rows:
        return None
    kw_by_kind: dict[str, list[float]] = {}
    for group in plan.racks.per_rack:
        kw_by_kind.setdefault(group.kind, []).append(group.it_kw)
    racks = floor_boxes(floor)
    length_m, width_m, end_aisle_m = floor.length_m, floor.width_m, floor.end_aisle_m
    data = []
    rows_drawn_apart = len(floor.rows) <= BOXES_DRAWN_UP_TO
    aisle_list = aisles(floor) if rows_drawn_apart else []
    for temperature in ("cold", "hot"):
        boxes = [(end_aisle_m, length_m - end_aisle_m, y0, y1) for kind, y0, y1 in aisle_list if kind == temperature and y1 > y0]
        if not boxes:
            continue
        xs, ys = _rectangles(boxes)
        aisle_m = _aisle_width_m(floor, temperature)
        data.append(
            {
                "type": "scatter",
                "name": f"{temperature.capitalize()} aisle",
                "x": xs,
                "y": ys,
                "mode": "lines",
                "fill": "toself",
                "fillcolor": AISLE_COLORS[temperature],
                "line": {"width": 0},
                "hoveron": "fills",
                "hoverinfo": "text",
                "text": f"{temperature.capitalize()} aisle, {aisle_m:g} m wide" if aisle_m else f"{temperature.capitalize()} aisle",
            }
        )
    if end_aisle_m:
        xs, ys = _rectangles([(0, end_aisle_m, 0, width_m), (length_m - end_aisle_m, length_m, 0, width_m)])
        data.append(
            {
                "type": "scatter",
                "name": "End aisle",
                "x": xs,
                "y": ys,
                "mode": "lines",
                "fill": "toself",
                "fillcolor": AISLE_COLORS["end"],
                "line": {"width": 0},
                "hoveron": "fills",
                "hoverinfo": "text",
                "text": f"End aisle, {end_aisle_m:g} m wide",
            }
        )
    for kind in FLOOR_KINDS:
        mine = [rack for rack in racks if rack.kind == kind]
        if not mine:
            continue
        xs, ys = _rectangles((rack.x0_m, rack.x1_m, rack.y0_m, rack.y1_m) for rack in mine)
        name = f"{KIND_WORDS[kind]} racks ({sum(rack.racks for rack in mine):,})"
        color = COLORS[kind]
        data.append(
            {
                "type": "scatter",
                "name": name,
                "legendgroup": kind,
                "x": xs,
                "y": ys,
                "mode": "lines",
                "fill": "toself",
                "fillcolor": color,
                "line": {"color": "#1d2733" if kind == "network" else "#ffffff", "width": 1.5 if kind == "network" else 0.5},
                "hoverinfo": "skip",
            }
        )
        kw = _kw_text(kw_by_kind.get(kind, []))
        # Filled outlines hover as one trace; a point at each rack's centre carries its own hover.
        data.append(
            {
                "type": "scatter",
                "name": name,
                "legendgroup": kind,
                "showlegend": False,
                "mode": "markers",
                "x": [round((rack.x0_m + rack.x1_m) / 2, 3) for rack in mine],
                "y": [round((rack.y0_m + rack.y1_m) / 2, 3) for rack in mine],
                "text": [rack.hover() for rack in mine],
                "marker": {"size": 6, "color": color, "opacity": 0},
                "hovertemplate": f"<b>{KIND_WORDS[kind]} rack</b><br>%{{text}}<br>{kw}<extra></extra>",
            }
        )
    annotations = []
    if len(floor.rows) <= AISLES_LABELLED_UP_TO:
        for index, row in enumerate(floor.rows):
            annotations.append(
                {
                    "x": end_aisle_m / 2 if end_aisle_m else 0,
                    "y": row.y_m,
                    "text": f"R{index + 1}",
                    "showarrow": False,
                    "font": {"size": 10, "color": "#5b6b7c"},
                }
            )
    # A hall deeper than it is long is drawn turned a quarter, rows upright, to use the page's width.
    upright = width_m > TURN_WHEN_DEEPER * length_m
    across, along = (width_m, length_m) if upright else (length_m, width_m)
    along_title = f"Along the rows (m): {length_m:,.1f} m"
    across_title = f"Across the rows (m): {width_m:,.1f} m"
    layout = base_layout(
        height=int(min(900, max(320, 140 + 620 * along / across))) if across else 320,
        showlegend=True,
        legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0, "font": {"size": 11}},
        margin={"l": 52, "r": 8, "t": 36, "b": 40},
        annotations=annotations,
        shapes=[
            {
                "type": "rect",
                "x0": 0, "x1": length_m, "y0": 0, "y1": width_m,
                "line": {"color": "#5b6b7c", "width": 1.5},
                "layer": "below",
            }
        ],
        xaxis={
            "title": {"text": across_title if upright else along_title},
            "range": [-0.2, across + 0.2],
            "showgrid": False,
            "zeroline": False,
            "constrain": "domain",
        },
        yaxis={
            "title": {"text": along_title if upright else across_title},
            "range": [along + 0.2, -0.2],
            "showgrid": False,
            "zeroline": False,
            "scaleanchor": "x",
            "scaleratio": 1,
            "constrain": "domain",
        },
    )
    if upright:
        _turn(data, layout)
    return {"data": data, "layout": layout}


def _turn(data: list[dict], layout: dict) -> None:
    """Swap x and y of every trace, annotation and shape (the axes are set by the caller)."""
    for trace in data:
        trace["x"], trace["y"] = trace["y"], trace["x"]
    for annotation in layout["annotations"]:
        annotation["x"], annotation["y"] = annotation["y"], annotation["x"]
    for shape in layout["shapes"]:
        shape["x0"], shape["y0"], shape["x1"], shape["y1"] = shape["y0"], shape["x0"], shape["y1"], shape["x1"]
