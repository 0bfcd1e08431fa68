"""The one error type of the solver: every problem is named by its dotted path in the scenario."""

import re
from dataclasses import dataclass

DOCUMENT_PATH = "document"
"""The path of a problem with the document as a whole (malformed JSON, too large)."""


_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff]")


def printable(text: str) -> str:
    """`text` with every character an answer cannot carry written as its escape (`\\ud800`):
    a lone UTF-16 surrogate cannot be encoded as UTF-8 at all, and control characters garble
    logs and pages. For any text of a request echoed in an error."""
    return _UNPRINTABLE.sub(lambda match: match.group().encode("unicode_escape").decode("ascii"), text)


@dataclass(frozen=True)
class FieldError:
    path: str
    message: str

    def __post_init__(self):
        # Paths and messages quote the request's own keys and values: whatever they hold, the
        # error must be writable as JSON, HTML and a log line.
        object.__setattr__(self, "path", printable(str(self.path)))
        object.__setattr__(self, "message", printable(str(self.message)))

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


MAX_REPORTED_ERRORS = 20
"""Problems an error keeps: a hostile document can have thousands, and each answer stays a few
kilobytes. `count` says how many there were."""


class ScenarioError(Exception):
    """The scenario cannot be planned: bad input, each problem named by its dotted path.

    Keeps the first MAX_REPORTED_ERRORS problems and the count of all of them.
    """

    def __init__(self, errors: list[FieldError], count: int | None = None):
        errors = list(errors)
        self.count = max(count or 0, len(errors))
        self.errors = tuple(errors[:MAX_REPORTED_ERRORS])
        more = f"; and {self.omitted:,} more" if self.omitted else ""
        super().__init__("; ".join(str(error) for error in self.errors) + more)

    @property
    def omitted(self) -> int:
        """Problems found beyond the ones kept."""
        return self.count - len(self.errors)

    @classmethod
    def at(cls, path: str, message: str) -> "ScenarioError":
        return cls([FieldError(path, message)])

    def under(self, prefix: str) -> "ScenarioError":
        """The same problems with their paths inside `prefix` (the document within a request)."""
        moved = [
            FieldError(prefix if error.path == DOCUMENT_PATH else join_path(prefix, error.path), error.message)
            for error in self.errors
        ]
        return type(self)(moved, self.count)

    def as_dict(self) -> dict[str, list[str]]:
        """Messages grouped by dotted path, in the order they were found; when some were left
        out, a last message under `document` says how many."""
        grouped: dict[str, list[str]] = {}
        for error in self.errors:
            grouped.setdefault(error.path, []).append(error.message)
        if self.omitted:
            grouped.setdefault(DOCUMENT_PATH, []).append(
                f"and {self.omitted:,} more problems (the first {len(self.errors)} are listed)"
            )
        return grouped


class InfeasibleError(ScenarioError):
    """A well-formed scenario that no design satisfies (e.g. a rack budget below one node)."""


class PlanLimitError(InfeasibleError):
    """A plan past one of the limits on what a plan may hold (racks, rows, cables, storage
    systems), raised by the step that yields the figure, before the work it would take."""


def join_path(parent: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{parent}[{key}]"
    return f"{parent}.{key}" if parent else key
