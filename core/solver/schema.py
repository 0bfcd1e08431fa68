"""Read plain documents (parsed JSON or YAML) into frozen spec dataclasses.

A spec dataclass is its own schema: each field's type annotation says what it accepts and its
`spec_field` metadata gives its unit, bounds and help text. The document reader, the web form and
the API documentation all read the same declarations, so a field is validated one way everywhere.

Every problem found is collected with its dotted path (`compute.gpus`,
`components.systems[0].nics[1].gbps`) and raised together as one `ScenarioError`.
"""

import dataclasses
import difflib
import functools
import math
import sys
import types
import typing
from collections.abc import Callable, Iterator
from typing import Any, Literal, get_args, get_origin

from core.solver.errors import DOCUMENT_PATH, FieldError, ScenarioError, join_path

MAX_LIST_ITEMS = 10_000
MAX_TEXT_LENGTH = 2_000


def spec_field(
    default: Any = dataclasses.MISSING,
    *,
    default_factory: Callable[[], Any] | Any = dataclasses.MISSING,
    unit: str = "",
    help: str = "",
    minimum: float | None = None,
    maximum: float | None = None,
    exclusive_minimum: bool = False,
    least_nonzero: float | None = None,
    min_length: int = 0,
    max_length: int = 200,
    before: Callable[[Any], Any] | None = None,
    shorthand: str = "",
    required_unless: str = "",
) -> Any:
    """A dataclass field with what the reader and the forms need to know about it.

    `before` turns a shorthand into the full form before reading (e.g. a number for a mapping);
    `shorthand` names the key of the section that a bare value stands for, for the schema.
    `required_unless` names the key that may be given instead (`compute` or `pools`): the field
    is required when that key is left out too; its default (None) then means "left out".
    `least_nonzero`: a number that may be 0, else no less than this (a rate whose tiny values
    overflow the figures computed from it).
    """
    metadata = {
        "unit": unit,
        "help": help,
        "minimum": minimum,
        "maximum": maximum,
        "exclusive_minimum": exclusive_minimum,
        "least_nonzero": least_nonzero,
        "min_length": min_length,
        "max_length": max_length,
        "before": before,
        "shorthand": shorthand,
        "required_unless": required_unless,
    }
    return dataclasses.field(default=default, default_factory=default_factory, metadata=metadata)


@dataclasses.dataclass(frozen=True)
class FieldInfo:
    """One field of a spec dataclass as a form or a schema shows it."""

    name: str
    annotation: Any
    required: bool
    default: Any
    unit: str
    help: str
    minimum: float | None
    maximum: float | None
    exclusive_minimum: bool = False
    least_nonzero: float | None = None
    """0, or at least this much."""
    min_length: int = 0
    max_length: int = MAX_TEXT_LENGTH
    shorthand: str = ""
    """The key of the nested section that a bare value stands for (`oversubscription: 2`)."""
    required_unless: str = ""
    """The key that may be given instead of this one; without either, this one is required."""


def spec_fields(cls: type) -> Iterator[FieldInfo]:
    hints = _type_hints(cls)
    for field in dataclasses.fields(cls):
        if not field.init:
            continue
        meta = field.metadata
        if field.default is not dataclasses.MISSING:
            default = field.default
        elif field.default_factory is not dataclasses.MISSING:
            default = field.default_factory()
        else:
            default = dataclasses.MISSING
        yield FieldInfo(
            name=field.name,
            annotation=hints[field.name],
            required=default is dataclasses.MISSING,
            default=None if default is dataclasses.MISSING else default,
            unit=meta.get("unit", ""),
            help=meta.get("help", ""),
            minimum=meta.get("minimum"),
            maximum=meta.get("maximum"),
            exclusive_minimum=meta.get("exclusive_minimum", False),
            least_nonzero=meta.get("least_nonzero"),
            min_length=meta.get("min_length", 0),
            max_length=meta.get("max_length", MAX_TEXT_LENGTH),
            shorthand=meta.get("shorthand", ""),
            required_unless=meta.get("required_unless", ""),
        )


def read_spec(cls: type, value: Any, path: str = "") -> Any:
    """Build `cls` from a parsed document, or raise `ScenarioError` naming every bad field."""
    reader = _Reader()
    result = reader.read_dataclass(cls, value, path)
    if reader.errors:
        raise ScenarioError(reader.errors)
    return result


_INVALID = object()
_NO_META: dict[str, Any] = {}


@functools.cache
def _type_hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _finite_number(value: Any) -> int | float | None:
    """The value when it is a finite number a float can hold, else None. JSON integers have no
    size limit (a 400-digit one parses), so they are checked against the float range too."""
    if not _is_number(value):
        return None
    if isinstance(value, int):
        return value if abs(value) <= sys.float_info.max else None
    return value if math.isfinite(value) else None


def _format_number(value: float, unit: str = "") -> str:
    text = f"{int(value):,}" if float(value).is_integer() else f"{value:,g}"
    return f"{text} {unit}".rstrip()


class _Reader:
    def __init__(self) -> None:
        self.errors: list[FieldError] = []

    def fail(self, path: str, message: str) -> object:
        self.errors.append(FieldError(path, message))
        return _INVALID

    def read_dataclass(self, cls: type, value: Any, path: str) -> Any:
        if not isinstance(value, dict):
            return self.fail(path or DOCUMENT_PATH, "must be a mapping of keys to values")
        fields = {field.name: field for field in dataclasses.fields(cls) if field.init}
        hints = _type_hints(cls)
        valid = True
        for key in value:
            if key not in fields:
                valid = False
                self.fail(join_path(path, str(key)), _unknown_key_message(str(key), fields))
        arguments = {}
        for name, field in fields.items():
            field_path = join_path(path, name)
            if name in value:
                result = self.read(hints[name], value[name], field_path, field.metadata)
            elif _required(field, value):
                result = self.fail(field_path, "is required")
            else:
                continue
            if result is _INVALID:
                valid = False
            else:
                arguments[name] = result
        if not valid:
            return _INVALID
        instance = cls(**arguments)
        problems = list(getattr(instance, "problems", lambda: ())())
        for relative_path, message in problems:
            self.fail(join_path(path, relative_path), message)
        return _INVALID if problems else instance

    def read(self, annotation: Any, value: Any, path: str, meta: Any = _NO_META) -> Any:
        if meta.get("before"):
            value = meta["before"](value)
        origin = get_origin(annotation)
        if origin in (typing.Union, types.UnionType):
            return self.read_union(get_args(annotation), value, path, meta)
        if origin is Literal:
            return self.read_choice(get_args(annotation), value, path)
        if annotation is bool:
            return value if isinstance(value, bool) else self.fail(path, "must be true or false")
        if annotation is int:
            return self.read_int(value, path, meta)
        if annotation is float:
            return self.read_float(value, path, meta)
        if annotation is str:
            return self.read_text(value, path, meta)
        if origin is tuple:
            return self.read_list(get_args(annotation)[0], value, path)
        if origin is dict:
            return self.read_mapping(get_args(annotation)[1], value, path, meta)
        if dataclasses.is_dataclass(annotation):
            return self.read_dataclass(annotation, value, path)
        raise TypeError(f"no reader for {annotation!r} at {path}")

    def read_union(self, alternatives: tuple, value: Any, path: str, meta: Any) -> Any:
        if value is None and type(None) in alternatives:
            return None
        messages = []
        for alternative in alternatives:
            if alternative is type(None):
                continue
            trial = _Reader()
            result = trial.read(alternative, value, path, {**meta, "before": None})
            if result is not _INVALID:
                return result
            messages.extend(error.message.removeprefix("must be ") for error in trial.errors)
            if len(trial.errors) != 1 or trial.errors[0].path != path:
                # The value had the shape of this alternative: its own errors say most.
                self.errors.extend(trial.errors)
                return _INVALID
        return self.fail(path, "must be " + " or ".join(messages))

    def read_choice(self, choices: tuple, value: Any, path: str) -> Any:
        for choice in choices:
            if type(value) is type(choice) and value == choice:
                return value
        if len(choices) == 1:
            return self.fail(path, f"must be {choices[0]}")
        return self.fail(path, "must be one of: " + ", ".join(str(choice) for choice in choices))

    def read_int(self, value: Any, path: str, meta: Any) -> Any:
        minimum, maximum, unit = meta.get("minimum"), meta.get("maximum"), meta.get("unit", "")
        if minimum == 1:
            expected = "must be a positive whole number"
        elif minimum == 0:
            expected = "must be a whole number, zero or more"
        elif minimum is not None:
            expected = f"must be a whole number of at least {_format_number(minimum, unit)}"
        else:
            expected = "must be a whole number"
        value = _finite_number(value)
        if value is None or not float(value).is_integer():
            return self.fail(path, expected)
        value = int(value)
        if minimum is not None and value < minimum:
            return self.fail(path, expected)
        if maximum is not None and value > maximum:
            return self.fail(path, f"must be at most {_format_number(maximum, unit)}")
        return value

    def read_float(self, value: Any, path: str, meta: Any) -> Any:
        minimum, maximum, unit = meta.get("minimum"), meta.get("maximum"), meta.get("unit", "")
        exclusive = meta.get("exclusive_minimum")
        if minimum is None:
            expected = "must be a number"
        elif minimum == 0 and not exclusive:
            expected = "must be a number, zero or more"
        elif exclusive:
            expected = f"must be a number greater than {_format_number(minimum, unit)}"
        else:
            expected = f"must be a number of at least {_format_number(minimum, unit)}"
        value = _finite_number(value)
        if value is None:
            return self.fail(path, expected)
        if minimum is not None and (value <= minimum if exclusive else value < minimum):
            return self.fail(path, expected)
        if maximum is not None and value > maximum:
            return self.fail(path, f"must be at most {_format_number(maximum, unit)}")
        least = meta.get("least_nonzero")
        if least is not None and 0 < value < least:
            return self.fail(path, f"must be 0 or at least {least:g}: a value closer to 0 gives figures beyond any number")
        return float(value)

    def read_text(self, value: Any, path: str, meta: Any) -> Any:
        if not isinstance(value, str):
            return self.fail(path, "must be text")
        value = value.strip()
        if len(value) < meta.get("min_length", 0):
            return self.fail(path, "must not be empty")
        maximum = meta.get("max_length", MAX_TEXT_LENGTH)
        if len(value) > maximum:
            return self.fail(path, f"must be at most {maximum:,} characters long")
        return value

    def read_list(self, item_annotation: Any, value: Any, path: str) -> Any:
        if not isinstance(value, list):
            return self.fail(path, "must be a list")
        if len(value) > MAX_LIST_ITEMS:
            return self.fail(path, f"must have at most {MAX_LIST_ITEMS:,} items")
        items = [self.read(item_annotation, item, join_path(path, index)) for index, item in enumerate(value)]
        return _INVALID if any(item is _INVALID for item in items) else tuple(items)

    def read_mapping(self, value_annotation: Any, value: Any, path: str, meta: Any) -> Any:
        if not isinstance(value, dict):
            return self.fail(path, "must be a mapping of keys to values")
        if len(value) > MAX_LIST_ITEMS:
            return self.fail(path, f"must have at most {MAX_LIST_ITEMS:,} entries")
        result = {}
        for key, item in value.items():
            item_path = join_path(path, str(key))
            if not isinstance(key, str):
                self.fail(item_path, "key must be text")
                continue
            result[key] = self.read(value_annotation, item, item_path, {**meta, "before": None})
        valid = len(result) == len(value) and all(item is not _INVALID for item in result.values())
        return result if valid else _INVALID


def _required(field: dataclasses.Field, document: dict) -> bool:
    """A field without a default, or one whose alternative (`required_unless`) is left out too."""
    if field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
        return True
    alternative = field.metadata.get("required_unless")
    return bool(alternative) and alternative not in document


def _unknown_key_message(key: str, fields: dict) -> str:
    close = difflib.get_close_matches(key, fields, n=1)
    hint = f"did you mean '{close[0]}'? " if close else ""
    return f"unknown key; {hint}expected one of: {', '.join(fields)}"
