from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from planner.models import Scenario, ScenarioRevision
from planner.selectors import current_revisions
from planner.services import revision_key_figures_fill
from workspace.api.schema import SCENARIO_DOCUMENT


@extend_schema_field(SCENARIO_DOCUMENT)
class ScenarioDocumentField(serializers.JSONField):
    """A scenario document: read by the scenario services, which name each bad field."""


class KeyFiguresSerializer(serializers.Serializer):
    """What the current revision kept of its plan when it was saved (the scenario list's
    columns). A revision that could not be planned has only `planned` (false) and `errors`."""

    planned = serializers.BooleanField(help_text="Whether the revision could be planned.")
    errors = serializers.IntegerField(required=False, help_text="Problems found, when not planned.")
    system = serializers.CharField(required=False, help_text="The system's catalog slug.")
    gpus = serializers.FloatField(required=False)
    racks = serializers.FloatField(required=False)
    it_mw = serializers.FloatField(required=False, help_text="IT power [MW].")
    facility_mw = serializers.FloatField(required=False, help_text="Facility power [MW].")
    capex_usd = serializers.FloatField(required=False)
    usd_per_gpu_hour = serializers.FloatField(required=False)
    warnings = serializers.IntegerField(required=False, help_text="Number of the plan's warnings.")


class ScenarioSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="api:scenario-detail")
    plan_url = serializers.HyperlinkedIdentityField(view_name="api:scenario-plan")
    key_figures = serializers.SerializerMethodField()

    class Meta:
        model = Scenario
        fields = ["id", "url", "plan_url", "name", "revision", "created_at", "updated_at", "key_figures"]
        read_only_fields = fields

    @extend_schema_field(KeyFiguresSerializer)
    def get_key_figures(self, scenario) -> dict:
        """From the view's context when it read the page's revisions at once (the list)."""
        known = self.context.get("key_figures", {})
        if scenario.pk in known:
            return known[scenario.pk]
        revision = current_revisions().filter(scenario=scenario).first()
        if revision is None:
            return {"planned": False, "errors": 0}
        revision_key_figures_fill([revision])
        return revision.key_figures


class ScenarioDetailSerializer(ScenarioSerializer):
    document = ScenarioDocumentField(read_only=True)

    class Meta(ScenarioSerializer.Meta):
        fields = [*ScenarioSerializer.Meta.fields, "document"]
        read_only_fields = fields


class ScenarioCreateSerializer(serializers.Serializer):
    document = ScenarioDocumentField(help_text="The scenario document (see the scenario format).")


class ScenarioUpdateSerializer(ScenarioCreateSerializer):
    revision = serializers.IntegerField(
        min_value=1, max_value=2**31 - 1, help_text="The revision this edit is based on; a stale one is refused (409)."
    )


class ScenarioRevisionSerializer(serializers.ModelSerializer):
    author = serializers.StringRelatedField()
    document = ScenarioDocumentField(read_only=True)

    class Meta:
        model = ScenarioRevision
        fields = ["number", "created_at", "author", "document"]
        read_only_fields = fields
