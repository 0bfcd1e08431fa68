"""A job's life: queued, claimed by one worker, progress, done with its file or failed with its
error; the same work asked twice is done once; old results are deleted; dead workers' jobs fail."""

import socket
from datetime import timedelta

import pytest
from django.utils import timezone

from jobs.models import Job
from jobs.services import (
    JOB_STALE_AFTER_S,
    JobStopped,
    TooManyJobs,
    job_claim_next,
    job_delete_expired,
    job_enqueue,
    job_fail_stale,
    job_folder,
    job_report_progress,
    job_result_file,
)
from jobs.worker import Worker

pytestmark = pytest.mark.django_db


def test_a_job_is_queued_claimed_reports_progress_and_is_done_with_its_file(user, monkeypatch):
    job = job_enqueue(owner=user, kind="write_text", parameters={"text": "abc", "steps": 3}, title="Text")
    assert (job.status, job.progress, job.title) == ("queued", 0.0, "Text")
    seen = []

    def recorded(*, job, progress, message=""):
        job_report_progress(job=job, progress=progress, message=message)
        stored = Job.objects.get(pk=job.pk)
        seen.append((stored.status, stored.progress, stored.message))

    monkeypatch.setattr("jobs.worker.job_report_progress", recorded)
    worker = Worker(name="host:1")
    assert worker.run_once() == job
    assert seen == [("running", 1 / 3, "step 1 of 3"), ("running", 2 / 3, "step 2 of 3"), ("running", 1.0, "step 3 of 3")]
    job.refresh_from_db()
    assert (job.status, job.progress, job.worker, job.error) == ("done", 1.0, "host:1", "")
    assert job.started_at <= job.finished_at
    assert job_result_file(job).read_text() == "abcabcabc"
    assert (job.result_name, job.result_content_type, job.result_bytes) == ("out.txt", "text/plain", 9)
    assert worker.run_once() is None


@pytest.mark.parametrize(("kind", "error"), [
    ("refuse", "the scenario was deleted"),
    ("crash", "KeyError: 'missing'"),
    ("no_such_kind", "this worker cannot run jobs of kind 'no_such_kind'"),
])
def test_a_failing_job_is_failed_with_its_error_and_the_worker_goes_on(user, kind, error, settings):
    settings.JOB_KINDS = {**settings.JOB_KINDS, "no_such_kind": "tests.jobs.kinds.not_there"}
    failing = job_enqueue(owner=user, kind=kind, parameters={})
    after = job_enqueue(owner=user, kind="write_text", parameters={"text": "x"})
    worker = Worker()
    worker.run_once()
    failing.refresh_from_db()
    assert failing.status == "failed"
    assert failing.error.startswith(error)
    assert job_result_file(failing) is None and not job_folder(failing).exists()
    assert worker.run_once() == after
    after.refresh_from_db()
    assert after.status == "done"


def test_a_worker_asked_to_stop_puts_its_job_back_in_the_queue(user):
    job = job_enqueue(owner=user, kind="stop_worker_midway", parameters={})
    worker = Worker()
    worker.run_once()
    job.refresh_from_db()
    # Its progress is kept: the next worker resumes it there (issue 27.2).
    assert (job.status, job.progress, job.worker, job.started_at) == ("queued", 0.5, "", None)
    assert "it resumes there" in job.message
    assert worker.stop.is_set()
    assert job_claim_next(worker="other:2") == job
    job.refresh_from_db()
    assert (job.attempts, job.message) == (2, "resumed at 50%")


def test_the_same_work_asked_again_is_the_same_job_until_it_fails(user, django_user_model):
    first = job_enqueue(owner=user, kind="write_text", parameters={"text": "a", "steps": 1})
    assert job_enqueue(owner=user, kind="write_text", parameters={"steps": 1, "text": "a"}) == first
    assert job_enqueue(owner=user, kind="write_text", parameters={"text": "b"}) != first
    other = django_user_model.objects.create_user("grace", password="x" * 12)
    assert job_enqueue(owner=other, kind="write_text", parameters={"text": "a", "steps": 1}) != first
    Worker().run_once()
    first.refresh_from_db()
    assert first.status == "done"
    assert job_enqueue(owner=user, kind="write_text", parameters={"text": "a", "steps": 1}) == first
    Job.objects.filter(pk=first.pk).update(status="failed")
    assert job_enqueue(owner=user, kind="write_text", parameters={"text": "a", "steps": 1}) != first


def test_an_owner_has_a_bounded_number_of_jobs_waiting(user, settings):
    for index in range(settings.JOB_MAX_ACTIVE_PER_OWNER):
        job_enqueue(owner=user, kind="write_text", parameters={"text": str(index)})
    with pytest.raises(TooManyJobs, match="wait until one has finished"):
        job_enqueue(owner=user, kind="write_text", parameters={"text": "one more"})


def test_an_unknown_kind_is_not_queued(user):
    with pytest.raises(ValueError, match="unknown job kind"):
        job_enqueue(owner=user, kind="format_disk", parameters={})


def test_progress_of_a_job_no_longer_running_for_its_worker_stops_it(user):
    job_enqueue(owner=user, kind="write_text", parameters={"text": "a"})
    job = job_claim_next(worker="host:1")
    job_report_progress(job=job, progress=0.25, message="a quarter")
    Job.objects.filter(pk=job.pk).update(worker="host:2")
    with pytest.raises(JobStopped):
        job_report_progress(job=job, progress=0.5)
    assert Job.objects.get(pk=job.pk).progress == 0.25


def test_running_jobs_of_a_dead_worker_are_resumed_then_failed(user, dead_pid, settings):
    job_enqueue(owner=user, kind="write_text", parameters={"text": "silent"})
    job_enqueue(owner=user, kind="write_text", parameters={"text": "dead process"})
    job_enqueue(owner=user, kind="write_text", parameters={"text": "alive"})
    silent = job_claim_next(worker="far-away-host:1")
    Job.objects.filter(pk=silent.pk).update(heartbeat_at=timezone.now() - timedelta(seconds=JOB_STALE_AFTER_S + 1))
    dead = job_claim_next(worker=f"{socket.gethostname()}:{dead_pid}")
    alive = job_claim_next(worker="far-away-host:2")
    Job.objects.filter(pk=silent.pk).update(attempts=settings.JOB_MAX_ATTEMPTS)
    assert job_fail_stale() == 2
    states = {job.pk: (job.status, job.error) for job in Job.objects.all()}
    # Started as often as a job may be: failed. Else back in the queue, to be resumed.
    assert states[silent.pk][0] == "failed"
    assert f"stopped while running it, at 0%, {settings.JOB_MAX_ATTEMPTS} times" in states[silent.pk][1]
    assert states[dead.pk] == ("queued", "")
    assert states[alive.pk] == ("running", "")


def test_results_older_than_a_day_are_deleted_with_their_files(user, settings):
    old = job_enqueue(owner=user, kind="write_text", parameters={"text": "old"})
    Worker().run_once()
    recent = job_enqueue(owner=user, kind="write_text", parameters={"text": "recent"})
    Worker().run_once()
    queued = job_enqueue(owner=user, kind="write_text", parameters={"text": "queued"})
    old.refresh_from_db()
    old_file = job_result_file(old)
    Job.objects.filter(pk=old.pk).update(finished_at=timezone.now() - timedelta(seconds=settings.JOB_RESULT_TTL_S + 1))
    assert job_delete_expired() == 1
    assert not old_file.exists()
    assert set(Job.objects.values_list("pk", flat=True)) == {recent.pk, queued.pk}
    recent.refresh_from_db()
    assert job_result_file(recent).read_text() == "recent"
