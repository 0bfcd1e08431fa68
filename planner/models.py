"""Scenarios with their revisions, and the catalog of GPU systems and management servers."""

from django.conf import settings
from django.db import models

from planner.part_models import catalog_part_model
from planner.solver.parts import ServerSpec, SystemSpec

System = catalog_part_model("System", SystemSpec, __name__, "systems")
Server = catalog_part_model("Server", ServerSpec, __name__, "servers")


class Scenario(models.Model):
    """A scenario belongs to its owner; its document lives in immutable revisions."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="scenarios")
    name = models.CharField(max_length=200)
    revision = models.PositiveIntegerField(default=1, help_text="Number of the current revision.")
    created_at = models.DateTimeField(auto_now_add=True)
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
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["scenario", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["scenario", "number"], name="unique_scenario_revision")
        ]

    def __str__(self) -> str:
        return f"{self.scenario.name} r{self.number}"
