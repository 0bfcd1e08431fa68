"""Revisions keep the figures the scenario list shows (planner.key_figures.revision_figures),
so that the list never plans a scenario; existing revisions get them here.

Unlike 0005, this data step runs today's planner rather than a copy frozen at this migration:
the figures are a cache of what the planner says of the revision, not data of their own. A
revision that this planner cannot read keeps an empty mapping, and the list fills it the first
time it shows the scenario."""

import logging

from django.db import migrations, models

logger = logging.getLogger(__name__)


def forwards(apps, schema_editor):
    from catalog.rows import catalog_snapshot, catalog_snapshot_from_rows
    from planner.services import document_key_figures

    ScenarioRevision = apps.get_model("planner", "ScenarioRevision")
    today = None
    revisions = ScenarioRevision.objects.select_related("catalog_version").order_by("pk")
    for revision in revisions.iterator(chunk_size=200):
        version = revision.catalog_version
        try:
            if version is None:
                today = today or catalog_snapshot()
                catalog = today
            else:
                catalog = catalog_snapshot_from_rows(version.snapshot, version.digest)
            figures = document_key_figures(revision.document, catalog)
        except Exception:  # a revision this code cannot plan: the list fills it later
            logger.warning("revision %s: key figures left for the list to fill", revision.pk, exc_info=True)
            continue
        ScenarioRevision.objects.filter(pk=revision.pk).update(key_figures=figures)


class Migration(migrations.Migration):
    dependencies = [
        ("planner", "0005_catalog_versions_data"),
    ]

    operations = [
        migrations.AddField(
            model_name="scenariorevision",
            name="key_figures",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="What the scenario list shows of the plan "
                "(planner.key_figures.revision_figures), kept when the revision is saved; empty "
                "until it is computed.",
            ),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
