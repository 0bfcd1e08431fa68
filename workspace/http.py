"""Answers of the pages that are not a page's own: a 405 in the site's style."""

import functools

from django.shortcuts import render


def require_post(view):
    """Like Django's `require_POST`, with the site's 405 page (its navigation and a way back)
    rather than an empty answer."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        if request.method != "POST":
            response = render(request, "405.html", status=405)
            response["Allow"] = "POST"
            return response
        return view(request, *args, **kwargs)

    return wrapped
