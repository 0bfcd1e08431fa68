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
                    *_end_columns(cabling.racks.label, chunk.lower, chunk.plane),
                    *_end_columns(cabling.racks.label, chunk.upper, chunk.plane),
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


def _end_columns(label: Callable[[int], str], end: LinkEnds, plane: int) -> list[Column]:
    """Rack, U, device and port of one end of the chunk's links."""
    return [
        _named(end.rack, label),
        _named(end.u, lambda u: u or ""),
        _named(end.device, lambda device: end.place(device, plane).device),
        _named(end.port, lambda port: end.port_name(port, plane)),
    ]


def _length_columns(chunk: CableChunk) -> list[Column]:
    """Measured and stock length [m] of the chunk's links."""
    return [_named(chunk.length_dm, lambda dm: dm / DM_PER_M), _named(chunk.stock_dm, lambda dm: dm / DM_PER_M)]


def _named(indices: np.ndarray, name_of: Callable[[int], Any]) -> Column:
    """`name_of` over whole numbers, called once for each distinct one (each in their span where
    they are dense: no sort)."""
    if not len(indices):
        return indices, []
    low, high = int(indices.min()), int(indices.max())
    if high - low < len(indices):
        return indices - low, [name_of(index) for index in range(low, high + 1)]
    distinct, codes = np.unique(indices, return_inverse=True)
    return codes, [name_of(index) for index in distinct.tolist()]


def _module_column(cage_modules: np.ndarray, needs: np.ndarray, module_order: tuple[str, ...]) -> Column:
    """The module part in each link's cage ("" where the link needs none)."""
    return np.where(needs == NO_MODULE, len(module_order), cage_modules), [*module_order, ""]


def _constant(links: int, value: Any) -> Column:
    return np.zeros(links, dtype=np.intp), [value]
