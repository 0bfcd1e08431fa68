"""Running it for a team: /healthz, request ids in the error log, hashed static files and
`check --deploy` with the deployment settings the README documents."""

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from planner.models import System

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def test_healthz_reports_the_database_and_the_catalog(client, settings, tmp_path):
    settings.JOB_WORKER_ALIVE_FILE = tmp_path / "worker.alive"
    settings.JOB_WORKER_ALIVE_FILE.touch()
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["status"] == "ok" and response.json()["database"] == "ok"
    System.objects.all().delete()
    response = client.get("/healthz")
    assert response.status_code == 503 and "loadcatalog" in response.json()["catalog"]


def test_every_response_has_a_request_id_and_error_logs_carry_it(client, user, caplog):
    client.force_login(user)
    response = client.get("/scenarios/999/", HTTP_X_REQUEST_ID="abc-123")
    assert response["X-Request-ID"] == "abc-123"
    assert len(client.get("/", HTTP_X_REQUEST_ID="<script>")["X-Request-ID"]) == 32
    from config.middleware import RequestIdFilter

    with caplog.at_level(logging.WARNING, logger="django.request"):
        client.get("/scenarios/999/", HTTP_X_REQUEST_ID="feed-1")
    record = [record for record in caplog.records if record.name == "django.request"][-1]
    RequestIdFilter().filter(record)
    assert record.request_id == "feed-1"


def test_check_deploy_passes_with_the_documented_https_settings(tmp_path):
    environment = {
        **os.environ, "PLANNER_HTTPS": "1", "DJANGO_ALLOWED_HOSTS": "planner.example.org",
        "DJANGO_SECRET_KEY": "k" * 20 + "-a-long-random-secret-" + "z" * 30, "PLANNER_VAR_DIR": str(tmp_path),
    }
    environment.pop("DJANGO_DEBUG", None)
    # The browser tests' live server sets this in the test process; a deployment never does.
    environment.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=environment, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_https_settings_make_secure_cookies_hsts_and_trust_the_proxy_header(tmp_path):
    code = (
        "from django.conf import settings as s; "
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS > 0, s.SECURE_PROXY_SSL_HEADER)"
    )
    environment = {**os.environ, "PLANNER_HTTPS": "1", "PLANNER_VAR_DIR": str(tmp_path),
                   "DJANGO_SETTINGS_MODULE": "config.settings"}
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); " + code],
        cwd=ROOT, env=environment, capture_output=True, text=True, check=True,
    )
    assert result.stdout.split() == ["True", "True", "True", "('HTTP_X_FORWARDED_PROTO',", "'https')"]


def test_static_files_are_stored_with_hashed_compressed_names():
    from django.conf import settings

    assert settings.STORAGES["staticfiles"]["BACKEND"] == "config.staticfiles.PlannerStaticFilesStorage"
    from whitenoise.storage import CompressedManifestStaticFilesStorage

    from config.staticfiles import PlannerStaticFilesStorage

    assert issubclass(PlannerStaticFilesStorage, CompressedManifestStaticFilesStorage)
