"""Batches planned by this process and by processes forked from it: each batch once, errors and
dead processes raised here, and no process left behind."""

import multiprocessing
import os

import pytest

from sweeps.forked import WorkerStopped, forked_batches

FORK = multiprocessing.get_context("fork")
BATCHES = [(start, start + 1) for start in range(12)]


def _both_take_part(then=lambda start: [(start, os.getpid())]):
    """A plan whose first batch in this process and in a forked one each wait until the other
    has taken one, so that both take part however fast the machine is; the forked one's batches
    are `then`'s."""
    parent, parent_took, forked_took = os.getpid(), FORK.Event(), FORK.Event()

    def plan(start: int, stop: int) -> list:
        if os.getpid() == parent:
            parent_took.set()
            assert forked_took.wait(30)
            return [(start, parent)]
        forked_took.set()
        assert parent_took.wait(30)
        return then(start)

    return plan


def test_this_process_and_the_forked_ones_plan_every_batch_once():
    plan = _both_take_part()
    planned = [item for batch in forked_batches(plan, BATCHES, 2) for item in batch]
    assert sorted(start for start, _ in planned) == [start for start, _ in BATCHES]
    planners = {pid for _, pid in planned}
    assert os.getpid() in planners and len(planners) >= 2
    assert not multiprocessing.active_children()


def test_no_batch_and_no_process_is_no_result():
    assert list(forked_batches(lambda start, stop: [start], [], 1)) == []
    assert list(forked_batches(lambda start, stop: [start], BATCHES, 0)) == [[start] for start, _ in BATCHES]


def test_an_error_in_a_forked_process_is_raised_here_and_the_processes_are_gone():
    def fail(start: int) -> list:
        raise ValueError(f"no design in batch {start}")

    with pytest.raises(ValueError, match="no design in batch"):
        list(forked_batches(_both_take_part(fail), BATCHES, 2))
    assert not multiprocessing.active_children()


def test_an_error_that_cannot_be_pickled_is_raised_by_its_name():
    class LocalError(Exception):  # a local class cannot be pickled
        pass

    def fail(start: int) -> list:
        raise LocalError("the catalog has no such part")

    with pytest.raises(RuntimeError, match="LocalError: the catalog has no such part"):
        list(forked_batches(_both_take_part(fail), BATCHES, 1))


def test_a_forked_process_that_dies_is_an_error_not_a_wait():
    def die(start: int) -> list:
        os._exit(3)

    with pytest.raises(WorkerStopped, match="exit code 3"):
        list(forked_batches(_both_take_part(die), BATCHES, 1))
    assert not multiprocessing.active_children()


def test_a_caller_that_stops_early_leaves_no_process_behind():
    release = FORK.Event()

    def hold(start: int) -> list:
        release.wait(60)  # still planning when the caller stops
        return [start]

    batches = forked_batches(_both_take_part(hold), BATCHES, 2)
    assert next(batches)
    batches.close()
    assert not multiprocessing.active_children()
