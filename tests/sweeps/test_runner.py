"""The same sweep run in this process, over two worker processes and on a Dask LocalCluster
gives the same designs."""

import pytest
from distributed import Client, LocalCluster

from sweeps.runner import batch_size_for, design_batches, run_sweep, scheduler_address
from sweeps.solver.spec import read_sweep
from tests.sweeps.solver.test_engine import SMALL_SWEEP


@pytest.fixture(scope="module")
def spec(catalog):
    return read_sweep(SMALL_SWEEP, catalog)


def _by_index(batches) -> dict:
    return {design.index: design for batch in batches for design in batch}


@pytest.fixture(scope="module")
def in_process(spec, catalog):
    return _by_index(run_sweep(spec, catalog))


def test_batches_cover_every_design_once():
    assert list(design_batches(10, 4)) == [(0, 4), (4, 8), (8, 10)]
    assert batch_size_for(24, 2) == 3 and batch_size_for(10_000_000, 2) == 2000


def test_in_process_plans_every_design_once(spec, in_process):
    assert sorted(in_process) == list(range(spec.design_count))


def test_two_worker_processes_give_the_same_designs(spec, catalog, in_process):
    assert _by_index(run_sweep(spec, catalog, workers=2)) == in_process


def test_a_dask_local_cluster_gives_the_same_designs(spec, catalog, in_process):
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        batches = list(run_sweep(spec, catalog, client=client, batch_size=5))
        by_address = _by_index(run_sweep(spec, catalog, scheduler=cluster.scheduler_address))
        # More batches than are sent ahead (8: 2 threads x 4): each is sent once as another ends.
        one_by_one = list(run_sweep(spec, catalog, client=client, batch_size=1))
    assert len(batches) == 5
    assert _by_index(batches) == in_process
    assert by_address == in_process
    assert len(one_by_one) == spec.design_count > 8
    assert _by_index(one_by_one) == in_process


def test_the_scheduler_address_comes_from_the_option_or_the_environment(monkeypatch):
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)
    assert scheduler_address(None) is None
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", "tcp://cluster:8786")
    assert scheduler_address(None) == "tcp://cluster:8786"
    assert scheduler_address("tcp://other:8786") == "tcp://other:8786"
