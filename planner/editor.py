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
from typing import Any, get_args

import yaml

from planner.editor_fields import (
    ROW_KEY,
    ROW_VALUE,
    EditorField,
    InputError,
    PriceRow,
    convert_text,
    display_value,
    humanize,
    part_attribute,
    part_label,
    path_get,
    path_pop,
    path_set,
    price_rows,
    scalar_kinds,
    walk_spec,
)
from planner.solver.documents import parse_document
from planner.solver.errors import DOCUMENT_PATH, ScenarioError
from planner.words import choice_label

HIDDEN_DOCUMENT_FIELD = "document"
SUMMARY_SEPARATOR = " › "


@dataclasses.dataclass(frozen=True)
class ErrorLink:
    """One error of the form as the banner lists it: where, what, and the anchor of its input."""

    where: str
    message: str
    anchor: str
"""The form's hidden field that carries the document as it was, with the keys no field shows."""


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
                            editor_field.value = editor_field.shown(expanded[key])
                            return
        value = self._value(editor_field.path, editor_field.default)
        if editor_field.widget == "rows":
            editor_field.rows = price_rows(editor_field.path, value)
            return
        if editor_field.widget == "checkbox":
            editor_field.checked = value is True
            return
        if editor_field.widget == "select":
            editor_field.choices = self._choices(editor_field)
            if value is None and editor_field.choices:
                value = editor_field.choices[0][0]
            shown = display_value(value)
            if shown and shown not in {choice for choice, _ in editor_field.choices}:
                editor_field.choices.append((shown, f"{shown} (not in the catalog)"))
        editor_field.value = editor_field.shown(value)

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
        _, literals = scalar_kinds(editor_field.annotation)
        choices = [(display_value(value), choice_label(value)) for value in literals] + choices
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
                            (slug, str(part_attribute(part, 'name', slug)))
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

    def error_summary(self) -> list[ErrorLink]:
        """Every error of a field or a section, in the order of the form, linked to its input.

        Errors of the document as a whole have no input; they are shown above the banner.
        """
        links = []
        for section in self.sections:
            links.extend(ErrorLink(section.title, message, section.anchor) for message in section.errors)
            for item in section.fields:
                where = f"{section.title}{SUMMARY_SEPARATOR}{item.label}"
                links.extend(ErrorLink(where, message, item.input_id) for message in item.errors)
                for row in item.rows:
                    links.extend(
                        ErrorLink(f"{where}{SUMMARY_SEPARATOR}{row.key or 'new row'}", message, f"{item.input_id}-value-{row.index}")
                        for message in row.errors
                    )
        return links

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
    def document_from_post(
        cls, data, catalog, input_errors: dict[str, list[str]] | None = None
    ) -> dict:
        """The document the posted form describes: its fields over the hidden base document.

        Keys the form does not show (inline components, anything newer than the form) are
        kept from the base document. A blank field is left out, so its default applies; a value
        equal to its default is not written unless the document already had the key. Text a
        field cannot read is kept as typed (so the page shows it again) and its message goes to
        `input_errors` by path.
        """
        input_errors = {} if input_errors is None else input_errors
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
                _apply_posted(document, base, editor_field, data, input_errors)
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


def _read(text: str, read, path: str, input_errors: dict[str, list[str]]) -> Any:
    try:
        return read(text)
    except InputError as error:
        input_errors.setdefault(path, []).append(str(error))
        return text.strip()


def _apply_posted(
    document: dict, base: dict, editor_field: EditorField, data, input_errors: dict[str, list[str]]
) -> None:
    path = editor_field.path
    had_key = path_get(base, path, dataclasses.MISSING) is not dataclasses.MISSING
    if editor_field.widget == "rows":
        keys = data.getlist(path + ROW_KEY)
        values = data.getlist(path + ROW_VALUE)
        value_annotation = get_args(editor_field.annotation)[1]
        mapping = {}
        for key, value in zip(keys, values):
            if key.strip():
                mapping[key.strip()] = _read(
                    value,
                    lambda text: convert_text(text, value_annotation),
                    f"{path}.{key.strip()}",
                    input_errors,
                )
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
        value = _read(raw, editor_field.read, path, input_errors)
    path_pop(document, path)
    same_kind = isinstance(value, bool) == isinstance(editor_field.default, bool)
    if value == editor_field.default and same_kind and not had_key:
        return
    path_set(document, path, value)


def _load_json(text: str) -> dict:
    """The form's hidden base document, read with the limits of any posted document.

    The page writes it, so one that cannot be read was tampered with: ScenarioError.
    """
    if not text:
        return {}
    try:
        value = parse_document(text, "json")
    except ScenarioError as error:
        raise ScenarioError.at(HIDDEN_DOCUMENT_FIELD, "; ".join(item.message for item in error.errors)) from None
    if not isinstance(value, dict):
        raise ScenarioError.at(HIDDEN_DOCUMENT_FIELD, "must be a mapping of keys to values")
    return value


def document_as_yaml(document: Any) -> str:
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True, default_flow_style=False)
