"""Existing databases: the parts staff edited in the admin are marked edited (from the admin's
log), and the catalog as it is becomes version 1, which every existing revision is planned
against (so that no saved scenario's figures move when the catalog is next edited).

Written against the models as they are at this migration (the snapshot fields, the digest's
canonical form), not the code's later state, as a data migration must be."""

import hashlib
import json

from django.db import migrations

CATALOG_MODELS = {
    "systems": ("planner", "system"),
    "servers": ("planner", "server"),
    "switches": ("fabric", "switch"),
    "transceivers": ("fabric", "transceiver"),
    "cables": ("fabric", "cable"),
    "rack_types": ("power", "racktype"),
    "pdus": ("power", "pdu"),
    "cooling_types": ("power", "coolingtype"),
    "cooling_units": ("power", "coolingunit"),
    "storage_systems": ("storage", "storagesystem"),
}
NOT_PART_FIELDS = {"id", "seed_values", "edited_by", "edited_at"}
ADDITION, CHANGE = 1, 2


def _mark_admin_edits(apps, model) -> None:
    """Rows with an admin log entry: edited then, by that user (the seed values they were loaded
    with are unknown, so the next loadcatalog reports every field that differs from the seed)."""
    LogEntry = apps.get_model("admin", "LogEntry")
    entries = (
        LogEntry.objects.filter(
            content_type__app_label=model._meta.app_label,
            content_type__model=model._meta.model_name,
            action_flag__in=[ADDITION, CHANGE],
        )
        .select_related("user")
        .order_by("action_time")
    )
    latest = {entry.object_id: entry for entry in entries}
    for row in model.objects.filter(pk__in=[int(pk) for pk in latest if pk.isdigit()]):
        entry = latest[str(row.pk)]
        row.edited_at = entry.action_time
        row.edited_by = getattr(entry.user, "username", "")[:150]
        row.save(update_fields=["edited_at", "edited_by"])


def forwards(apps, schema_editor):
    rows = {}
    for snapshot_field, (app_label, model_name) in CATALOG_MODELS.items():
        model = apps.get_model(app_label, model_name)
        _mark_admin_edits(apps, model)
        names = [
            field.name for field in model._meta.concrete_fields if field.name not in NOT_PART_FIELDS
        ]
        rows[snapshot_field] = {
            values["slug"]: values for values in model.objects.order_by("slug").values(*names)
        }
    ScenarioRevision = apps.get_model("planner", "ScenarioRevision")
    if not ScenarioRevision.objects.exists():
        return
    text = json.dumps(rows, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    version = apps.get_model("planner", "CatalogVersion").objects.create(
        number=1,
        digest=hashlib.sha256(text.encode()).hexdigest(),
        snapshot=rows,
        reason="the catalog when catalog versions began",
    )
    ScenarioRevision.objects.update(catalog_version=version)


class Migration(migrations.Migration):
    dependencies = [
        ("planner", "0004_catalog_versions"),
        ("fabric", "0002_catalog_edits"),
        ("power", "0003_catalog_edits"),
        ("storage", "0002_catalog_edits"),
        ("admin", "0003_logentry_add_action_flag_choices"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
