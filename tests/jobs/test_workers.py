"""Worker processes: two never claim the same job (twenty threads, each with its own database
connection as each worker process has, claiming from one queue at once, on a SQLite file with the
project's settings and on PostgreSQL when the suite runs on it); and `manage.py runworker` as
the server runs it: on start it fails the jobs a dead worker left running, then runs the queue,
and SIGTERM stops it cleanly."""

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connections

from jobs.models import Job
from jobs.services import job_claim_next, job_enqueue
from tests.planner.test_concurrent_saves import file_database, migrated_file  # noqa: F401 (fixtures)

WORKERS = 20
JOBS = 30
ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = {"name": "Pod", "compute": {"system": "dgx-b200", "nodes": 8},
            "fabrics": {"compute": {"switch": "qm9700"}}}
WAIT_S = 60


def claim_all(worker: str) -> list[int]:
    claimed = []
    while (job := job_claim_next(worker=worker)) is not None:
        claimed.append(job.pk)
    return claimed


def check_each_job_claimed_once(claims: list) -> None:
    failures = [claim for claim in claims if isinstance(claim, Exception)]
    assert not failures
    pks = [pk for claimed in claims for pk in claimed]
    assert len(pks) == len(set(pks)) == JOBS
    assert sum(1 for claimed in claims if claimed) > 1, "one worker took them all: no contention tested"
    assert set(Job.objects.values_list("status", flat=True)) == {"running"}
    workers = dict(Job.objects.values_list("pk", "worker"))
    for index, claimed in enumerate(claims):
        assert all(workers[pk] == f"worker:{index}" for pk in claimed)


@pytest.mark.django_db
def test_workers_never_claim_the_same_job_on_sqlite(file_database, settings):  # noqa: F811
    settings.JOB_MAX_ACTIVE_PER_OWNER = JOBS

    def enqueue(_):
        owner = get_user_model().objects.create_user("ada")
        for index in range(JOBS):
            job_enqueue(owner=owner, kind="write_text", parameters={"text": str(index)}, reuse=False)

    assert file_database(enqueue, 1) == [None]
    results = file_database(lambda index: claim_all(f"worker:{index}"), WORKERS)

    def check(_):
        check_each_job_claimed_once(results)

    [outcome] = file_database(check, 1)
    assert outcome is None


@pytest.mark.django_db(transaction=True)
def test_workers_never_claim_the_same_job_on_postgresql(settings):
    if connections["default"].vendor != "postgresql":
        pytest.skip("runs on PostgreSQL (scripts/with-postgres)")
    settings.JOB_MAX_ACTIVE_PER_OWNER = JOBS
    owner = get_user_model().objects.create_user("ada")
    for index in range(JOBS):
        job_enqueue(owner=owner, kind="write_text", parameters={"text": str(index)}, reuse=False)
    results = [None] * WORKERS
    barrier = threading.Barrier(WORKERS)

    def run(index):
        try:
            barrier.wait()
            results[index] = claim_all(f"worker:{index}")
        except Exception as error:  # noqa: BLE001 (what each thread met is the result)
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(WORKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    check_each_job_claimed_once(results)


@pytest.mark.django_db
def test_runworker_fails_a_dead_workers_job_runs_the_queue_and_stops_on_sigterm(file_database, tmp_path, dead_pid):  # noqa: F811
    dead_worker = f"{socket.gethostname()}:{dead_pid}"

    def queue(_):
        owner = get_user_model().objects.create_user("ada")
        job_enqueue(owner=owner, kind="plan_export", parameters={"format": "json", "document": {"name": "x"}})
        left = job_claim_next(worker=dead_worker)
        queued = job_enqueue(owner=owner, kind="plan_export", parameters={"format": "cabling", "document": DOCUMENT})
        return left.pk, queued.pk

    [(left, queued)] = file_database(queue, 1)
    environment = {**os.environ, "PLANNER_VAR_DIR": str(tmp_path)}
    environment.pop("DATABASE_URL", None)
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "runworker", "--poll-interval", "0.2"], cwd=ROOT, env=environment,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        deadline = time.monotonic() + WAIT_S
        states = {}
        while time.monotonic() < deadline and states.get(queued) != "done":
            time.sleep(0.2)
            [states] = file_database(lambda _: dict(Job.objects.values_list("pk", "status")), 1)
        assert states == {left: "failed", queued: "done"}
        worker.send_signal(signal.SIGTERM)
        output, _ = worker.communicate(timeout=10)
    finally:
        worker.kill()
    assert worker.returncode == 0, output
    assert "(1 left running by a dead worker failed)" in output
    assert output.rstrip().endswith("stopped")
    [result] = (tmp_path / "jobs" / str(queued)).iterdir()
    assert result.name == "pod.cabling.zip"
