"""Scenarios with their revisions, the catalog of GPU systems and management servers, and the
versions of the whole catalog that revisions are planned against."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from catalog.part_models import catalog_part_model
from catalog.solver.parts import ServerSpec, SystemSpec

System = catalog_part_model("System", SystemSpec, __name__, "systems")
Server = catalog_part_model("Server", ServerSpec, __name__, "servers")


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

    def __str__(self) -> str:
        return f"catalog version {self.number}"


class Scenario(models.Model):
    """A scenario belongs to its owner; its document lives in immutable revisions."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="scenarios")
    name = models.CharField(max_length=200)
    revision = models.PositiveIntegerField(default=1, help_text="Number of the current revision.")
    # A default rather than auto_now_add, so that a restored backup keeps its times.
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def current_revision(self) -> "ScenarioRevision":
        return self.revisions.get(number=self.revision)

    @property
    def document(self) -> dict:
        return self.current_revision.document


class ScenarioRevision(models.Model):
    scenario = models.ForeignKey(Scenario, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    document = models.JSONField()
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    catalog_version = models.ForeignKey(
        CatalogVersion,
        on_delete=models.PROTECT,
        null=True,
        related_name="revisions",
        help_text="The catalog the revision is planned against (null: today's).",
    )
    key_figures = models.JSONField(
        default=dict,
        blank=True,
        help_text="What the scenario list shows of the plan (planner.key_figures.revision_figures), "
        "kept when the revision is saved; empty until it is computed.",
    )

    class Meta:
        ordering = ["scenario", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["scenario", "number"], name="unique_scenario_revision")
        ]

    def __str__(self) -> str:
        return f"{self.scenario.name} r{self.number}"
