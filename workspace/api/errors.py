"""One error format for the whole API: {"errors": {"dotted.path": ["message", ...]}}.

Bad input is 400, a valid scenario that no design satisfies 422, an edit against a stale
revision 409. Errors that concern no field sit under "detail". A document with many problems gets the first
few and `error_count`, the number of all of them, so an answer stays a few kilobytes.
"""

from django.http import JsonResponse
from django.views import defaults
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.solver.errors import InfeasibleError, ScenarioError, join_path, printable
from planner.services import RevisionConflict

NON_FIELD_KEY = "detail"
API_PATH_PREFIX = "/api/"


def not_found(request, exception=None):
    """Django's 404 for a path no view matches: in the API's error format under /api/ (a
    scenario id that is not a number, an unknown endpoint), the site's page elsewhere."""
    if request.path.startswith(API_PATH_PREFIX):
        return JsonResponse({"errors": {NON_FIELD_KEY: ["nothing at this path"]}}, status=404)
    return defaults.page_not_found(request, exception)


def exception_handler(exc, context):
    if isinstance(exc, ScenarioError):
        code = status.HTTP_422_UNPROCESSABLE_ENTITY if isinstance(exc, InfeasibleError) else 400
        body = {"errors": exc.as_dict()}
        if exc.omitted:
            body["error_count"] = exc.count
        return Response(body, status=code)
    if isinstance(exc, RevisionConflict):
        return Response(
            {"errors": {"revision": [str(exc)]}, "current_revision": exc.current_revision},
            status=status.HTTP_409_CONFLICT,
        )
    response = drf_exception_handler(exc, context)
    if response is not None:
        response.data = {"errors": flatten_errors(response.data)}
    return response


def flatten_errors(data, path: str = "") -> dict[str, list[str]]:
    """DRF's nested error data as messages by dotted path."""
    if isinstance(data, dict):
        flat: dict[str, list[str]] = {}
        for key, value in data.items():
            key = str(key)
            child = path if key in ("detail", "non_field_errors") else join_path(path, key)
            for child_path, messages in flatten_errors(value, child).items():
                flat.setdefault(child_path, []).extend(messages)
        return flat
    if isinstance(data, list) and data and all(isinstance(item, (dict, list)) for item in data):
        flat = {}
        for index, item in enumerate(data):
            flat.update(flatten_errors(item, join_path(path, index)))
        return flat
    messages = data if isinstance(data, list) else [data]
    return {printable(path or NON_FIELD_KEY): [printable(str(message)) for message in messages]}
