"""Run a sweep's designs in batches: in this process, over worker processes of this machine
(`workers`), or on a Dask distributed cluster (`scheduler` address, or a `client`). Each yields
the batches' results as they finish, in any order; `SweepSummary` and the output file take them
as they come, so nothing holds every design.
"""

import operator
import os
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice

from catalog.solver.snapshot import CatalogSnapshot
from planner.solver.rounds import CABLES_ENGINE
from sweeps.forked import forked_batches
from sweeps.solver.collector import full_collections_paused
from sweeps.solver.engine import DesignResult, evaluate_batch
from sweeps.solver.spec import SweepSpec

SCHEDULER_VARIABLE = "DASK_SCHEDULER_ADDRESS"
MAX_BATCH = 2000
"""Designs per task: enough that a task outweighs its scheduling and the client's work for it
(about ten milliseconds a Dask task, measured; a design priced over arrays ten microseconds, one
screened alone one to five milliseconds), few enough that progress moves."""
TASKS_PER_WORKER = 4
"""Batches per worker for a small sweep, so the last batch does not leave the others idle."""
MAX_WORKERS = 256
"""Processes one sweep may plan on, on one machine (this one and those forked from it): more
cores than one machine has; beyond it a sweep wants a Dask cluster."""
IN_FLIGHT_PER_WORKER = 4
"""Batches submitted ahead per Dask worker: the results waiting are bounded, whatever the sweep."""


def batch_size_for(designs: int, workers: int) -> int:
    return max(1, min(MAX_BATCH, -(-designs // (workers * TASKS_PER_WORKER))))


def design_batches(designs: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, designs, size):
        yield start, min(designs, start + size)


def scheduler_address(given: str | None) -> str | None:
    """The scheduler to use: the one given, else DASK_SCHEDULER_ADDRESS, else none."""
    return given or os.environ.get(SCHEDULER_VARIABLE) or None


def run_sweep(
    spec: SweepSpec, catalog: CatalogSnapshot, *, workers: int = 1, scheduler: str | None = None,
    client=None, cables: str = CABLES_ENGINE, batch_size: int | None = None,
    done: frozenset[int] = frozenset(),
) -> Iterator[list[DesignResult]]:
    """Every design of the sweep, planned, as batches of results in the order they finish.
    `done`: the first design numbers of batches already planned (a resumed job), left out; they
    name batches of `batch_size`, which must then be given. No full garbage collection runs in
    this process until the last batch is taken (`collector.full_collections_paused`): its caller's
    summary and output file take millions of results, and each full collection walked the process
    (a fifth of a one-process sweep of 400,000 priced designs, measured)."""
    with full_collections_paused():
        if client is not None or scheduler:
            yield from _run_on_dask(spec, catalog, scheduler, client, cables, batch_size, done)
        elif workers > 1:
            yield from _run_on_processes(spec, catalog, workers, cables, batch_size, done)
        else:
            size = batch_size or MAX_BATCH
            for start, stop in _batches_to_do(spec.design_count, size, done):
                yield evaluate_batch(spec, start, stop, catalog, cables)


def _batches_to_do(designs: int, size: int, done: frozenset[int]) -> Iterator[tuple[int, int]]:
    return ((start, stop) for start, stop in design_batches(designs, size) if start not in done)


def _run_on_processes(spec, catalog, workers, cables, batch_size, done) -> Iterator[list[DesignResult]]:
    """This process and `workers - 1` forked from it (`forked.forked_batches`)."""
    size = batch_size or batch_size_for(spec.design_count, workers)
    batches = list(_batches_to_do(spec.design_count, size, done))
    yield from forked_batches(lambda start, stop: evaluate_batch(spec, start, stop, catalog, cables),
                              batches, workers - 1)


@dataclass(frozen=True)
class InOnePiece:
    """A batch's results as a worker sends them: one object, pickled at once. A list Dask
    serializes element by element, each with its own header: two million designs took the client
    about 70 CPU seconds so, 25 in one piece (measured)."""

    results: list[DesignResult]


def evaluate_in_one_piece(*arguments) -> InOnePiece:
    return InOnePiece(evaluate_batch(*arguments))


def _run_on_dask(spec, catalog, scheduler, client, cables, batch_size, done) -> Iterator[list[DesignResult]]:
    """The batches as tasks of a Dask cluster whose scheduler need not have the project: only
    its workers do. A scheduler unpickles every task it is sent (since distributed 2023.4), and
    unpickling a function imports its module: a task of `evaluate_batch` fails there with "No
    module named 'sweeps'". So each task is the standard library's `operator.call`, and the
    function reaches the workers as data, scattered with the sweep and the catalog (data goes to
    the workers and back through the scheduler as bytes it does not open), each batch's results
    in one piece (`InOnePiece`)."""
    from distributed import Client, as_completed

    own = client is None
    if own:
        client = Client(scheduler)
    try:
        workers = max(1, sum(client.nthreads().values()))
        size = batch_size or batch_size_for(spec.design_count, workers)
        # Sent once to every worker; each task names them.
        evaluate, spec_data, catalog_data = client.scatter(
            [evaluate_in_one_piece, spec, catalog], broadcast=True, hash=False)
        batches = _batches_to_do(spec.design_count, size, done)
        ahead = workers * IN_FLIGHT_PER_WORKER

        def submit(start: int, stop: int):
            return client.submit(operator.call, evaluate, spec_data, start, stop, catalog_data, cables, pure=False)

        running = as_completed([submit(*batch) for batch in islice(batches, ahead)])
        for future in running:
            yield future.result().results
            future.release()
            following = next(batches, None)
            if following is not None:
                running.add(submit(*following))
    finally:
        if own:
            client.close()
