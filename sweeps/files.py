"""Sweep documents read from files (the document, and its `base_file` read into `base`), and a
design written out as a scenario document."""

import json
from pathlib import Path
from typing import Any

import yaml

from core.solver.errors import ScenarioError
from planner.solver.documents import MAX_DOCUMENT_BYTES, parse_document

SYNTAX_BY_SUFFIX = {".json": "json", ".yaml": "yaml", ".yml": "yaml"}


def read_document_file(path: Path, where: str) -> Any:
    """A JSON or YAML file parsed with the scenario documents' safe reader; problems at `where`."""
    try:
        with path.open("rb") as handle:
            text = handle.read(MAX_DOCUMENT_BYTES + 1)
    except OSError as error:
        raise ScenarioError.at(where, f"{path} cannot be read: {error.strerror}") from None
    return parse_document(text, SYNTAX_BY_SUFFIX.get(path.suffix.lower(), "auto"))


def sweep_document_from_file(path: Path) -> Any:
    """The sweep document, with `base_file` (relative to the sweep's folder) read into `base`."""
    document = read_document_file(path, str(path))
    if isinstance(document, dict) and "base_file" in document:
        base_file = document["base_file"]
        if "base" in document:
            raise ScenarioError.at("base_file", "give base or base_file, not both")
        if not isinstance(base_file, str) or not base_file:
            raise ScenarioError.at("base_file", "must be the path of a scenario file")
        try:
            base = read_document_file(path.parent / base_file, "base_file")
        except ScenarioError as error:
            raise error.under("base_file") if error.errors[0].path != "base_file" else error from None
        document = {key: value for key, value in document.items() if key != "base_file"}
        document["base"] = base
    return document


def write_scenario(document: dict, path: Path) -> None:
    """A design's scenario document, as JSON for a .json file, else YAML (keys in their order)."""
    if path.suffix.lower() == ".json":
        text = json.dumps(document, indent=2) + "\n"
    else:
        text = yaml.safe_dump(document, sort_keys=False, allow_unicode=True)
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise ScenarioError.at("--save-best", f"{path} cannot be written: {error.strerror}") from None
