"""Values of a plan as the dashboard shows them: a catalog part by its name (its slug in a
tooltip), a choice or kind (`compute`, `fiber`, `node-leaf`) in words, a SKU as code.

The JSON and YAML views keep the raw values; only the page reads them through here.
"""

import dataclasses
import functools
import re
from typing import Any

from planner.solver.plan import Plan
from planner.solver.scenario import ScenarioSpec
from workspace.words import (
    PHRASES,
    WORDS,
    choice_label,
    is_key,
    is_share,
    percent_words,
    segment_words,
    words_of,
)

SCENARIO_SECTIONS = {item.name for item in dataclasses.fields(ScenarioSpec)}
"""First parts of the scenario paths a plan names (`limited_by: racks.power_budget_kw`)."""


LARGEST_PLAIN_NUMBER = 1e15
"""Larger numbers (training FLOPs) are shown as 8.40 × 10²³."""
SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
UNIT_SUFFIXES = [
    ("_usd_per_kwh", "USD/kWh"),
    ("_usd_per_year", "USD/year"),
    ("_usd_per_gpu_hour", "USD/GPU-h"),
    ("_kg_per_m2", "kg/m²"),
    ("_btu_per_h", "BTU/h"),
    ("_l_per_min", "L/min"),
    ("_m3_per_h", "m³/h"),
    ("_l_per_kwh", "L/kWh"),
    ("_gbytes_per_s", "GB/s"),
    ("_mwh", "MWh"),
    ("_kwh", "kWh"),
    ("_kw", "kW"),
    ("_mw", "MW"),
    ("_w", "W"),
    ("_usd", "USD"),
    ("_m2", "m²"),
    ("_m", "m"),
    ("_kg", "kg"),
    ("_gbps", "Gb/s"),
    ("_tb", "TB"),
    ("_gb", "GB"),
    ("_s", "s"),
    ("_h", "h"),
    ("_cfm", "CFM"),
    ("_u", "U"),
    ("_k", "K"),
    ("_pflops", "PFLOPS"),
    ("_tflops", "TFLOPS"),
]


@functools.lru_cache(maxsize=4096)
def label(key: str) -> str:
    """`it_kw` -> `IT (kW)`; `nodes_per_rack` -> `Nodes per rack`; a dotted path stays as it is.

    Cached: a large plan asks for the same few hundred keys thousands of times."""
    if "." in key:
        return path_words(key) if is_scenario_path(key) else key
    if key in PHRASES:
        return PHRASES[key]
    for suffix, name in UNIT_SUFFIXES if "_by_" in key else ():
        # `optics_power_kw_by_device` -> "Optics power by device (kW)"
        head, by, tail = key.partition(f"{suffix}_by_")
        if by and head:
            return f"{words_of(f'{head}_by_{tail}')} ({name})"
    unit = ""
    for suffix, name in UNIT_SUFFIXES:
        if key.endswith(suffix) and len(key) > len(suffix):
            key, unit = key[: -len(suffix)], name
            break
    text = words_of(key)
    return f"{text} ({unit})" if unit else text


def format_value(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)) and abs(value) >= LARGEST_PLAIN_NUMBER:
        mantissa, exponent = f"{value:.2e}".split("e")
        return f"{mantissa} × 10{str(int(exponent)).translate(SUPERSCRIPTS)}"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return f"{int(value):,}"
        if abs(value) >= 100:
            return f"{value:,.0f}"
        if abs(value) >= 1:
            return f"{value:,.2f}".rstrip("0").rstrip(".")
        return f"{value:.3g}"
    if isinstance(value, list):
        if all(isinstance(item, dict) for item in value):
            return ", ".join(_compact(item) for item in value)
        return ", ".join(format_value(item) for item in value)
    if isinstance(value, dict):
        return ", ".join(f"{_sub_label(key)}: {format_value(item)}" for key, item in value.items())
    if isinstance(value, str) and is_key(value):
        return choice_label(value)
    if isinstance(value, str) and is_scenario_path(value):
        return path_words(value)
    return str(value)


def is_scenario_path(text: str) -> bool:
    """Whether a text is the dotted path of a scenario field (`racks.power_budget_kw`)."""
    parts = text.split(".")
    return (
        len(parts) > 1
        and parts[0] in SCENARIO_SECTIONS
        and all(is_key(part) or part.isalpha() for part in parts)
    )


def path_words(path: str) -> str:
    """A scenario field's path in words: `racks.power_budget_kw` -> "Racks › Power budget (kW)"."""
    *sections, name = path.split(".")
    return " › ".join([*(words_of(section) for section in sections), label(name)])


def _sub_label(key: str) -> str:
    """A key inside a record in words; a slug (`qm9700`, `chiller-air-1000`) as it is."""
    if is_scenario_path(key):
        return path_words(key)
    return words_of(key) if is_key(key) else key


def _compact(record: dict) -> str:
    values = [format_value(item) for item in record.values()]
    return " × ".join(values) if len(values) == 2 else "/".join(values)


CODE_KEYS = {"sku"}
"""Columns whose values are identifiers to copy (the BOM's SKU): shown as code, as they are, in a
table that names the part in another column (NAME_KEYS)."""
NAME_KEYS = {"description", "name"}
SEGMENT_KEYS = {"segment"}
WORD_VALUE = re.compile(r"[a-z]+(?:_[a-z0-9]+)*")
"""A value written as a key (`compute`, `middle_of_row`), not a slug (`qm9700`, `rack-42u-600`)."""


class Shown(str):
    """A value's text, with what the page puts around it: the slug it names (a tooltip) or
    whether it is code."""

    slug: str = ""
    """The slug of the part the text names, for its tooltip."""
    code: bool = False

    @classmethod
    def part(cls, name: str, slug: str) -> "Shown":
        """A part by its short name, its slug in the tooltip."""
        shown = cls(short_name(name))
        shown.slug = slug
        return shown

    @classmethod
    def as_code(cls, text: str) -> "Shown":
        shown = cls(text)
        shown.code = True
        return shown


def part_names(catalog=None, plan: Plan | None = None) -> dict[str, str]:
    """Names of the parts by slug: the catalog's, and those of the plan's sources (its inline
    components, which the catalog does not hold)."""
    names: dict[str, str] = {}
    for parts in vars(catalog).values() if catalog is not None else ():
        if isinstance(parts, dict):
            names.update(
                {slug: part.name for slug, part in parts.items() if getattr(part, "name", "")}
            )
    for source in plan.sources if plan is not None else ():
        if source.sku and source.name:
            names.setdefault(source.sku, source.name)
    return names


def short_name(name: str) -> str:
    """A part's name without its detail after a parenthesis or comma: "NVIDIA Quantum-2 QM9700",
    "Standard 42U rack"."""
    return re.split(r" \(|, ", name, maxsplit=1)[0].strip() or name


def shown_value(key: str, value: Any, names: dict[str, str]) -> str:
    """How the page shows a plan value under `key`: a share in percent."""
    if type(value) in (int, float):
        if is_share(key) and -1 <= value <= 1:
            return percent_words(value)
        return format_value(value)
    if isinstance(value, str):
        if key in CODE_KEYS:
            return Shown.as_code(value)
        if value in names:
            return Shown.part(names[value], value)
        return _string_value(key in SEGMENT_KEYS, value)
    if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
        return ", ".join(_record(item, names) for item in value)
    if isinstance(value, list):
        return ", ".join(shown_value(key, item, names) for item in value)
    if isinstance(value, dict):
        return ", ".join(
            f"{sub_label(sub, names)}: {shown_value(sub, item, names)}"
            for sub, item in value.items()
        )
    return format_value(value)


@functools.lru_cache(maxsize=4096)
def _string_value(segment: bool, value: str) -> str:
    """A string that names no part in words; cached, as a plan repeats its kinds in every row."""
    if segment:
        return segment_words(value)
    if value in WORDS:
        return WORDS[value]
    if WORD_VALUE.fullmatch(value):
        return choice_label(value)
    return format_value(value)


def sub_label(key: str, names: dict[str, str]) -> str:
    """A key inside a record: a part by its short name, a choice (`acc`) in words."""
    if key in names:
        return short_name(names[key])
    if WORD_VALUE.fullmatch(key):
        return words_of(key)
    return key


def _record(record: dict, names: dict[str, str]) -> str:
    """A small record in one phrase: `{slug: dgx-h100, count: 4}` -> "NVIDIA DGX H100 × 4"."""
    values = [shown_value(key, item, names) for key, item in record.items()]
    return " × ".join(values) if len(values) == 2 else "/".join(values)


SLUG_TOKEN = re.compile(r"(?<![\w./-])[a-z0-9]+(?:-[a-z0-9]+)*(?![\w/-])")
"""A word of prose that may be a part's slug (`crah-200`, `qm9700`), not part of an address."""


PATH_TOKEN = re.compile(r"(?<![\w.])[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+(?![\w.])")
"""A dotted word of prose that may be a scenario field's path (`racks.power_budget_kw`)."""


def with_part_names(text: str, names: dict[str, str]) -> str:
    """Prose (a warning, a note) with each slug of a known part replaced by its short name and
    each scenario field's path by its words ("Facility › Floor load limit (kg/m²)")."""
    text = PATH_TOKEN.sub(
        lambda match: (
            path_words(match.group(0)) if is_scenario_path(match.group(0)) else match.group(0)
        ),
        text,
    )
    if not names:
        return text
    return SLUG_TOKEN.sub(
        lambda match: (
            short_name(names[match.group(0)]) if match.group(0) in names else match.group(0)
        ),
        text,
    )


def fabric_title(name: str) -> str:
    """A fabric's name in words; a pool's compute fabric (`compute-<pool>`) as "Compute (<pool>)"."""
    if name.startswith("compute-"):
        return f"Compute ({name.removeprefix('compute-')})"
    return words_of(name)


INDEXED_PART = re.compile(r"([a-z][a-z0-9_]*)\[(\d+)\]")


def error_path_words(path: str) -> str:
    """An error's path in words: `pools[0].inference.kv_bytes_per_token` -> "Pools 1 ›
    Inference › KV bytes per token"; `document` (the whole) -> "The scenario"."""
    if path in ("document", "__all__", "non_field_errors", ""):
        return "The scenario"
    parts = path.split(".")
    shown = []
    for position, part in enumerate(parts):
        indexed = INDEXED_PART.fullmatch(part)
        if indexed:
            shown.append(f"{words_of(indexed.group(1))} {int(indexed.group(2)) + 1}")
        elif position == len(parts) - 1 and is_key(part) or part.isalpha() and part.islower():
            shown.append(label(part) if position == len(parts) - 1 else words_of(part))
        else:
            shown.append(part)
    return " › ".join(shown)


def error_lines(errors: dict[str, list[str]], names: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """Errors by path as (where, message) lines in words; the paths stay dotted in the API."""
    return [
        (error_path_words(path), with_part_names(message, names or {}))
        for path, messages in errors.items()
        for message in messages
    ]


def join_indexes(path: str) -> str:
    """A path whose list items are parts of their own (`storage.tiers.1.system`, as a document
    diff writes them) with its indexes in brackets: `storage.tiers[1].system`."""
    joined: list[str] = []
    for part in path.split("."):
        if part.isdigit() and joined:
            joined[-1] = f"{joined[-1]}[{part}]"
        else:
            joined.append(part)
    return ".".join(joined)
