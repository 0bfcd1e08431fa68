"""A heavy export in the browser: the dashboard's button starts the job, its page follows the
progress by itself (htmx polling, within the Content-Security-Policy) and offers the download."""

import pytest

expect = pytest.importorskip("playwright.sync_api").expect

from jobs.worker import Worker
from planner.services import scenario_create

pytestmark = pytest.mark.django_db(transaction=True)

CABLED = {"name": "Cabled pod", "compute": {"system": "dgx-b200", "nodes": 16},
          "fabrics": {"compute": {"switch": "qm9700"}}}


def test_a_heavy_export_runs_as_a_job_whose_page_follows_it(signed_in, live_server, architect, settings, tmp_path):
    settings.HEAVY_EXPORT_CABLES = 0
    settings.JOBS_DIR = tmp_path / "jobs"
    scenario = scenario_create(owner=architect, document=dict(CABLED))
    page = signed_in
    violations = []
    page.on("console", lambda message: violations.append(message.text) if "Content Security Policy" in message.text else None)
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/")
    page.click("button:has-text('background job')")
    page.wait_for_selector("h1:has-text('Cabling plan of “Cabled pod”')")
    expect(page.locator("#job-progress")).to_contain_text("Waiting for a worker")
    Worker().run_once()
    download_link = page.locator("#job-progress a:has-text('Download cabled-pod.cabling.zip')")
    expect(download_link).to_be_visible(timeout=10_000)
    with page.expect_download() as download:
        download_link.click()
    assert download.value.suggested_filename == "cabled-pod.cabling.zip"
    assert violations == []
