"""Middleware of the whole site: request ids for the logs, request bodies bounded before they
are read."""

import logging
import uuid

from django.conf import settings
from django.http import JsonResponse


class RequestSizeLimitMiddleware:
    """Refuse a request whose declared body is larger than MAX_REQUEST_BYTES with 413, before
    Django reads it: DATA_UPLOAD_MAX_MEMORY_SIZE leaves out uploaded files, which would otherwise
    be spooled to disk whatever their size. A body sent without a length is bounded by the
    parsers and the upload form instead."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > settings.MAX_REQUEST_BYTES:
            return JsonResponse(
                {"errors": {"document": [
                    f"the request body is larger than the {settings.MAX_REQUEST_BYTES // 1024:,} KiB "
                    "this server accepts"
                ]}},
                status=413,
            )
        return self.get_response(request)


REQUEST_ID_HEADER = "X-Request-ID"
_REQUEST_ID_CHARACTERS = frozenset("0123456789abcdefABCDEF-")


class RequestIdMiddleware:
    """Gives each request an id: the proxy's X-Request-ID when it is a plain one, else a new
    one. It is in the response's X-Request-ID header and in every log line of the request, so
    that a user's report and the error log meet."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        given = request.headers.get(REQUEST_ID_HEADER, "")
        plain = 0 < len(given) <= 64 and set(given) <= _REQUEST_ID_CHARACTERS
        request.request_id = given if plain else uuid.uuid4().hex
        response = self.get_response(request)
        response[REQUEST_ID_HEADER] = request.request_id
        return response


class RequestIdFilter(logging.Filter):
    """Puts `request_id` on every log record: the request's when the record carries one."""

    def filter(self, record):
        request = getattr(record, "request", None)
        record.request_id = getattr(request, "request_id", "-")
        return True
