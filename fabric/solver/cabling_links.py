"""Every cable of the plan as arrays: the one source of the cabling plan's rows and of the bill
of materials' cables and transceivers.

For each fabric and segment, all planes together, the two ends of every link are found by the
cabling plan's arithmetic on arrays of indices (`fabric.solver.cabling` gives the rules): rack,
lowest U and height, the device, its port and the cage the port sits in. Each link's length is
measured between its two ports (`cabling_distance.cable_length_m`, vectorised here), and the
catalog's reaches, as a step function of length (`media.link_choice_steps`), give its medium,
cable and the transceiver each end needs; its stock length is the shortest the cable is sold in
that covers it. A cage holds one module: the one of longest reach that any of its links needs.
The rows print these arrays and the bill of materials adds them up, so the two cannot disagree.
"""

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from fabric.solver.cabling_racks import DevicePlace
from fabric.solver.cabling_wiring import FabricWiring, WiredGroup
from fabric.solver.media import stock_lengths_m
from fabric.solver.results import LinkResult
from power.solver.cabling_distance import IN_RACK_LATERAL_M

DM_PER_M = 10
"""Measured lengths are rounded up to the decimetre, and kept as whole decimetres."""
NO_MODULE = -1
CHUNK_LINKS = 2_048
"""Links measured at once for the rows: their memory stays flat whatever the plan's size."""
SAMPLE_LINKS = 8_192
"""Links of a segment, about, that estimate the optics' power before the cables are counted
(every link of a smaller segment)."""
KEPT_LINKS = 1 << 15
"""Links of a segment, all planes, up to which each plane's links are made once and kept: the
optics' estimate takes its sample from them and the count reads them, where the cabling is the
same (a larger segment's are made each time and not kept: memory stays bounded)."""
SAMPLE_BLOCK_LINKS = 32
"""Consecutive links a sample takes at once: a cage's links are near each other in a segment's
order (a leaf's uplinks side by side, a spine's down ports a leaf's uplinks apart), so a block
holds most cages whole, and a sampled cage holds the module its longest link needs."""


@dataclass(frozen=True)
class LinkEnds:
    """One end of a segment's links, all planes: where each link lands."""

    rack: np.ndarray
    """Floor number of the rack, 0 when not known."""
    u: np.ndarray
    """Lowest unit of the device, 0 when not known (always where its rack is not known)."""
    height_m: np.ndarray
    """Height of the device's ports above the floor (`port_heights_m`), where u is known."""
    device: np.ndarray
    """Index of the device, for `place`."""
    port: np.ndarray
    """Index of the port, for `port_name`."""
    cage: np.ndarray
    """Dense id of the cage the port sits in (devices x cages per device)."""
    cages: int
    """Dense cage ids run from 0 to cages - 1."""
    devices: str
    """The devices the cage ids number (a tier's switches, a group's systems): segments that
    share devices share cages, such as a leaf's down and up ports in one twin-port cage."""
    place: Callable[[int, int], DevicePlace]
    """(device, plane) -> where it stands and its name."""
    port_name: Callable[[int, int], str]
    """(port, plane) -> the port's name."""
    holder: str | None
    """Catalog slug charged with the power of the modules at this end (None: already in the
    device's rating)."""
    links_per_cage: int = 1
    """Links of one cage when all its ports are used (the ports a module serves, each split)."""
    native: np.ndarray | None = None
    """Dense id of the native port of a switch end (switches x ports per switch); None for
    devices that are not switches."""
    natives: int = 0
    names: Callable[[np.ndarray, int], list[str]] | None = None
    """(devices, plane) -> their names, as `place` gives them, at once (systems and switches,
    the many); None: one `place` each."""

    def take(self, index: np.ndarray) -> "LinkEnds":
        """The ends of the links `index` of these."""
        return replace(
            self, rack=self.rack[index], u=self.u[index], height_m=self.height_m[index], device=self.device[index],
            port=self.port[index], cage=self.cage[index], native=None if self.native is None else self.native[index],
        )


@dataclass(frozen=True)
class CableChunk:
    """Consecutive links of one segment in one plane, in the cabling plan's order."""

    plane: int
    lower: LinkEnds
    upper: LinkEnds
    length_dm: np.ndarray
    """Measured length in whole decimetres."""
    measured: bool
    """Whether any link's length was measured on the floor (not assumed)."""
    by_length: "LengthTable"
    """What a cable of each length is: the links' choices, stock lengths and modules follow,
    looked up when asked for (counting needs only the lengths)."""

    def __len__(self) -> int:
        return len(self.length_dm)

    def take(self, index: np.ndarray) -> "CableChunk":
        """The links `index` of this chunk, as a chunk of those links alone is made."""
        lower, upper = self.lower.take(index), self.upper.take(index)
        measured = self.measured and bool((np.minimum(lower.u, upper.u) > 0).any())
        return CableChunk(self.plane, lower, upper, self.length_dm[index], measured, self.by_length)

    def lengths(self) -> tuple[np.ndarray, np.ndarray]:
        """The lengths that occur [dm], shortest first, and how many links have each: what a
        cable is follows from its length, so counting tallies lengths only."""
        tally = np.bincount(self.length_dm)
        length_dm = np.flatnonzero(tally)
        return length_dm, tally[length_dm]

    @cached_property
    def choice(self) -> np.ndarray:
        """Index into the segment's choices."""
        return self.by_length.choice[self.length_dm]

    @cached_property
    def stock_dm(self) -> np.ndarray:
        """Stock (or ordered) length of the link's cable in decimetres."""
        return self.by_length.stock_dm[self.length_dm]

    @cached_property
    def lower_needs(self) -> np.ndarray:
        """Rank (by reach) of the module each link needs at its lower end, NO_MODULE for none."""
        return self.by_length.lower_needs[self.length_dm]

    @cached_property
    def upper_needs(self) -> np.ndarray:
        return self.by_length.upper_needs[self.length_dm]


def measured_lengths_dm(cabling, lower: LinkEnds, upper: LinkEnds, assumed_m: float) -> tuple[np.ndarray, bool]:
    """Cable between each pair of ports, in decimetres rounded up
    (`cabling_distance.cable_length_m`): within one rack, (|h_a - h_b| + lateral) x (1 + slack
    fraction); between racks, (|dx| + |dy| + two drops from the tray to the ports) x (1 + slack
    fraction) + slack; ports at the middle of their device (`port_heights_m`). Where a rack or U
    is not known, the segment's assumed length. And whether any was measured."""
    racks = cabling.racks
    x_a, y_a = racks.position_arrays(lower.rack)
    x_b, y_b = racks.position_arrays(upper.rack)
    height_a, height_b = lower.height_m, upper.height_m
    tray, slack = cabling.tray_height_m, 1 + cabling.slack_fraction
    between = np.abs(x_a - x_b)
    between += np.abs(y_a - y_b)
    between += np.maximum(tray - height_a, 0)
    between += np.maximum(tray - height_b, 0)
    between *= slack * DM_PER_M
    between += cabling.slack_m * DM_PER_M
    within = np.abs(height_a - height_b)
    within += IN_RACK_LATERAL_M
    within *= slack * DM_PER_M
    steps = np.where(lower.rack == upper.rack, within, between)
    # Rounded up, but not for the last bits of a float's error: ceil(x - 1e-6) for x >= 0,
    # as a truncation (np.ceil is several times slower).
    steps += 1 - 1e-6
    length_dm = steps.astype(np.int64)
    known = np.minimum(lower.u, upper.u) > 0  # (a device's U is 0 where its rack is not known)
    if racks.positions and known.all():
        return length_dm, True
    # A Python bool: the plan's JSON has no numpy types.
    measured = bool(racks.positions and known.any())
    return np.where(known & racks.positions, length_dm, _decimetres_up(assumed_m)), measured


def _decimetres_up(length_m: float) -> int:
    return int(np.ceil(length_m * DM_PER_M - 1e-6))


class SegmentCables:
    """A segment's cables, all planes, made chunk by chunk (CHUNK_LINKS links at a time) so
    that memory stays bounded whatever the plan's size; the cages' modules are settled over
    the whole fabric first (`count_fabric`)."""

    def __init__(self, cabling, fabric: FabricWiring, link: LinkResult, group: WiredGroup | None) -> None:
        self.cabling, self.fabric, self.link, self.group = cabling, fabric, link, group
        self.steps = cabling.steps(fabric.name, link)
        reaches, self.choices = self.steps
        self.reaches = np.asarray(reaches)
        rank = cabling.module_rank
        self.lower_rank = np.array([rank.get(item.lower_module, NO_MODULE) for item in self.choices])
        self.upper_rank = np.array([rank.get(item.upper_module, NO_MODULE) for item in self.choices])
        self.stocks = {
            index: cabling.cables[item.cable].stock_lengths_m for index, item in enumerate(self.choices) if item.cable
        }
        self.has_cable = np.array([item.cable is not None for item in self.choices])
        # an active cable's power at each end [W]
        self.active_end_w = np.array([
            cabling.cables[item.cable].power_w if item.cable and item.media in ("acc", "aoc") else 0.0
            for item in self.choices
        ])
        self.by_length = LengthTable(*(np.zeros(0, dtype=np.int64),) * 4)
        self._planes: dict[int, CableChunk] = {}

    def chunks(self, size: int = CHUNK_LINKS) -> Iterator[CableChunk]:
        """Chunks of `size` links, in order."""
        per_plane = self.link.count // self.fabric.planes
        for plane in range(self.fabric.planes):
            if 0 < per_plane <= size:
                yield self._whole_plane(plane)
                continue
            for start in range(0, per_plane, size):
                yield self._chunk(plane, np.arange(start, min(start + size, per_plane)))

    def sample(self, sample_links: int) -> Iterator[tuple[CableChunk, float]]:
        """About `sample_links` links of the segment, spread over its planes in evenly spaced blocks of
        SAMPLE_BLOCK_LINKS consecutive links, with the links each sampled one stands for; every
        link of a smaller segment."""
        planes = self.fabric.planes
        per_plane = self.link.count // planes
        # a link in `every`, as evenly spaced single links would be
        every = -(-self.link.count // sample_links)
        blocks = max(per_plane // (every * SAMPLE_BLOCK_LINKS), 1)
        if every == 1 or blocks * SAMPLE_BLOCK_LINKS >= per_plane:
            for plane in range(planes):
                yield self._whole_plane(plane), 1.0
            return
        starts = np.arange(blocks) * (per_plane // blocks)
        index = (starts[:, None] + np.arange(SAMPLE_BLOCK_LINKS)).ravel()
        for plane in range(planes):
            if self.link.count <= KEPT_LINKS:  # the count reads the plane's links: made once
                yield self._whole_plane(plane).take(index), per_plane / len(index)
            else:
                yield self._chunk(plane, index), per_plane / len(index)

    def _whole_plane(self, plane: int) -> CableChunk:
        """Every link of a plane as one chunk; made once for a segment of at most KEPT_LINKS
        links, whose optics' estimate and count read the same links."""
        if plane in self._planes:
            return self._planes[plane]
        chunk = self._chunk(plane, np.arange(self.link.count // self.fabric.planes))
        if self.link.count <= KEPT_LINKS:
            self._planes[plane] = chunk
        return chunk

    def _chunk(self, plane: int, index: np.ndarray) -> CableChunk:
        lower, upper = _segment_ends(self.cabling, self.fabric, self.link, self.group, plane, index)
        length_dm, measured = measured_lengths_dm(self.cabling, lower, upper, self.link.length_m)
        return CableChunk(plane, lower, upper, length_dm, measured, self.lengths_up_to(int(length_dm.max())))

    def lengths_up_to(self, longest_dm: int) -> "LengthTable":
        """What a cable of each length 0..longest_dm decimetres is (at least): the choice of
        medium, cable and modules (`media.link_choice_steps`) and its stock length. One lookup
        per link then replaces a search per link. The tables are kept with the steps, which
        the catalog's parts decide."""
        if longest_dm >= len(self.by_length.choice):
            held = _LENGTH_TABLES.get(id(self.steps))
            if held is None or longest_dm >= len(held[1].choice):
                if len(_LENGTH_TABLES) >= _LENGTH_TABLES_SIZE:
                    _LENGTH_TABLES.pop(next(iter(_LENGTH_TABLES)))
                held = _LENGTH_TABLES[id(self.steps)] = (self.steps, self._table(max(2 * longest_dm, 1024)))
            self.by_length = held[1]
        return self.by_length

    def _table(self, size: int) -> "LengthTable":
        length_m = np.arange(size, dtype=np.int64) / DM_PER_M
        choice = np.searchsorted(self.reaches, length_m - 1e-9, side="left")
        stock_m = length_m.copy()
        for index, stocks in self.stocks.items():
            mask = choice == index
            stock_m[mask] = stock_lengths_m(length_m[mask], stocks)
        return LengthTable(choice, np.rint(stock_m * DM_PER_M).astype(np.int64),
                           self.lower_rank[choice], self.upper_rank[choice])


_LENGTH_TABLES: dict[int, tuple[tuple, "LengthTable"]] = {}
"""Length tables by the id of their steps (`media.link_choice_steps`, kept per catalog); each
entry holds its steps, so that the id stays theirs."""
_LENGTH_TABLES_SIZE = 256


@dataclass(frozen=True)
class LengthTable:
    """By length in decimetres: a segment's link choice, stock length and modules."""

    choice: np.ndarray
    stock_dm: np.ndarray
    lower_needs: np.ndarray
    upper_needs: np.ndarray


def _segment_ends(cabling, fabric: FabricWiring, link: LinkResult, group: WiredGroup | None, plane: int,
                  index: np.ndarray) -> tuple[LinkEnds, LinkEnds]:
    """Both ends of the links numbered `index` of a segment in one plane."""
    segment = link.segment
    if group is not None:
        switch, down = fabric.edge_arrays(group.first_link + index)
        lower = cabling.endpoint_ends(fabric, group, plane, index)
        return lower, cabling.switch_ends(fabric, fabric.edge_role, plane, switch, down, "down")
    if segment.endswith("-spine"):
        leaf, uplink, spine, down = fabric.tree_link_arrays(index)
        return (cabling.switch_ends(fabric, fabric.edge_role, plane, leaf, uplink, "up"),
                cabling.switch_ends(fabric, "spine", plane, spine, down, "down"))
    if segment == "spine-core":
        spine, uplink, core, down = fabric.core_link_arrays(index)
        return (cabling.switch_ends(fabric, "spine", plane, spine, uplink, "up"),
                cabling.switch_ends(fabric, "core", plane, core, down, "down"))
    if segment in ("local", "global"):
        links = fabric.local_link_arrays if segment == "local" else fabric.global_link_arrays
        router_a, port_a, router_b, port_b = links(index)
        _, first_local, first_global = fabric.router_ports()
        first = first_local if segment == "local" else first_global
        return (cabling.switch_ends(fabric, "router", plane, router_a, port_a + first, "router"),
                cabling.switch_ends(fabric, "router", plane, router_b, port_b + first, "router"))
    raise ValueError(f"no cabling rule for the {segment} links of the {fabric.name} fabric")


def fabric_segments(cabling, fabric: FabricWiring) -> list[SegmentCables]:
    """A fabric's segments with links, in the cabling plan's order."""
    groups = {id(group.link): group for group in fabric.groups}
    return [SegmentCables(cabling, fabric, link, groups.get(id(link))) for link in fabric.result.links if link.count]
