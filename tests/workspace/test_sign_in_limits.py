"""Throttles that hold behind a proxy, sign-ins limited per address as well as per name, and the
lockout counted atomically (issue 27, point 5)."""

import threading
import time

import pytest
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.test import RequestFactory
from rest_framework.test import APIClient

from workspace.security import (
    ADDRESS_FAILURE_LIMIT,
    LOGIN_FAILURE_LIMIT,
    AnonymousPlanThrottle,
    LockoutModelBackend,
    address_login_failures,
    client_address,
)

pytestmark = pytest.mark.django_db

DOCUMENT = {"name": "n", "compute": {"system": "dgx-h100", "gpus": 8}}


@pytest.fixture(autouse=True)
def fast_hashes(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def request_from(remote, forwarded=None):
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    return RequestFactory().get("/", REMOTE_ADDR=remote, **headers)


def test_a_forwarded_address_is_ignored_unless_a_trusted_proxy_sends_it(settings):
    settings.TRUSTED_PROXIES = []
    assert client_address(request_from("203.0.113.9", "198.51.100.1")) == "203.0.113.9"
    settings.TRUSTED_PROXIES = ["10.0.0.0/8", "127.0.0.1"]
    assert client_address(request_from("10.1.2.3", "198.51.100.1")) == "198.51.100.1"
    # The client may write the header too: only the hops the trusted proxies added count.
    assert client_address(request_from("10.1.2.3", "6.6.6.6, 198.51.100.1, 10.9.9.9")) == "198.51.100.1"
    assert client_address(request_from("203.0.113.9", "198.51.100.1")) == "203.0.113.9"
    assert client_address(request_from("127.0.0.1", "not-an-address")) == "127.0.0.1"


def test_rotating_x_forwarded_for_does_not_pass_the_anonymous_throttle(api, monkeypatch, settings):
    settings.TRUSTED_PROXIES = []
    monkeypatch.setattr(AnonymousPlanThrottle, "get_rate", lambda self: "3/min")
    codes = [
        api.post("/api/v1/plan/", DOCUMENT, format="json", HTTP_X_FORWARDED_FOR=f"198.51.100.{index}").status_code
        for index in range(5)
    ]
    assert codes == [200, 200, 200, 429, 429]


def test_behind_a_trusted_proxy_each_client_has_its_own_throttle(monkeypatch, settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    monkeypatch.setattr(AnonymousPlanThrottle, "get_rate", lambda self: "2/min")
    api = APIClient(REMOTE_ADDR="127.0.0.1")

    def plan(client_ip):
        return api.post("/api/v1/plan/", DOCUMENT, format="json", HTTP_X_FORWARDED_FOR=client_ip).status_code

    assert [plan("198.51.100.1") for _ in range(3)] == [200, 200, 429]
    assert plan("198.51.100.2") == 200


def test_guesses_over_random_names_are_refused_per_address_before_any_password_is_checked(monkeypatch):
    checked = []
    monkeypatch.setattr(ModelBackend, "authenticate", lambda self, *args, **kwargs: checked.append(1))
    backend = LockoutModelBackend()
    request = request_from("203.0.113.7")
    refused = 0
    for index in range(ADDRESS_FAILURE_LIMIT + 20):
        try:
            backend.authenticate(request, username=f"guess-{index}", password="wrong")
        except Exception:  # noqa: BLE001 (PermissionDenied: refused)
            refused += 1
    assert len(checked) == ADDRESS_FAILURE_LIMIT and refused == 20
    assert address_login_failures("203.0.113.7") >= ADDRESS_FAILURE_LIMIT
    other = request_from("203.0.113.8")
    backend.authenticate(other, username="guess-0", password="wrong")
    assert len(checked) == ADDRESS_FAILURE_LIMIT + 1


def test_the_page_refuses_an_address_that_failed_too_often(client, user):
    for index in range(ADDRESS_FAILURE_LIMIT):
        client.post("/accounts/login/", {"username": f"nobody-{index}", "password": "wrong"})
    client.post("/accounts/login/", {"username": "ada", "password": "analytical-engine"})
    assert "_auth_user_id" not in client.session


def test_successes_do_not_use_up_the_address_allowance(user):
    client = APIClient()
    for _ in range(ADDRESS_FAILURE_LIMIT + 5):
        response = client.get("/api/v1/scenarios/", HTTP_AUTHORIZATION="Basic YWRhOmFuYWx5dGljYWwtZW5naW5l")
        assert response.status_code == 200


def test_forty_concurrent_wrong_passwords_check_no_more_than_the_limit(monkeypatch):
    checked = []

    def slow_wrong_password(self, *args, **kwargs):
        checked.append(1)
        time.sleep(0.02)  # a password hash's time, during which the others arrive

    monkeypatch.setattr(ModelBackend, "authenticate", slow_wrong_password)
    backend = LockoutModelBackend()
    start = threading.Barrier(40)

    def guess(index):
        start.wait()
        try:
            backend.authenticate(request_from(f"198.51.100.{index}"), username="ada", password="wrong")
        except Exception:  # noqa: BLE001 (PermissionDenied: locked out)
            pass

    threads = [threading.Thread(target=guess, args=(index,)) for index in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(checked) == LOGIN_FAILURE_LIMIT


def test_the_cache_counts_atomically_and_keeps_the_expiry():
    cache.add("count", 0, 300)

    def count():
        for _ in range(25):
            cache.incr("count")

    threads = [threading.Thread(target=count) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert cache.get("count") == 200
    cache.set("brief", 1, 1)
    cache.incr("brief")
    time.sleep(1.1)
    assert cache.get("brief") is None
