"""Where the devices of a cabling plan stand: racks in floor order, and the n-th unit of a
model in the racks that hold it (see `fabric.solver.cabling` for the rules).

Everything is kept per group of identical racks and per run of racks along a row, never per
rack or per device, so the index costs no more for 10,000 racks than for 10.
"""

from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import repeat
from typing import Any

import numpy as np

DEFAULT_RACK_UNITS = 1
"""For a device whose height is not given."""
U_HEIGHT_M = 0.04445
"""One rack unit: 1.75 in (EIA-310)."""
FIRST_U_HEIGHT_M = 0.1
"""Bottom of U1 above the floor (cabling_distance: a 42U rack's space starts ~0.1 m up)."""


@dataclass(frozen=True)
class DevicePlace:
    """Where one device stands, and its name."""

    rack: int
    """Floor number of the rack, from 1; 0 when not known."""
    label: str
    """r012; empty when not known."""
    u: int
    """Lowest unit the device takes, from 1; 0 when not known."""
    units: int
    device: str


def port_heights_m(u, units):
    """The middle of a device of `units` U whose lowest unit is `u` [m]: first U height +
    (U - 1 + units / 2) x 1.75 in, here in half units: 2 (U - 1) + units."""
    return FIRST_U_HEIGHT_M + (2 * np.asarray(u) - 2 + units) * (U_HEIGHT_M / 2)


class RackIndex:
    """The racks of the plan in floor order, and where each model's n-th unit sits in them."""

    def __init__(self, racks: Any, rack_units: Mapping[str, int]) -> None:
        self.rack_units = rack_units
        groups = tuple(getattr(racks, "per_rack", ()) or ())
        floor = getattr(racks, "floor", None)
        total = sum(group.count for group in groups)
        self.digits = max(3, len(str(total)))
        self.total = total
        self._labels: np.ndarray | None = None
        # (kind, first index of the kind) -> group runs
        self.group_starts: dict[str, list[int]] = {}
        self.group_runs: dict[str, list[Any]] = {}
        # (kind, fabric, slug) -> runs of (first unit n, racks, per rack, first kind index, group)
        self.slug_starts: dict[tuple[str, str, str], list[int]] = {}
        self.slug_runs: dict[tuple[str, str, str], list[tuple[int, int, int, int, Any]]] = {}
        kind_counts: dict[str, int] = {}
        number_by_order = 1
        self.order_starts: dict[str, list[int]] = {}
        self.order_numbers: dict[str, list[int]] = {}
        for group in groups:
            first = kind_counts.get(group.kind, 0)
            self.group_starts.setdefault(group.kind, []).append(first)
            self.group_runs.setdefault(group.kind, []).append(group)
            self.order_starts.setdefault(group.kind, []).append(first)
            self.order_numbers.setdefault(group.kind, []).append(number_by_order)
            number_by_order += group.count
            kind_counts[group.kind] = first + group.count
            fabric = group.fabric if group.kind == "network" else ""
            for item in group.contents:
                key = (group.kind, fabric, item.slug)
                runs = self.slug_runs.setdefault(key, [])
                starts = self.slug_starts.setdefault(key, [])
                first_unit = runs[-1][0] + runs[-1][1] * runs[-1][2] if runs else 0
                starts.append(first_unit)
                runs.append((first_unit, group.count, item.count, first, group))
        self.kind_counts = kind_counts
        self.network_slots = network_slots(groups)
        # Floor runs (`FloorResult.runs`): kind -> starts (kind index) and first numbers, and
        # the first number and row of every run; x and y of every rack by floor number.
        self.floor_starts: dict[str, list[int]] = {}
        self.floor_numbers: dict[str, list[int]] = {}
        self.number_starts: list[int] = []
        self.number_rows: list[int] = []
        self._x = self._y = np.zeros(1)
        if floor is not None:
            runs = floor.runs
            first_number = 1 + np.cumsum(runs.count) - runs.count
            self.number_starts, self.number_rows = first_number.tolist(), runs.row.tolist()
            for kind in dict.fromkeys(runs.kind.tolist()):
                of_kind = runs.kind == kind
                counts = runs.count[of_kind]
                self.floor_starts[kind] = (np.cumsum(counts) - counts).tolist()
                self.floor_numbers[kind] = first_number[of_kind].tolist()
            offset = np.arange(int(runs.count.sum())) - np.repeat(first_number - 1, runs.count)
            self._x = np.concatenate([[0.0], np.repeat(runs.first_x_m, runs.count)
                                      + np.repeat(runs.width_m, runs.count) * offset])
            self._y = np.concatenate([[0.0], np.repeat(runs.y_m, runs.count)])
        self._numbers: dict[str, np.ndarray] = {}
        self._slots = np.array(self.network_slots, dtype=np.int64)
        self._runs = {
            kind: (np.array(starts, dtype=np.int64), np.array(self.floor_numbers[kind], dtype=np.int64))
            for kind, starts in self.floor_starts.items()
        }
        self._orders = {
            kind: (np.array(starts, dtype=np.int64), np.array(self.order_numbers[kind], dtype=np.int64))
            for kind, starts in self.order_starts.items()
        }
        self.positions = len(self._x) > 1

    def label(self, number: int) -> str:
        return f"r{number:0{self.digits}d}" if number else ""

    def labels(self, numbers: np.ndarray) -> list[str]:
        """`label` of many floor numbers (0..total), each label made once a plan."""
        if self._labels is None:
            self._labels = np.array([self.label(number) for number in range(self.total + 1)], dtype=object)
        return self._labels[numbers].tolist()

    def place(self, number: int, u: int, units: int, role: str, nn: int, fallback: int) -> "DevicePlace":
        """A device in rack `number` (0: not known) at `u`, the nn-th of its role there; or
        the fallback-th (from 0) of its role in the cluster when its rack is not known."""
        return DevicePlace(number, self.label(number), u if number else 0, units,
                           self.device_name(number, role, nn, fallback))

    def device_name(self, number: int, role: str, nn: int, fallback: int) -> str:
        """The name `place` gives: r012-leaf-03, or leaf-7 when its rack is not known."""
        return f"r{number:0{self.digits}d}-{role}-{nn:02d}" if number else f"{role}-{fallback + 1}"

    def device_names(self, numbers: np.ndarray, role: str, nns: np.ndarray, fallbacks: np.ndarray) -> list[str]:
        """`device_name` of many devices of one role (a chunk's systems or switches)."""
        return list(map(self.device_name, numbers.tolist(), repeat(role), nns.tolist(), fallbacks.tolist()))

    def number(self, kind: str, index: int) -> int:
        """Floor number of the index-th rack of `kind` (0 when there is no such rack)."""
        if index < 0 or index >= self.kind_counts.get(kind, 0):
            return 0
        if self.positions:
            if kind == "network":
                index = self.network_slots[index]
            starts = self.floor_starts.get(kind)
            if not starts:
                return 0
            at = bisect_right(starts, index) - 1
            return self.floor_numbers[kind][at] + index - starts[at]
        starts = self.order_starts[kind]
        at = bisect_right(starts, index) - 1
        return self.order_numbers[kind][at] + index - starts[at]

    def numbers(self, kind: str, indices: np.ndarray) -> np.ndarray:
        """`number` for an array of indices of racks of `kind` (0 where there is no such rack)."""
        if kind not in self._numbers:
            count = self.kind_counts.get(kind, 0)
            # index `count` (and -1, through take's wrap) is no rack
            self._numbers[kind] = np.append(self._numbers_of(kind, np.arange(count, dtype=np.int64)), 0)
        numbers = self._numbers[kind]
        indices = np.asarray(indices, dtype=np.int64)
        return numbers.take(np.where((indices >= 0) & (indices < len(numbers)), indices, -1))

    def _numbers_of(self, kind: str, indices: np.ndarray) -> np.ndarray:
        """`number` of racks of `kind` by index, 0 <= index < their count."""
        if self.positions:
            if kind == "network" and len(self._slots):
                indices = self._slots[indices]
            runs = self._runs.get(kind)
        else:
            runs = self._orders.get(kind)
        if runs is None or not len(indices):
            return np.zeros(len(indices), dtype=np.int64)
        starts, firsts = runs
        at = np.searchsorted(starts, indices, side="right") - 1
        return firsts[at] + indices - starts[at]

    def position_arrays(self, numbers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """x and y [m] of racks by floor number (0 where not known)."""
        if not self.positions:
            return np.zeros(len(numbers)), np.zeros(len(numbers))
        return self._x.take(numbers, mode="clip"), self._y.take(numbers, mode="clip")

    def locate(self, kind: str, fabric: str, slug: str, n: int) -> tuple[int, int, Any] | None:
        """The rack (index among its kind) and the slot among the `slug` units in that rack of
        the n-th unit of `slug`, and the rack's group; None when the racks hold fewer."""
        key = (kind, fabric, slug)
        starts = self.slug_starts.get(key)
        if not starts or n < 0:
            return None
        at = bisect_right(starts, n) - 1
        first_unit, racks, per_rack, first_rack, group = self.slug_runs[key][at]
        offset = n - first_unit
        if offset >= racks * per_rack:
            return None
        return first_rack + offset // per_rack, offset % per_rack, group

    def locate_arrays(self, kind: str, fabric: str, slug: str, n: np.ndarray):
        """`locate` for an array of unit numbers n: the rack (index among its kind, -1 where the
        racks hold fewer), the slot among the `slug` units in that rack, and of its rack's group
        the usable U, the units and the devices above the first `slug` unit."""
        key = (kind, fabric, slug)
        runs = self.slug_runs.get(key)
        empty = np.full(len(n), -1, dtype=np.int64)
        if not runs:
            return empty, empty, empty, empty, empty
        starts = np.array(self.slug_starts[key], dtype=np.int64)
        first_unit, racks, per_rack, first_rack = (np.array(column, dtype=np.int64) for column in zip(*(run[:4] for run in runs)))
        before = [self.units_before(run[4], slug, 0) for run in runs]
        at = np.clip(np.searchsorted(starts, n, side="right") - 1, 0, None)
        offset = n - first_unit[at]
        valid = (n >= 0) & (offset < racks[at] * per_rack[at])
        rack = np.where(valid, first_rack[at] + offset // per_rack[at], -1)
        usable = np.array([run[4].usable_u for run in runs], dtype=np.int64)[at]
        units_above = np.array([units for units, _ in before], dtype=np.int64)[at]
        devices_above = np.array([devices for _, devices in before], dtype=np.int64)[at]
        return rack, offset % per_rack[at], usable, units_above, devices_above

    def usable_u_of(self, kind: str, indices: np.ndarray) -> np.ndarray:
        """Usable U of the racks of `kind` by index (0 where there is no such rack)."""
        starts = self.group_starts.get(kind)
        if not starts:
            return np.zeros(len(indices), dtype=np.int64)
        usable = np.array([group.usable_u for group in self.group_runs[kind]], dtype=np.int64)
        at = np.clip(np.searchsorted(np.array(starts), indices, side="right") - 1, 0, None)
        return np.where((indices >= 0) & (indices < self.kind_counts.get(kind, 0)), usable[at], 0)

    def units_of(self, slug: str) -> int:
        return self.rack_units.get(slug, DEFAULT_RACK_UNITS)

    def units_before(self, group: Any, slug: str, slot: int) -> tuple[int, int]:
        """Rack units and devices above the slot-th `slug` unit of a rack of `group`, filled
        from the top in the order of its contents."""
        units = devices = 0
        for item in group.contents:
            if item.slug == slug:
                break
            units += item.count * self.units_of(item.slug)
            devices += item.count
        return units + slot * self.units_of(slug), devices + slot


def placement_key(racks: Any) -> tuple:
    """What the cabling plan reads of the racks: their groups' kind, count, fabric, contents and
    usable U, and the floor. Two racks results with the same key place every device alike,
    whatever their power figures."""
    groups = tuple(
        (group.kind, group.count, group.fabric, group.contents, group.usable_u)
        for group in getattr(racks, "per_rack", ()) or ()
    )
    floor = getattr(racks, "floor", None)
    shapes, rows = floor.row_shapes if floor is not None else ((), ())
    return groups, shapes, rows, getattr(racks, "nodes_per_rack", 0), getattr(racks, "compute_rack_units_used", 0)


def network_slots(groups: tuple) -> list[int]:
    """The floor's network rack (its index among them) of each network rack of the per-rack
    groups: every fabric's racks spread over the floor in proportion, the j-th of a fabric's n
    racks at (j + 1/2) / n of the way (ties in fabric order, then in the groups' order), so that
    each fabric's switches stand along the systems they serve rather than at one end of the hall."""
    racks = [group for group in groups if group.kind == "network"]
    if not racks:
        return []
    fabric_rank = {fabric: rank for rank, fabric in enumerate(dict.fromkeys(group.fabric for group in racks))}
    rank = np.repeat([fabric_rank[group.fabric] for group in racks], [group.count for group in racks])
    per_fabric = np.bincount(rank)
    # j: each rack's place among its fabric's, in the groups' order
    by_fabric = np.argsort(rank, kind="stable")
    j = np.empty(len(rank), dtype=np.int64)
    j[by_fabric] = np.arange(len(rank)) - np.repeat(np.cumsum(per_fabric) - per_fabric, per_fabric)
    order = np.lexsort((rank, (j + 0.5) / per_fabric[rank]))
    slots = np.empty(len(rank), dtype=np.int64)
    slots[order] = np.arange(len(rank))
    return slots.tolist()


def top_u(usable_u: int, units_above: int, units: int) -> int:
    return max(usable_u - units_above - units + 1, 1)
