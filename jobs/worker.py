"""The worker's loop: claim the oldest queued job, run its kind, record the result; between
jobs, fail the jobs of dead workers and delete expired results. `manage.py runworker` runs it.

A job kind (`settings.JOB_KINDS`: kind -> dotted path) is a function taking a `JobContext` and
returning a `JobOutput`, a file it wrote in `context.folder`. It calls `context.progress(share,
message)` as it goes: that records progress and the worker's heartbeat (at most once a second),
and stops the job when the worker is asked to stop. It raises `JobError` for a failure its owner
should read as it is; any other exception fails the job too, with its type and message.
"""

import logging
import shutil
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import OperationalError, close_old_connections
from django.utils.module_loading import import_string

from jobs.models import Job
from jobs.services import (
    JobOutput,
    JobStopped,
    job_claim_next,
    job_delete_expired,
    job_fail,
    job_fail_stale,
    job_folder,
    job_report_progress,
    job_requeue,
    job_succeed,
    worker_name,
)

logger = logging.getLogger(__name__)

PROGRESS_EVERY_S = 1.0
"""Progress is written at most this often: each write is a database transaction."""
HOUSEKEEPING_EVERY_S = 60.0
DATABASE_RETRY_S = 5.0
ALIVE_EVERY_S = 5.0
"""How often a running worker touches settings.JOB_WORKER_ALIVE_FILE, by which /healthz knows a
job worker is up (a file, not a row: a sign of life must not wait for the database's write lock)."""


def worker_alive_file() -> Path:
    return Path(settings.JOB_WORKER_ALIVE_FILE or Path(settings.JOBS_DIR) / "worker.alive")


def _say_alive() -> None:
    path = worker_alive_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    except OSError:  # a full disk: /healthz says so itself
        logger.warning("jobs: cannot touch %s", path)


class JobError(Exception):
    """A failure a job kind explains to the job's owner (the message is shown as it is)."""


class JobInterrupted(Exception):
    """The worker is stopping: the job goes back to the queue."""


@dataclass
class JobContext:
    job: Job
    folder: Path
    stop: threading.Event
    _last_report: float = field(default=0.0)

    @property
    def parameters(self) -> dict:
        return self.job.parameters

    def progress(self, share: float, message: str = "", *, force: bool = False) -> None:
        if self.stop.is_set():
            raise JobInterrupted
        now = time.monotonic()
        if force or now - self._last_report >= PROGRESS_EVERY_S:
            try:
                job_report_progress(job=self.job, progress=share, message=message)
            except OperationalError:
                # The database busy with a heavy save past its timeout: the job goes on, and
                # its next report says where it is (a failed report once orphaned a sweep).
                logger.warning("job %s: progress not recorded this time (database busy)", self.job.pk)
            self._last_report = now


class Worker:
    """Runs jobs one at a time until `stop` is set."""

    def __init__(self, *, name: str | None = None, poll_interval_s: float = 1.0):
        self.name = name or worker_name()
        self.poll_interval_s = poll_interval_s
        self.stop = threading.Event()
        self._housekept_at = float("-inf")

    def run_forever(self) -> None:
        threading.Thread(target=self._say_alive_until_stopped, name="job-worker-alive", daemon=True).start()
        while not self.stop.is_set():
            try:
                # A long-lived process: a connection the database dropped is made again.
                close_old_connections()
                ran = self.run_once()
            except Exception:  # the database away for a moment, say: try again
                logger.exception("jobs: the worker's loop failed; trying again")
                ran = None
                self.stop.wait(DATABASE_RETRY_S)
            if not ran:
                self.stop.wait(self.poll_interval_s)

    def _say_alive_until_stopped(self) -> None:
        # A thread, so that a long job (which reports progress only when it can) does not make
        # the worker look dead; a killed process stops touching at once.
        while not self.stop.is_set():
            _say_alive()
            self.stop.wait(ALIVE_EVERY_S)

    def run_once(self) -> Job | None:
        """Housekeeping when due, then the oldest queued job run to its end; that job (None when
        the queue was empty)."""
        if time.monotonic() - self._housekept_at >= HOUSEKEEPING_EVERY_S:
            self.housekeeping()
        job = job_claim_next(worker=self.name)
        if job is not None:
            self.run(job)
        return job

    def housekeeping(self) -> tuple[int, int]:
        """Fail the jobs of dead workers and delete expired results: how many of each."""
        self._housekept_at = time.monotonic()
        stale = job_fail_stale()
        expired = job_delete_expired()
        if stale or expired:
            logger.warning("jobs: %s of dead workers failed, %s expired deleted", stale, expired)
        return stale, expired

    def run(self, job: Job) -> None:
        folder = job_folder(job)
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        context = JobContext(job=job, folder=folder, stop=self.stop)
        try:
            run_kind = import_string(settings.JOB_KINDS[job.kind])
        except (KeyError, ImportError) as error:
            job_fail(job=job, error=f"this worker cannot run jobs of kind {job.kind!r} ({error})")
            return
        try:
            output = run_kind(context)
            if not isinstance(output, JobOutput) or not (folder / output.name).is_file():
                raise TypeError(f"job kind {job.kind} made no result file")
        except JobInterrupted:
            logger.warning("job %s put back in the queue: its worker is stopping", job.pk)
            job_requeue(job=job)
        except JobStopped:
            job.refresh_from_db()
            if job.status == Job.Status.CANCELLED:
                shutil.rmtree(folder, ignore_errors=True)
            logger.warning("job %s was taken from this worker while it ran (%s)", job.pk, job.status)
        except JobError as error:
            job_fail(job=job, error=str(error))
        except Exception as error:  # a failing job must not stop the worker
            logger.exception("job %s (%s) failed", job.pk, job.kind)
            job_fail(job=job, error=f"{type(error).__name__}: {error}")
        else:
            job_succeed(job=job, output=output)
