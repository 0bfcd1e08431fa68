"""Middleware of the whole site: request bodies bounded before they are read."""

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
