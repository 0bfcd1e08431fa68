"""The fields of the scenario editor, made by walking the scenario spec dataclasses.

`walk_spec` turns `ScenarioSpec` (and everything under it) into sections of fields, each with
its dotted path, label, unit, help, default, kind of input and catalog choices, so a field added
to a spec appears in the editor without changes here. Lists of dataclasses (storage tiers,
inline parts) are marked as `ListField`s; workspace/editor/rows.py makes their rows.
"""

import dataclasses
from dataclasses import dataclass, field
from typing import Any, get_args, get_origin

from core.solver.schema import spec_fields
from planner.solver.scenario import ScenarioSpec
from workspace.editor.choices import CatalogPick, catalog_pick, help_in_form
from workspace.editor.form_input import InputError, percent_text
from workspace.editor.labels import field_label, humanize, in_sentence, section_title
from workspace.editor.paths import dom_id
from workspace.editor.sizes import is_sizes_section, read_sizes, sizes_text
from workspace.editor.values import (
    convert_text,
    display_value,
    fractions_as_percent,
    read_number_list,
    scalar_kinds,
    union_args,
)
from workspace.words import choice_label, in_words, is_share

BLANK_PRICE_ROWS = 3
INCLUDE_PREFIX = "include:"
ROW_KEY = ".key"
ROW_VALUE = ".value"

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
    """text, number, select, choice_text (text with suggestions), checkbox, checkboxes (a list
    of choices), number_list (whole numbers separated by commas), sizes (a mapping of small
    sections on one line: workspace/editor/sizes.py) or rows (price quotes)."""
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
    pick: CatalogPick | None = None
    """The catalog parts a slug field chooses from."""
    selected: list[str] = field(default_factory=list)
    """The choices ticked, of a checkboxes field."""
    autofocus: bool = False
    percent: bool = False
    """Shown and typed as a percentage (a share or a rate), with a % sign allowed."""
    fraction: bool = False
    """Kept as a fraction in the document (0.08) while the form shows percent (8)."""
    bounds: tuple[float | None, float | None] = (None, None)

    @property
    def input_id(self) -> str:
        return dom_id("f", self.path)

    @property
    def key(self) -> str:
        """The last key of the path (`scheme` of `storage.tiers.0.protection.scheme`)."""
        return self.path.rsplit(".", 1)[-1]

    @property
    def error_id(self) -> str:
        return dom_id("err", self.path)

    @property
    def help_id(self) -> str:
        return dom_id("help", self.path)

    @property
    def default_text(self) -> str:
        if self.required or self.default is None or self.widget in ("rows", "checkbox", "checkboxes"):
            return ""
        if isinstance(self.default, (dict, list, tuple)) or dataclasses.is_dataclass(self.default):
            return ""
        if self.widget == "select" and any(self.default == choice for choice, _ in self.literals):
            return choice_label(self.default)
        return self.shown(self.default)

    @property
    def help_text(self) -> str:
        """The spec's help with the keys it mentions in words (the keys stay in the YAML view)."""
        text = in_words(help_in_form(self.help), [choice for choice, _ in self.literals])
        return fractions_as_percent(text) if self.fraction else text

    def shown(self, value: Any) -> str:
        """A document value as the input shows it: percent for a fraction, a choice's words."""
        if self.widget == "sizes":
            return sizes_text(value, get_args(self.annotation)[1])
        if self.widget == "number_list" and isinstance(value, (list, tuple)):
            return ", ".join(display_value(item) for item in value)
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
        if self.widget == "number_list":
            return read_number_list(text)
        if self.widget == "sizes":
            return read_sizes(text, get_args(self.annotation)[1])
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
    lists: list["ListField"] = field(default_factory=list)
    """Lists of dataclasses in this section, shown as repeatable rows after the fields."""
    row_lists: list[Any] = field(default_factory=list)
    """Those lists with the rows of a document (workspace.editor.rows.RowList)."""
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


@dataclass(frozen=True)
class ListField:
    """A list of dataclasses in the spec (`storage.tiers`): the form shows it as rows."""

    path: str
    item_class: type
    help: str = ""


def _dataclass_of(annotation: Any) -> tuple[type | None, bool]:
    """The dataclass a field holds, and whether it may be left out (None)."""
    args = union_args(annotation)
    classes = [arg for arg in args if dataclasses.is_dataclass(arg)]
    if len(classes) == 1 and all(arg in (classes[0], type(None)) for arg in args):
        return classes[0], type(None) in args
    return None, False


def list_item_class(annotation: Any) -> type | None:
    """The dataclass of a list field (`tuple[StorageTierSpec, ...]`), else None."""
    if get_origin(annotation) is tuple:
        [item, *_] = get_args(annotation)
        if dataclasses.is_dataclass(item):
            return item
    return None


def _field_before(cls: type, name: str) -> Any:
    for item in dataclasses.fields(cls):
        if item.name == name:
            return item.metadata.get("before")
    return None


def walk_spec(catalog_kinds: set[str], cls: type = ScenarioSpec) -> list[EditorSection]:
    """The editor's sections: one per dataclass of the spec, optional ones with a checkbox.

    A dataclass nested inside a section (an oversubscription) is shown as fields of that section;
    one that may be left out (a fabric) gets its own section; a list of dataclasses (storage
    tiers, inline parts) is a `ListField` of its section, shown as rows.
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
            item_class = list_item_class(info.annotation)
            if item_class is not None:
                section.lists.append(ListField(path, item_class, info.help))
                continue
            editor_field = editor_field_of(info, path, label_prefix, catalog_kinds, cls)
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
    return [section for section in sections if section.fields or section.lists]


def item_fields(
    cls: type, prefix: str, catalog_kinds: set[str]
) -> tuple[list[EditorField], list[ListField], list[tuple[str, Any]]]:
    """The inputs of one item of a list (a storage tier at `prefix` = `storage.tiers.0`): its
    fields (a nested dataclass, its protection, flattened into them), its own lists (a system's
    NICs) and the (path, shorthand reader) of each flattened dataclass."""
    fields: list[EditorField] = []
    lists: list[ListField] = []
    nested: list[tuple[str, Any]] = []

    def visit(cls: type, prefix: str, label_prefix: str) -> None:
        for info in spec_fields(cls):
            path = f"{prefix}.{info.name}"
            child, _ = _dataclass_of(info.annotation)
            if child is not None:
                nested.append((path, _field_before(cls, info.name)))
                visit(child, path, f"{label_prefix}{humanize(info.name)}: ")
                continue
            item_class = list_item_class(info.annotation)
            if item_class is not None:
                lists.append(ListField(path, item_class, info.help))
                continue
            editor_field = editor_field_of(info, path, label_prefix, catalog_kinds, cls)
            if editor_field is not None:
                fields.append(editor_field)

    visit(cls, prefix, "")
    return fields, lists, nested


def editor_field_of(
    info, path: str, label_prefix: str, catalog_kinds: set[str], owner: type
) -> EditorField | None:
    """The input of one field `info` of the dataclass `owner`, or None for a kind the form
    cannot show (a mapping of sections)."""
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
    if origin is dict:
        if is_sizes_section(get_args(annotation)[1]):
            return EditorField(widget="sizes", **common)
        value_kinds, _ = scalar_kinds(get_args(annotation)[1])
        if not value_kinds <= {int, float, str}:
            return None
        return EditorField(widget="rows", **common)
    item = tuple_item(annotation)
    if item is not None:
        item_kinds, item_literals = scalar_kinds(item)
        if item_literals and item_kinds == {type(value) for value in item_literals}:
            editor_field = EditorField(widget="checkboxes", **common)
            editor_field.choices = [(display_value(value), choice_label(value)) for value in item_literals]
            return editor_field
        if item_kinds and item_kinds <= {int}:
            return EditorField(widget="number_list", **common)
        return None
    kinds, literals = scalar_kinds(annotation)
    if not kinds <= {int, float, str, bool}:
        return None
    pick = catalog_pick(owner, info.name, catalog_kinds) if str in kinds else None
    if kinds == {bool}:
        return EditorField(widget="checkbox", **common)
    if literals and kinds == {type(value) for value in literals}:
        editor_field = EditorField(widget="select", **common)
        editor_field.choices = [(display_value(value), choice_label(value)) for value in literals]
        _set_pick(editor_field, pick)
        return editor_field
    if pick:
        editor_field = EditorField(widget="select", **common)
        _set_pick(editor_field, pick)
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


def _set_pick(editor_field: EditorField, pick: CatalogPick | None) -> None:
    editor_field.pick = pick
    editor_field.catalog_kind = pick.kind if pick else None


def tuple_item(annotation: Any) -> Any:
    """The item type of a list field (`tuple[StorageDuty, ...]`, also when it may be None)."""
    for arg in union_args(annotation):
        if get_origin(arg) in (tuple, list):
            return get_args(arg)[0]
    return None


FRACTION_LIMIT = 1
"""A unitless float bounded within ±1 is a share or a rate: the form shows it in percent."""


def _bounded_as_a_fraction(info) -> bool:
    return (
        info.maximum is not None
        and info.maximum <= FRACTION_LIMIT
        and (info.minimum is None or info.minimum >= -FRACTION_LIMIT)
    )


def _mark_percent(editor_field: EditorField, info) -> None:
    if info.unit == "%":
        editor_field.percent = True
    # A share may pass 100 % (storage growth, memory overhead): its name says it is one.
    elif not info.unit and (_bounded_as_a_fraction(info) or is_share(info.name)):
        editor_field.percent = editor_field.fraction = True
        editor_field.unit = "%"
        editor_field.bounds = (info.minimum, info.maximum)


def price_rows(path: str, mapping: Any) -> list[PriceRow]:
    items = list(mapping.items()) if isinstance(mapping, dict) else []
    rows = [
        PriceRow(path, index, str(key), display_value(value)) for index, (key, value) in enumerate(items)
    ]
    rows += [PriceRow(path, len(rows) + offset, "", "") for offset in range(BLANK_PRICE_ROWS)]
    return rows
