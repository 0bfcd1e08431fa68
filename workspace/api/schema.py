"""The API's OpenAPI schema: drf-spectacular's, with the scenario document and the plan as the
JSON Schemas generated from their dataclasses, and every operation's error answers.

The errors every operation of a kind can give are added by `PlannerAutoSchema`, so that a new
view has them without declaring them:

- 400 when the operation reads a body or query parameters;
- 403 for wrong credentials, and for missing ones where the operation needs a signed-in user
  (the session authenticator comes first, so DRF answers 403 rather than 401);
- 404 when the path names something (a scenario id, a catalog slug: a path parameter whose
  values are not an enum);
- 413 and 415 when it reads a body (too large; a content type it does not read);
- 429 when it is throttled.

The errors that depend on what an operation does (409 for a stale revision, 422 for a valid
document no design satisfies, 400 for an unknown export format) are declared on the view with
`error_responses`. Every error body has the shape of `workspace.api.errors`.
"""

from django.conf import settings
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent
from drf_spectacular.utils import OpenApiExample, OpenApiResponse
from rest_framework.permissions import AllowAny

from core.solver.errors import DOCUMENT_PATH, MAX_REPORTED_ERRORS
from planner.scenario_json_schema import (
    DOCUMENT_NAME,
    PLAN_NAME,
    document_definitions,
    plan_definitions,
)
from planner.solver.documents import parse_document
from workspace.api.errors import NON_FIELD_KEY

COMPONENTS_PREFIX = "#/components/schemas/"
ERRORS_NAME = "Errors"
CONFLICT_NAME = "RevisionConflict"
ERROR_MEDIA_TYPE = "application/json"
BODY_METHODS = ("POST", "PUT", "PATCH")
EXAMPLES_DIRECTORY = "examples"


def component_ref(name: str) -> dict:
    return {"$ref": COMPONENTS_PREFIX + name}


SCENARIO_DOCUMENT = component_ref(DOCUMENT_NAME)
PLAN = component_ref(PLAN_NAME)

_MESSAGES_BY_PATH = {
    "type": "object",
    "description": (
        "Messages by the dotted path of the field they concern (`compute.gpus`, "
        f"`components.systems[0].nics[1].gbps`, `document.name` inside a request's document); "
        f"`{NON_FIELD_KEY}` for problems of no field, `{DOCUMENT_PATH}` for the document as a whole."
    ),
    "minProperties": 1,
    "additionalProperties": {"type": "array", "items": {"type": "string"}, "minItems": 1},
}
ERRORS_SCHEMA = {
    "type": "object",
    "description": "The one error format of the API.",
    "properties": {
        "errors": _MESSAGES_BY_PATH,
        "error_count": {
            "type": "integer",
            "minimum": MAX_REPORTED_ERRORS + 1,
            "description": (
                f"How many problems the document has, given when there are more than the first "
                f"{MAX_REPORTED_ERRORS} listed."
            ),
        },
    },
    "required": ["errors"],
    "additionalProperties": False,
}
CONFLICT_SCHEMA = {
    "type": "object",
    "description": "An edit based on a revision that is no longer the current one.",
    "properties": {
        "errors": _MESSAGES_BY_PATH,
        "current_revision": {"type": "integer", "minimum": 1, "description": "The scenario's revision now."},
    },
    "required": ["errors", "current_revision"],
    "additionalProperties": False,
}

ERROR_DESCRIPTIONS = {
    400: "The request is invalid: each problem named by its dotted path.",
    404: "Nothing of that id or slug (or not yours).",
    409: "The edit is based on a stale revision: reload, apply it again.",
    413: "The request body is larger than the server accepts.",
    415: "A content type this operation does not read.",
    422: "The document is valid, but no design satisfies it, or its plan would pass the work "
    "limits: the errors name the input that drove it.",
    429: "Too many requests: try again after the Retry-After header's seconds.",
}


def error_responses(*codes: int) -> dict[int, OpenApiResponse]:
    """The error answers `codes` for `extend_schema(responses=...)`."""
    return {code: _error_response(code) for code in codes}


def document_body(parser_classes) -> dict[str, dict]:
    """A request body that is a scenario document, in each media type the parsers read."""
    return {parser.media_type: SCENARIO_DOCUMENT for parser in parser_classes}


def document_examples() -> list[OpenApiExample]:
    """The scenarios of examples/, as request examples: on the API's page, and the first
    requests of a schema-driven fuzzer (which cannot guess catalog slugs)."""
    examples = []
    for path in sorted((settings.BASE_DIR / EXAMPLES_DIRECTORY).glob("*.yaml")):
        document = parse_document(path.read_bytes(), "yaml")
        examples.append(OpenApiExample(path.stem, value=document, summary=document["name"], request_only=True))
    return examples


def _error_response(code: int, description: str | None = None) -> OpenApiResponse:
    body = component_ref(CONFLICT_NAME if code == 409 else ERRORS_NAME)
    return OpenApiResponse(response=body, description=description or ERROR_DESCRIPTIONS[code])


class PlannerAutoSchema(AutoSchema):
    def get_operation(self, *args, **kwargs):
        operation = super().get_operation(*args, **kwargs)
        if operation is not None:
            _register_components(self.registry)
        return operation

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        for code, description in self._general_errors().items():
            if str(code) not in responses:
                responses[str(code)] = self._get_response_for_code(
                    _error_response(code, description), str(code), (ERROR_MEDIA_TYPE,), direction
                )
        return dict(sorted(responses.items()))

    def _general_errors(self) -> dict[int, str | None]:
        errors: dict[int, str | None] = {}
        reads_body = self.method in BODY_METHODS
        if reads_body or self._get_paginator() and self._is_list_view():
            errors[400] = None
        if all(permission is AllowAny for permission in self.view.permission_classes):
            errors[403] = "Wrong credentials (they may be left out: anyone may call this)."
        else:
            errors[403] = "No credentials, or wrong ones: this needs a signed-in user."
        if any("enum" not in parameter["schema"] for parameter in self._path_parameters()):
            errors[404] = None
        if reads_body:
            errors[413] = f"The request body is larger than {settings.MAX_REQUEST_BYTES // 1024:,} KiB."
            errors[415] = None
        if self.view.throttle_classes:
            errors[429] = None
        return errors


    def _path_parameters(self) -> list[dict]:
        return [parameter for parameter in self._get_parameters() if parameter["in"] == "path"]


def _register_components(registry) -> None:
    if ResolvedComponent(name=ERRORS_NAME, type=ResolvedComponent.SCHEMA, object=ERRORS_NAME) in registry:
        return  # the definitions of this schema are in
    definitions = {
        **document_definitions(COMPONENTS_PREFIX),
        **plan_definitions(COMPONENTS_PREFIX),
        ERRORS_NAME: ERRORS_SCHEMA,
        CONFLICT_NAME: CONFLICT_SCHEMA,
    }
    for name, schema in definitions.items():
        registry.register_on_missing(
            ResolvedComponent(name=name, type=ResolvedComponent.SCHEMA, schema=schema, object=name)
        )
