"""Scenarios with their revisions, and the catalog of GPU systems and management servers."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from catalog.models import CatalogVersion
from catalog.part_models import catalog_part_model
from catalog.solver.parts import ServerSpec, SystemSpec

System = catalog_part_model("System", SystemSpec, __name__, "systems")
Server = catalog_part_model("Server", ServerSpec, __name__, "servers")


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
