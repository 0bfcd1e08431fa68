from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from planner.backup import BackupError, scenarios_import


class Command(BaseCommand):
    help = (
        "Restore scenarios from a file written by export_scenarios (.json or .json.gz), into an "
        "empty database or one in use. Users that exist (by username) are reused and not "
        "changed; catalog versions that exist (same content) are reused; a scenario already "
        "there (same owner, name and creation time) is skipped, so importing a file twice is "
        "harmless. A file with a problem is refused whole, naming where the problem is."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="The backup file to read.")

    def handle(self, *args, **options):
        path = options["file"]
        if not path.is_file():
            raise CommandError(f"{path}: no such file")
        try:
            counts = scenarios_import(path=path)
        except BackupError as error:
            raise CommandError(f"{path}: {error}; nothing was imported") from None
        except DatabaseError as error:
            raise CommandError(
                f"{path}: the database refused a record ({error}); nothing was imported"
            ) from None
        if options["verbosity"] > 0:
            self.stdout.write(
                f"Imported {counts.scenarios_added} scenarios ({counts.revisions_added} revisions); "
                f"skipped {counts.scenarios_skipped} already present. Users: {counts.users_added} "
                f"added, {counts.users_existing} existing reused. Catalog versions: "
                f"{counts.catalog_versions_added} added, {counts.catalog_versions_existing} existing reused."
            )
