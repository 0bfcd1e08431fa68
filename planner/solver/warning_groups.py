"""The plan's warnings grouped for reading: near-identical warnings (the same sentence with
other numbers: one per cable length, per rack kind) become one line with their count and the
range of each number, the most serious first, each with the plan section it is about."""

import re
from dataclasses import dataclass

NUMBER = re.compile(r"(?<![\w.-])\d+(?:,\d{3})*(?:\.\d+)?(?![\w-])")
"""A number as the planner writes it (1,024 or 17.6), not the digits of a part's name
(qm9700, osfp-800g): those name a different part, not another count of the same one."""

CRITICAL, WARNING, NOTICE = "critical", "warning", "notice"
SEVERITY_ORDER = (CRITICAL, WARNING, NOTICE)

SEVERITY_WORDS = (
    # Something is missing or the design does not hold: the plan's figures are not to be trusted.
    (CRITICAL, ("cannot", "without optics", "without a cable", "no cable", "no transceiver",
                "overload", "beyond the floor", "more than their", "offers only", "days allowed",
                "to liquid")),
    # Capacity paid for and left unused: worth knowing, the plan still holds.
    (NOTICE, ("stranded", "unused", "left free", "leaves ports free", "sits idle", "not used")),
)

SECTION_WORDS = (
    # The first match wins: a fabric warning often names the compute racks it serves.
    ("fabrics", ("fabric", "transceiver", "cable", " links", "rails", "spines", "leaves",
                 "dragonfly", "optics")),
    ("storage", ("storage", " tier needs", "reads training data", "checkpoint takes")),
    ("reliability", ("goodput", "interrupt", "checkpoint", "spare nodes", "days allowed")),
    ("power", ("pdu", "feed", "liquid", "cooling")),
    ("racks", ("rack", "floor", "weigh")),
)
DEFAULT_SECTION = "compute"


@dataclass(frozen=True)
class WarningGroup:
    message: str
    """The first warning of the group, each number that differs within it as its range."""
    count: int
    severity: str
    """critical, warning or notice."""
    section: str
    """The key of the plan section the warning is about (`fabrics`, `racks`, ...)."""
    members: tuple[str, ...]
    """Every warning of the group as the planner wrote it, in its order."""


def warning_severity(message: str) -> str:
    text = message.lower()
    for severity, words in SEVERITY_WORDS:
        if any(word in text for word in words):
            return severity
    return WARNING


def warning_section(message: str) -> str:
    text = message.lower()
    for section, words in SECTION_WORDS:
        if any(word in text for word in words):
            return section
    return DEFAULT_SECTION


def _as_number(text: str) -> float:
    return float(text.replace(",", ""))


def _merged(messages: list[str]) -> str:
    """The first message with each number that differs among `messages` as `low–high`."""
    first = messages[0]
    numbers = [NUMBER.findall(message) for message in messages]
    pieces = NUMBER.split(first)
    merged = [pieces[0]]
    for slot, piece in enumerate(pieces[1:]):
        values = [found[slot] for found in numbers]
        low = min(values, key=_as_number)
        high = max(values, key=_as_number)
        merged.append(low if _as_number(low) == _as_number(high) else f"{low}–{high}")
        merged.append(piece)
    return "".join(merged)


def group_warnings(warnings: list[str] | tuple[str, ...]) -> list[WarningGroup]:
    """The warnings grouped by their sentence without its numbers, ordered by severity, then
    the larger group first, then the planner's order. Identical warnings count as one each."""
    groups: dict[str, list[str]] = {}
    for message in warnings:
        groups.setdefault(NUMBER.sub("#", message), []).append(message)
    ranked = []
    for position, messages in enumerate(groups.values()):
        severity = warning_severity(messages[0])
        group = WarningGroup(
            message=_merged(messages),
            count=len(messages),
            severity=severity,
            section=warning_section(messages[0]),
            members=tuple(messages),
        )
        ranked.append((SEVERITY_ORDER.index(severity), -len(messages), position, group))
    return [group for *_, group in sorted(ranked, key=lambda item: item[:3])]
