"""Abuse limits of the whole site: sign-in lockout, throttles of anonymous planning, and the
Content-Security-Policy header.

Lockout: after LOGIN_FAILURE_LIMIT failed sign-ins for one user name within
LOGIN_LOCKOUT_WINDOW_S, every further attempt for that name is refused, right password or not,
until the window has passed since the last failure. Besides, an address (the client's, see
`client_address`) with ADDRESS_FAILURE_LIMIT failed sign-ins in that window, whatever names it
tried, is refused before any password is checked: a password check costs tens of milliseconds
of CPU (config/passwords.py), and guesses spread over random names never lock out any one of them.

Both count in the cache (shared by the server's workers: a file cache in var/ whose `add` and
`incr` are atomic), so they cover every path that calls `authenticate()`: the sign-in page, the
admin's, HTTP basic auth and the token endpoint of the API. An attempt is counted before its
password is checked and given back when it succeeds, so that forty at once for one name check
no more than LOGIN_FAILURE_LIMIT passwords.
"""

import hashlib
import ipaddress

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from rest_framework.throttling import AnonRateThrottle

LOGIN_FAILURE_LIMIT = 10
LOGIN_LOCKOUT_WINDOW_S = 15 * 60
ADDRESS_FAILURE_LIMIT = 50
"""Failed sign-ins from one address within the window, whatever the names: an office behind one
address mistyping passwords stays far below it."""


def client_address(request) -> str:
    """The address of the client: REMOTE_ADDR, unless it is one of settings.TRUSTED_PROXIES;
    then the nearest address of X-Forwarded-For that is not a trusted proxy. A header from
    anyone else is ignored, so that rotating it does not make a new client of each request."""
    meta = getattr(request, "META", {})
    remote = meta.get("REMOTE_ADDR", "") or ""
    if not _is_trusted_proxy(remote):
        return remote
    hops = [hop.strip() for hop in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _is_trusted_proxy(hop):
            return hop if _is_address(hop) else remote
    return remote


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _is_trusted_proxy(address: str) -> bool:
    if not settings.TRUSTED_PROXIES:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in ipaddress.ip_network(network, strict=False) for network in settings.TRUSTED_PROXIES)


def _count_attempt(key: str) -> int:
    """Count one more attempt under `key` for the lockout window; the count now."""
    cache.add(key, 0, LOGIN_LOCKOUT_WINDOW_S)
    try:
        return cache.incr(key)
    except ValueError:  # expired between the two
        cache.set(key, 1, LOGIN_LOCKOUT_WINDOW_S)
        return 1


def _give_back_attempt(key: str) -> None:
    try:
        cache.decr(key)
    except ValueError:
        pass


def _address_key(address: str) -> str:
    return "login-failures-address:" + hashlib.sha256(address.encode("utf-8", "surrogatepass")).hexdigest()


def _failures_key(username: str) -> str:
    # A digest: any name (spaces, control characters, 150 characters) makes a key every cache
    # backend accepts (memcached refuses spaces and control characters, and keys over 250 bytes).
    name = username.strip().lower()[:150]
    return "login-failures:" + hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()


def login_failures(username: str) -> int:
    return cache.get(_failures_key(username), 0)


def is_locked_out(username: str) -> bool:
    return login_failures(username) >= LOGIN_FAILURE_LIMIT


def address_login_failures(address: str) -> int:
    return cache.get(_address_key(address), 0)


class LockoutModelBackend(ModelBackend):
    """Django's user backend, refusing names locked out by repeated failures and addresses that
    failed too often; a success clears the name's count."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        name = str(username if username is not None else kwargs.get(self._username_field(), "") or "")
        address_key = _address_key(client_address(request)) if request is not None else None
        if address_key and _count_attempt(address_key) > ADDRESS_FAILURE_LIMIT:
            # PermissionDenied stops authenticate() at this backend and counts as a failure.
            raise PermissionDenied("too many failed sign-ins from this address; try again later")
        name_key = _failures_key(name) if name else None
        if name_key and _count_attempt(name_key) > LOGIN_FAILURE_LIMIT:
            raise PermissionDenied("too many failed sign-ins; try again later")
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None:
            if name_key:
                cache.delete(name_key)
            if address_key:
                _give_back_attempt(address_key)
        return user

    @staticmethod
    def _username_field() -> str:
        from django.contrib.auth import get_user_model

        return get_user_model().USERNAME_FIELD


class AnonymousPlanThrottle(AnonRateThrottle):
    """Plans and exports of posted documents by callers who are not signed in, per address
    (`client_address`: X-Forwarded-For only from a trusted proxy)."""

    scope = "anon_plan"

    def get_ident(self, request):
        return client_address(request)


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
