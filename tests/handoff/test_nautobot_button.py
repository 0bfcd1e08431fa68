"""The dashboard's "Push to Nautobot" button (staff only, shown when NAUTOBOT_URL and
NAUTOBOT_TOKEN are set) queues a push job; `manage.py push_nautobot` answers a wrong URL or a
missing scenario with one line and an exit status, never a traceback."""

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from jobs.models import Job
from jobs.worker import Worker

pytestmark = pytest.mark.django_db

SMALL = {"name": "Small pod", "compute": {"system": "dgx-b200", "nodes": 4}, "fabrics": {"compute": {"switch": "qm9700"}}}
UNREACHABLE = "http://127.0.0.1:9"


@pytest.fixture(autouse=True)
def jobs_dir(settings, tmp_path):
    settings.JOBS_DIR = tmp_path / "jobs"


@pytest.fixture
def staff(user):
    user.is_staff = True
    user.save()
    return user


def saved(user) -> int:
    client = APIClient()
    client.force_authenticate(user)
    response = client.post("/api/v1/scenarios/", {"document": SMALL}, format="json")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def dashboard(client, pk) -> str:
    response = client.get(f"/scenarios/{pk}/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_button_is_hidden_without_settings_and_for_non_staff(client, user, settings):
    settings.NAUTOBOT_URL, settings.NAUTOBOT_TOKEN = "", ""
    pk = saved(user)
    client.force_login(user)
    assert "Push to Nautobot" not in dashboard(client, pk)
    settings.NAUTOBOT_URL, settings.NAUTOBOT_TOKEN = UNREACHABLE, "t" * 40
    assert "Push to Nautobot" not in dashboard(client, pk)
    assert client.post(f"/scenarios/{pk}/push-nautobot/").status_code == 403
    assert not Job.objects.exists()


def test_staff_push_runs_as_a_job_and_reports_an_unreachable_nautobot(client, staff, settings):
    settings.NAUTOBOT_URL, settings.NAUTOBOT_TOKEN = UNREACHABLE, "t" * 40
    pk = saved(staff)
    client.force_login(staff)
    assert f"/scenarios/{pk}/push-nautobot/" in dashboard(client, pk)
    response = client.post(f"/scenarios/{pk}/push-nautobot/")
    job = Job.objects.get(kind="nautobot_push")
    assert response.status_code == 302 and response.url.endswith(f"/{job.pk}/")
    assert client.get(f"/scenarios/{pk}/push-nautobot/").status_code == 405
    Worker(name="test").run_once()
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED
    assert "cannot be reached" in job.error


def test_command_explains_a_wrong_url_and_a_missing_scenario(user, capsys):
    pk = saved(user)
    with pytest.raises(SystemExit) as exit:
        call_command("push_nautobot", str(pk), "--url", UNREACHABLE, "--token", "t" * 40)
    assert exit.value.code == 1
    assert capsys.readouterr().err.strip().startswith(f"push_nautobot: Nautobot at {UNREACHABLE} cannot be reached")
    with pytest.raises(SystemExit) as exit:
        call_command("push_nautobot", "999999", "--url", UNREACHABLE, "--token", "t")
    assert exit.value.code == 2
    assert "no saved scenario has the id 999999" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit:
        call_command("push_nautobot", str(pk), "--url", "nautobot.example", "--token", "t")
    assert exit.value.code == 1
    assert "not an http:// or https:// address" in capsys.readouterr().err
