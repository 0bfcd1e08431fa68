"""Sweeps and jobs with ceilings (issue 27.2): a user's designs capped, a sweep's CPU time capped,
a job cancelled from its page or the API, and a sweep whose worker stopped resumed where it was."""

import time

import pytest

from jobs.models import Job
from jobs.worker import Worker
from sweeps import jobs as sweep_jobs
from sweeps import runner
from tests.sweeps.solver.test_engine import SMALL_SWEEP

pytestmark = pytest.mark.django_db
SWEEPS = "/api/v1/sweeps/"
JOBS = "/api/v1/jobs/"


@pytest.fixture(autouse=True)
def jobs_dir(settings, tmp_path):
    settings.JOBS_DIR = tmp_path / "jobs"


def with_gpus(*gpus) -> dict:
    return {**SMALL_SWEEP, "axes": {**SMALL_SWEEP["axes"], "compute.gpus": list(gpus)}}


def test_a_users_queued_sweeps_are_capped_in_designs_together(user_api, settings):
    settings.SWEEP_MAX_DESIGNS_PER_USER = 40
    assert user_api.post(SWEEPS, SMALL_SWEEP, format="json").status_code == 202  # 24 designs
    assert user_api.post(SWEEPS, SMALL_SWEEP, format="json").status_code == 202  # the same job again
    response = user_api.post(SWEEPS, with_gpus(64, 128, 2048), format="json")
    assert response.status_code == 422
    assert "more than the 40 one user may sweep at once" in response.json()["errors"]["axes"][0]
    Worker().run_once()
    assert user_api.post(SWEEPS, with_gpus(64, 128, 2048), format="json").status_code == 202


def test_a_sweep_past_its_cpu_time_is_stopped_saying_how_far_it_got(user_api, settings, monkeypatch):
    settings.SWEEP_MAX_CPU_S = 0.0
    monkeypatch.setattr(sweep_jobs, "MAX_BATCH", 4)
    job = user_api.post(SWEEPS, SMALL_SWEEP, format="json").json()
    Worker().run_once()
    failed = Job.objects.get(pk=job["id"])
    assert failed.status == "failed"
    assert "the most a sweep may take" in failed.error and "4 of 24 designs planned" in failed.error


def test_a_queued_job_is_cancelled_through_the_api_and_never_runs(user_api):
    job = user_api.post(SWEEPS, SMALL_SWEEP, format="json").json()
    response = user_api.delete(f"{JOBS}{job['id']}/")
    assert response.status_code == 200 and response.json()["status"] == "cancelled"
    assert Worker().run_once() is None
    assert user_api.delete(f"{JOBS}{job['id']}/").status_code == 409
    assert user_api.post(SWEEPS, SMALL_SWEEP, format="json").json()["id"] != job["id"]


def test_a_running_sweep_is_cancelled_from_its_page_and_stops(user, user_api, client, monkeypatch):
    client.force_login(user)
    monkeypatch.setattr(sweep_jobs, "MAX_BATCH", 4)
    job = user_api.post(SWEEPS, SMALL_SWEEP, format="json").json()
    planned = []
    evaluate = runner.evaluate_batch

    def cancel_after_the_second_batch(spec, start, stop, *args):
        planned.append(start)
        if len(planned) == 2:
            page = client.post(f"/jobs/{job['id']}/cancel/")
            assert page.status_code == 302
        return evaluate(spec, start, stop, *args)

    monkeypatch.setattr(runner, "evaluate_batch", cancel_after_the_second_batch)
    monkeypatch.setattr("jobs.worker.PROGRESS_EVERY_S", 0.0)
    Worker().run_once()
    cancelled = Job.objects.get(pk=job["id"])
    assert cancelled.status == "cancelled" and len(planned) == 2
    page = client.get(f"/jobs/{job['id']}/").content.decode()
    assert "Cancelled" in page and "Cancel the job" not in page


def test_the_page_of_a_running_job_offers_to_cancel_it(user, user_api, client):
    client.force_login(user)
    job = user_api.post(SWEEPS, SMALL_SWEEP, format="json").json()
    assert "Cancel the job" in client.get(f"/jobs/{job['id']}/").content.decode()


def test_a_sweep_whose_worker_stopped_resumes_where_it_was(user_api, monkeypatch):
    monkeypatch.setattr(sweep_jobs, "MAX_BATCH", 4)
    monkeypatch.setattr(sweep_jobs, "CHECKPOINT_EVERY_S", 0.0)
    monkeypatch.setattr("jobs.worker.PROGRESS_EVERY_S", 0.0)
    job = user_api.post(SWEEPS, SMALL_SWEEP, format="json").json()
    planned = []
    evaluate = runner.evaluate_batch
    first = Worker()

    def stop_after_three_batches(spec, start, stop, *args):
        planned.append(start)
        if len(planned) == 3:
            first.stop.set()  # SIGTERM: the job goes back to the queue at its next report
        return evaluate(spec, start, stop, *args)

    monkeypatch.setattr(runner, "evaluate_batch", stop_after_three_batches)
    first.run_once()
    stopped = Job.objects.get(pk=job["id"])
    # The third batch is in the checkpoint, though its report was the one the stop refused.
    assert stopped.status == "queued" and stopped.progress == pytest.approx(2 / 6)
    Worker().run_once()
    done = user_api.get(f"{SWEEPS}{job['id']}/").json()
    assert done["status"] == "done"
    assert sorted(planned) == [0, 4, 8, 12, 16, 20]  # each batch planned once
    assert (done["result"]["designs"], done["result"]["feasible"]) == (24, 8)
    assert [design["design"] for design in done["result"]["front"]] == [1, 3]


def test_a_ten_million_design_sweep_is_refused_when_asked(user_api):
    """Issue 27: one was accepted, about 10 hours of the only job worker."""
    axes = {"compute.gpus": {"from": 8, "to": 80_000, "step": 8}, "racks.power_budget_kw": {"from": 1, "to": 1_000, "step": 1}}
    started = time.process_time()
    response = user_api.post(SWEEPS, {**SMALL_SWEEP, "axes": axes}, format="json")
    assert time.process_time() - started < 1.0
    assert response.status_code == 422
    assert "give 10,000,000 designs" in response.json()["errors"]["axes"][0]
    assert not Job.objects.exists()
