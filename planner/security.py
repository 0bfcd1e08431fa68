"""Abuse limits of the whole site: sign-in lockout, throttles of anonymous planning, and the
Content-Security-Policy header.

Lockout: after LOGIN_FAILURE_LIMIT failed sign-ins for one user name within
LOGIN_LOCKOUT_WINDOW_S, every further attempt for that name is refused, right password or not,
until the window has passed since the last failure. It counts in the cache (shared by the
server's workers: a file cache in var/), so it covers every path that calls `authenticate()`:
the sign-in page, the admin's, HTTP basic auth and the token endpoint of the API.
"""

import hashlib

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from rest_framework.throttling import AnonRateThrottle

LOGIN_FAILURE_LIMIT = 10
LOGIN_LOCKOUT_WINDOW_S = 15 * 60


def _failures_key(username: str) -> str:
    # A digest: any name (spaces, control characters, 150 characters) makes a key every cache
    # backend accepts (memcached refuses spaces and control characters, and keys over 250 bytes).
    name = username.strip().lower()[:150]
    return "login-failures:" + hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()


def login_failures(username: str) -> int:
    return cache.get(_failures_key(username), 0)


def is_locked_out(username: str) -> bool:
    return login_failures(username) >= LOGIN_FAILURE_LIMIT


@receiver(user_login_failed)
def count_login_failure(sender, credentials, request=None, **kwargs):
    username = credentials.get("username") or ""
    if username:
        key = _failures_key(username)
        cache.set(key, cache.get(key, 0) + 1, LOGIN_LOCKOUT_WINDOW_S)


class LockoutModelBackend(ModelBackend):
    """Django's user backend, refusing names locked out by repeated failures; a success
    clears the count."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        name = username if username is not None else kwargs.get(self._username_field(), "")
        if name and is_locked_out(str(name)):
            # PermissionDenied stops authenticate() at this backend and counts as a failure.
            raise PermissionDenied("too many failed sign-ins; try again later")
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None and name:
            cache.delete(_failures_key(str(name)))
        return user

    @staticmethod
    def _username_field() -> str:
        from django.contrib.auth import get_user_model

        return get_user_model().USERNAME_FIELD


class AnonymousPlanThrottle(AnonRateThrottle):
    """Plans and exports of posted documents by callers who are not signed in, per address."""

    scope = "anon_plan"


class ContentSecurityPolicyMiddleware:
    """Sets the CONTENT_SECURITY_POLICY header on every response that has none: scripts and
    everything else only from this server (plotly.js and htmx are served from it); inline styles
    are allowed because plotly and htmx set them."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        return response
