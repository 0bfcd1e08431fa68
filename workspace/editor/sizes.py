"""A mapping of small sections as one line of the editor: a phase's pool sizes
(`training: 256 GPUs; serving: 4 systems`) and its storage tiers' sizes (`datasets: 800 TB`).

Each entry is a name, a colon and one number with its word; the word names the section's field
(its unit where it has one, else its name in words). Entries are separated by semicolons, so
that a number may keep its thousands commas (1,900 GPUs).
"""

import dataclasses
from typing import Any

from core.solver.schema import spec_fields
from workspace.editor.form_input import InputError, read_number
from workspace.editor.labels import humanize

FIELD_WORDS = {"nodes": "systems"}
"""Words architects use for a field where its name is not one (a pool's nodes are systems)."""


def size_words(item_class: type) -> dict[str, str]:
    """Each numeric field of the section by its word: {"gpus": "GPUs", "nodes": "systems"}."""
    return {
        info.name: FIELD_WORDS.get(info.name) or info.unit or humanize(info.name)
        for info in spec_fields(item_class)
    }


def is_sizes_section(item_class: Any) -> bool:
    """A section whose every field is an optional number: it fits on one line."""
    if not dataclasses.is_dataclass(item_class):
        return False
    infos = list(spec_fields(item_class))
    return bool(infos) and all(not info.required and info.default is None for info in infos)


def sizes_text(value: Any, item_class: type) -> str:
    """The document's mapping as the line shows it."""
    if not isinstance(value, dict):
        return ""
    words = size_words(item_class)
    entries = []
    for name, section in value.items():
        sizes = section if isinstance(section, dict) else {}
        shown = " ".join(f"{number:,g} {words.get(key, key)}" for key, number in sizes.items()
                         if isinstance(number, (int, float)))
        entries.append(f"{name}: {shown}".rstrip())
    return "; ".join(entries)


def read_sizes(text: str, item_class: type) -> dict[str, dict[str, int | float]]:
    """The line as the document's mapping; InputError says which entry cannot be read."""
    by_word = {word.lower(): key for key, word in size_words(item_class).items()}
    by_word.update({key.lower(): key for key in size_words(item_class)})
    sizes: dict[str, dict[str, int | float]] = {}
    for entry in (part.strip() for part in text.split(";")):
        if not entry:
            continue
        name, colon, rest = entry.partition(":")
        number_text, _, word = rest.strip().partition(" ")
        key = by_word.get(word.strip().lower())
        if not colon or not name.strip() or key is None:
            expected = " or ".join(sorted({word for word in size_words(item_class).values()}))
            raise InputError(f"write each entry as name: number {expected}, separated by ';' (not '{entry}')")
        sizes.setdefault(name.strip(), {})[key] = read_number(number_text)
    return sizes
