"""Host names from a pattern, and Slurm's hostlist expressions (`gpu[0001-0032,0065]`).

Slurm's hostlist syntax (slurm.conf(5), "NodeName"): a prefix, then in brackets comma-separated
numbers and ranges `a-b` whose zero padding is kept, then a suffix.
"""

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from core.solver.errors import ScenarioError

NODE_PATTERN_FIELD = "node_pattern"
NODE_PATTERN_DEFAULT_PREFIX = "gpu"
NODE_PATTERN_MIN_DIGITS = 4
_PATTERN = re.compile(r"^([A-Za-z][A-Za-z0-9_.-]*?)(#+)([A-Za-z0-9_.-]*)$")
_HOSTLIST = re.compile(r"^([^\[\],]*)\[([0-9,\-]+)\]([^\[\],]*)$")


@dataclass(frozen=True)
class NodePattern:
    """Node names `<prefix><number, zero-padded to digits><suffix>`, numbered from `first`."""

    prefix: str
    digits: int
    suffix: str = ""
    first: int = 1

    def name(self, index: int) -> str:
        """The name of node `index` (from 0)."""
        return f"{self.prefix}{self.first + index:0{self.digits}d}{self.suffix}"

    def hostlist(self, indices: Iterable[int]) -> str:
        """The nodes `indices` (from 0) as one compressed hostlist expression."""
        return hostlist(self.prefix, [self.first + index for index in indices], self.digits, self.suffix)


def node_pattern(text: str | None, nodes: int) -> NodePattern:
    """The pattern `text` (`gpu####`: one run of `#` for the zero-padded number), or the default
    `gpu` with at least 4 digits, for `nodes` nodes. A bad pattern raises at `node_pattern`."""
    if not text:
        return NodePattern(NODE_PATTERN_DEFAULT_PREFIX, max(NODE_PATTERN_MIN_DIGITS, len(str(nodes))))
    match = _PATTERN.match(text)
    if match is None:
        raise ScenarioError.at(
            NODE_PATTERN_FIELD,
            "must be a host name with one run of # for the node number, e.g. gpu#### (letters, "
            "digits, '-', '_', '.'; starting with a letter)",
        )
    prefix, hashes, suffix = match.groups()
    if len(str(nodes)) > len(hashes):
        raise ScenarioError.at(
            NODE_PATTERN_FIELD, f"{len(hashes)} digits cannot number {nodes:,} nodes: use at least {len(str(nodes))} #"
        )
    return NodePattern(prefix, len(hashes), suffix)


def number_ranges(numbers: Iterable[int]) -> Iterator[tuple[int, int]]:
    """Runs of consecutive numbers, in order: (first, last) each."""
    start = last = None
    for number in sorted(set(numbers)):
        if last is not None and number == last + 1:
            last = number
            continue
        if start is not None:
            yield start, last
        start = last = number
    if start is not None:
        yield start, last


def hostlist(prefix: str, numbers: Iterable[int], digits: int, suffix: str = "") -> str:
    """`prefix[a-b,c]suffix`, or the single name when there is one number."""
    ranges = list(number_ranges(numbers))
    if not ranges:
        return ""
    if len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        return f"{prefix}{ranges[0][0]:0{digits}d}{suffix}"
    parts = [
        f"{first:0{digits}d}" if first == last else f"{first:0{digits}d}-{last:0{digits}d}"
        for first, last in ranges
    ]
    return f"{prefix}[{','.join(parts)}]{suffix}"


def hostlist_expand(expression: str) -> list[str]:
    """The names of a hostlist expression: comma-separated names or `prefix[ranges]suffix`
    terms (one bracket per term, as `hostlist` writes them)."""
    names: list[str] = []
    for term in _terms(expression):
        match = _HOSTLIST.match(term)
        if match is None:
            names.append(term)
            continue
        prefix, ranges, suffix = match.groups()
        for part in ranges.split(","):
            first, _, last = part.partition("-")
            digits = len(first)
            for number in range(int(first), int(last or first) + 1):
                names.append(f"{prefix}{number:0{digits}d}{suffix}")
    return names


def _terms(expression: str) -> Iterator[str]:
    """Split at the commas outside brackets."""
    depth, start = 0, 0
    for at, character in enumerate(expression):
        if character == "[":
            depth += 1
        elif character == "]":
            depth -= 1
        elif character == "," and depth == 0:
            if expression[start:at]:
                yield expression[start:at]
            start = at + 1
    if expression[start:]:
        yield expression[start:]
