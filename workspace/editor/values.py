"""Values in the editor's inputs: typed document values to the text an input shows, and posted
text back to typed values (numbers as people type them, choices by their words, lists)."""

import json
import re
import types
import typing
from typing import Any, Literal, get_args, get_origin

from workspace.editor.form_input import InputError, percent_text, read_number
from workspace.words import choice_label


def union_args(annotation: Any) -> tuple:
    if get_origin(annotation) in (typing.Union, types.UnionType):
        return get_args(annotation)
    return (annotation,)


def scalar_kinds(annotation: Any) -> tuple[set[type], list[Any]]:
    """The Python types a field takes, and its literal choices."""
    kinds: set[type] = set()
    literals: list[Any] = []
    for arg in union_args(annotation):
        if get_origin(arg) is Literal:
            literals.extend(get_args(arg))
            kinds.update(type(value) for value in get_args(arg))
        elif arg is not type(None):
            kinds.add(arg)
    return kinds, literals


FRACTION_IN_TEXT = re.compile(r"(?<![\d.])(0?\.\d+)(?:\s*[-–]\s*(0?\.\d+))?(?![\d.])")


def fractions_as_percent(text: str) -> str:
    """A help text's fractions in the percent its field takes: "about 0.92-0.97" -> "about 92-97 %"."""

    def replace(match: re.Match) -> str:
        low, high = match.group(1), match.group(2)
        shown = percent_text(float(low)) + (f"–{percent_text(float(high))}" if high else "")
        return f"{shown} %"

    return FRACTION_IN_TEXT.sub(replace, text)


def display_value(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    return str(value)


def convert_text(text: str, annotation: Any, *, percent: bool = False, fraction: bool = False) -> Any:
    """A posted string as the value the field's type expects.

    Numbers may be typed as people write them ("1,024", "1 024", "8%" in a percent field); a
    choice by its key or its words. Text a number field cannot read raises InputError, whose
    message says how to write it; text of a text field is kept for the validator.
    """
    text = text.strip()
    kinds, literals = scalar_kinds(annotation)
    if bool in kinds and text in ("true", "false", "on"):
        return text != "false"
    for literal in literals:
        if text == display_value(literal) or text.casefold() == choice_label(literal).casefold():
            return literal
    free_text = any(arg is str for arg in union_args(annotation))
    if kinds & {int, float} and not free_text:
        try:
            return read_number(text, percent=percent, fraction=fraction)
        except InputError as error:
            if literals:
                words = ", ".join(f"“{choice_label(value)}”" for value in literals)
                raise InputError(f"{error} (or type {words})") from None
            raise
    return text


LIST_SEPARATORS = re.compile(r"[,;\s]+")


def read_number_list(text: str) -> list[int]:
    """Whole numbers typed one after the other: "1, 2, 4" -> [1, 2, 4]."""
    items = [item for item in LIST_SEPARATORS.split(text.strip()) if item]
    numbers = []
    for item in items:
        try:
            number = read_number(item)
        except InputError:
            number = None
        if not isinstance(number, int):
            raise InputError(f"“{text.strip()}”: type whole numbers separated by commas (1, 2, 4)")
        numbers.append(number)
    return numbers
