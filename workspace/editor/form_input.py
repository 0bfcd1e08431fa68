"""Numbers as people type them into the editor: "1,024", "1 024", "8%", "1.5e-3".

The document keeps plain numbers and fractions (the scenario format does not change); only the
form reads grouped digits and percent signs. Anything else ambiguous ("1,02,4", "1,5") is
refused with a message that says how to write the number, rather than guessed.
"""

import re
from decimal import Decimal, InvalidOperation

PLAIN = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
GROUPED = re.compile(r"[+-]?\d{1,3}(?P<separator>[, \u00a0\u202f\u2009])\d{3}(?:(?P=separator)\d{3})*(?:\.\d+)?")
"""Thousands grouped by three with one separator throughout: a comma, a space, a no-break or
thin space (what a copy from a spreadsheet or a French document gives)."""
PERCENT_DIGITS = 12
"""Significant digits of a fraction shown in percent: 0.07 shows as 7, not 7.000000000000001."""


class InputError(ValueError):
    """Text of a number field that is not a number the form can read; the message says why."""


def read_number(text: str, *, percent: bool = False, fraction: bool = False) -> int | float:
    """`text` as a number: an int when written without a decimal point or exponent.

    percent: the field is a percentage, so a trailing % sign is allowed; fraction: the document
    keeps the percentage as a fraction (8 -> 0.08).
    """
    digits = text.strip()
    if digits.endswith("%"):
        if not percent:
            raise InputError(f"“{text}”: this figure is not a percentage; type a plain number")
        digits = digits[:-1].rstrip()
    if GROUPED.fullmatch(digits):
        digits = re.sub(r"[, \u00a0\u202f\u2009]", "", digits)
    elif not PLAIN.fullmatch(digits):
        hint = "type digits, with thousands grouped by three if you like (1,024 or 1 024)"
        raise InputError(f"“{text}” is not a number: {hint}{' or a percentage (8%)' if percent else ''}")
    try:
        number = Decimal(digits)
    except InvalidOperation:  # pragma: no cover: the patterns above only pass decimal text
        raise InputError(f"“{text}” is not a number") from None
    if not number.is_finite():
        raise InputError(f"“{text}” is too large a number")
    if fraction:
        return float(number / 100)
    if re.fullmatch(r"[+-]?\d+", digits):
        try:
            return int(digits)
        except ValueError:  # more digits than Python converts (sys.int_info)
            raise InputError(f"“{text}” has too many digits") from None
    return float(number)


def percent_text(fraction: float | None) -> str:
    """A fraction as the percentage a person types: 0.08 -> "8", 0.085 -> "8.5"."""
    if fraction is None:
        return ""
    return f"{fraction * 100:.{PERCENT_DIGITS}g}"
