"""The only code that changes jobs: enqueue, claim, report progress, finish, cancel, resume the
jobs of dead workers, and clear old ones.

A job keeps its progress and its folder when its worker stops (shut down, or killed: found
stale): it goes back to the queue, and the job kind may resume from what it left in its folder
(a sweep keeps its batches done). A job that has been started JOB_MAX_ATTEMPTS times is failed
instead, so that a job that kills its worker does not take every worker down in turn.

Claiming is atomic on both databases: on PostgreSQL the queued row is locked and rows other
workers hold are skipped (`select_for_update(skip_locked=True)`); on SQLite, where row locks do
not exist (Django leaves `select_for_update` out), every transaction begins IMMEDIATE
(settings.py) and so holds the database's write lock from its first read, one claim at a time.
Either way, the update that marks a job running also requires it to be queued still.
"""

import hashlib
import json
import os
import shutil
import socket
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from jobs.models import Job

MESSAGE_MAX_CHARS = Job._meta.get_field("message").max_length
ERROR_MAX_CHARS = 2_000
"""An error shown to the job's owner: its first lines, not a log."""
JOB_STALE_AFTER_S = 10 * 60
"""A running job whose worker gave no sign of life for this long is failed: its worker died
(workers report progress, and with it a heartbeat, every second or so while a job runs)."""


class TooManyJobs(Exception):
    """The owner already has settings.JOB_MAX_ACTIVE_PER_OWNER jobs queued or running."""


class JobStopped(Exception):
    """The job is no longer this worker's to run (failed as stale, or deleted)."""


@dataclass(frozen=True)
class JobOutput:
    """What a job kind made: a file in the job's folder, its name and content type."""

    name: str
    content_type: str


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"[:100]


def job_fingerprint(kind: str, parameters: dict[str, Any]) -> str:
    text = json.dumps({"kind": kind, "parameters": parameters}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def job_folder(job: Job) -> Path:
    return Path(settings.JOBS_DIR) / str(job.pk)


def job_result_file(job: Job) -> Path | None:
    """The job's result file, or None when it has none (not done, or its result was cleared)."""
    if job.status != Job.Status.DONE or not job.result_path:
        return None
    path = Path(settings.JOBS_DIR) / job.result_path
    return path if path.is_file() else None


def job_enqueue(*, owner, kind: str, parameters: dict[str, Any], title: str = "", reuse: bool = True) -> Job:
    """A new queued job, or with `reuse` the owner's job of the same kind and parameters that is
    queued, running or done (its result not yet cleared): asking twice does the work once."""
    if kind not in settings.JOB_KINDS:
        raise ValueError(f"unknown job kind {kind!r}: not in settings.JOB_KINDS")
    fingerprint = job_fingerprint(kind, parameters)
    with transaction.atomic():
        if reuse:
            same = Job.objects.filter(
                owner=owner, fingerprint=fingerprint,
                status__in=[Job.Status.QUEUED, Job.Status.RUNNING, Job.Status.DONE],
            ).order_by("-created_at", "-pk").first()
            if same is not None:
                return same
        active = Job.objects.filter(owner=owner, status__in=[Job.Status.QUEUED, Job.Status.RUNNING]).count()
        if active >= settings.JOB_MAX_ACTIVE_PER_OWNER:
            raise TooManyJobs(
                f"you have {active} jobs queued or running, the most one may have: wait until one "
                "has finished"
            )
        return Job.objects.create(
            owner=owner, kind=kind, title=title[:200], parameters=parameters, fingerprint=fingerprint
        )


def job_claim_next(*, worker: str) -> Job | None:
    """The oldest queued job, now running for `worker`; None when the queue is empty."""
    if not Job.objects.filter(status=Job.Status.QUEUED).exists():
        # An empty queue is seen without taking SQLite's write lock, which every transaction
        # here takes when it begins: idle workers look every second.
        return None
    with transaction.atomic():
        job = (
            Job.objects.select_for_update(skip_locked=True)
            .filter(status=Job.Status.QUEUED)
            .order_by("created_at", "pk")
            .first()
        )
        if job is None:
            return None
        now = timezone.now()
        claimed = Job.objects.filter(pk=job.pk, status=Job.Status.QUEUED).update(
            status=Job.Status.RUNNING, worker=worker, started_at=now, heartbeat_at=now,
            attempts=F("attempts") + 1,
            message=f"resumed at {job.progress:.0%}" if job.progress else "started",
        )
        if not claimed:
            return None
    job.refresh_from_db()
    return job


def _running(job: Job):
    return Job.objects.filter(pk=job.pk, status=Job.Status.RUNNING, worker=job.worker)


def job_report_progress(*, job: Job, progress: float, message: str = "") -> None:
    """Record the share done (0 to 1) and what the job is doing; it is also the heartbeat.
    Raises JobStopped when the job is no longer running for its worker."""
    progress = min(1.0, max(0.0, float(progress)))
    updated = _running(job).update(
        progress=progress, message=message[:MESSAGE_MAX_CHARS], heartbeat_at=timezone.now()
    )
    if not updated:
        raise JobStopped(f"job {job.pk} is no longer running for {job.worker}")
    job.progress, job.message = progress, message[:MESSAGE_MAX_CHARS]


def job_succeed(*, job: Job, output: JobOutput) -> None:
    path = job_folder(job) / output.name
    _running(job).update(
        status=Job.Status.DONE, progress=1.0, finished_at=timezone.now(),
        result_path=f"{job.pk}/{output.name}", result_name=output.name,
        result_content_type=output.content_type, result_bytes=path.stat().st_size,
    )
    job.refresh_from_db()


def job_fail(*, job: Job, error: str) -> None:
    _running(job).update(status=Job.Status.FAILED, error=error[:ERROR_MAX_CHARS], finished_at=timezone.now())
    shutil.rmtree(job_folder(job), ignore_errors=True)
    job.refresh_from_db()


def job_requeue(*, job: Job) -> None:
    """Put a job its worker stopped back in the queue, with its progress and its folder: the next
    worker resumes it where the job kind can."""
    _running(job).update(
        status=Job.Status.QUEUED, worker="", started_at=None, heartbeat_at=None,
        message=f"waiting for a worker (its worker stopped at {job.progress:.0%}; it resumes there)",
    )


def job_cancel(*, job: Job) -> bool:
    """Cancel a queued or running job (its worker stops it at its next progress report, and
    clears its folder). False when the job had already finished."""
    cancelled = Job.objects.filter(pk=job.pk, status__in=[Job.Status.QUEUED, Job.Status.RUNNING]).update(
        status=Job.Status.CANCELLED, finished_at=timezone.now(), message="cancelled by its owner",
    )
    was_queued = job.status == Job.Status.QUEUED
    job.refresh_from_db()
    if cancelled and was_queued:
        shutil.rmtree(job_folder(job), ignore_errors=True)
    return bool(cancelled)


def job_fail_stale(*, now=None) -> int:
    """Resume, or fail, the running jobs whose worker is gone: it gave no sign of life for
    JOB_STALE_AFTER_S, or it was a process of this host that no longer exists. A job started
    fewer than settings.JOB_MAX_ATTEMPTS times goes back to the queue with its progress; one
    started that many times is failed. Returns how many were found."""
    now = now or timezone.now()
    host = socket.gethostname()
    stale = []
    for job in Job.objects.filter(status=Job.Status.RUNNING):
        silent = job.heartbeat_at is None or now - job.heartbeat_at > timedelta(seconds=JOB_STALE_AFTER_S)
        if silent or _dead_local_process(job.worker, host):
            stale.append(job)
    for job in stale:
        if job.attempts < settings.JOB_MAX_ATTEMPTS:
            job_requeue(job=job)
            continue
        job_fail(job=job, error=(
            f"its worker ({job.worker or 'unknown'}) stopped while running it, at "
            f"{job.progress:.0%}, {job.attempts} times: start it again"
        ))
    return len(stale)


def _dead_local_process(worker: str, host: str) -> bool:
    name, _, pid = worker.rpartition(":")
    if name != host or not pid.isdigit():
        return False
    if int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def job_delete_expired(*, now=None) -> int:
    """Delete the jobs finished more than settings.JOB_RESULT_TTL_S ago, with their files, and
    any folder under JOBS_DIR that no job owns any more. Returns how many jobs."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.JOB_RESULT_TTL_S)
    expired = Job.objects.filter(
        status__in=[Job.Status.DONE, Job.Status.FAILED, Job.Status.CANCELLED], finished_at__lt=cutoff
    )
    for pk in expired.values_list("pk", flat=True):
        shutil.rmtree(Path(settings.JOBS_DIR) / str(pk), ignore_errors=True)
    count, _ = expired.delete()
    root = Path(settings.JOBS_DIR)
    if root.is_dir():
        known = {str(pk) for pk in Job.objects.values_list("pk", flat=True)}
        for folder in root.iterdir():
            if folder.is_dir() and folder.name not in known and folder.stat().st_mtime < cutoff.timestamp():
                shutil.rmtree(folder, ignore_errors=True)
    return count
