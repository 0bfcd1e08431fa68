"""The scenario editor of the workspace.

The editor is not declared field by field: it walks the scenario dataclasses (`ScenarioSpec`
and everything under it) with `spec_fields`, so a field another engineer adds to the spec
appears in the form with its unit, help and default. Posted text is turned into typed values
and then checked by the same validation as the API (`read_scenario` and `check_references`
through the services); each error comes back by its dotted path and is shown beside the input
of that path.
"""

import copy
import dataclasses
import functools
import json
import re
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Literal, get_args, get_origin

import yaml

from planner.solver.errors import DOCUMENT_PATH
from planner.solver.scenario import ScenarioSpec
from planner.solver.schema import spec_fields

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

WORDS = {
    "u": "U",
    "gpus": "GPUs",
    "gpu": "GPU",
    "pue": "PUE",
    "oob": "OOB",
    "nics": "NICs",
    "tco": "TCO",
    "it": "IT",
    "mfu": "MFU",
    "id": "ID",
    "bf16": "BF16",
    "fp8": "FP8",
    "pdu": "PDU",
    "pdus": "PDUs",
    "ups": "UPS",
    "cdu": "CDU",
    "wue": "WUE",
    "usd": "USD",
    "gbytes": "GB",
    "kw": "kW",
    "mw": "MW",
    "kwh": "kWh",
    "gbps": "Gb/s",
    "flops": "FLOPs",
    "tflops": "TFLOPS",
    "pflop": "PFLOP",
    "co2": "CO₂",
    "mwh": "MWh",
}
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
        return _display(self.default)


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
    words = name.split("_")
    return " ".join(WORDS.get(word, word) for word in words).capitalize() if words else name


def field_label(name: str, unit: str) -> str:
    """The field's name in words, without the trailing words its unit already says."""
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
        return f"{humanize(parts[-1])} ({humanize(parts[-2]).lower()})"
    return humanize(path)


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


def _scalar_kinds(annotation: Any) -> tuple[set[type], list[Any]]:
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
        value_kinds, _ = _scalar_kinds(get_args(annotation)[1])
        if not value_kinds <= {int, float, str}:
            return None
        return EditorField(widget="rows", **common)
    kinds, literals = _scalar_kinds(annotation)
    if not kinds <= {int, float, str, bool}:
        return None
    kind = _catalog_kind(info.name, catalog_kinds) if str in kinds else None
    if kinds == {bool}:
        return EditorField(widget="checkbox", **common)
    if literals and kinds == {type(value) for value in literals}:
        editor_field = EditorField(widget="select", **common)
        editor_field.choices = [(_display(value), _display(value)) for value in literals]
        editor_field.catalog_kind = kind
        return editor_field
    if kind:
        editor_field = EditorField(widget="select", **common)
        editor_field.catalog_kind = kind
        return editor_field
    if literals:
        editor_field = EditorField(widget="choice_text", **common)
        editor_field.choices = [(_display(value), _display(value)) for value in literals]
        return editor_field
    if kinds & {int, float}:
        return EditorField(widget="number", **common)
    return EditorField(widget="text", **common)


# ---------------------------------------------------------------------------------------------
# Values: typed document values to text for inputs, and posted text back to typed values


def _display(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    return str(value)


def convert_text(text: str, annotation: Any) -> Any:
    """A posted string as the value the field's type expects, when it parses as one.

    Text that does not parse is kept as it is, so that the validator names the error exactly as
    the API would.
    """
    text = text.strip()
    kinds, _ = _scalar_kinds(annotation)
    if bool in kinds and text in ("true", "false", "on"):
        return text != "false"
    if kinds & {int, float}:
        try:
            return int(text)
        except ValueError:
            pass
        try:
            return float(text)
        except ValueError:
            pass
    return text


def _price_rows(path: str, mapping: Any) -> list[PriceRow]:
    items = list(mapping.items()) if isinstance(mapping, dict) else []
    rows = [
        PriceRow(path, index, str(key), _display(value)) for index, (key, value) in enumerate(items)
    ]
    rows += [PriceRow(path, len(rows) + offset, "", "") for offset in range(BLANK_PRICE_ROWS)]
    return rows


# ---------------------------------------------------------------------------------------------
# The editor


class ScenarioEditor:
    """The scenario form: sections of fields filled from a document, with errors by path."""

    def __init__(self, document: dict, catalog, errors: dict[str, list[str]] | None = None):
        self.document = document if isinstance(document, dict) else {}
        self.catalog = catalog
        self.catalog_kinds = {item.name for item in dataclasses.fields(catalog)}
        self.sections = walk_spec(self.catalog_kinds)
        self.errors: list[str] = []
        for section in self.sections:
            section.included = not section.optional or isinstance(
                path_get(self.document, section.path), dict
            )
            for editor_field in section.fields:
                self._fill(editor_field)
        self.assign_errors(errors or {})

    OPEN_SECTIONS = ("", "compute", "racks")
    """Sections shown open in a new editor; the others open when included or in error."""
    # -- filling from the document

    def _value(self, path: str, default: Any) -> Any:
        value = self.document
        for key in path.split("."):
            if not isinstance(value, dict):
                return default
            if key not in value:
                return default
            value = value[key]
        return value

    def _fill(self, editor_field: EditorField) -> None:
        for nested_path, before in self._nested_readers():
            if editor_field.path.startswith(nested_path + "."):
                raw = path_get(self.document, nested_path)
                if raw is not None and not isinstance(raw, dict) and before:
                    expanded = before(raw)
                    if isinstance(expanded, dict):
                        key = editor_field.path.removeprefix(nested_path + ".")
                        if key in expanded:
                            editor_field.value = _display(expanded[key])
                            return
        value = self._value(editor_field.path, editor_field.default)
        if editor_field.widget == "rows":
            editor_field.rows = _price_rows(editor_field.path, value)
            return
        if editor_field.widget == "checkbox":
            editor_field.checked = value is True
            return
        if editor_field.widget == "select":
            editor_field.choices = self._choices(editor_field)
            if value is None and editor_field.choices:
                value = editor_field.choices[0][0]
            shown = _display(value)
            if shown and shown not in {choice for choice, _ in editor_field.choices}:
                editor_field.choices.append((shown, f"{shown} (not in the catalog)"))
        editor_field.value = _display(value)

    def _nested_readers(self):
        for section in self.sections:
            yield from section.nested

    def _choices(self, editor_field: EditorField) -> list[tuple[str, str]]:
        kind = getattr(editor_field, "catalog_kind", None)
        parts = dict(getattr(self.catalog, kind, {})) if kind else {}
        components = path_get(self.document, f"components.{kind}") if kind else None
        for part in components if isinstance(components, list) else ():
            if isinstance(part, dict) and isinstance(part.get("slug"), str):
                parts[part["slug"]] = part
        if editor_field.choices:
            return [
                (value, part_label(kind, parts[value]) if value in parts else label)
                for value, label in editor_field.choices
            ]
        choices = [(slug, part_label(kind, part)) for slug, part in sorted(parts.items())]
        _, literals = _scalar_kinds(editor_field.annotation)
        choices = [(_display(value), _display(value)) for value in literals] + choices
        if not editor_field.required and editor_field.default is None:
            choices.insert(0, ("", "— none —"))
        return choices

    @functools.cached_property
    def price_slugs(self) -> set[str]:
        return {slug for _, options in self.price_choices for slug, _ in options}

    @functools.cached_property
    def price_choices(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """Every part a quote may price, grouped by catalog kind."""
        groups = []
        for kind in sorted(self.catalog_kinds):
            parts = getattr(self.catalog, kind)
            if parts:
                groups.append(
                    (
                        humanize(kind),
                        [
                            (slug, f"{slug} — {_attr(part, 'name', slug)}")
                            for slug, part in sorted(parts.items())
                        ],
                    )
                )
        return groups

    # -- errors

    def all_fields(self):
        for section in self.sections:
            yield from section.fields

    def assign_errors(self, errors: dict[str, list[str]]) -> None:
        """Put each message beside the input of its path (or of the nearest enclosing one)."""
        fields = sorted(self.all_fields(), key=lambda item: len(item.path), reverse=True)
        sections = sorted(self.sections, key=lambda item: len(item.path), reverse=True)
        for path, messages in errors.items():
            target = next((item for item in fields if _within(path, item.path)), None)
            if target is not None:
                row = self._row_for(target, path)
                if row is not None:
                    row.errors.extend(messages)
                elif path == target.path:
                    target.errors.extend(messages)
                else:
                    target.errors.extend(f"{path}: {message}" for message in messages)
                continue
            section = next(
                (item for item in sections if item.path and _within(path, item.path)), None
            )
            if section is not None and (section.fields or path == section.path):
                prefix = "" if path == section.path else f"{path}: "
                section.errors.extend(prefix + message for message in messages)
                continue
            label = "The document " if path == DOCUMENT_PATH else f"{path}: "
            self.errors.extend(label + message for message in messages)
        for section in self.sections:
            section.open = (
                (section.path in self.OPEN_SECTIONS)
                or (section.optional and section.included)
                or bool(section.errors)
                or any(
                    item.errors or any(row.errors for row in item.rows) for item in section.fields
                )
            )

    def _row_for(self, editor_field: EditorField, path: str) -> PriceRow | None:
        if editor_field.widget != "rows" or path == editor_field.path:
            return None
        key = path.removeprefix(editor_field.path + ".")
        return next((row for row in editor_field.rows if row.key == key), None)

    def error_containers(self) -> list[tuple[str, list[str], str]]:
        """(element id, messages, class) of every error container of the form, for a response
        that replaces them all out of band (so errors that were fixed disappear)."""
        containers = [("form-errors", self.errors, "field-errors form-errors")]
        for section in self.sections:
            containers.append((section.error_id, section.errors, "field-errors section-errors"))
            for item in section.fields:
                containers.append((item.error_id, item.errors, "field-errors"))
                containers.extend((row.error_id, row.errors, "field-errors") for row in item.rows)
        return containers

    @property
    def has_errors(self) -> bool:
        return (
            bool(self.errors)
            or any(
                item.errors or any(row.errors for row in item.rows) for item in self.all_fields()
            )
            or any(section.errors for section in self.sections)
        )

    def document_json(self) -> str:
        return json.dumps(self.document)

    def document_yaml(self) -> str:
        return document_as_yaml(self.document)

    # -- reading a post

    @classmethod
    def document_from_post(cls, data, catalog) -> dict:
        """The document the posted form describes: its fields over the hidden base document.

        Keys the form does not show (inline components, anything newer than the form) are
        kept from the base document. A blank field is left out, so its default applies; a value
        equal to its default is not written unless the document already had the key.
        """
        base = _load_json(data.get("document", ""))
        document = copy.deepcopy(base)
        catalog_kinds = {item.name for item in dataclasses.fields(catalog)}
        for section in walk_spec(catalog_kinds):
            if section.optional:
                if data.get(section.include_name) not in ("on", "true"):
                    path_pop(document, section.path)
                    continue
                if not isinstance(path_get(document, section.path), dict):
                    path_set(document, section.path, {})
            for nested_path, before in section.nested:
                raw = path_get(document, nested_path)
                if raw is not None and not isinstance(raw, dict):
                    expanded = before(raw) if before else raw
                    path_set(
                        document, nested_path, dict(expanded) if isinstance(expanded, dict) else {}
                    )
            for editor_field in section.fields:
                _apply_posted(document, base, editor_field, data)
            for nested_path, _ in section.nested:
                if path_get(document, nested_path) == {}:
                    path_pop(document, nested_path)
            if (
                section.path
                and not section.optional
                and path_get(document, section.path) == {}
                and path_get(base, section.path) is None
            ):
                path_pop(document, section.path)
        return document


def _within(path: str, parent: str) -> bool:
    return path == parent or path.startswith((parent + ".", parent + "["))


def _apply_posted(document: dict, base: dict, editor_field: EditorField, data) -> None:
    path = editor_field.path
    had_key = path_get(base, path, dataclasses.MISSING) is not dataclasses.MISSING
    if editor_field.widget == "rows":
        keys = data.getlist(path + ROW_KEY)
        values = data.getlist(path + ROW_VALUE)
        value_annotation = get_args(editor_field.annotation)[1]
        mapping = {}
        for key, value in zip(keys, values):
            if key.strip():
                mapping[key.strip()] = convert_text(value, value_annotation)
        path_pop(document, path)
        if mapping:
            path_set(document, path, mapping)
        return
    if editor_field.widget == "checkbox":
        values = data.getlist(path)
        if not values:
            return
        value: Any = values[-1] in ("true", "on")
    else:
        raw = data.get(path)
        if raw is None:
            return
        path_pop(document, path)
        if not raw.strip():
            return
        value = convert_text(raw, editor_field.annotation)
    path_pop(document, path)
    same_kind = isinstance(value, bool) == isinstance(editor_field.default, bool)
    if value == editor_field.default and same_kind and not had_key:
        return
    path_set(document, path, value)


def _load_json(text: str) -> dict:
    try:
        value = json.loads(text) if text else {}
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def _attr(part: Any, name: str, default: Any = None) -> Any:
    if isinstance(part, dict):
        return part.get(name, default)
    return getattr(part, name, default)


def _number(value: Any) -> str:
    return f"{value:,g}" if isinstance(value, (int, float)) else "?"


def part_label(kind: str | None, part: Any) -> str:
    """A catalog part as a choice: its name and the figures that decide a design."""
    name = _attr(part, "name") or _attr(part, "slug", "")
    try:
        if kind == "systems":
            size = "one rack" if _attr(part, "rack_scale") else f"{_attr(part, 'rack_units')}U"
            figures = f"{_attr(part, 'gpus')} GPUs, {_number(_attr(part, 'power_kw'))} kW, {size}"
        elif kind == "switches":
            figures = (
                f"{_attr(part, 'ports')} × {_number(_attr(part, 'port_gbps'))}G "
                f"{_attr(part, 'technology', '')}, {_number(_attr(part, 'power_w'))} W, "
                f"{_attr(part, 'rack_units')}U"
            )
        elif kind == "cooling_types":
            figures = (
                f"up to {_number(_attr(part, 'max_rack_kw'))} kW per rack, "
                f"typical PUE {_number(_attr(part, 'typical_pue'))}"
            )
        elif kind == "storage_systems":
            figures = (
                f"{_number(_attr(part, 'usable_capacity_tb'))} TB, "
                f"{_number(_attr(part, 'read_gbytes_per_s'))} GB/s read, "
                f"{_attr(part, 'rack_units')}U"
            )
        elif kind in ("transceivers", "cables"):
            figures = f"{_number(_attr(part, 'gbps'))}G, reach {_number(_attr(part, 'reach_m'))} m"
        else:
            figures = ""
    except (TypeError, ValueError):
        figures = ""
    return f"{name} — {figures}" if figures else str(name)


def document_as_yaml(document: Any) -> str:
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True, default_flow_style=False)
