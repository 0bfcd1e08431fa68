"""A part of the site that fell (the database away, the disk full) answers 503 saying which, as a
styled page or in the API's error format, never a bare 500: the server itself is still up, and
the request may be tried again once the part is back.

`ServiceUnavailableMiddleware` answers for exceptions raised by views; `server_error` (the
site's handler500) for those raised anywhere else, in a middleware's own database work (the
session's save) say. Neither touches the database: the page is rendered without the request, so
no context processor asks for the user.
"""

import errno
import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.views import defaults

API_PATH_PREFIX = "/api/"
RETRY_AFTER_S = 30
DISK_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})
DISK_FULL_MESSAGE = "the server's disk is full: nothing was saved; try again once space is freed"
DATABASE_DOWN_MESSAGE = "the database is unavailable: nothing was saved; try again in a minute"
DATABASE_BUSY_MESSAGE = "the database is busy with other saves: nothing was saved; try again in a moment"
_DISK_FULL_WORDS = ("disk is full", "no space left", "disk full", "could not extend file")


def unavailable_reason(error: BaseException | None) -> str | None:
    """What fell, in a sentence for the user, when `error` is a part of the site failing rather
    than a fault of the request or the code; else None."""
    if isinstance(error, OSError) and error.errno in DISK_FULL_ERRNOS:
        return DISK_FULL_MESSAGE
    if isinstance(error, (OperationalError, InterfaceError)):
        text = str(error).lower()
        if any(words in text for words in _DISK_FULL_WORDS):
            return DISK_FULL_MESSAGE
        if "locked" in text or "busy" in text:
            return DATABASE_BUSY_MESSAGE
        return DATABASE_DOWN_MESSAGE
    return None


def unavailable_response(request, reason: str) -> HttpResponse:
    if request.path.startswith(API_PATH_PREFIX):
        response = JsonResponse({"errors": {"detail": [reason]}}, status=503)
    else:
        response = HttpResponse(render_to_string("503.html", {"reason": reason}), status=503)
    response["Retry-After"] = str(RETRY_AFTER_S)
    return response


class ServiceUnavailableMiddleware:
    """Answers 503 for a view whose database or disk failed (see the module's notes)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        reason = unavailable_reason(exception)
        return unavailable_response(request, reason) if reason else None


def server_error(request):
    """The site's 500, or a 503 saying which part fell when that is what happened."""
    reason = unavailable_reason(sys.exc_info()[1])
    if reason:
        return unavailable_response(request, reason)
    if request.path.startswith(API_PATH_PREFIX):
        return JsonResponse({"errors": {"detail": ["the server failed; the error is logged"]}}, status=500)
    return defaults.server_error(request)
