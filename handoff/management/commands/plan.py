import os
import sys
from pathlib import Path

from django.core.management.base import BaseCommand

from core.solver.errors import ScenarioError
from handoff.exports import (
    BINARY_EXPORTS,
    EXPORT_FORMATS,
    STREAMED_EXPORTS,
    plan_export_lines,
    plan_export_of,
)
from planner.services import IN_A_JOB, plan_document
from planner.solver.documents import MAX_DOCUMENT_BYTES, parse_document

EXIT_BAD_SCENARIO = 2
BINARY_NAMES = {"xlsx": "an xlsx workbook", "cabling-parquet": "a Parquet file", "ufm-p2p": "a UFM bundle (zip: point-to-point workbook and hca_mapping)", "netbox": "a NetBox bundle (zip)"}


class Command(BaseCommand):
    help = (
        "Plan a scenario document (JSON or YAML). Prints the plan (json), the bill of materials "
        "(csv), the point-to-point cabling plan (cabling, CSV written line by line), Slurm's topology "
        "(slurm: topology.conf for topology/tree; slurm-block: for topology/block; slurm-yaml: "
        "topology.yaml) or writes a workbook (xlsx), the UFM bundle (ufm: point-to-point workbook and hca_mapping, a zip), a NetBox "
        "bundle (netbox, a zip) or the cabling plan as Parquet (cabling-parquet), these four with --output; or prints one line per bad field on "
        "stderr and exits with status 2."
    )

    def add_arguments(self, parser):
        parser.add_argument("scenario_file", help="Scenario document, JSON or YAML ('-' for stdin).")
        parser.add_argument("--format", choices=list(EXPORT_FORMATS), default="json", help="Output format.")
        parser.add_argument("--output", help="Write to this file instead of standard output.")
        parser.add_argument(
            "--node-pattern", dest="node_pattern",
            help="Slurm node names: one run of # for the zero-padded number (default gpu####).",
        )
        parser.add_argument(
            "--device-prefix", dest="device_prefix",
            help="netbox: the start of every device name (default: the site's slug; '' for none).",
        )

    def handle(self, *args, scenario_file, output, format, node_pattern=None, device_prefix=None, **options):
        try:
            if format in BINARY_EXPORTS and not output:
                raise ScenarioError.at("--output", f"{BINARY_NAMES[format]} is binary: name the file to write")
            plan = plan_document(parse_document(*_read(scenario_file)), budget=IN_A_JOB)
            if format in STREAMED_EXPORTS:
                lines, _, _ = plan_export_lines(plan, format)
                if output:
                    _write_lines(output, lines)
                else:
                    self._stream(lines)
                return
            content, _, _ = plan_export_of(plan, format, node_pattern=node_pattern, device_prefix=device_prefix)
            if output:
                _write(output, content)
            else:
                self.stdout.write(content.decode("utf-8"), ending="")
        except ScenarioError as error:
            for problem in error.errors:
                self.stderr.write(str(problem))
            sys.exit(EXIT_BAD_SCENARIO)

    def _stream(self, lines) -> None:
        try:
            for line in lines:
                self.stdout.write(line, ending="")
            self.stdout.flush()
        except BrokenPipeError:
            # The reader (`head`) has stopped: say no more, and keep the exit quiet.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


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


def _write_lines(output: str, lines) -> None:
    """Write the lines (or a binary file's blocks) one at a time, as they are made."""
    lines = iter(lines)
    first = next(lines, "")
    try:
        binary = isinstance(first, bytes)
        text = {} if binary else {"encoding": "utf-8", "newline": ""}
        with Path(output).open("wb" if binary else "w", **text) as handle:
            handle.write(first)
            handle.writelines(lines)
    except OSError as error:
        raise ScenarioError.at(output, f"cannot be written: {error.strerror}") from None


def _write(output: str, content: bytes) -> None:
    try:
        Path(output).write_bytes(content)
    except OSError as error:
        raise ScenarioError.at(output, f"cannot be written: {error.strerror}") from None
