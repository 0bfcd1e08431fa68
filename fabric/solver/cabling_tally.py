"""What a segment's links add up to: cables by medium, part and stock length, one module per
cage the links use (the one of longest reach any of its links needs), and the optics' power by
the device that holds it, counted from every link (`count_fabric`) or estimated from a sample
(`sampled_optics_w`). The links come from `cabling_links`; the BOM and the rows read the same
arrays, so they cannot disagree."""

from dataclasses import dataclass

import numpy as np

from core.solver.records import copy_with
from fabric.solver.cabling_links import DM_PER_M, NO_MODULE, SAMPLE_LINKS, SegmentCables
from fabric.solver.results import LinkResult

COUNT_CHUNK_LINKS = 1 << 15
"""Links measured at once for counting: fewer, larger steps, their arrays still in cache."""
CAGE_MODULE_DTYPE = np.int16
"""The module rank a cage holds, for every cage of the fabric (a million GPUs' fabrics have
millions): ranks index the catalog's transceivers, which are far fewer than 32,767."""


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
                held[end.devices] = np.full(end.cages, NO_MODULE, dtype=CAGE_MODULE_DTYPE)
                holders[end.devices] = end.holder
            if end.devices not in segment_cages:
                segment_cages[end.devices] = np.zeros(end.cages, dtype=bool)
            marked = segment_cages[end.devices]
            of_lengths = getattr(table, side)[length_dm]
            # the links' needs one by one only where they differ
            needs = int(of_lengths[0]) if (of_lengths == of_lengths[0]).all() else getattr(chunk, side)
            _raise_to_needs(held[end.devices], marked, end.cage, needs)
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
        # not `@`: a float dot product goes to OpenBLAS, whose threads spin on the other cores
        chunk_w = float((cables_of_length * active_end_w[table.choice[length_dm]]).sum())
        for holder in (chunk.lower.holder, chunk.upper.holder):
            if chunk_w and holder:
                cable_w[holder] = cable_w.get(holder, 0.0) + chunk_w
    length_dm = np.flatnonzero(tally)
    links_of_length = tally[length_dm]
    links_total = int(links_of_length.sum())
    length_sum_dm, longest_dm = int((length_dm * links_of_length).sum()), int(length_dm[-1])
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


def _raise_to_needs(held: np.ndarray, segment_cages: np.ndarray, cages: np.ndarray, needs: np.ndarray | int) -> None:
    """held[cage] = max(held[cage], need) for each link's cage and need, and mark the cages
    with a need in `segment_cages`; `needs` are the links' needs, or the one they all have.
    (The needs take `held`'s type first: numpy's `at` of mixed types is many times slower.)"""
    if isinstance(needs, int):
        if needs != NO_MODULE:
            np.maximum.at(held, cages, held.dtype.type(needs))
            segment_cages[cages] = True
        return
    np.maximum.at(held, cages, needs.astype(held.dtype, copy=False))
    segment_cages[cages[needs != NO_MODULE]] = True
