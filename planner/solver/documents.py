"""Scenario documents as text: JSON or YAML in, plain data out, with errors a person can act on."""

import json
from typing import Any

import yaml

from planner.solver.errors import DOCUMENT_PATH, ScenarioError

MAX_DOCUMENT_BYTES = 1024 * 1024


def parse_document(text: str | bytes, syntax: str = "auto") -> Any:
    """Parse a scenario document written in JSON or YAML (`syntax`: json, yaml or auto).

    `auto` reads JSON when the text starts with `{`, else YAML (of which JSON is a subset).
    """
    if len(text) > MAX_DOCUMENT_BYTES:
        raise ScenarioError.at(
            DOCUMENT_PATH, f"is larger than the {MAX_DOCUMENT_BYTES // 1024:,} KiB a scenario may be"
        )
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ScenarioError.at(DOCUMENT_PATH, f"is not UTF-8 text ({error.reason})") from None
    if syntax == "auto":
        syntax = "json" if text.lstrip().startswith("{") else "yaml"
    if syntax == "json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as error:
            raise ScenarioError.at(
                DOCUMENT_PATH,
                f"is not valid JSON: {error.msg} at line {error.lineno} column {error.colno}",
            ) from None
        except RecursionError:
            raise ScenarioError.at(DOCUMENT_PATH, "is nested too deeply") from None
    try:
        return yaml.safe_load(text)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        where = f" at line {mark.line + 1} column {mark.column + 1}" if mark else ""
        raise ScenarioError.at(
            DOCUMENT_PATH, f"is not valid YAML: {error.problem or error}{where}"
        ) from None
    except (yaml.YAMLError, RecursionError) as error:
        raise ScenarioError.at(DOCUMENT_PATH, f"is not valid YAML: {error}") from None
