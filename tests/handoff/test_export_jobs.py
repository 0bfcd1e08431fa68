"""Heavy exports run as background jobs (issue 11, point 8): a cabling plan of more cables than
a request streams in a few seconds gives a job (202 in the API, a job page on the dashboard),
whose file holds what the streamed export holds; only its owner sees it."""

import csv
import io
import zipfile

import pyarrow.parquet as pq
import pytest
from openpyxl import load_workbook
from rest_framework.test import APIClient

from handoff.export_jobs import plan_export_job_enqueue
from jobs.models import Job
from jobs.services import job_result_file
from jobs.worker import Worker
from planner.models import Scenario

pytestmark = pytest.mark.django_db

CABLED = {
    "name": "B200 pod",
    "compute": {"system": "dgx-b200", "nodes": 32},
    "racks": {"power_budget_kw": 60},
    "fabrics": {"compute": {"switch": "qm9700"}, "oob": {"switch": "sn2201", "spine_switch": "sn5600"}},
}
OVER_THRESHOLD = {
    "name": "Large",
    "compute": {"system": "dgx-b300", "nodes": 12_288},
    "fabrics": {"compute": {"switch": "q3400"}},
}
"""295,296 cables: over the default threshold of 200,000."""


@pytest.fixture(autouse=True)
def jobs_dir(settings, tmp_path):
    settings.JOBS_DIR = tmp_path / "jobs"
    return settings.JOBS_DIR


@pytest.fixture
def every_cabling_export_is_a_job(settings):
    settings.HEAVY_EXPORT_CABLES = 0


def saved(client, document=CABLED) -> int:
    response = client.post("/api/v1/scenarios/", {"document": document}, format="json")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def streamed(response) -> bytes:
    assert response.status_code == 200
    return b"".join(response.streaming_content) if response.streaming else response.content


def unzipped(path) -> tuple[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        [name] = archive.namelist()
        return name, archive.read(name)


def workbook_values(content: bytes) -> dict:
    workbook = load_workbook(io.BytesIO(content))
    return {sheet.title: [list(row) for row in sheet.iter_rows(values_only=True)] for sheet in workbook}


@pytest.mark.parametrize("export_format", ["cabling", "cabling-parquet", "xlsx", "csv", "json"])
def test_a_jobs_export_equals_the_export_made_while_you_wait(user_api, user, export_format):
    scenario_id = saved(user_api)
    expected = streamed(user_api.get(f"/api/v1/scenarios/{scenario_id}/export.{export_format}"))
    job = plan_export_job_enqueue(owner=user, export_format=export_format,
                                  scenario=Scenario.objects.get(pk=scenario_id))
    assert Worker().run_once() == job
    job.refresh_from_db()
    assert job.status == "done", job.error
    path = job_result_file(job)
    if export_format == "cabling":
        assert job.result_name == "b200-pod.cabling.zip"
        name, content = unzipped(path)
        assert name == "b200-pod.cabling.csv"
        assert content == expected
        assert job.message == f"{len(content.splitlines()) - 1:,} cables written"
    elif export_format == "cabling-parquet":
        assert job.result_name == "b200-pod.cabling.parquet"
        assert path.read_bytes() == expected
        assert job.message == f"{pq.read_table(path).num_rows:,} cables written"
    elif export_format == "xlsx":
        assert workbook_values(path.read_bytes()) == workbook_values(expected)
    else:
        assert path.read_bytes() == expected


def test_the_threshold_routes_a_big_plan_to_a_job(user_api, settings):
    assert settings.HEAVY_EXPORT_CABLES == 200_000
    big, small = saved(user_api, OVER_THRESHOLD), saved(user_api)
    response = user_api.get(f"/api/v1/scenarios/{big}/export.cabling")
    assert response.status_code == 202
    job = Job.objects.get()
    assert response["Location"] == f"http://testserver/api/v1/jobs/{job.pk}/"
    body = response.json()
    assert (body["id"], body["status"], body["download_url"]) == (job.pk, "queued", None)
    assert body["page_url"] == f"http://testserver/jobs/{job.pk}/"
    assert job.parameters == {"format": "cabling", "scenario": big, "revision": 1}
    assert job.title == "Cabling plan of “Large”"
    # The same export asked again is the same job; a small one, and the large one's workbook,
    # stream while you wait.
    assert user_api.get(f"/api/v1/scenarios/{big}/export.cabling").json()["id"] == job.pk
    assert user_api.get(f"/api/v1/scenarios/{small}/export.cabling").streaming
    assert user_api.get(f"/api/v1/scenarios/{big}/export.xlsx").status_code == 200
    assert Job.objects.count() == 1


def test_an_export_job_is_followed_and_downloaded_through_the_api(user_api, every_cabling_export_is_a_job):
    scenario_id = saved(user_api)
    job_url = user_api.get(f"/api/v1/scenarios/{scenario_id}/export.cabling")["Location"]
    assert user_api.get(job_url).json()["status"] == "queued"
    download = job_url + "download/"
    assert user_api.get(download).status_code == 409
    Worker().run_once()
    job = user_api.get(job_url).json()
    assert (job["status"], job["progress"], job["result_name"]) == ("done", 1.0, "b200-pod.cabling.zip")
    assert job["download_url"] == download
    response = user_api.get(download)
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="b200-pod.cabling.zip"'
    assert response["Content-Type"] == "application/zip"
    content = b"".join(response.streaming_content)
    rows = list(csv.DictReader(io.StringIO(unzipped(io.BytesIO(content))[1].decode())))
    assert rows[0]["from_device"] == "r001-node-01"
    assert len(user_api.get("/api/v1/jobs/").json()["results"]) == 1


def test_a_heavy_export_of_a_posted_document_is_a_job_of_its_owner(user_api, api, user, every_cabling_export_is_a_job):
    response = user_api.post("/api/v1/plan/export.cabling", CABLED, format="json")
    assert response.status_code == 202
    job = Job.objects.get(pk=response.json()["id"])
    assert (job.owner, job.parameters) == (user, {"format": "cabling", "document": CABLED})
    Worker().run_once()
    job.refresh_from_db()
    assert job.status == "done"
    anonymous = api.post("/api/v1/plan/export.cabling", CABLED, format="json")
    assert anonymous.status_code == 422
    [message] = anonymous.json()["errors"]["format"]
    assert "sign in" in message and "cables, more than the 0 exported while you wait" in message
    assert api.post("/api/v1/plan/export.csv", CABLED, format="json").status_code == 200


def test_only_its_owner_sees_a_job(user_api, client, django_user_model, every_cabling_export_is_a_job):
    job_id = user_api.get(f"/api/v1/scenarios/{saved(user_api)}/export.cabling").json()["id"]
    Worker().run_once()
    mallory = django_user_model.objects.create_user("mallory", password="x" * 12)
    other = APIClient()
    other.force_authenticate(mallory)
    for url in (f"/api/v1/jobs/{job_id}/", f"/api/v1/jobs/{job_id}/download/"):
        assert other.get(url).status_code == 404
    assert other.get("/api/v1/jobs/").json()["results"] == []
    assert APIClient().get(f"/api/v1/jobs/{job_id}/").status_code in (401, 403)
    client.force_login(mallory)
    for url in (f"/jobs/{job_id}/", f"/jobs/{job_id}/progress/", f"/jobs/{job_id}/download"):
        assert client.get(url).status_code == 404
    assert client.get("/jobs/99999999999999999999/").status_code == 404


def test_too_many_waiting_jobs_are_429(user_api, settings, every_cabling_export_is_a_job):
    settings.JOB_MAX_ACTIVE_PER_OWNER = 1
    first, second = saved(user_api), saved(user_api, {**CABLED, "name": "Another"})
    assert user_api.get(f"/api/v1/scenarios/{first}/export.cabling").status_code == 202
    response = user_api.get(f"/api/v1/scenarios/{second}/export.cabling")
    assert response.status_code == 429
    assert "wait until one has finished" in response.json()["errors"]["detail"][0]


def test_the_dashboard_starts_a_heavy_export_as_a_job_and_its_page_follows_it(client, user, every_cabling_export_is_a_job):
    client.force_login(user)
    scenario_id = saved(_api_of(user))
    page = client.get(f"/scenarios/{scenario_id}/").content.decode()
    start_url = f"/scenarios/{scenario_id}/export.cabling/job"
    assert f'action="{start_url}"' in page and "cables: background job" in page
    assert f'href="/api/v1/scenarios/{scenario_id}/export.xlsx"' in page
    response = client.post(start_url)
    job = Job.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/jobs/{job.pk}/"
    waiting = client.get(f"/jobs/{job.pk}/").content.decode()
    assert f'hx-get="/jobs/{job.pk}/progress/"' in waiting and "Waiting for a worker" in waiting
    assert "htmx.min" in waiting
    Worker().run_once()
    done = client.get(f"/jobs/{job.pk}/progress/").content.decode()
    assert "hx-trigger" not in done
    assert f'href="/jobs/{job.pk}/download"' in done and "b200-pod.cabling.zip" in done
    download = client.get(f"/jobs/{job.pk}/download")
    assert unzipped(io.BytesIO(b"".join(download.streaming_content)))[0] == "b200-pod.cabling.csv"
    assert "Cabling plan of “B200 pod”" in client.get("/jobs/").content.decode()
    assert client.get(f"/scenarios/{scenario_id}/export.cabling/job").status_code == 405


def test_a_failed_job_shows_why(client, user, every_cabling_export_is_a_job):
    client.force_login(user)
    api = _api_of(user)
    scenario_id = saved(api)
    deleted_id = saved(api, {**CABLED, "name": "Deleted"})
    moved = client.post(f"/scenarios/{scenario_id}/export.cabling/job")
    client.post(f"/scenarios/{deleted_id}/export.cabling/job")
    api.put(f"/api/v1/scenarios/{scenario_id}/", {"document": {**CABLED, "name": "Renamed"}, "revision": 1},
            format="json")
    Scenario.objects.filter(pk=deleted_id).delete()
    Worker().run_once()
    Worker().run_once()
    errors = dict(Job.objects.values_list("parameters__scenario", "error"))
    assert errors[scenario_id].startswith("the scenario was saved again (revision 2)")
    assert errors[deleted_id] == "the scenario was deleted"
    page = client.get(moved["Location"]).content.decode()
    assert "The job failed:" in page and "saved again (revision 2)" in page and "hx-trigger" not in page


def _api_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client
