"""Two workers never claim the same job: twenty threads, each with its own database connection
as each worker process has, claim from one queue at once, on a SQLite file with the project's
settings and on PostgreSQL (when the suite runs on it)."""

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connections

from jobs.models import Job
from jobs.services import job_claim_next, job_enqueue
from tests.planner.test_concurrent_saves import file_database, migrated_file  # noqa: F401 (fixtures)

WORKERS = 20
JOBS = 30


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
