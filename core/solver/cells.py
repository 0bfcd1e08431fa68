"""Text cells a spreadsheet will not run: the one rule every export that a spreadsheet may open
follows (the BOM CSV and workbook, the cabling plan, the NetBox bundle's CSVs, the UFM workbook).
"""

from typing import Any

FORMULA_STARTS = frozenset("=+-@\t\r")
"""First characters that make a spreadsheet read a text as a formula (OWASP, "CSV Injection")."""


def spreadsheet_text(value: Any) -> Any:
    """A text that a spreadsheet would run as a formula, made plain text by a leading apostrophe
    (which spreadsheets show as text and do not display); numbers and other texts unchanged.
    Names, slugs and notes come from users: `=HYPERLINK(...)` must not become a live cell."""
    if isinstance(value, str) and value and value[0] in FORMULA_STARTS:
        return "'" + value
    return value
