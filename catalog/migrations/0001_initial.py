import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    """CatalogVersion comes over from planner as it stands: the state only, on planner's table
    (planner.0009 lets go of it). No row is touched."""

    initial = True

    dependencies = [
        ("planner", "0008_system_spans_racks"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="CatalogVersion",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("number", models.PositiveIntegerField(unique=True)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("digest", models.CharField(db_index=True, help_text="SHA-256 of the snapshot.", max_length=64)),
                        ("snapshot", models.JSONField(help_text="Every part's values, by snapshot field and slug.")),
                        ("reason", models.CharField(blank=True, max_length=200)),
                    ],
                    options={
                        "ordering": ["-number"],
                        "db_table": "planner_catalogversion",
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
