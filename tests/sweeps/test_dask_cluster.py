"""A sweep on a real Dask cluster, started as the README says: `dask scheduler` as Dask ships it
(an environment where the project cannot be imported) and two `dask worker` processes in the
project's environment, on loopback. Its front and best designs are the in-process sweep's.

Each process is ended whatever happens: the cluster fixture terminates them, then kills any
that outlive the grace period."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from distributed import Client

from scripts.benchmark_sweep import sweep_document
from sweeps.runner import run_sweep
from sweeps.solver.spec import read_sweep
from sweeps.solver.summary import SweepSummary

PROJECT_ROOT = Path(__file__).resolve().parents[2]
WORKERS = 2
START_TIMEOUT_S = 30
STOP_TIMEOUT_S = 10
BENCHMARK_PUE_VALUES = 2
"""The benchmark sweep with two PUE values: 160 designs, a second or two."""


def _environment_without_project() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if name not in ("PYTHONPATH", "DJANGO_SETTINGS_MODULE")}


def _dask(command: list[str], log: Path, cwd: Path, environment: dict[str, str]) -> subprocess.Popen:
    """`dask <command>` from this environment, as `.venv/bin/dask` runs it."""
    with log.open("wb") as output:
        return subprocess.Popen([sys.executable, "-m", "dask", *command], cwd=cwd, env=environment,
                                stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)


def _stop(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        if process.poll() is None:
            process.terminate()
    deadline = time.monotonic() + STOP_TIMEOUT_S
    for process in processes:
        try:
            process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _logs(directory: Path) -> str:
    return "\n".join(f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}" for log in sorted(directory.glob("*.log")))


def _scheduler_address(scheduler_file: Path, scheduler: subprocess.Popen, logs: Path) -> str:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if scheduler.poll() is not None:
            pytest.fail(f"the scheduler stopped ({scheduler.returncode})\n{_logs(logs)}")
        if scheduler_file.exists():
            try:
                return json.loads(scheduler_file.read_text())["address"]
            except (ValueError, KeyError):
                pass  # written, not yet in full
        time.sleep(0.1)
    pytest.fail(f"no scheduler after {START_TIMEOUT_S} s\n{_logs(logs)}")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """The address of a scheduler that cannot import the project, with two workers that can."""
    directory = tmp_path_factory.mktemp("dask-cluster")
    plain = _environment_without_project()
    scheduler_directory = directory / "scheduler"
    scheduler_directory.mkdir()
    scheduler_file = directory / "scheduler.json"
    cannot_import = subprocess.run([sys.executable, "-c", "import sweeps"], cwd=scheduler_directory, env=plain,
                                   capture_output=True, check=False)
    assert cannot_import.returncode != 0, "the scheduler's environment must not see the project"
    processes = []
    try:
        processes.append(_dask(["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                "--scheduler-file", str(scheduler_file)],
                               directory / "scheduler.log", scheduler_directory, plain))
        address = _scheduler_address(scheduler_file, processes[0], directory)
        project = {**plain, "PYTHONPATH": str(PROJECT_ROOT)}
        for number in range(WORKERS):
            processes.append(_dask(["worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                                    "--host", "127.0.0.1", "--local-directory", str(directory / f"worker-{number}")],
                                   directory / f"worker-{number}.log", directory, project))
        with Client(address, timeout=START_TIMEOUT_S) as client:
            client.wait_for_workers(WORKERS, timeout=START_TIMEOUT_S)
        yield address, directory
    finally:
        _stop(processes)


def _summary(spec, batches) -> SweepSummary:
    summary = SweepSummary(spec)
    for results in batches:
        summary.add(results)
    return summary


def test_a_sweep_on_a_plain_scheduler_and_two_worker_processes_finds_the_in_process_front(catalog, cluster):
    address, logs = cluster
    spec = read_sweep(sweep_document(BENCHMARK_PUE_VALUES), catalog)
    in_process = _summary(spec, run_sweep(spec, catalog))
    with Client(address) as client:
        on_cluster = _summary(spec, run_sweep(spec, catalog, client=client))
        workers = client.scheduler_info()["workers"]
    assert on_cluster.designs == spec.design_count, _logs(logs)
    assert on_cluster.feasible == in_process.feasible
    assert on_cluster.front == in_process.front
    assert on_cluster.best == in_process.best
    assert len(in_process.front) > 1
    assert len(workers) == WORKERS
