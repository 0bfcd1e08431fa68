"""JSON Schemas of the scenario document and of the plan, generated from their dataclasses.

The document's schema says what `read_scenario` accepts, from the same declarations the reader
and `docs/scenario-reference.md` use: each key's type, bounds, choices, default and unit (in
brackets in its description), the shorthands (`oversubscription: 2`), and every section closed
to unknown keys. The rules between keys (`problems()`: gpus or nodes, one tier per duty) and the
catalog slugs are checked by the server alone, so a document the schema accepts may still be
refused, naming the field.

The plan's schema gives every key `Plan.to_dict` writes: each result dataclass's fields, all
present (null when not computed), the plan's own optional sections left out when not computed.
Spec dataclasses inside the plan (`inputs`, `cost.assumptions`) use the document's definitions.

Both are JSON Schema draft 2020-12, the dialect of OpenAPI 3.1. `ref_prefix` says where the
definitions live: `#/$defs/` in a standalone schema, `#/components/schemas/` in the API's.
"""

import dataclasses
import functools
import types
import typing
from abc import ABC, abstractmethod
from typing import Any, Literal, get_args, get_origin

from core.solver.schema import MAX_LIST_ITEMS, MAX_TEXT_LENGTH, FieldInfo, spec_fields
from planner.solver.plan import Plan, json_fields
from planner.solver.scenario import ScenarioSpec

DIALECT = "https://json-schema.org/draft/2020-12/schema"
STANDALONE_PREFIX = "#/$defs/"
DOCUMENT_NAME = "ScenarioDocument"
PLAN_NAME = "Plan"

_LIST_ITEM = FieldInfo(
    name="", annotation=Any, required=False, default=None, unit="", help="", minimum=None,
    maximum=None, max_length=MAX_TEXT_LENGTH,
)
"""What the reader checks of a list's items: their type, and text no longer than it reads."""


def document_definitions(ref_prefix: str = STANDALONE_PREFIX) -> dict[str, dict]:
    """The scenario document (DOCUMENT_NAME) and every section in it, by definition name."""
    writer = _DocumentWriter(ref_prefix)
    writer.reference(ScenarioSpec)
    return writer.definitions


def plan_definitions(ref_prefix: str = STANDALONE_PREFIX) -> dict[str, dict]:
    """The plan (PLAN_NAME) and every result in it, by name, with the document's definitions
    that the plan refers to."""
    document = _DocumentWriter(ref_prefix)
    document.reference(ScenarioSpec)
    writer = _PlanWriter(ref_prefix, document)
    writer.reference(Plan)
    return {**writer.definitions, **document.definitions}


def scenario_json_schema() -> dict:
    """The scenario document's schema, standalone (for editors and validators)."""
    return _standalone(DOCUMENT_NAME, "Scenario document", document_definitions())


def plan_json_schema() -> dict:
    """The plan's schema, standalone."""
    return _standalone(PLAN_NAME, "Plan", plan_definitions())


def _standalone(root: str, title: str, definitions: dict[str, dict]) -> dict:
    return {"$schema": DIALECT, "title": title, "$ref": STANDALONE_PREFIX + root, "$defs": definitions}


class _Writer(ABC):
    """Definitions of dataclasses, each written once and referred to by name."""

    root: type
    root_name: str

    def __init__(self, ref_prefix: str):
        self.ref_prefix = ref_prefix
        self.definitions: dict[str, dict] = {}
        self.names: dict[type, str] = {}

    def reference(self, cls: type) -> dict:
        if cls not in self.names:
            name = self._name(cls)
            self.names[cls] = name
            self.definitions[name] = {}  # taken, while its fields are written
            self.definitions[name] = self.object_schema(cls)
        return {"$ref": self.ref_prefix + self.names[cls]}

    def _name(self, cls: type) -> str:
        if cls is self.root:
            return self.root_name
        name = cls.__name__
        if name in self.definitions or name in (DOCUMENT_NAME, PLAN_NAME):
            # Two apps name a result alike (fabric's and storage's TierResult).
            name = cls.__module__.split(".")[0].title() + name
        return name

    @abstractmethod
    def object_schema(self, cls: type) -> dict:
        """The schema of a dataclass: the document's sections or the plan's results."""

    list_item_bounds: FieldInfo | None = None

    def value_schema(self, annotation: Any, bounds: FieldInfo | None) -> dict:
        """The schema of one value of `annotation`, as the reader checks it with `bounds`."""
        origin = get_origin(annotation)
        if origin in (typing.Union, types.UnionType):
            return _one_of([self.value_schema(option, bounds) for option in get_args(annotation)])
        if origin is Literal:
            return _choices_schema(list(get_args(annotation)))
        if annotation is type(None):
            return {"type": "null"}
        if annotation is bool:
            return {"type": "boolean"}
        if annotation in (int, float):
            return _number_schema("integer" if annotation is int else "number", bounds)
        if annotation is str:
            return _text_schema(bounds)
        if annotation is object or annotation is Any:
            return {}
        if origin is tuple:
            return {"type": "array", "items": self.value_schema(get_args(annotation)[0], self.list_item_bounds), **self.list_limit()}
        if origin is dict:
            values = self.value_schema(get_args(annotation)[1], bounds)
            return {"type": "object", "additionalProperties": values, **self.mapping_limit()}
        if dataclasses.is_dataclass(annotation):
            return self.reference(annotation)
        raise TypeError(f"no JSON Schema for {annotation!r}")

    def list_limit(self) -> dict:
        return {}

    def mapping_limit(self) -> dict:
        return {}


class _DocumentWriter(_Writer):
    """What the scenario reader accepts: keys with defaults are optional, unknown keys refused."""

    root = ScenarioSpec
    root_name = DOCUMENT_NAME
    list_item_bounds = _LIST_ITEM

    def object_schema(self, cls: type) -> dict:
        infos = list(spec_fields(cls))
        schema = {"type": "object", **_description(cls)}
        schema["properties"] = {info.name: self.field_schema(cls, info) for info in infos}
        required = [info.name for info in infos if info.required]
        if required:
            schema["required"] = required
        alternatives = [[info.name, info.required_unless] for info in infos if info.required_unless]
        schema["additionalProperties"] = False
        if alternatives:
            return self._one_of_alternatives(cls, schema, list(dict.fromkeys(alternatives[0])))
        return schema

    def _one_of_alternatives(self, cls: type, schema: dict, keys: list[str]) -> dict:
        """compute or pools: exactly one of the two keys, as the reader has it (it refuses both
        with a message). A oneOf of one whole object per key, each a definition of its own
        (`ScenarioDocumentWithCompute`, `...WithPools`): client generators make a type of each,
        where a bare `anyOf: [{required: [compute]}, {required: [pools]}]` made them write code
        that does not compile."""
        choices = []
        for key in keys:
            name = f"{self.names[cls]}With{key.title()}"
            variant = {**schema, "properties": {
                field: value for field, value in schema["properties"].items() if field == key or field not in keys
            }}
            variant["required"] = [*schema.get("required", []), key]
            self.definitions[name] = variant
            choices.append({"$ref": self.ref_prefix + name})
        return {**_description(cls), "oneOf": choices}

    def field_schema(self, cls: type, info: FieldInfo) -> dict:
        schema = self.value_schema(info.annotation, info)
        if info.shorthand:
            [bare] = [field for field in spec_fields(info.annotation) if field.name == info.shorthand]
            schema = {"anyOf": [self.value_schema(bare.annotation, bare), schema]}
        description = " ".join(part for part in (info.help, f"[{info.unit}]" if info.unit else "") if part)
        if info.shorthand:
            description = f"{description} A bare value stands for `{info.shorthand}`.".strip()
        if description:
            schema["description"] = description
        if not info.required and not info.required_unless and not dataclasses.is_dataclass(info.default):
            schema["default"] = _plain_default(info.default)
        return schema

    def list_limit(self) -> dict:
        return {"maxItems": MAX_LIST_ITEMS}

    def mapping_limit(self) -> dict:
        return {"maxProperties": MAX_LIST_ITEMS}


class _PlanWriter(_Writer):
    """What `Plan.to_dict` writes: every field of a result, under its plan key."""

    root = Plan
    root_name = PLAN_NAME

    def __init__(self, ref_prefix: str, document: _DocumentWriter):
        super().__init__(ref_prefix)
        self.document = document

    def reference(self, cls: type) -> dict:
        if cls in self.document.names:
            return self.document.reference(cls)
        return super().reference(cls)

    def object_schema(self, cls: type) -> dict:
        hints = _type_hints(cls)
        properties, required = {}, []
        for field in json_fields(cls):
            annotation = hints[field.name]
            if cls is Plan and _admits_none(annotation):
                # The plan leaves out the sections it did not compute.
                [annotation] = [option for option in get_args(annotation) if option is not type(None)]
            else:
                required.append(field.metadata.get("plan_key", field.name))
            properties[field.metadata.get("plan_key", field.name)] = self.value_schema(annotation, None)
        return {
            "type": "object",
            **_description(cls),
            "properties": properties,
            "required": required,
            "additionalProperties": False,
        }


def _number_schema(type_name: str, bounds: FieldInfo | None) -> dict:
    schema: dict[str, Any] = {"type": type_name}
    if bounds is None:
        return schema
    if bounds.minimum is not None:
        schema["exclusiveMinimum" if bounds.exclusive_minimum else "minimum"] = _json_number(bounds.minimum)
    if bounds.maximum is not None:
        schema["maximum"] = _json_number(bounds.maximum)
    if bounds.least_nonzero is not None:
        return {"anyOf": [{"const": 0}, {**schema, "minimum": _json_number(bounds.least_nonzero)}]}
    return schema


def _text_schema(bounds: FieldInfo | None) -> dict:
    # The reader strips surrounding spaces before it measures: "  " is empty to it.
    schema: dict[str, Any] = {"type": "string"}
    if bounds is None:
        return schema
    if bounds.min_length:
        schema["minLength"] = bounds.min_length
    schema["maxLength"] = bounds.max_length
    return schema


_JSON_TYPES = {str: "string", bool: "boolean", int: "integer", float: "number"}


def _choices_schema(choices: list) -> dict:
    """A Literal's choices: one `const` or `enum` of their JSON type; choices of several types
    (fabrics.<name>.tiers: "auto", 2 or 3) as a oneOf of one schema per type, which typed
    clients can generate (an enum mixing text and numbers is dropped by some)."""
    by_type: dict[str, list] = {}
    for choice in choices:
        by_type.setdefault(_JSON_TYPES.get(type(choice), ""), []).append(choice)
    schemas = [
        {**({"type": type_name} if type_name else {}), **({"const": same[0]} if len(same) == 1 else {"enum": same})}
        for type_name, same in by_type.items()
    ]
    if len(schemas) == 1:
        return {"const": choices[0]} if len(choices) == 1 else {"enum": choices}
    return {"oneOf": schemas}


def _one_of(options: list[dict]) -> dict:
    """Alternatives as one schema; a nullable plain type as a list of types."""
    nullable = {"type": "null"} in options
    others = [option for option in options if option != {"type": "null"}]
    if nullable and len(others) == 1 and isinstance(others[0].get("type"), str):
        return {**others[0], "type": [others[0]["type"], "null"]}
    if nullable and len(others) == 1 and "enum" in others[0]:
        return {"enum": [*others[0]["enum"], None]}
    if len(options) == 1:
        return options[0]
    return {"anyOf": options}


def _admits_none(annotation: Any) -> bool:
    return get_origin(annotation) in (typing.Union, types.UnionType) and type(None) in get_args(annotation)


def _json_number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _plain_default(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain_default(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain_default(item) for key, item in value.items()}
    return value


def _description(cls: type) -> dict:
    """A class's own docstring (not the signature dataclasses write when it has none)."""
    doc = (cls.__doc__ or "").strip()
    if not doc or doc.startswith(f"{cls.__name__}("):
        return {}
    return {"description": " ".join(doc.split("\n\n")[0].split())}


@functools.cache
def _type_hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)

