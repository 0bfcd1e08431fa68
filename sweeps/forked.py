"""A sweep's batches planned by this process and by worker processes forked from it, each taking
the next batch not yet taken whenever it is free.

This process plans batches too, with its caches and memory warm: a forked process starts cold
(its first batch takes about twice as long while it copies the memory pages it writes to).
`concurrent.futures.ProcessPoolExecutor` does not allow that: its threads that hand batches to
the processes and take their results back need the interpreter lock, which this process holds
while it plans, so a forked process waited 32 ms for its first batch of a 400-design sweep
(measured). Here the batches are numbered in shared memory, and each forked process sends its
results on a queue that this process reads between its own batches.
"""

import multiprocessing
import pickle
import queue
from collections.abc import Callable, Iterator, Sequence

POLL_S = 0.2
"""How often this process, waiting for the forked processes' last results, checks that they
are still running."""
JOIN_S = 5.0
"""How long a forked process that has sent its last result may take to exit."""


class WorkerStopped(RuntimeError):
    """A forked process ended without sending the results of the batch it had taken."""


def forked_batches(
    plan: Callable[[int, int], list], batches: Sequence[tuple[int, int]], processes: int,
) -> Iterator[list]:
    """`plan(start, stop)` of every batch, by this process and `processes` processes forked
    from it, as they finish. An exception a forked process raises is raised here (as a
    RuntimeError naming it when it cannot be pickled), and a forked process that dies raises
    WorkerStopped; either way, and when the caller stops early, the forked processes are
    killed."""
    context = multiprocessing.get_context("fork")
    taken = context.Value("q", 0)
    results = context.Queue()

    def next_batch() -> tuple[int, int] | None:
        with taken.get_lock():
            number = taken.value
            taken.value = number + 1
        return batches[number] if number < len(batches) else None

    def work() -> None:
        try:
            while (batch := next_batch()) is not None:
                results.put((True, plan(*batch)))
        except BaseException as error:  # noqa: BLE001 - raised again in the parent
            results.put((False, _picklable(error)))
        results.put(None)

    workers = [context.Process(target=work, daemon=True) for _ in range(processes)]
    for worker in workers:
        worker.start()
    ended = 0

    def received(wait: bool) -> Iterator[list]:
        nonlocal ended
        while ended < len(workers):
            try:
                message = results.get(timeout=POLL_S) if wait else results.get_nowait()
            except queue.Empty:
                if not wait:
                    return
                stopped = [worker.exitcode for worker in workers if worker.exitcode not in (None, 0)]
                if stopped:
                    raise WorkerStopped(f"a sweep's worker process stopped (exit code {stopped[0]}) "
                                        "before it sent the designs it had taken") from None
                continue
            if message is None:
                ended += 1
                continue
            done, value = message
            if not done:
                raise value
            yield value

    try:
        while (batch := next_batch()) is not None:
            yield plan(*batch)
            yield from received(wait=False)
        yield from received(wait=True)
        for worker in workers:
            worker.join(JOIN_S)
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.kill()
            worker.join()
        results.close()


def _picklable(error: BaseException) -> BaseException:
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:  # noqa: BLE001 - any failure to pickle or unpickle
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error
