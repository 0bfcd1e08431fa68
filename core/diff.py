"""What changed between two scenario documents, key by dotted path."""

from dataclasses import dataclass
from typing import Any

from core.solver.errors import join_path


@dataclass(frozen=True)
class Change:
    path: str
    kind: str
    """changed, added or removed."""
    old: Any = None
    new: Any = None


def flatten(document: Any, path: str = "") -> dict[str, Any]:
    """Every leaf of a document by its dotted path (`fabrics.compute.switch`, `prices.x`,
    `components.systems[0].gpus`). An empty mapping or list is a leaf of its own."""
    if isinstance(document, dict) and document:
        leaves: dict[str, Any] = {}
        for key, value in document.items():
            leaves.update(flatten(value, join_path(path, str(key))))
        return leaves
    if isinstance(document, list) and document:
        leaves = {}
        for index, value in enumerate(document):
            leaves.update(flatten(value, join_path(path, index)))
        return leaves
    return {path: document}


def document_changes(old: Any, new: Any) -> list[Change]:
    """Leaves that differ, in the order of the new document (removed ones after)."""
    before, after = flatten(old), flatten(new)
    changes = []
    for path, value in after.items():
        if path not in before:
            changes.append(Change(path, "added", new=value))
        elif before[path] != value or isinstance(before[path], bool) != isinstance(value, bool):
            changes.append(Change(path, "changed", before[path], value))
    changes += [
        Change(path, "removed", old=value) for path, value in before.items() if path not in after
    ]
    return changes
