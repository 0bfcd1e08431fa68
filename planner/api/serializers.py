from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from planner.api.schema import SCENARIO_DOCUMENT
from planner.models import Scenario, ScenarioRevision


@extend_schema_field(SCENARIO_DOCUMENT)
class ScenarioDocumentField(serializers.JSONField):
    """A scenario document: read by the scenario services, which name each bad field."""


class ScenarioSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="api:scenario-detail")
    plan_url = serializers.HyperlinkedIdentityField(view_name="api:scenario-plan")

    class Meta:
        model = Scenario
        fields = ["id", "url", "plan_url", "name", "revision", "created_at", "updated_at"]
        read_only_fields = fields


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
