from django.core.management.base import BaseCommand, CommandError

from catalog.edits import catalog_load
from core.solver.errors import ScenarioError


class Command(BaseCommand):
    help = (
        "Create or update the component catalog from the seed data files (by slug). Parts staff "
        "edited in the admin keep their edits: a field the seed file also changed is kept as "
        "edited and reported as a conflict (part, field, seed value, database value), until "
        "--overwrite takes the seed's value. The exit status is 0 when conflicts are reported "
        "(they are not errors); a bad seed file is an error. A new catalog version is recorded "
        "when the catalog's content changed."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--overwrite",
            nargs="*",
            metavar="SLUG",
            help="Take the seed's values over staff edits: of every part, or of the parts named.",
        )

    def handle(self, *args, **options):
        overwrite = options["overwrite"]
        overwrite = False if overwrite is None else (set(overwrite) or True)
        try:
            load = catalog_load(overwrite=overwrite)
        except ScenarioError as error:
            raise CommandError("\n".join(str(problem) for problem in error.errors)) from None
        if options["verbosity"] > 0:
            for model, count in load.parts.items():
                self.stdout.write(f"{model}: {count} parts")
            self.stdout.write(f"{load.created} parts created, {load.updated} updated.")
            state = "recorded" if load.new_version else "unchanged"
            self.stdout.write(f"Catalog version {load.version.number} ({state}).")
        if load.conflicts:
            self.stdout.write(
                self.style.WARNING(
                    f"{len(load.conflicts)} conflict(s): fields staff edited for which the seed "
                    "file gives another value. The database's values were kept; run loadcatalog "
                    "--overwrite [SLUG ...] to take the seed's."
                )
            )
            for conflict in load.conflicts:
                edited = f"edited by {conflict.edited_by or 'staff'}"
                if conflict.edited_at:
                    edited += f" on {conflict.edited_at:%Y-%m-%d %H:%M} UTC"
                self.stdout.write(
                    f"  {conflict.model} {conflict.slug}: {conflict.field}: seed {conflict.seed!r}, "
                    f"database {conflict.database!r} ({edited})"
                )
