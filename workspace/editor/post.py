"""Reading the posted editor: each input's text into the document, rows into lists.

A blank input is left out of the document, so its default applies; a value equal to its default
is not written unless the document already had the key. Text an input cannot read is kept as
typed (so the page shows it again) and its message goes to `input_errors` by the path the
reader would name (`storage.tiers[1].other_tb`).

Rows: a list is read only when the form posted it (its marker input, named by the list's path);
its rows are the indices posted under that path, in numeric order, whatever their gaps. A row's
hidden `__base` input names the item of the hidden document it was shown from, whose keys the
row does not show are kept. The add and remove buttons of a page without script post
`row_add` (a list's path) and `row_remove` (a row's path).
"""

import copy
import dataclasses
import re
from typing import Any, get_args

from core.solver.errors import join_path
from planner.solver.phase_spec import PhaseSpec
from workspace.editor.fields import (
    ROW_KEY,
    ROW_VALUE,
    EditorField,
    ListField,
    item_fields,
    tuple_item,
)
from workspace.editor.form_input import InputError
from workspace.editor.paths import path_get, path_pop, path_set
from workspace.editor.phase_pools import posted_pools, posted_storage
from workspace.editor.values import convert_text

ROW_ADD = "row_add"
ROW_REMOVE = "row_remove"
BASE_KEY = "__base"


def row_action(data) -> str:
    """The list or row the post adds to or removes (a button of a page without script), or ''."""
    return data.get(ROW_ADD, "") or data.get(ROW_REMOVE, "")


def apply_posted(
    target: dict, base: dict, key: str, editor_field: EditorField, data, input_errors: dict[str, list[str]],
    error_path: str,
) -> None:
    """Write the posted text of `editor_field` into `target` at `key` (a dotted path in it);
    `base` is what `target` was before the post."""
    had_key = path_get(base, key, dataclasses.MISSING) is not dataclasses.MISSING
    name = editor_field.path
    if editor_field.widget == "checkbox":
        values = data.getlist(name)
        if not values:
            return
        value: Any = values[-1] in ("true", "on")
    elif editor_field.widget == "checkboxes":
        if name not in data:
            return
        path_pop(target, key)
        item_annotation = tuple_item(editor_field.annotation)
        ticked = [text for text in data.getlist(name) if text]
        if not ticked:
            return
        value = [read_or_keep(text, lambda text: convert_text(text, item_annotation), error_path, input_errors)
                 for text in ticked]
    else:
        raw = data.get(name)
        if raw is None:
            return
        path_pop(target, key)
        if not raw.strip():
            return
        value = read_or_keep(raw, editor_field.read, error_path, input_errors)
    path_pop(target, key)
    same_kind = isinstance(value, bool) == isinstance(editor_field.default, bool)
    default = list(editor_field.default) if isinstance(editor_field.default, tuple) else editor_field.default
    if value == default and same_kind and not had_key:
        return
    path_set(target, key, value)


def apply_price_rows(document: dict, editor_field: EditorField, data, input_errors: dict[str, list[str]]) -> None:
    """The price quotes' rows (part, unit price) into the document's mapping; a row without a
    part is left out."""
    path = editor_field.path
    keys = data.getlist(path + ROW_KEY)
    values = data.getlist(path + ROW_VALUE)
    value_annotation = get_args(editor_field.annotation)[1]
    mapping = {}
    for key, value in zip(keys, values):
        if key.strip():
            mapping[key.strip()] = read_or_keep(
                value,
                lambda text: convert_text(text, value_annotation),
                f"{path}.{key.strip()}",
                input_errors,
            )
    path_pop(document, path)
    if mapping:
        path_set(document, path, mapping)


def read_or_keep(text: str, read, path: str, input_errors: dict[str, list[str]]) -> Any:
    """`read(text)`, or the text as typed with the message of why it cannot be read at `path`."""
    try:
        return read(text)
    except InputError as error:
        input_errors.setdefault(path, []).append(str(error))
        return text.strip()


def posted_rows(
    data, spot: ListField, base_items: Any, catalog_kinds: set[str], input_errors: dict[str, list[str]],
    error_path: str,
) -> list[dict] | None:
    """The items the posted rows of the list at `spot` describe, or None when the form did not
    post the list (the document keeps what it had). `error_path`: the list's path as the reader
    names it (`components.systems[0].nics`)."""
    if spot.path not in data:
        return None
    pattern = re.compile(re.escape(spot.path) + r"\.(\d+)\.")
    indices = sorted({int(match[1]) for name in data for match in [pattern.match(name)] if match})
    removed = data.get(ROW_REMOVE, "")
    base_items = base_items if isinstance(base_items, list) else []
    items = []
    for index in indices:
        row_path = f"{spot.path}.{index}"
        if removed == row_path:
            continue
        base_index = data.get(f"{row_path}.{BASE_KEY}", "")
        base_item = (
            base_items[int(base_index)]
            if base_index.isdigit() and int(base_index) < len(base_items) and isinstance(base_items[int(base_index)], dict)
            else {}
        )
        items.append(_posted_item(data, spot.item_class, row_path, base_item, catalog_kinds, input_errors,
                                  join_path(error_path, len(items))))
    if data.get(ROW_ADD) == spot.path:
        items.append({})
    return items


def _posted_item(data, item_class: type, row_path: str, base_item: dict, catalog_kinds: set[str],
                 input_errors: dict[str, list[str]], error_path: str) -> dict:
    fields, lists, nested = item_fields(item_class, row_path, catalog_kinds)
    item = copy.deepcopy(base_item)
    for nested_path, before in nested:
        key = nested_path.removeprefix(row_path + ".")
        raw = path_get(item, key)
        if raw is not None and not isinstance(raw, dict):
            expanded = before(raw) if before else raw
            path_set(item, key, dict(expanded) if isinstance(expanded, dict) else {})
    for editor_field in fields:
        key = editor_field.path.removeprefix(row_path + ".")
        apply_posted(item, base_item, key, editor_field, data, input_errors, f"{error_path}.{key}")
    if item_class is PhaseSpec:
        pools = posted_pools(data, row_path, base_item.get("pools"), input_errors, error_path)
        if pools is not None:
            item["pools"] = pools
        storage = posted_storage(data, row_path, base_item.get("storage"), input_errors, error_path)
        if storage:
            item["storage"] = storage
        elif storage is not None:
            item.pop("storage", None)
    for inner in lists:
        key = inner.path.removeprefix(row_path + ".")
        inner_items = posted_rows(data, inner, base_item.get(key), catalog_kinds, input_errors,
                                  f"{error_path}.{key}")
        if inner_items is None:
            continue
        if inner_items or key in base_item:
            item[key] = inner_items
        else:
            item.pop(key, None)
    for nested_path, _ in nested:
        key = nested_path.removeprefix(row_path + ".")
        if path_get(item, key) == {}:
            path_pop(item, key)
    # Keys in the order the document wrote them (a row's inputs are written back one by one).
    return {**{key: item[key] for key in base_item if key in item}, **item}
