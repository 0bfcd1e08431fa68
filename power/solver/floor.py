"""Floor layout: rows of racks with hot and cold aisles, a position for every rack, floor area
and floor loading.

Layout
------
Rows hold `racks_per_row` racks side by side and face each other in pairs: row 0 and row 1
share a hot aisle, row 1 and row 2 a cold aisle, and so on, with a cold aisle along both walls
(hot/cold-aisle containment). A circulation aisle (`end_aisle_m`) runs along both ends of the
rows. Compute rows come first, then rows of storage and management racks.

Network racks go where they shorten cables:
- `middle_of_row` (default): shared out over the compute rows and set in the middle of each;
  with fewer network racks than rows, they go to rows spread evenly through the hall. The
  longest run from a rack to its row's network racks is then half a row.
- `end_of_row`: the same rows, at the end of each row (next to the circulation aisle).
- `central_rows`: rows of their own in the middle of the compute rows (spine and core racks
  that every leaf reaches).

Coordinates: x along the rows from the wall at the start of the rows, y across them from the
first wall, both at rack centres [m].
"""

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from power.solver.cabling_distance import RackPosition, cable_length_m, longest_manhattan_m
from power.solver.specs import RacksSpec

KINDS = ("compute", "network", "storage", "management")


@dataclass(frozen=True)
class RackBlock:
    """Racks of one group as the layout needs them."""

    kind: str
    count: int
    width_m: float
    depth_m: float
    weight_kg: float
    """Of one rack, loaded."""


@dataclass(frozen=True)
class RowSegment:
    kind: str
    count: int


@dataclass(frozen=True)
class RowResult:
    index: int
    y_m: float
    """Centre line of the row."""
    length_m: float
    segments: tuple[RowSegment, ...]
    """Runs of racks of one kind, in order along the row."""


@dataclass(frozen=True)
class FloorResult:
    row_count: int
    racks_per_row: int
    network_placement: str
    rows: tuple[RowResult, ...]
    width_m_by_kind: dict[str, float]
    depth_m_by_kind: dict[str, float]
    length_m: float
    """Along the rows, end aisles included."""
    width_m: float
    """Across the rows, aisles included."""
    area_m2: float
    """White space: length x width."""
    cold_aisle_m: float
    hot_aisle_m: float
    end_aisle_m: float
    total_weight_kg: float
    average_floor_load_kg_per_m2: float
    """All racks' weight over the white space."""
    longest_compute_to_network_cable_m: float
    """Cable between the two farthest apart compute and network racks (0 without network racks)."""
    longest_compute_to_compute_cable_m: float

    @cached_property
    def row_shapes(self) -> tuple[tuple[tuple[RowSegment, ...], ...], tuple[int, ...]]:
        """The floor's distinct rows (their runs of racks) and each row's number among them:
        a million GPUs lay out thousands of rows of a few shapes, and rows alike share their
        segments (`lay_out_floor`), so each shape is hashed once."""
        number_by_id: dict[int, int] = {}
        number_by_shape: dict[tuple[RowSegment, ...], int] = {}
        numbers = []
        for row in self.rows:
            number = number_by_id.get(id(row.segments))
            if number is None:
                number = number_by_id[id(row.segments)] = number_by_shape.setdefault(
                    row.segments, len(number_by_shape))
            numbers.append(number)
        return tuple(number_by_shape), tuple(numbers)

    @cached_property
    def runs(self) -> "FloorRuns":
        """Every run of racks of one kind along a row, in floor order (`FloorRuns`)."""
        shapes, shape_of_row = self.row_shapes
        kinds, counts, first_x, widths = [], [], [], []
        for segments in shapes:
            x_m = self.end_aisle_m
            for segment in segments:
                width = self.width_m_by_kind[segment.kind]
                kinds.append(segment.kind)
                counts.append(segment.count)
                first_x.append(x_m + width / 2)
                widths.append(width)
                x_m += width * segment.count
        runs_per_shape = np.array([len(segments) for segments in shapes], dtype=np.int64)
        shape_of_row = np.array(shape_of_row, dtype=np.int64)
        runs_per_row = runs_per_shape[shape_of_row]
        row = np.repeat(np.arange(len(shape_of_row)), runs_per_row)
        # each run's place in its shape's runs, as listed above
        within = np.arange(len(row)) - np.repeat(np.cumsum(runs_per_row) - runs_per_row, runs_per_row)
        run = (np.cumsum(runs_per_shape) - runs_per_shape)[shape_of_row[row]] + within
        return FloorRuns(
            kind=np.array(kinds or [""])[run],
            count=np.array(counts, dtype=np.int64)[run],
            row=np.array([item.index for item in self.rows], dtype=np.int64)[row],
            first_x_m=np.array(first_x, dtype=float)[run],
            width_m=np.array(widths, dtype=float)[run],
            y_m=np.array([item.y_m for item in self.rows], dtype=float)[row],
        )


@dataclass(frozen=True)
class FloorRuns:
    """The floor's runs of racks of one kind along a row, in floor order (row by row, each
    along its length), one entry per run: the cabling plan numbers and places racks from them."""

    kind: np.ndarray
    count: np.ndarray
    row: np.ndarray
    """Index of the run's row."""
    first_x_m: np.ndarray
    """Centre of the run's first rack along the row."""
    width_m: np.ndarray
    """Of each of the run's racks."""
    y_m: np.ndarray
    """Centre line of the run's row."""


def _network_per_row(rows: int, network: int) -> list[int]:
    if rows == 0 or network == 0:
        return [0] * rows
    if network >= rows:
        return [network // rows + (1 if row < network % rows else 0) for row in range(rows)]
    per_row = [0] * rows
    for index in range(network):
        per_row[min(rows - 1, math.floor((index + 0.5) * rows / network))] += 1
    return per_row


def _fill_rows(kind: str, count: int, per_row: int) -> list[list[RowSegment]]:
    return [[RowSegment(kind, min(per_row, count - start))] for start in range(0, count, per_row)]


def row_plan(counts: dict[str, int], racks_per_row: int, placement: str) -> list[list[RowSegment]]:
    """The segments of every row, in order across the hall (see the module docstring)."""
    compute, network = counts.get("compute", 0), counts.get("network", 0)
    rows: list[list[RowSegment]] = []
    if placement == "central_rows":
        compute_rows = _fill_rows("compute", compute, racks_per_row)
        middle = len(compute_rows) // 2
        network_rows = _fill_rows("network", network, racks_per_row)
        rows = compute_rows[:middle] + network_rows + compute_rows[middle:]
    else:
        row_count = math.ceil((compute + network) / racks_per_row)
        remaining = compute
        # Most rows are alike: each kind of row is made once, and its rows share it.
        made: dict[tuple[int, int], list[RowSegment]] = {}
        for network_here in _network_per_row(row_count, network):
            compute_here = min(racks_per_row - network_here, remaining)
            remaining -= compute_here
            if (network_here, compute_here) not in made:
                if placement == "end_of_row":
                    parts = [("compute", compute_here), ("network", network_here)]
                else:
                    left = compute_here // 2
                    parts = [("compute", left), ("network", network_here), ("compute", compute_here - left)]
                made[network_here, compute_here] = _merged([RowSegment(kind, number) for kind, number in parts if number])
            rows.append(made[network_here, compute_here])
    tail = [RowSegment(kind, counts.get(kind, 0)) for kind in ("storage", "management")]
    tail = [segment for segment in tail if segment.count]
    # Storage and management racks share rows of their own.
    row: list[RowSegment] = []
    room = racks_per_row
    for segment in tail:
        left = segment.count
        while left:
            take = min(room, left)
            row.append(RowSegment(segment.kind, take))
            left -= take
            room -= take
            if room == 0:
                rows.append(row)
                row, room = [], racks_per_row
    if row:
        rows.append(row)
    # Only the rows of compute and network racks can hold two runs of a kind side by side.
    return [row for row in rows if row]


def _merged(row: list[RowSegment]) -> list[RowSegment]:
    """Adjacent runs of one kind as one run."""
    merged: list[RowSegment] = []
    for segment in row:
        if merged and merged[-1].kind == segment.kind:
            segment = RowSegment(segment.kind, merged.pop().count + segment.count)
        merged.append(segment)
    return merged


def lay_out_floor(blocks: Sequence[RackBlock], racks: RacksSpec) -> FloorResult:
    """Rows, positions, area and loading for the racks in `blocks`."""
    counts = {kind: sum(block.count for block in blocks if block.kind == kind) for kind in KINDS}
    width_by_kind = {
        kind: max((block.width_m for block in blocks if block.kind == kind), default=0.6)
        for kind in KINDS
    }
    depth_by_kind = {
        kind: max((block.depth_m for block in blocks if block.kind == kind), default=1.2)
        for kind in KINDS
    }
    plans = row_plan(counts, racks.racks_per_row, racks.network_placement)
    rows = []
    y_m = racks.cold_aisle_m
    previous_depth = 0.0
    shapes: dict[int, tuple[tuple[RowSegment, ...], float, float]] = {}
    for index, segments in enumerate(plans):
        if id(segments) not in shapes:  # rows alike share one list (row_plan)
            shapes[id(segments)] = (
                tuple(segments),
                max(depth_by_kind[segment.kind] for segment in segments),
                sum(segment.count * width_by_kind[segment.kind] for segment in segments),
            )
        row_segments, depth, length = shapes[id(segments)]
        if index:
            aisle = racks.hot_aisle_m if index % 2 else racks.cold_aisle_m
            y_m += previous_depth / 2 + aisle + depth / 2
        else:
            y_m += depth / 2
        rows.append(RowResult(index, y_m, length, row_segments))
        previous_depth = depth
    length_m = max((row.length_m for row in rows), default=0.0) + 2 * racks.end_aisle_m
    width_m = (y_m + previous_depth / 2 + racks.cold_aisle_m) if rows else 0.0
    area_m2 = length_m * width_m
    total_weight_kg = sum(block.count * block.weight_kg for block in blocks)
    layout = FloorResult(
        row_count=len(rows),
        racks_per_row=racks.racks_per_row,
        network_placement=racks.network_placement,
        rows=tuple(rows),
        width_m_by_kind=width_by_kind,
        depth_m_by_kind=depth_by_kind,
        length_m=length_m,
        width_m=width_m,
        area_m2=area_m2,
        cold_aisle_m=racks.cold_aisle_m,
        hot_aisle_m=racks.hot_aisle_m,
        end_aisle_m=racks.end_aisle_m,
        total_weight_kg=total_weight_kg,
        average_floor_load_kg_per_m2=total_weight_kg / area_m2 if area_m2 else 0.0,
        longest_compute_to_network_cable_m=0.0,
        longest_compute_to_compute_cable_m=0.0,
    )
    # The farthest pair of racks is found among the ends of the runs (x + y and x - y are
    # linear along a run), so two points per run stand for all its racks.
    compute_x, compute_y = run_end_positions(layout, "compute")
    network_x, network_y = run_end_positions(layout, "network")
    return replace(
        layout,
        longest_compute_to_network_cable_m=_longest_cable_m(compute_x, compute_y, network_x, network_y, racks),
        longest_compute_to_compute_cable_m=_longest_cable_m(compute_x, compute_y, compute_x, compute_y, racks),
    )


def _longest_cable_m(x_a, y_a, x_b, y_b, racks: RacksSpec) -> float:
    if not len(x_a) or not len(x_b):
        return 0.0
    run = longest_manhattan_m(x_a, y_a, x_b, y_b)
    far_a = RackPosition(0, 0, 0.0, 0.0)
    far_b = RackPosition(0, 1, run, 0.0)
    return cable_length_m(
        far_a, far_b, tray_height_m=racks.cable_tray_height_m, slack_m=racks.cable_slack_m,
        slack_fraction=racks.cable_slack_fraction,
    )


def rack_positions(
    layout: FloorResult, kind: str | None = None
) -> Iterator[tuple[str, RackPosition]]:
    """Every rack (of `kind`, or all) with its position, row by row along each row."""
    for row in layout.rows:
        x_m = layout.end_aisle_m
        slot = 0
        for segment in row.segments:
            width = layout.width_m_by_kind[segment.kind]
            for _ in range(segment.count):
                if kind is None or segment.kind == kind:
                    yield segment.kind, RackPosition(row.index, slot, x_m + width / 2, row.y_m)
                x_m += width
                slot += 1


def positions_by_kind(layout: FloorResult, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """x and y [m] of the centres of all racks of `kind`, as numpy arrays (one step per row
    segment, not per rack)."""
    xs, ys = [], []
    for row in layout.rows:
        x_m = layout.end_aisle_m
        for segment in row.segments:
            width = layout.width_m_by_kind[segment.kind]
            if segment.kind == kind:
                xs.append(x_m + width * (np.arange(segment.count) + 0.5))
                ys.append(np.full(segment.count, row.y_m))
            x_m += width * segment.count
    if not xs:
        return np.empty(0), np.empty(0)
    return np.concatenate(xs), np.concatenate(ys)


def run_end_positions(layout: FloorResult, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """x and y [m] of the first and last rack of every run of `kind` (one point for a run of one)."""
    shapes, shape_of_row = layout.row_shapes
    ends_by_shape = []
    for segments in shapes:
        ends, x_m = [], layout.end_aisle_m
        for segment in segments:
            width = layout.width_m_by_kind[segment.kind]
            if segment.kind == kind:
                ends += [x_m + width / 2, x_m + width * (segment.count - 0.5)]
            x_m += width * segment.count
        ends_by_shape.append(ends)
    xs: list[float] = []
    ys: list[float] = []
    for row, shape in zip(layout.rows, shape_of_row):
        xs += ends_by_shape[shape]
        ys += [row.y_m] * len(ends_by_shape[shape])
    return np.array(xs), np.array(ys)
