from django.core.management.base import BaseCommand, CommandError

from planner.catalog import catalog_load
from planner.solver.errors import ScenarioError


class Command(BaseCommand):
    help = "Create or update the component catalog from the seed data files (by slug)."

    def handle(self, *args, **options):
        try:
            counts = catalog_load()
        except ScenarioError as error:
            raise CommandError("\n".join(str(problem) for problem in error.errors)) from None
        if options["verbosity"] > 0:
            for model, count in counts.items():
                self.stdout.write(f"{model}: {count} parts")
