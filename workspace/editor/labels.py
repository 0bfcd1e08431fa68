"""The editor's words for the spec: section titles, field labels without the unit's words."""

import re

from workspace.words import PHRASES, WORDS, words_of

SECTION_TITLES = {
    "": "Scenario",
    "compute": "Compute",
    "racks": "Racks and cooling",
    "fabrics.compute": "Compute fabric (GPU back-end)",
    "fabrics.storage": "Storage fabric",
    "fabrics.inband": "In-band (front-end) fabric",
    "fabrics.oob": "Out-of-band management fabric",
    "storage": "Storage",
    "workload": "Workload",
    "facility": "Facility",
    "finance": "Finance",
    "prices": "Price quotes",
    "components": "Inline parts (not in the catalog)",
}
"""Titles of the sections the spec has today; a new section is titled from its path."""

UNIT_SYNONYMS = {"gbytes": "gb", "tbytes": "tb", "m2": "m"}
"""Words of field names that stand for a unit word (read_gbytes_per_s: GB/s)."""


def humanize(name: str) -> str:
    return words_of(name)


def field_label(name: str, unit: str) -> str:
    """The field's name in words, without the trailing words its unit already says."""
    if name in PHRASES:
        phrase = PHRASES[name]
        return re.sub(r"\s*\([^)]*\)$", "", phrase) if unit else phrase
    words = name.split("_")
    unit_words = set(re.split(r"[^a-z0-9]+", unit.lower())) - {""}
    while (
        len(words) > 1
        and words[-1] != "u"
        and (
            words[-1] in unit_words
            or UNIT_SYNONYMS.get(words[-1]) in unit_words
            or (words[-1] == "per" and unit_words)
        )
    ):
        words.pop()
    text = " ".join(WORDS.get(word, word) for word in words)
    return text[:1].upper() + text[1:]


def section_title(path: str) -> str:
    if path in SECTION_TITLES:
        return SECTION_TITLES[path]
    parts = path.split(".")
    if len(parts) > 1:
        parent = ".".join(parts[:-1])
        return f"{humanize(parts[-1])} of the {in_sentence(SECTION_TITLES.get(parent, humanize(parts[-2])))}"
    return humanize(path)


def in_sentence(title: str) -> str:
    """A title inside a sentence: "Compute fabric (GPU back-end)" -> "compute fabric (GPU back-end)"."""
    if len(title) > 1 and title[1].isupper():
        return title
    return title[:1].lower() + title[1:]
