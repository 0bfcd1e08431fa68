from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from planner.backup import scenarios_export


class Command(BaseCommand):
    help = (
        "Write every scenario with all its revisions, the users (with their password hashes) and "
        "the catalog versions the revisions are planned against to one JSON file, for a backup "
        "that import_scenarios restores. A FILE ending in .gz is gzip-compressed. The file is "
        "readable by its owner only: keep it as private as the database."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="The backup file to write (.json or .json.gz).")

    def handle(self, *args, **options):
        path = options["file"]
        try:
            counts = scenarios_export(path=path)
        except OSError as error:
            raise CommandError(f"{path}: cannot be written ({error.strerror or error})") from None
        if options["verbosity"] > 0:
            self.stdout.write(
                f"Wrote {counts.scenarios} scenarios ({counts.revisions} revisions), "
                f"{counts.users} users and {counts.catalog_versions} catalog versions to {path}."
            )
