"""Python's cyclic garbage collector held to its young generations while a sweep runs.

A full collection walks every object the process holds, about 0.5 µs an object, and a sweep's
processes hold many that never become garbage: a screen keeps every fabric, rack packing and
plan basis it made (`engine._SweepCaches`), on top of Django and the catalog. Measured with
`gc.callbacks`: one full collection took 70-110 ms of an 800-design rack budget sweep of 450 ms
and freed nothing; in one process, eleven took a fifth of a sweep of 400,000 priced designs
written to Parquet. The young generations are still collected: a full plan's cycles
(`CABLES_COUNTED`) are made and dropped within a design."""

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

NO_FULL_COLLECTION = 2**31 - 1
"""The oldest generation's threshold while paused: young collections before a full one, never
reached (the threshold is a C int)."""

_lock = threading.Lock()
_paused = 0
_thresholds: tuple[int, ...] = ()


@contextmanager
def full_collections_paused() -> Iterator[None]:
    """No full collection in the block; the thresholds as they were after the last block ends
    (batches may run in threads of one process: a Dask worker's)."""
    global _paused, _thresholds
    with _lock:
        if _paused == 0:
            _thresholds = gc.get_threshold()
            gc.set_threshold(_thresholds[0], _thresholds[1], NO_FULL_COLLECTION)
        _paused += 1
    try:
        yield
    finally:
        with _lock:
            _paused -= 1
            if _paused == 0:
                gc.set_threshold(*_thresholds)
