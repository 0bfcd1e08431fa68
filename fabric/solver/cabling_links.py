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
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from core.solver.records import copy_with
from fabric.solver.cabling_racks import DevicePlace
from fabric.solver.cabling_wiring import FabricWiring, WiredGroup
from fabric.solver.media import stock_lengths_m
from fabric.solver.results import LinkResult
from power.solver.cabling_distance import IN_RACK_LATERAL_M

DM_PER_M = 10
"""Measured lengths are rounded up to the decimetre, and kept as whole decimetres."""
NO_MODULE = -1
CHUNK_LINKS = 4_096
"""Links measured at once for the rows: their memory stays flat whatever the plan's size."""
COUNT_CHUNK_LINKS = 1 << 15
"""Links measured at once for counting: fewer, larger steps, their arrays still in cache."""
SAMPLE_LINKS = 8_192
"""Links of a segment, about, that estimate the optics' power before the cables are counted
(every link of a smaller segment)."""
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
            yield self._chunk(plane, index), per_plane / len(index)

    def _whole_plane(self, plane: int) -> CableChunk:
        """Every link of a plane as one chunk; made once for a segment of at most SAMPLE_LINKS
        links, whose optics' estimate reads every link, as its count does (a larger one's chunks
        are not kept: memory stays bounded)."""
        if plane in self._planes:
            return self._planes[plane]
        chunk = self._chunk(plane, np.arange(self.link.count // self.fabric.planes))
        if self.link.count <= SAMPLE_LINKS:
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


def _raise_to_needs(held: np.ndarray, segment_cages: np.ndarray, cages: np.ndarray, needs: np.ndarray | None,
                    distinct: set[int]) -> None:
    """held[cage] = max(held[cage], need) for each link's cage and need, and mark the cages
    with a need in `segment_cages`; `distinct` are the needs that occur (few: one pass each,
    not a loop over links), `needs` the links' (None when all links need the one in
    `distinct`)."""
    for rank in sorted(distinct - {NO_MODULE}):
        # every write for one rank writes the same value: repeated cages are harmless
        mine = cages if needs is None else cages[needs == rank]
        held[mine] = np.maximum(held[mine], rank)
        segment_cages[mine] = True


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


@dataclass(frozen=True)
class SegmentCount:
    """A segment's cables and transceivers added up from its links."""

    link: LinkResult
    """The segment with its media, lengths and transceivers (cages its links use) as the cables
    are."""
    cables: dict[tuple[str, str | None, float], int]
    """(medium, cable part, stock length) -> cables."""
    warnings: tuple[str, ...]
    link_of: LinkResult
    """The segment as the fabric engine gave it."""


@dataclass(frozen=True)
class FabricCount:
    """A fabric's cables and transceivers added up from its rows."""

    segments: tuple[SegmentCount, ...]
    modules: dict[str, int]
    """Transceiver part -> modules: one per cage any row's end uses."""
    optics_w: dict[str, float]
    """Module and active cable power by the slug of the device that holds them."""
    cage_modules: dict[str, np.ndarray]
    """Module rank held in each cage, by the devices the cages number (NO_MODULE: empty)."""
    ports_used: dict[str, int]
    """Native switch ports with a cable, by the devices ("tier:<role>")."""


def count_fabric(cabling, segments: list[SegmentCables], chunk: int = COUNT_CHUNK_LINKS) -> FabricCount:
    """Cables by part and stock length per segment, and modules by part for the fabric: a cage
    holds one module, of the longest reach any of its links needs (its links may be of two
    segments, a leaf's last down port and first up port in one twin-port cage), so modules are
    counted over the fabric's cages, as the rows' ends need them. One pass over the links."""
    held: dict[str, np.ndarray] = {}
    holders: dict[str, str | None] = {}
    used: dict[str, np.ndarray] = {}
    optics_w: dict[str, float] = {}
    counts = []
    for cables in segments:
        count, cable_w = _count_segment(cables, held, holders, used, chunk)
        counts.append(count)
        for holder, watts in cable_w.items():
            optics_w[holder] = optics_w.get(holder, 0.0) + watts
    modules: dict[str, int] = {}
    for devices, cage_modules in held.items():
        tally = np.bincount(cage_modules[cage_modules != NO_MODULE])
        for rank, cages in zip(np.flatnonzero(tally).tolist(), tally[tally > 0].tolist()):
            module = cabling.transceivers[cabling.module_order[rank]]
            modules[module.slug] = modules.get(module.slug, 0) + cages
            if holders[devices]:
                holder = holders[devices]
                optics_w[holder] = optics_w.get(holder, 0.0) + cages * module.power_w
    return FabricCount(tuple(counts), modules, optics_w, held,
                       {devices: int(ports.sum()) for devices, ports in used.items()})


def _count_segment(
    cables: SegmentCables, held: dict[str, np.ndarray], holders: dict[str, str | None],
    used: dict[str, np.ndarray], chunk_links: int,
) -> tuple[SegmentCount, dict[str, float]]:
    """The segment's links tallied by length over its chunks (what a cable is follows from its
    length), and its cables, media and active cables' power read once from the tally."""
    link = cables.link
    active_end_w = cables.active_end_w
    cable_w: dict[str, float] = {}
    segment_cages: dict[str, np.ndarray] = {}
    tally = first_chunk = np.zeros(0, dtype=np.int64)
    measured = False
    for number, chunk in enumerate(cables.chunks(chunk_links)):
        length_dm, cables_of_length = chunk.lengths()
        table = cables.by_length
        for end, side in ((chunk.lower, "lower_needs"), (chunk.upper, "upper_needs")):
            if end.devices not in held:
                held[end.devices] = np.full(end.cages, NO_MODULE)
                holders[end.devices] = end.holder
            if end.devices not in segment_cages:
                segment_cages[end.devices] = np.zeros(end.cages, dtype=bool)
            marked = segment_cages[end.devices]
            distinct = set(getattr(table, side)[length_dm].tolist())
            # the links' needs one by one only where they differ
            needs = getattr(chunk, side) if len(distinct) > 1 else None
            _raise_to_needs(held[end.devices], marked, end.cage, needs, distinct)
            if end.native is not None:
                if end.devices not in used:
                    used[end.devices] = np.zeros(end.natives, dtype=bool)
                used[end.devices][end.native] = True
        measured = measured or chunk.measured
        if len(tally) <= length_dm[-1]:
            grown = max(2 * len(tally), int(length_dm[-1]) + 1)
            tally = np.concatenate([tally, np.zeros(grown - len(tally), dtype=np.int64)])
            first_chunk = np.concatenate([first_chunk, np.zeros(grown - len(first_chunk), dtype=np.int64)])
        if number:
            first_chunk[length_dm[tally[length_dm] == 0]] = number
        tally[length_dm] += cables_of_length
        chunk_w = float(cables_of_length @ active_end_w[table.choice[length_dm]])
        for holder in (chunk.lower.holder, chunk.upper.holder):
            if chunk_w and holder:
                cable_w[holder] = cable_w.get(holder, 0.0) + chunk_w
    length_dm = np.flatnonzero(tally)
    links_of_length = tally[length_dm]
    links_total = int(links_of_length.sum())
    length_sum_dm, longest_dm = int(length_dm @ links_of_length), int(length_dm[-1])
    counts, media_counts, missing_cable, missing_module = _kinds(cables, length_dm, links_of_length,
                                                                 first_chunk[length_dm])
    warnings = []
    where = f"the {cables.fabric.name} fabric's {link.segment} links"
    if missing_cable:
        warnings.append(
            f"{missing_cable:,} of {where} run farther than any {link.gbps:g} Gb/s cable in the catalog "
            f"reaches (up to {longest_dm / DM_PER_M:g} m): they are counted without a cable."
        )
    if missing_module:
        warnings.append(
            f"{missing_module:,} of {where} need a transceiver the catalog does not have: they are "
            f"counted without optics."
        )
    if counts:
        (media, cable, stock), _ = max(counts.items(), key=lambda item: item[1])
    else:
        media, cable, stock = max(media_counts, key=media_counts.get), None, 0.0
    counted = copy_with(
        link,
        length_m=length_sum_dm / DM_PER_M / links_total, max_length_m=longest_dm / DM_PER_M, measured=measured,
        media=media, media_counts=media_counts, cable=cable, cable_length_m=stock,
        transceivers=sum(int(used.sum()) for used in segment_cages.values()),
    )
    return SegmentCount(counted, counts, tuple(warnings), link), cable_w


def _kinds(cables: SegmentCables, length_dm: np.ndarray, links_of_length: np.ndarray, first_chunk: np.ndarray):
    """Cables by (medium, part, stock length) and links by medium from the links' lengths, with
    the links that have no cable or no module; kinds in the order the chunks first meet them."""
    table, choices = cables.by_length, cables.choices
    choice = table.choice[length_dm]
    # a link with no cable has no stock length: one kind whatever it measures
    code = choice * (1 << 32) + np.where(cables.has_cable[choice], table.stock_dm[length_dm], 0)
    if (code[1:] >= code[:-1]).all():
        # the usual case: a longer link never takes a shorter-reach choice or stock length, so
        # equal kinds are runs of the sorted lengths (no sort needed)
        starts = np.ones(len(code), dtype=bool)
        np.not_equal(code[1:], code[:-1], out=starts[1:])
        kinds, kind_of = code[starts], np.cumsum(starts) - 1
    else:
        kinds, kind_of = np.unique(code, return_inverse=True)
    numbers = np.bincount(kind_of, weights=links_of_length).astype(np.int64)
    order = slice(None)  # all met in the first chunk: in the order of their codes
    if first_chunk.any():
        met = np.full(len(kinds), np.iinfo(np.int64).max)
        np.minimum.at(met, kind_of, first_chunk)
        order = np.lexsort((kinds, met))
    counts: dict[tuple, int] = {}
    media_counts: dict[str, int] = {}
    missing_cable = missing_module = 0
    for code, number in zip(kinds[order].tolist(), numbers[order].tolist()):
        index, stock_dm = divmod(code, 1 << 32)
        choice = choices[index]
        media_counts[choice.media] = media_counts.get(choice.media, 0) + number
        if choice.cable is None:
            missing_cable += number
            continue
        if choice.media == "fiber" and (choice.lower_module is None or choice.upper_module is None):
            missing_module += number
        key = (choice.media, choice.cable, stock_dm / DM_PER_M)
        counts[key] = counts.get(key, 0) + number
    return counts, media_counts, missing_cable, missing_module


def sampled_optics_w(cabling, segments: list[SegmentCables], sample_links: int = SAMPLE_LINKS) -> dict[str, float]:
    """Module and active cable power [W] by the slug of the device that holds them, estimated
    from about `sample_links` links of each segment in blocks of consecutive links
    (`SegmentCables.sample`): each link end carries its share of its cage's module (the power of
    the longest-reach module that the cage's sampled links need, over the links of a full cage)
    and of an active cable's power. Where every link is sampled and no cage spans two segments,
    that is the count. It packs the racks before the cables are counted where they stand
    (`planner.solver.pipeline`); no plan figure comes from it."""
    module_w = np.array([cabling.transceivers[slug].power_w for slug in cabling.module_order] + [0.0])
    watts: dict[str, float] = {}
    for cables in segments:
        cable_end_w = cables.active_end_w
        for chunk, links_per_sampled in cables.sample(sample_links):
            for end, needs in ((chunk.lower, chunk.lower_needs), (chunk.upper, chunk.upper_needs)):
                if end.holder:
                    if end.links_per_cage > 1 and needs.min() != needs.max():
                        needs = _cage_needs(end.cage, end.cages, needs)
                    # NO_MODULE (-1) takes the last entry, no power
                    per_link_w = module_w[needs] / end.links_per_cage + cable_end_w[chunk.choice]
                    watts[end.holder] = watts.get(end.holder, 0.0) + links_per_sampled * float(per_link_w.sum())
    return watts


def _cage_needs(cage: np.ndarray, cages: int, needs: np.ndarray) -> np.ndarray:
    """Each link's need raised to the longest-reach need of the links in its cage (`cages`
    dense cage ids)."""
    if cages <= 8 * len(cage):
        cage_of = cage
    else:  # a sample of a large segment: its own cages numbered densely
        _, cage_of = np.unique(cage, return_inverse=True)
        cages = int(cage_of.max()) + 1
    held = np.full(cages, NO_MODULE)
    np.maximum.at(held, cage_of, needs)  # a higher rank reaches farther
    return held[cage_of]
