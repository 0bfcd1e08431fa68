"""The scenario editor of the workspace.

The editor is not declared field by field: it walks the scenario dataclasses (`ScenarioSpec`
and everything under it) with `spec_fields`, so a field another engineer adds to the spec
appears in the form with its unit, help and default; a list of dataclasses (storage tiers, NIC
overrides, inline parts) appears as repeatable rows (workspace/editor/rows.py). Posted text is
turned into typed values (workspace/editor/post.py) and then checked by the same validation as
the API (`read_scenario` and `check_references` through the services); each error comes back
by its dotted path and is shown beside the input of that path, and listed in the banner with
a link to it.
"""

import copy
import dataclasses
import functools
import json
from typing import Any

import yaml

from core.solver.errors import DOCUMENT_PATH, ScenarioError
from planner.solver.compute import NICS_PATH
from planner.solver.documents import parse_document
from workspace.editor.choices import part_attribute, part_label
from workspace.editor.fields import EditorField, PriceRow, price_rows, walk_spec
from workspace.editor.labels import humanize
from workspace.editor.paths import form_path, path_get, path_pop, path_set
from workspace.editor.phase_pools import PHASES_PATH, input_path, pool_lines, tier_lines
from workspace.editor.post import apply_posted, apply_price_rows, posted_rows, row_action
from workspace.editor.rows import SUMMARY_SEPARATOR, ErrorLink, nics_in_words, row_list
from workspace.editor.site import POOL_PARTS
from workspace.editor.values import display_value, scalar_kinds
from workspace.words import choice_label

HIDDEN_DOCUMENT_FIELD = "document"
"""The form's hidden field that carries the document as it was, with the keys no field shows."""
NONE = "— none —"
CHOOSE = "— choose —"
"""The blank choice of a required catalog picker that has no value yet (a new row)."""


class ScenarioEditor:
    """The scenario form: sections of fields and rows filled from a document, with errors by path."""

    OPEN_SECTIONS = ("", "compute", "racks")
    """Sections shown open in a new editor; the others open when included or in error."""

    def __init__(
        self, document: dict, catalog, errors: dict[str, list[str]] | None = None, focus: str = ""
    ):
        """`focus`: the list or row a post without script added to or removed (its path): the
        cursor goes to the row added, or to the add button of the list a row left."""
        self.document = document if isinstance(document, dict) else {}
        self.catalog = catalog
        self.catalog_kinds = {item.name for item in dataclasses.fields(catalog)}
        self.sections = walk_spec(self.catalog_kinds)
        self.errors: list[str] = []
        self.row_action = focus
        self.added_row = ""
        for section in self.sections:
            section.included = not section.optional or isinstance(
                path_get(self.document, section.path), dict
            )
            for editor_field in section.fields:
                self._fill(editor_field)
            section.row_lists = [
                row_list(spot, path_get(self.document, spot.path), self.catalog_kinds, self._fill_value)
                for spot in section.lists
            ]
        self._note_system_nics()
        self._add_pool_lines()
        self._focus(focus)
        self.assign_errors(errors or {})

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
        self._fill_value(editor_field, self._value(editor_field.path, editor_field.default))

    def _fill_value(self, editor_field: EditorField, value: Any) -> None:
        """Put a document value into its input, with the choices of a picker."""
        if editor_field.widget == "rows":
            editor_field.rows = price_rows(editor_field.path, value)
            return
        if editor_field.widget == "checkbox":
            editor_field.checked = value is True
            return
        if editor_field.widget == "checkboxes":
            editor_field.selected = [display_value(item) for item in value] if isinstance(value, (list, tuple)) else []
            return
        if editor_field.widget == "select":
            editor_field.choices = self._choices(editor_field)
            if value is None and editor_field.choices and editor_field.choices[0][0] != "":
                value = editor_field.choices[0][0]
            shown = display_value(value)
            if shown and shown not in {choice for choice, _ in editor_field.choices}:
                editor_field.choices.append((shown, f"{shown} (not in the catalog)"))
        editor_field.value = editor_field.shown(value)

    def _nested_readers(self):
        for section in self.sections:
            yield from section.nested

    def _parts(self, kind: str) -> dict[str, Any]:
        """The catalog's parts of a kind with the scenario's inline parts of that kind."""
        parts = dict(getattr(self.catalog, kind, {}))
        components = path_get(self.document, f"components.{kind}")
        for part in components if isinstance(components, list) else ():
            if isinstance(part, dict) and isinstance(part.get("slug"), str) and part["slug"]:
                parts[part["slug"]] = part
        return parts

    def _choices(self, editor_field: EditorField) -> list[tuple[str, str]]:
        pick = editor_field.pick
        kind = pick.kind if pick else None
        parts = self._parts(kind) if kind else {}
        if editor_field.choices:
            choices = [
                (value, part_label(kind, parts[value]) if value in parts else label)
                for value, label in editor_field.choices
            ]
            if editor_field.required or editor_field.default is not None or choices[:1] == [("", NONE)]:
                return choices
            # An optional choice without a default (it follows another field) may stay unchosen.
            return [("", NONE), *choices]
        choices = [
            (slug, part_label(kind, part)) for slug, part in sorted(parts.items()) if pick is None or pick.fits(part)
        ]
        _, literals = scalar_kinds(editor_field.annotation)
        choices = [(display_value(value), choice_label(value)) for value in literals] + choices
        default = editor_field.default
        if isinstance(default, str) and default not in parts:
            # a word that stands for the plan's choice ("auto")
            choices.insert(0, (default, choice_label(default)))
        if editor_field.required:
            choices.insert(0, ("", CHOOSE))
        elif editor_field.default is None:
            choices.insert(0, ("", NONE))
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

    def _note_system_nics(self) -> None:
        """The NIC overrides say what the chosen system has of its own."""
        system = self._parts("systems").get(path_get(self.document, "compute.system"))
        for item in self.all_row_lists():
            if item.path == NICS_PATH and system is not None:
                name = part_attribute(system, "name") or part_attribute(system, "slug")
                item.note = nics_in_words(name, part_attribute(system, "nics"))

    def _add_pool_lines(self) -> None:
        """Each phase row's lines, one per pool and one per storage tier
        (workspace/editor/phase_pools.py)."""
        phases = self.document.get(PHASES_PATH)
        phases = phases if isinstance(phases, list) else []
        systems = [(slug, part_label("systems", part)) for slug, part in sorted(self._parts("systems").items())]
        switches = [(slug, part_label("switches", part)) for slug, part in sorted(self._parts("switches").items())]
        storage = [(slug, part_label("storage_systems", part))
                   for slug, part in sorted(self._parts("storage_systems").items())]
        for item in self.all_row_lists():
            if item.path != PHASES_PATH:
                continue
            for row in [*item.rows, *([item.template] if item.template else [])]:
                phase = phases[row.index] if isinstance(row.index, int) and row.index < len(phases) else None
                row.pool_lines = pool_lines(self.document, row.path, phase, row.number, systems, switches)
                row.tier_lines = tier_lines(self.document, row.path, phase, row.number, storage)

    def _focus(self, path: str) -> None:
        lists = {item.path: item for item in self.all_row_lists()}
        if path in lists:
            rows = lists[path].rows
            if rows:
                self.added_row = rows[-1].path
            if rows and rows[-1].fields:
                rows[-1].fields[0].autofocus = True
        elif path:
            parent = lists.get(path.rsplit(".", 1)[0])
            if parent is not None:
                parent.focus = True

    # -- what the form holds

    @property
    def is_site(self) -> bool:
        """A site of pools (`pools:`) rather than one cluster (`compute:`): the form shows one
        of the two, with the switch between them."""
        return bool(self.document.get("pools")) and "compute" not in self.document

    @property
    def shown_sections(self) -> list:
        """The sections the form shows. A site's pools take the place of compute, and each pool
        has its own workload and inference: the format refuses them at a site's top, so they are
        shown there only when the document gives them (with the error that says where they go)."""
        if not self.is_site:
            return self.sections
        return [
            section for section in self.sections
            if section.path != "compute" and (section.path not in POOL_PARTS or section.path in self.document)
        ]

    @property
    def pool_count(self) -> int:
        pools = self.document.get("pools")
        return len(pools) if isinstance(pools, list) else 0

    def all_row_lists(self):
        """Every list of the form, a list inside a row after the row's."""

        def walk(row_lists):
            for item in row_lists:
                yield item
                for row in item.rows:
                    yield from walk(row.lists)

        for section in self.sections:
            yield from walk(section.row_lists)

    def all_rows(self):
        for item in self.all_row_lists():
            yield from item.rows

    def all_fields(self):
        """Every input of the form, the rows' included."""
        for section in self.sections:
            yield from section.fields
            for item in section.row_lists:
                yield from item.all_fields()

    # -- errors

    def assign_errors(self, errors: dict[str, list[str]]) -> None:
        """Put each message beside the input of its path (or of the nearest enclosing one:
        its row, its list, its section)."""
        fields = sorted(self.all_fields(), key=lambda item: len(item.path), reverse=True)
        holders = sorted(
            [*self.all_rows(), *self.all_row_lists()], key=lambda item: len(item.path), reverse=True
        )
        sections = sorted(self.sections, key=lambda item: len(item.path), reverse=True)
        for path, messages in errors.items():
            dotted = input_path(form_path(path))
            if self.added_row and _within(dotted, self.added_row):
                # A row just added is blank: what it lacks is for its person to fill, not yet a fault.
                continue
            target = next((item for item in fields if _within(dotted, item.path)), None)
            if target is not None:
                row = self._row_for(target, dotted)
                if row is not None:
                    row.errors.extend(messages)
                elif dotted == target.path:
                    target.errors.extend(messages)
                else:
                    target.errors.extend(f"{path}: {message}" for message in messages)
                continue
            holder = next((item for item in holders if _within(dotted, item.path)), None)
            if holder is not None:
                prefix = "" if dotted == holder.path else f"{path}: "
                holder.errors.extend(prefix + message for message in messages)
                continue
            section = next(
                (item for item in sections if item.path and _within(dotted, item.path)), None
            )
            if section is not None and (section.fields or section.lists or dotted == section.path):
                prefix = "" if dotted == section.path else f"{path}: "
                section.errors.extend(prefix + message for message in messages)
                continue
            label = "The document " if path == DOCUMENT_PATH else f"{path}: "
            self.errors.extend(label + message for message in messages)
        for section in self.sections:
            section.open = (
                (section.path in self.OPEN_SECTIONS)
                or (section.optional and section.included)
                or bool(section.errors)
                or any(item.errors or any(row.errors for row in item.rows) for item in section.fields)
                or any(item.has_errors or item.rows or item.focus for item in section.row_lists)
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
        for item in self.all_row_lists():
            containers.append((item.error_id, item.errors, "field-errors section-errors"))
            for row in item.rows:
                containers.append((row.error_id, row.errors, "field-errors section-errors"))
                containers.extend(
                    (editor_field.error_id, editor_field.errors, "field-errors")
                    for editor_field in [*row.fields, *row.line_fields, *row.source_fields]
                )
        return containers

    def error_summary(self) -> list[ErrorLink]:
        """Every error of a field, a row or a section, in the order of the form, linked to its input.

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
            for item in section.row_lists:
                links.extend(item.error_links(section.title))
        return links

    @property
    def has_errors(self) -> bool:
        return (
            bool(self.errors)
            or any(
                item.errors or any(row.errors for row in item.rows) for section in self.sections
                for item in section.fields
            )
            or any(section.errors for section in self.sections)
            or any(item.has_errors for section in self.sections for item in section.row_lists)
        )

    def document_json(self) -> str:
        return json.dumps(self.document)

    def document_yaml(self) -> str:
        return document_as_yaml(self.document)

    # -- reading a post

    @staticmethod
    def row_action(data) -> str:
        """The list or row a post adds to or removes (the buttons of a page without script):
        the page comes back with it, unsaved. '' for a save."""
        return row_action(data)

    @classmethod
    def document_from_post(
        cls, data, catalog, input_errors: dict[str, list[str]] | None = None
    ) -> dict:
        """The document the posted form describes: its fields and rows over the hidden base
        document (workspace/editor/post.py says how each input is read).

        Keys the form does not show (anything newer than the form) are kept from the base
        document. Text a field cannot read is kept as typed (so the page shows it again) and
        its message goes to `input_errors` by path.
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
                if editor_field.widget == "rows":
                    apply_price_rows(document, editor_field, data, input_errors)
                else:
                    apply_posted(document, base, editor_field.path, editor_field, data, input_errors,
                                 editor_field.path)
            for spot in section.lists:
                items = posted_rows(data, spot, path_get(base, spot.path), catalog_kinds, input_errors, spot.path)
                if items is None:
                    continue
                if items or path_get(base, spot.path) is not None:
                    path_set(document, spot.path, items)
                else:
                    path_pop(document, spot.path)
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
    """The document in YAML, keys in the order written."""
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True, default_flow_style=False)
