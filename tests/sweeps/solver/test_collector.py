"""A sweep's batch holds the garbage collector to its young generations, and gives back the
thresholds it found, however the batches overlap in threads."""

import gc
import threading

import pytest

from sweeps.runner import run_sweep
from sweeps.solver.collector import NO_FULL_COLLECTION, full_collections_paused
from sweeps.solver.engine import clear_sweep_caches, evaluate_batch
from sweeps.solver.spec import read_sweep
from tests.properties.strategies import seed_catalog


@pytest.fixture
def thresholds():
    before = gc.get_threshold()
    gc.set_threshold(555, 7, 9)
    yield (555, 7, 9)
    gc.set_threshold(*before)


def test_a_block_pauses_only_full_collections_and_gives_the_thresholds_back(thresholds):
    with full_collections_paused():
        assert gc.get_threshold() == (555, 7, NO_FULL_COLLECTION)
        with full_collections_paused():
            assert gc.get_threshold() == (555, 7, NO_FULL_COLLECTION)
        assert gc.get_threshold() == (555, 7, NO_FULL_COLLECTION)
    assert gc.get_threshold() == thresholds
    with pytest.raises(ZeroDivisionError), full_collections_paused():
        1 / 0
    assert gc.get_threshold() == thresholds


def test_blocks_overlapping_in_threads_give_the_thresholds_back_when_the_last_ends(thresholds):
    """The first thread's block ends while the second's runs: still paused, then given back."""
    first_in, first_out, second_in = threading.Event(), threading.Event(), threading.Event()
    seen = {}

    def first():
        with full_collections_paused():
            first_in.set()
            second_in.wait(5)
        first_out.set()

    def second():
        first_in.wait(5)
        with full_collections_paused():
            second_in.set()
            first_out.wait(5)
            seen["after the first ended"] = gc.get_threshold()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert seen["after the first ended"] == (555, 7, NO_FULL_COLLECTION)
    assert gc.get_threshold() == thresholds


def test_a_batch_gives_the_thresholds_back(thresholds):
    spec = read_sweep({"name": "gc", "base": {"name": "gc", "compute": {"system": "dgx-h100", "gpus": 256}},
                       "axes": {"compute.gpus": [256, 512, -1]}, "objectives": [{"key": "cost.tco_usd"}]})
    clear_sweep_caches()
    results = evaluate_batch(spec, 0, spec.design_count, seed_catalog())
    assert [result.feasible for result in results] == [True, True, False]
    assert gc.get_threshold() == thresholds


def test_a_sweep_pauses_full_collections_until_its_last_batch_is_taken_or_it_is_closed(thresholds):
    """The caller's summary and output file take the results while the pause lasts."""
    spec = read_sweep({"name": "gc", "base": {"name": "gc", "compute": {"system": "dgx-h100", "gpus": 256}},
                       "axes": {"compute.gpus": [256, 512, 768]}, "objectives": [{"key": "cost.tco_usd"}]})
    for closed_early in (False, True):
        batches = run_sweep(spec, seed_catalog(), batch_size=1)
        next(batches)
        assert gc.get_threshold() == (555, 7, NO_FULL_COLLECTION)
        if closed_early:
            batches.close()
        else:
            assert len(list(batches)) == 2
        assert gc.get_threshold() == thresholds
