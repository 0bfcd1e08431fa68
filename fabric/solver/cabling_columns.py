"""The cabling plan's rows as columns, a chunk of links at a time (`cabling.CABLING_COLUMNS`).

Each column is a dictionary array, (codes, values), read as values[codes]: a rack's, device's or
port's name is made once per chunk for each one the chunk's links reach, not once per row, and
a writer formats each distinct value once (`handoff.exports.plan_export_cabling_lines`). The
rows (`rows_of`) are the same columns read row by row, so the CSV and every other hand-off that
reads rows cannot disagree.
"""

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np

from fabric.solver.cabling_links import CHUNK_LINKS, DM_PER_M, NO_MODULE, CableChunk, LinkEnds
from fabric.solver.cabling_tally import count_fabric

Column = tuple[np.ndarray, list]
"""(codes, values): the column is values[codes]."""


def column_blocks(cabling) -> Iterator[list[Column]]:
    """The cabling plan of `cabling` (a `cabling.PlanCabling`) as columns, a chunk of links at a
    time, in the order of the rows: fabric, segment, plane, link."""
    number = 0
    for fabric in cabling.fabrics:
        segments = cabling.segments(fabric)
        held = count_fabric(cabling, segments, CHUNK_LINKS).cage_modules
        for cables in segments:
            media = [choice.media for choice in cables.choices]
            cable = [choice.cable or "" for choice in cables.choices]
            for chunk in cables.chunks():
                links = len(chunk)
                modules = [
                    _module_column(held[end.devices][end.cage], needs, cabling.module_order)
                    for end, needs in ((chunk.lower, chunk.lower_needs), (chunk.upper, chunk.upper_needs))
                ]
                yield [
                    (np.arange(links), list(range(number + 1, number + links + 1))),
                    *_end_columns(cabling.racks.labels, chunk.lower, chunk.plane),
                    *_end_columns(cabling.racks.labels, chunk.upper, chunk.plane),
                    (chunk.choice, media), (chunk.choice, cable),
                    *_length_columns(chunk),
                    *modules,
                    _constant(links, cables.link.segment), _constant(links, fabric.name),
                    _constant(links, chunk.plane + 1),
                ]
                number += links


def rows_of(blocks: Iterable[list[Column]]) -> Iterator[tuple]:
    """The columns' rows, one tuple each."""
    for columns in blocks:
        yield from zip(*(_decoded(values, codes) for codes, values in columns))


def _decoded(values: list, codes: np.ndarray) -> list:
    """values[codes] as a list (one vectorised take, not a lookup per row)."""
    return object_array(values)[codes].tolist()


def object_array(values: list) -> np.ndarray:
    """The values as an array of Python objects (texts and tuples stay whole)."""
    held = np.empty(len(values), dtype=object)
    held[:] = values
    return held


def _end_columns(labels: Callable[[np.ndarray], list[str]], end: LinkEnds, plane: int) -> list[Column]:
    """Rack, U, device and port of one end of the chunk's links."""
    return [
        _named_at_once(end.rack, labels),
        _named(end.u, lambda u: u or ""),
        _named_at_once(end.device, lambda devices: end.names(devices, plane)) if end.names else
        _named(end.device, lambda device: end.place(device, plane).device),
        _named(end.port, lambda port: end.port_name(port, plane)),
    ]


def _length_columns(chunk: CableChunk) -> list[Column]:
    """Measured and stock length [m] of the chunk's links, read in one table of lengths."""
    metres = _metres(int(max(chunk.length_dm.max(initial=0), chunk.stock_dm.max(initial=0))))
    return [(chunk.length_dm, metres), (chunk.stock_dm, metres)]


_METRES: list[float] = []


def _metres(longest_dm: int) -> list[float]:
    """Lengths [m] by decimetre, from 0 to at least `longest_dm`: the same list for every chunk
    until a longer link comes (so that a writer formats it once)."""
    global _METRES
    if longest_dm >= len(_METRES):
        _METRES = [dm / DM_PER_M for dm in range(max(2 * longest_dm, 1024))]
    return _METRES


def _named(indices: np.ndarray, name_of: Callable[[int], Any]) -> Column:
    """`name_of` over whole numbers, called once for each distinct one."""
    return _named_at_once(indices, lambda distinct: [name_of(index) for index in distinct.tolist()])


def _named_at_once(indices: np.ndarray, names_of: Callable[[np.ndarray], list]) -> Column:
    """`names_of` over the distinct whole numbers (all in their span where they are dense: no
    sort)."""
    if not len(indices):
        return indices, []
    low, high = int(indices.min()), int(indices.max())
    if high - low < len(indices):
        return indices - low, names_of(np.arange(low, high + 1))
    distinct, codes = np.unique(indices, return_inverse=True)
    return codes, names_of(distinct)


def _module_column(cage_modules: np.ndarray, needs: np.ndarray, module_order: tuple[str, ...]) -> Column:
    """The module part in each link's cage ("" where the link needs none)."""
    return np.where(needs == NO_MODULE, len(module_order), cage_modules), [*module_order, ""]


def _constant(links: int, value: Any) -> Column:
    return np.zeros(links, dtype=np.intp), [value]
