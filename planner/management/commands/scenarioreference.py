from django.core.management.base import BaseCommand

from planner.scenario_reference import scenario_reference_markdown


class Command(BaseCommand):
    help = "Print the reference of every scenario key (Markdown), generated from the spec dataclasses."

    def handle(self, *args, **options):
        self.stdout.write(scenario_reference_markdown(), ending="")
