"""The one error type of the solver: every problem is named by its dotted path in the scenario."""

from dataclasses import dataclass

DOCUMENT_PATH = "document"
"""The path of a problem with the document as a whole (malformed JSON, too large)."""


@dataclass(frozen=True)
class FieldError:
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class ScenarioError(Exception):
    """The scenario cannot be planned: bad input, each problem named by its dotted path."""

    def __init__(self, errors: list[FieldError]):
        self.errors = tuple(errors)
        super().__init__("; ".join(str(error) for error in self.errors))

    @classmethod
    def at(cls, path: str, message: str) -> "ScenarioError":
        return cls([FieldError(path, message)])

    def under(self, prefix: str) -> "ScenarioError":
        """The same problems with their paths inside `prefix` (the document within a request)."""
        moved = [
            FieldError(prefix if error.path == DOCUMENT_PATH else join_path(prefix, error.path), error.message)
            for error in self.errors
        ]
        return type(self)(moved)

    def as_dict(self) -> dict[str, list[str]]:
        """Messages grouped by dotted path, in the order they were found."""
        grouped: dict[str, list[str]] = {}
        for error in self.errors:
            grouped.setdefault(error.path, []).append(error.message)
        return grouped


class InfeasibleError(ScenarioError):
    """A well-formed scenario that no design satisfies (e.g. a rack budget below one node)."""


def join_path(parent: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{parent}[{key}]"
    return f"{parent}.{key}" if parent else key
