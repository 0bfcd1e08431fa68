"""Background jobs: work that outlasts a request (heavy exports, sweeps), run by
`manage.py runworker`, with its progress and result file kept here for its owner."""

from django.conf import settings
from django.db import models


class Job(models.Model):
    """One run of a job kind (`settings.JOB_KINDS`) with its parameters, owned by a user."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"
        CANCELLED = "cancelled"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="jobs")
    kind = models.CharField(max_length=50)
    title = models.CharField(max_length=200, blank=True, help_text="What the job makes, for its owner.")
    parameters = models.JSONField(default=dict)
    fingerprint = models.CharField(
        max_length=64, help_text="SHA-256 of the kind and parameters: the same work asked again."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.FloatField(default=0.0, help_text="Share of the work done, 0 to 1.")
    message = models.CharField(max_length=200, blank=True, help_text="What the job is doing.")
    result_path = models.CharField(max_length=255, blank=True, help_text="Under settings.JOBS_DIR.")
    result_name = models.CharField(max_length=255, blank=True, help_text="The download's file name.")
    result_content_type = models.CharField(max_length=100, blank=True)
    result_bytes = models.BigIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    worker = models.CharField(max_length=100, blank=True, help_text="host:pid of the worker running it.")
    attempts = models.PositiveSmallIntegerField(
        default=0, help_text="Times a worker has started it: a job whose worker died is resumed, up to a limit."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True, help_text="Last sign of life of its worker.")
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["status", "created_at"], name="job_queue"),
            models.Index(fields=["owner", "fingerprint"], name="job_owner_fingerprint"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED, self.Status.CANCELLED)
