"""Abuse limits: sign-in lockout on every path, throttled anonymous planning, token
authentication, password validators, the security headers and the database file's mode."""

import base64
import json
import os
import stat

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from workspace.security import LOGIN_FAILURE_LIMIT, AnonymousPlanThrottle, login_failures

pytestmark = pytest.mark.django_db

PASSWORD = "analytical-engine"


@pytest.fixture(autouse=True)
def fast_hashes(settings):
    """Dozens of sign-ins per test: a fast hash keeps them quick (what is tested is the count)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DOCUMENT = {"name": "n", "compute": {"system": "dgx-h100", "gpus": 8}}


def basic(username, password):
    return "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()


def test_the_right_password_is_refused_after_repeated_failures_on_the_sign_in_page(client, user):
    for _ in range(LOGIN_FAILURE_LIMIT):
        client.post("/accounts/login/", {"username": "ada", "password": "wrong"})
    response = client.post("/accounts/login/", {"username": "ada", "password": PASSWORD})
    assert response.status_code == 200 and "_auth_user_id" not in client.session
    other = get_user_model().objects.create_user("grace", password=PASSWORD)
    assert client.post("/accounts/login/", {"username": other.username, "password": PASSWORD}).status_code == 302


def test_the_admin_sign_in_is_locked_out_too(client, user):
    user.is_staff = True
    user.save()
    for _ in range(LOGIN_FAILURE_LIMIT):
        client.post("/admin/login/", {"username": "ada", "password": "wrong"})
    client.post("/admin/login/", {"username": "ada", "password": PASSWORD})
    assert "_auth_user_id" not in client.session


def test_basic_auth_is_locked_out_after_repeated_failures(user):
    client = APIClient()
    assert client.get("/api/v1/scenarios/", HTTP_AUTHORIZATION=basic("ada", PASSWORD)).status_code == 200
    for _ in range(LOGIN_FAILURE_LIMIT):
        assert client.get("/api/v1/scenarios/", HTTP_AUTHORIZATION=basic("ada", "wrong")).status_code in (401, 403)
    assert client.get("/api/v1/scenarios/", HTTP_AUTHORIZATION=basic("ada", PASSWORD)).status_code in (401, 403)


def test_a_success_clears_the_failures(client, user):
    for _ in range(LOGIN_FAILURE_LIMIT - 1):
        client.post("/accounts/login/", {"username": "ada", "password": "wrong"})
    assert client.post("/accounts/login/", {"username": "ada", "password": PASSWORD}).status_code == 302
    client.logout()
    client.post("/accounts/login/", {"username": "ada", "password": "wrong"})
    assert client.post("/accounts/login/", {"username": "ada", "password": PASSWORD}).status_code == 302


def test_a_token_authenticates_the_api_without_a_password(user):
    client = APIClient()
    response = client.post("/api/v1/token/", {"username": "ada", "password": PASSWORD}, format="json")
    token = response.json()["token"]
    assert client.get("/api/v1/scenarios/", HTTP_AUTHORIZATION=f"Token {token}").status_code == 200
    assert client.get("/api/v1/scenarios/", HTTP_AUTHORIZATION="Token nonsense").status_code in (401, 403)


def test_anonymous_planning_is_throttled_per_address(api, monkeypatch):
    monkeypatch.setattr(AnonymousPlanThrottle, "get_rate", lambda self: "3/min")
    codes = [api.post("/api/v1/plan/", DOCUMENT, format="json").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    assert api.post("/api/v1/plan/export.csv", DOCUMENT, format="json").status_code == 429


def test_signed_in_planning_is_not_throttled(user_api, monkeypatch):
    monkeypatch.setattr(AnonymousPlanThrottle, "get_rate", lambda self: "1/min")
    assert [user_api.post("/api/v1/plan/", DOCUMENT, format="json").status_code for _ in range(3)] == [200] * 3


@pytest.mark.parametrize("password", ["password", "12345678901", "ada-lovelace"])
def test_weak_passwords_are_refused(password):
    with pytest.raises(ValidationError):
        validate_password(password, get_user_model()(username="ada-lovelace"))


def test_pages_carry_a_content_security_policy_that_allows_only_this_server(client, user):
    client.force_login(user)
    for url in ("/", "/scenarios/", "/scenarios/new/", "/api/docs/"):
        policy = client.get(url)["Content-Security-Policy"]
        assert "script-src 'self';" in policy and "frame-ancestors 'none'" in policy
    page = client.get("/api/docs/").content.decode()
    assert "<script>" not in page


def test_the_sqlite_file_is_readable_by_its_owner_only():
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
        pytest.skip("SQLite only")
    path = settings.VAR_DIR / "planner.sqlite3"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


@pytest.mark.parametrize("username", ["year 0", "%{x}: %{y:,.4~s}", "tab\tand\u0085", "n" * 150])
def test_failed_sign_ins_of_any_name_are_counted_under_a_key_every_cache_accepts(username, recwarn):
    """Found by schemathesis: the token endpoint's names with spaces made keys memcached refuses."""
    body = json.dumps({"username": username, "password": "wrong"})  # ASCII: a lone surrogate escaped
    response = APIClient().post("/api/v1/token/", body, content_type="application/json")
    assert response.status_code == 400
    assert login_failures(username) == 1
    assert not [warning for warning in recwarn if warning.category.__name__ == "CacheKeyWarning"]
