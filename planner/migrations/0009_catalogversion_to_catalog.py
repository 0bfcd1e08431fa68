import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """CatalogVersion now belongs to the catalog app (catalog.0001), on the same table: the
    revisions point at it there. The state only; the database does not change."""

    dependencies = [
        ("planner", "0008_system_spans_racks"),
        ("catalog", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="scenariorevision",
                    name="catalog_version",
                    field=models.ForeignKey(
                        help_text="The catalog the revision is planned against (null: today's).",
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="revisions",
                        to="catalog.catalogversion",
                    ),
                ),
                migrations.DeleteModel(name="CatalogVersion"),
            ],
            database_operations=[],
        ),
    ]
