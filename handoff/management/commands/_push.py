"""What push_nautobot and push_netbox share: the scenario argument, the tool's address and
token (options or environment), the exit codes and the summary they print. A command says only
which tool it pushes to, its own options and how it calls its push."""

import os
import sys
from abc import ABCMeta, abstractmethod
from typing import Any

from django.core.management.base import BaseCommand

from core.solver.errors import ScenarioError
from handoff.push import PushSummary
from handoff.scenarios import scenario_plan_and_catalog

EXIT_PUSH_FAILED = 1
EXIT_BAD_SCENARIO = 2


class PushCommand(BaseCommand, metaclass=ABCMeta):
    name = ""
    """The command's name, which starts its error lines (`push_nautobot`)."""
    tool = ""
    """The tool's name as a user writes it (`Nautobot`); its host in the --url example in lower case."""
    environment = ""
    """The start of the environment variables that give the URL and token (`NAUTOBOT`)."""
    push_error: type[Exception] = Exception
    """The error a push raises when the tool cannot be reached or refuses it."""

    def add_arguments(self, parser):
        parser.add_argument("scenario", help="A saved scenario's id, or a scenario document (JSON or YAML).")
        parser.add_argument("--url", default=os.environ.get(f"{self.environment}_URL", ""),
                            help=f"{self.tool}'s address, e.g. https://{self.tool.lower()}.example.com "
                                 f"(default ${self.environment}_URL).")
        parser.add_argument("--token", default=os.environ.get(f"{self.environment}_TOKEN", ""),
                            help=f"A {self.tool} API token with write access (default ${self.environment}_TOKEN).")
        self.add_tool_arguments(parser)

    def add_tool_arguments(self, parser) -> None:
        """The options of this tool's push."""

    @abstractmethod
    def push(self, plan: Any, catalog: Any, url: str, token: str, options: dict) -> PushSummary:
        """Push the plan to the tool at `url` with the command's own `options`."""

    def handle(self, *args, scenario, url, token, **options):
        try:
            plan, catalog = scenario_plan_and_catalog(scenario=scenario)
            summary = self.push(plan, catalog, url, token, options)
        except ScenarioError as error:
            # The scenario's problems, or an option the push checks as a scenario field (a device prefix).
            for problem in error.errors:
                self.stderr.write(str(problem))
            sys.exit(EXIT_BAD_SCENARIO)
        except self.push_error as error:
            self.stderr.write(f"{self.name}: {error}")
            sys.exit(EXIT_PUSH_FAILED)
        for line in summary.lines():
            self.stdout.write(line)
