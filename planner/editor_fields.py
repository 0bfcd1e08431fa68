"""The fields of the scenario editor, made by walking the scenario spec dataclasses.

`walk_spec` turns `ScenarioSpec` (and everything under it) into sections of fields, each with
its dotted path, label, unit, help, default, kind of input and catalog choices, so a field added
to a spec appears in the editor without changes here.
"""

import dataclasses
import json
import re
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Literal, get_args, get_origin

from planner.form_input import InputError, percent_text, read_number
from planner.solver.scenario import ScenarioSpec
from planner.solver.schema import spec_fields
from planner.words import PHRASES, WORDS, choice_label, in_words, words_of

BLANK_PRICE_ROWS = 3
INCLUDE_PREFIX = "include:"
ROW_KEY = ".key"
ROW_VALUE = ".value"

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
}
"""Titles of the sections the spec has today; a new section is titled from its path."""

CATALOG_FIELD_ALIASES = {"cooling": "cooling_types"}
"""Scenario fields whose values are catalog slugs of a kind not named by the field's plural."""

UNIT_SYNONYMS = {"gbytes": "gb", "tbytes": "tb", "m2": "m"}
"""Words of field names that stand for a unit word (read_gbytes_per_s: GB/s)."""

# ---------------------------------------------------------------------------------------------
# Paths in plain documents


def path_get(document: Any, path: str, default: Any = None) -> Any:
    value = document
    for key in path.split(".") if path else ():
        if not isinstance(value, dict) or key not in value:
            return default
        value = value[key]
    return value


def path_set(document: dict, path: str, value: Any) -> None:
    *parents, last = path.split(".")
    for key in parents:
        if not isinstance(document.get(key), dict):
            document[key] = {}
        document = document[key]
    document[last] = value


def path_pop(document: dict, path: str) -> None:
    *parents, last = path.split(".")
    for key in parents:
        document = document.get(key) if isinstance(document, dict) else None
    if isinstance(document, dict):
        document.pop(last, None)


def dom_id(prefix: str, path: str) -> str:
    """An HTML id for a dotted path: `err-fabrics-compute-switch`."""
    return f"{prefix}-{re.sub(r'[^A-Za-z0-9]+', '-', path).strip('-') or 'root'}"


# ---------------------------------------------------------------------------------------------
# What the walk over the spec finds


@dataclass
class PriceRow:
    path: str
    index: int
    key: str
    value: str
    errors: list[str] = field(default_factory=list)

    @property
    def error_id(self) -> str:
        return dom_id("err", f"{self.path}-row-{self.index}")


@dataclass
class EditorField:
    path: str
    label: str
    widget: str
    """text, number, select, choice_text (text with suggestions), checkbox or rows."""
    annotation: Any
    default: Any
    required: bool
    unit: str = ""
    help: str = ""
    choices: list[tuple[str, str]] = field(default_factory=list)
    value: str = ""
    checked: bool = False
    rows: list[PriceRow] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    catalog_kind: str | None = None
    percent: bool = False
    """Shown and typed as a percentage (a share or a rate), with a % sign allowed."""
    fraction: bool = False
    """Kept as a fraction in the document (0.08) while the form shows percent (8)."""
    bounds: tuple[float | None, float | None] = (None, None)

    @property
    def input_id(self) -> str:
        return dom_id("f", self.path)

    @property
    def error_id(self) -> str:
        return dom_id("err", self.path)

    @property
    def help_id(self) -> str:
        return dom_id("help", self.path)

    @property
    def default_text(self) -> str:
        if self.required or self.default is None or self.widget in ("rows", "checkbox"):
            return ""
        if isinstance(self.default, (dict, list, tuple)) or dataclasses.is_dataclass(self.default):
            return ""
        if self.widget == "select" and any(self.default == choice for choice, _ in self.literals):
            return choice_label(self.default)
        return self.shown(self.default)

    @property
    def help_text(self) -> str:
        """The spec's help with the keys it mentions in words (the keys stay in the YAML view)."""
        text = in_words(self.help, [choice for choice, _ in self.literals])
        return fractions_as_percent(text) if self.fraction else text

    def shown(self, value: Any) -> str:
        """A document value as the input shows it: percent for a fraction, a choice's words."""
        if self.fraction and isinstance(value, (int, float)) and not isinstance(value, bool):
            return percent_text(value)
        if self.widget == "choice_text" and any(value == choice for choice, _ in self.literals):
            return choice_label(value)
        return display_value(value)

    @property
    def literals(self) -> list[tuple[Any, str]]:
        _, literals = scalar_kinds(self.annotation)
        return [(value, choice_label(value)) for value in literals]

    def read(self, text: str) -> Any:
        """Posted text as the document value; InputError names what is wrong with it."""
        value = convert_text(text, self.annotation, percent=self.percent, fraction=self.fraction)
        if self.fraction and isinstance(value, float):
            low, high = self.bounds
            if (low is not None and value < low) or (high is not None and value > high):
                raise InputError(
                    f"must be between {percent_text(low)} % and {percent_text(high)} %"
                )
        return value


@dataclass
class EditorSection:
    path: str
    title: str
    fields: list[EditorField] = field(default_factory=list)
    optional: bool = False
    included: bool = True
    nested: list[tuple[str, Any]] = field(default_factory=list)
    """(path, `before` shorthand reader) of dataclasses flattened into this section."""
    errors: list[str] = field(default_factory=list)
    open: bool = False

    @property
    def nested_optional(self) -> bool:
        """An optional part of another section (a fabric's dragonfly shape)."""
        return self.optional and self.path.count(".") >= 2

    @property
    def title_in_sentence(self) -> str:
        return in_sentence(self.title)

    @property
    def include_name(self) -> str:
        return INCLUDE_PREFIX + self.path

    @property
    def include_id(self) -> str:
        return dom_id("include", self.path)

    @property
    def error_id(self) -> str:
        return dom_id("err-section", self.path)

    @property
    def anchor(self) -> str:
        return dom_id("section", self.path)


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


def _union_args(annotation: Any) -> tuple:
    if get_origin(annotation) in (typing.Union, types.UnionType):
        return get_args(annotation)
    return (annotation,)


def _dataclass_of(annotation: Any) -> tuple[type | None, bool]:
    """The dataclass a field holds, and whether it may be left out (None)."""
    args = _union_args(annotation)
    classes = [arg for arg in args if dataclasses.is_dataclass(arg)]
    if len(classes) == 1 and all(arg in (classes[0], type(None)) for arg in args):
        return classes[0], type(None) in args
    return None, False


def scalar_kinds(annotation: Any) -> tuple[set[type], list[Any]]:
    """The Python types a field takes, and its literal choices."""
    kinds: set[type] = set()
    literals: list[Any] = []
    for arg in _union_args(annotation):
        if get_origin(arg) is Literal:
            literals.extend(get_args(arg))
            kinds.update(type(value) for value in get_args(arg))
        elif arg is not type(None):
            kinds.add(arg)
    return kinds, literals


def _catalog_kind(name: str, catalog_kinds: set[str]) -> str | None:
    """The catalog snapshot field a slug field chooses from, found by the field's name.

    `switch` and `spine_switch` choose switches, `network_rack_type` rack types.
    """
    words = name.removesuffix("_slug").split("_")
    for start in range(len(words)):
        base = "_".join(words[start:])
        for kind in (CATALOG_FIELD_ALIASES.get(base), base + "s", base + "es", base[:-1] + "ies"):
            if kind in catalog_kinds:
                return kind
    return None


def _field_before(cls: type, name: str) -> Any:
    for item in dataclasses.fields(cls):
        if item.name == name:
            return item.metadata.get("before")
    return None


def walk_spec(catalog_kinds: set[str], cls: type = ScenarioSpec) -> list[EditorSection]:
    """The editor's sections: one per dataclass of the spec, optional ones with a checkbox.

    A dataclass nested inside a section (an oversubscription) is shown as fields of that section;
    one that may be left out (a fabric) gets its own section; lists (inline components) are
    left to the YAML editor.
    """
    sections: list[EditorSection] = []

    def visit(section: EditorSection, cls: type, prefix: str, label_prefix: str) -> None:
        for info in spec_fields(cls):
            path = f"{prefix}.{info.name}" if prefix else info.name
            child, optional = _dataclass_of(info.annotation)
            if child is not None:
                if optional or not prefix:
                    inner = EditorSection(path=path, title=section_title(path), optional=optional)
                    sections.append(inner)
                    visit(inner, child, path, "")
                else:
                    section.nested.append((path, _field_before(cls, info.name)))
                    visit(section, child, path, f"{label_prefix}{humanize(info.name)}: ")
                continue
            editor_field = _editor_field(info, path, label_prefix, catalog_kinds)
            if editor_field is None:
                continue
            if editor_field.widget == "rows" and not prefix:
                own = EditorSection(path=path, title=section_title(path))
                own.fields.append(editor_field)
                sections.append(own)
            else:
                section.fields.append(editor_field)

    root = EditorSection(path="", title=section_title(""))
    sections.append(root)
    visit(root, cls, "", "")
    return [section for section in sections if section.fields]


def _editor_field(
    info, path: str, label_prefix: str, catalog_kinds: set[str]
) -> EditorField | None:
    annotation = info.annotation
    origin = get_origin(annotation)
    common = {
        "path": path,
        "label": label_prefix + field_label(info.name, info.unit),
        "annotation": annotation,
        "default": info.default,
        "required": info.required,
        "unit": info.unit,
        "help": info.help,
    }
    if origin is tuple or origin is list:
        return None
    if origin is dict:
        value_kinds, _ = scalar_kinds(get_args(annotation)[1])
        if not value_kinds <= {int, float, str}:
            return None
        return EditorField(widget="rows", **common)
    kinds, literals = scalar_kinds(annotation)
    if not kinds <= {int, float, str, bool}:
        return None
    kind = _catalog_kind(info.name, catalog_kinds) if str in kinds else None
    if kinds == {bool}:
        return EditorField(widget="checkbox", **common)
    if literals and kinds == {type(value) for value in literals}:
        editor_field = EditorField(widget="select", **common)
        editor_field.choices = [(display_value(value), choice_label(value)) for value in literals]
        editor_field.catalog_kind = kind
        return editor_field
    if kind:
        editor_field = EditorField(widget="select", **common)
        editor_field.catalog_kind = kind
        return editor_field
    if literals:
        editor_field = EditorField(widget="choice_text", **common)
        editor_field.choices = [(choice_label(value), choice_label(value)) for value in literals]
    elif kinds & {int, float}:
        editor_field = EditorField(widget="number", **common)
    else:
        return EditorField(widget="text", **common)
    if float in kinds:
        _mark_percent(editor_field, info)
    return editor_field


FRACTION_IN_TEXT = re.compile(r"(?<![\d.])(0?\.\d+)(?:\s*[-–]\s*(0?\.\d+))?(?![\d.])")


def fractions_as_percent(text: str) -> str:
    """A help text's fractions in the percent its field takes: "about 0.92-0.97" -> "about 92-97 %"."""

    def replace(match: re.Match) -> str:
        low, high = match.group(1), match.group(2)
        shown = percent_text(float(low)) + (f"–{percent_text(float(high))}" if high else "")
        return f"{shown} %"

    return FRACTION_IN_TEXT.sub(replace, text)


FRACTION_LIMIT = 1
"""A unitless float bounded within ±1 is a share or a rate: the form shows it in percent."""


def _mark_percent(editor_field: EditorField, info) -> None:
    if info.unit == "%":
        editor_field.percent = True
    elif (
        not info.unit
        and info.maximum is not None
        and info.maximum <= FRACTION_LIMIT
        and (info.minimum is None or info.minimum >= -FRACTION_LIMIT)
    ):
        editor_field.percent = editor_field.fraction = True
        editor_field.unit = "%"
        editor_field.bounds = (info.minimum, info.maximum)


# ---------------------------------------------------------------------------------------------
# Values: typed document values to text for inputs, and posted text back to typed values


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
    free_text = any(arg is str for arg in _union_args(annotation))
    if kinds & {int, float} and not free_text:
        try:
            return read_number(text, percent=percent, fraction=fraction)
        except InputError as error:
            if literals:
                words = ", ".join(f"“{choice_label(value)}”" for value in literals)
                raise InputError(f"{error} (or type {words})") from None
            raise
    return text


def price_rows(path: str, mapping: Any) -> list[PriceRow]:
    items = list(mapping.items()) if isinstance(mapping, dict) else []
    rows = [
        PriceRow(path, index, str(key), display_value(value)) for index, (key, value) in enumerate(items)
    ]
    rows += [PriceRow(path, len(rows) + offset, "", "") for offset in range(BLANK_PRICE_ROWS)]
    return rows


# ---------------------------------------------------------------------------------------------
# The editor


def part_attribute(part: Any, name: str, default: Any = None) -> Any:
    if isinstance(part, dict):
        return part.get(name, default)
    return getattr(part, name, default)


def _number(value: Any) -> str:
    return f"{value:,g}" if isinstance(value, (int, float)) else "?"


def part_label(kind: str | None, part: Any) -> str:
    """A catalog part as a choice: its name and the figures that decide a design."""
    name = part_attribute(part, "name") or part_attribute(part, "slug", "")
    try:
        if kind == "systems":
            size = "one rack" if part_attribute(part, "rack_scale") else f"{part_attribute(part, 'rack_units')}U"
            figures = f"{part_attribute(part, 'gpus')} GPUs, {_number(part_attribute(part, 'power_kw'))} kW, {size}"
        elif kind == "switches":
            figures = (
                f"{part_attribute(part, 'ports')} × {_number(part_attribute(part, 'port_gbps'))}G "
                f"{part_attribute(part, 'technology', '')}, {_number(part_attribute(part, 'power_w'))} W, "
                f"{part_attribute(part, 'rack_units')}U"
            )
        elif kind == "cooling_types":
            figures = (
                f"up to {_number(part_attribute(part, 'max_rack_kw'))} kW per rack, "
                f"typical PUE {_number(part_attribute(part, 'typical_pue'))}"
            )
        elif kind == "storage_systems":
            figures = (
                f"{_number(part_attribute(part, 'usable_capacity_tb'))} TB, "
                f"{_number(part_attribute(part, 'read_gbytes_per_s'))} GB/s read, "
                f"{part_attribute(part, 'rack_units')}U"
            )
        elif kind in ("transceivers", "cables"):
            figures = f"{_number(part_attribute(part, 'gbps'))}G, reach {_number(part_attribute(part, 'reach_m'))} m"
        else:
            figures = ""
    except (TypeError, ValueError):
        figures = ""
    return f"{name} — {figures}" if figures else str(name)
