"""The versions of the whole catalog that saved revisions are planned against."""

from django.db import models
from django.utils import timezone


class CatalogVersion(models.Model):
    """The whole catalog (every app's parts) as it was at one moment; never changed once saved.

    A new version is recorded whenever the catalog's content differs from the latest one
    (an admin edit, `loadcatalog`, or a change found when a scenario is saved), so that a saved
    revision is planned against the catalog it was saved with.
    """

    number = models.PositiveIntegerField(unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    digest = models.CharField(max_length=64, db_index=True, help_text="SHA-256 of the snapshot.")
    snapshot = models.JSONField(help_text="Every part's values, by snapshot field and slug.")
    reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-number"]
        # The table planner made before the catalog had an app of its own (kept: no data moves).
        db_table = "planner_catalogversion"

    def __str__(self) -> str:
        return f"catalog version {self.number}"
