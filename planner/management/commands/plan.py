import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand

from planner.services import plan_document
from planner.solver.documents import MAX_DOCUMENT_BYTES, parse_document
from planner.solver.errors import ScenarioError

EXIT_BAD_SCENARIO = 2


class Command(BaseCommand):
    help = (
        "Plan a scenario document (JSON or YAML). Prints the plan, or one line per bad field "
        "on stderr and exits with status 2."
    )

    def add_arguments(self, parser):
        parser.add_argument("scenario_file", help="Scenario document, JSON or YAML ('-' for stdin).")
        parser.add_argument("--format", choices=["json"], default="json", help="Output format.")
        parser.add_argument("--output", help="Write to this file instead of standard output.")

    def handle(self, *args, scenario_file, output, **options):
        try:
            plan = plan_document(parse_document(*_read(scenario_file)))
        except ScenarioError as error:
            for problem in error.errors:
                self.stderr.write(str(problem))
            sys.exit(EXIT_BAD_SCENARIO)
        text = json.dumps(plan.to_dict(), indent=2) + "\n"
        if output:
            try:
                Path(output).write_text(text, encoding="utf-8")
            except OSError as error:
                self.stderr.write(f"{output}: cannot be written: {error.strerror}")
                sys.exit(EXIT_BAD_SCENARIO)
        else:
            self.stdout.write(text, ending="")


def _read(scenario_file: str) -> tuple[bytes, str]:
    """The file's bytes and its syntax, judged by its extension."""
    if scenario_file == "-":
        return sys.stdin.buffer.read(), "auto"
    path = Path(scenario_file)
    try:
        with path.open("rb") as handle:
            text = handle.read(MAX_DOCUMENT_BYTES + 1)
    except OSError as error:
        raise ScenarioError.at(scenario_file, f"cannot be read: {error.strerror}") from None
    syntax = {".json": "json", ".yaml": "yaml", ".yml": "yaml"}.get(path.suffix.lower(), "auto")
    return text, syntax
