"""What the pushes to Nautobot and NetBox share: the summary of a push, kind by kind, the
chunks of a bulk request, and the refusals a bulk request's answer lists."""

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

CHUNK = 200
"""Objects a bulk request writes. Nautobot and NetBox trace each new cable's path as they save
it (about 0.1 to 0.3 s a cable on a busy 2-core machine): 200 cables stay under a web worker's
timeout."""


@dataclass
class KindSummary:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    left_over: int = 0
    deleted: int = 0
    seconds: float = 0.0


@dataclass
class PushSummary:
    kinds: dict[str, KindSummary] = field(default_factory=dict)
    seconds: float = 0.0

    def lines(self) -> list[str]:
        lines = [f"{kind}: {s.created} created, {s.updated} updated, {s.unchanged} unchanged"
                 + (f", {s.deleted} deleted (their ends are cabled anew)" if s.deleted else "")
                 + (f", {s.left_over} left over (not in the plan; kept)" if s.left_over else "")
                 + (f" ({s.seconds:.1f} s)" if s.seconds >= 1 else "")
                 for kind, s in self.kinds.items()]
        return [*lines, f"pushed in {self.seconds:.1f} s"]

    def total(self, what: str) -> int:
        return sum(getattr(summary, what) for summary in self.kinds.values())


def devices_to_unrack(changes: Any, existing: dict, resolved: dict) -> list[Any]:
    """The devices to take out of their rack units first (position cleared): those that move
    and the left-over ones (kept, unracked), since a device of the plan may go where one of them
    stood. A moving device's update is given its rack, position and face together (`changes`:
    a `handoff.solver.nautobot.Changes` of devices, updated in place)."""
    place = ("rack", "position", "face")
    moving = [(object_id, key, changed) for object_id, key, changed in changes.update
              if any(name in changed for name in place)]
    for _, key, changed in moving:
        changed.update({name: resolved[key][name] for name in place})
    return [object_id for object_id, _, _ in moving] + [
        existing[key][0] for key in changes.left_over if existing[key][1].get("position")]


def plain(value: Any) -> Any:
    """A related object as its id, a choice as its value; lists item by item."""
    if isinstance(value, dict):
        if "id" in value:
            return value["id"]
        if "value" in value:
            return value["value"]
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value


def chunks(items: list, size: int = CHUNK) -> Iterable[list]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def refusals(text: str) -> str:
    """A bulk request's answer lists one error object per object sent, empty for those it took:
    the first few that are not empty, by their place in the request."""
    try:
        answer = json.loads(text)
    except ValueError:
        return text[:500]
    if not isinstance(answer, list):
        return json.dumps(answer)[:1500]
    refused = [f"object {at}: {json.dumps(item)}" for at, item in enumerate(answer) if item]
    more = f" (and {len(refused) - 5} more)" if len(refused) > 5 else ""
    return "; ".join(refused[:5]) + more
