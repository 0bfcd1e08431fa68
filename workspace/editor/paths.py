"""Dotted paths in plain documents, as the editor names its inputs.

The form names an input by its path with list indices as parts (`storage.tiers.0.system`); the
reader and the solver name a problem with indices in brackets (`storage.tiers[0].system`).
`form_path` turns the one into the other, so that an error finds its input.
"""

import re
from typing import Any

INDEX_IN_BRACKETS = re.compile(r"\[(\d+)\]")
INDEX_PART = re.compile(r"\.(\d+|NEWROW\d+)(?=\.|$)")


def path_get(document: Any, path: str, default: Any = None) -> Any:
    value = document
    for key in path.split(".") if path else ():
        if not isinstance(value, dict) or key not in value:
            return default
        value = value[key]
    return value


def path_set(document: dict, path: str, value: Any) -> None:
    *parents, last = path.split(".")
    for key in parents:
        if not isinstance(document.get(key), dict):
            document[key] = {}
        document = document[key]
    document[last] = value


def path_pop(document: dict, path: str) -> None:
    *parents, last = path.split(".")
    for key in parents:
        document = document.get(key) if isinstance(document, dict) else None
    if isinstance(document, dict):
        document.pop(last, None)


def dom_id(prefix: str, path: str) -> str:
    """An HTML id for a dotted path: `err-fabrics-compute-switch`."""
    return f"{prefix}-{re.sub(r'[^A-Za-z0-9]+', '-', path).strip('-') or 'root'}"


def form_path(path: str) -> str:
    """A problem's path as the form names inputs: `storage.tiers[1].system` -> `storage.tiers.1.system`."""
    return INDEX_IN_BRACKETS.sub(r".\1", path)


def document_path(path: str) -> str:
    """An input's path as the reader names problems: `storage.tiers.1.system` -> `storage.tiers[1].system`."""
    return INDEX_PART.sub(r"[\1]", path)


def general_path(path: str) -> str:
    """The path of any item of its lists: `components.systems.0.nics.1.role` -> `components.systems[].nics[].role`."""
    return INDEX_PART.sub("[]", path)
