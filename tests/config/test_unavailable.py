"""A part of the site that falls (the database, the disk, the job worker) gives a 503 that says
which, or a health report that does, never a bare 500 (issue 27, points 6 and 7)."""

import errno
import os
import time

import pytest
from django.db import OperationalError
from django.test import Client
from rest_framework.test import APIClient

from config.unavailable import DATABASE_DOWN_MESSAGE, DISK_FULL_MESSAGE
from jobs.worker import Worker

pytestmark = pytest.mark.django_db

DOCUMENT = {"name": "n", "compute": {"system": "dgx-h100", "gpus": 8}}


@pytest.fixture
def alive_file(settings, tmp_path):
    settings.JOB_WORKER_ALIVE_FILE = tmp_path / "worker.alive"
    return settings.JOB_WORKER_ALIVE_FILE


def _failing(monkeypatch, error):
    """Every plan fails as the database or the disk would make it fail."""
    def fail(*args, **kwargs):
        raise error

    monkeypatch.setattr("workspace.api.views.plan_document", fail)


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (OperationalError("could not connect to server: Connection refused"), DATABASE_DOWN_MESSAGE),
        (OperationalError("database or disk is full"), DISK_FULL_MESSAGE),
        (OSError(errno.ENOSPC, "No space left on device"), DISK_FULL_MESSAGE),
    ],
)
def test_the_api_answers_503_in_its_error_format(monkeypatch, error, message):
    _failing(monkeypatch, error)
    response = APIClient(raise_request_exception=False).post("/api/v1/plan/", DOCUMENT, format="json")
    assert response.status_code == 503
    assert response.json() == {"errors": {"detail": [message]}}
    assert int(response["Retry-After"]) > 0


def test_a_page_answers_a_styled_503_without_asking_the_database(monkeypatch, user):
    client = Client(raise_request_exception=False)
    client.force_login(user)

    def database_down(*args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr("workspace.views.scenario_list_page", database_down)
    response = client.get("/scenarios/")
    assert response.status_code == 503
    page = response.content.decode()
    assert "Unavailable for a moment" in page and "The database is unavailable" in page
    assert 'rel="stylesheet"' in page


def test_a_failure_outside_a_view_is_a_503_too(monkeypatch, user):
    """The session saved by its middleware after the view: Django's handler500 path."""
    client = Client(raise_request_exception=False)

    def disk_full(self, *args, **kwargs):
        raise OperationalError("database or disk is full")

    monkeypatch.setattr("django.contrib.sessions.backends.db.SessionStore.save", disk_full)
    response = client.post("/accounts/login/", {"username": "ada", "password": "analytical-engine"})
    assert response.status_code == 503
    assert "disk is full" in response.content.decode()


def test_any_other_error_of_the_api_is_a_500_in_its_error_format(monkeypatch):
    _failing(monkeypatch, RuntimeError("a bug"))
    response = APIClient(raise_request_exception=False).post("/api/v1/plan/", DOCUMENT, format="json")
    assert response.status_code == 500
    assert list(response.json()["errors"]) == ["detail"]


def test_health_is_degraded_while_no_job_worker_runs_and_ok_with_one(client, alive_file):
    body = client.get("/healthz").json()
    assert body["status"] == "degraded" and body["job_worker"].startswith("not running")
    worker = Worker(poll_interval_s=0.05)
    import threading

    thread = threading.Thread(target=worker.run_forever)
    thread.start()
    try:
        deadline = time.monotonic() + 5
        while not alive_file.exists():
            assert time.monotonic() < deadline
            time.sleep(0.02)
        response = client.get("/healthz")
        assert response.status_code == 200 and response.json()["status"] == "ok"
    finally:
        worker.stop.set()
        thread.join(5)
    old = time.time() - 120
    os.utime(alive_file, (old, old))
    body = client.get("/healthz").json()
    assert body["status"] == "degraded" and "not seen for" in body["job_worker"]


def test_health_is_unavailable_when_the_disk_is_full(client, settings, alive_file):
    alive_file.touch()
    settings.DISK_FREE_MIN_BYTES = 2**62
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "unavailable" and response.json()["disk"].startswith("full")


@pytest.fixture
def full_disk(monkeypatch):
    """The cache's files cannot be written: var/ is full (the throttles and sign-in counts)."""
    from config.cache import LockingFileBasedCache

    def no_space(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    for method in ("set", "add", "incr"):
        monkeypatch.setattr(LockingFileBasedCache, method, no_space)


def test_with_a_full_disk_an_anonymous_plan_is_a_503_that_says_so(full_disk):
    response = APIClient(raise_request_exception=False).post("/api/v1/plan/", DOCUMENT, format="json")
    assert response.status_code == 503
    assert response.json() == {"errors": {"detail": [DISK_FULL_MESSAGE]}}


@pytest.mark.parametrize("password", ["analytical-engine", "wrong"])
def test_with_a_full_disk_a_sign_in_is_a_503_page_that_says_so(full_disk, user, password):
    response = Client(raise_request_exception=False).post("/accounts/login/", {"username": "ada", "password": password})
    assert response.status_code == 503
    assert "disk is full" in response.content.decode()
