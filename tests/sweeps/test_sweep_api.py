"""`POST /api/v1/sweeps/` queues a sweep as a job (400 with dotted paths for a bad one);
the worker runs it; `GET /api/v1/sweeps/<id>/` follows its progress and gives its result."""

import pytest

from jobs.models import Job
from jobs.worker import Worker
from tests.sweeps.solver.test_engine import SMALL_SWEEP

pytestmark = pytest.mark.django_db
SWEEPS = "/api/v1/sweeps/"


@pytest.fixture(autouse=True)
def jobs_dir(settings, tmp_path):
    settings.JOBS_DIR = tmp_path / "jobs"


@pytest.mark.parametrize("workers", [1, 2])
def test_a_sweep_runs_as_a_job_and_reports_its_result(user_api, settings, workers):
    settings.SWEEP_JOB_WORKERS = workers  # 2: the job's process and one forked from it
    response = user_api.post(SWEEPS, SMALL_SWEEP, format="json")
    assert response.status_code == 202, response.json()
    queued = response.json()
    assert queued["status"] == "queued" and queued["result"] is None
    assert response["Location"].endswith(f"{SWEEPS}{queued['id']}/")
    assert "24 designs" in queued["title"]

    assert Worker().run_once().pk == queued["id"]

    done = user_api.get(f"{SWEEPS}{queued['id']}/").json()
    assert (done["status"], done["progress"]) == ("done", 1.0)
    assert "24 designs planned, 8 feasible" in done["message"]
    result = done["result"]
    assert (result["designs"], result["feasible"]) == (24, 8)
    assert {refusal["path"]: refusal["designs"] for refusal in result["refusals"]} == {
        "fabrics.compute.switch": 12, "constraints.power.facility_kw.max": 4,
    }
    assert [design["design"] for design in result["front"]] == [1, 3]
    assert result["front"][0]["values"] == {
        "compute.gpus": 256, "fabrics.compute.switch": "qm9700", "racks.cooling": "air",
        "fabrics.compute.topology": "rail_only",
    }
    # racks.total ties between designs 0 and 1: the tie goes to the cheaper (on the front).
    assert [best["design"]["design"] for best in result["best"]] == [1, 3, 1]
    assert result["best"][0]["design"]["figures"]["cost.tco_usd"] <= min(
        design["figures"]["cost.tco_usd"] for design in result["front"]
    )


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"axes": {}}, "axes"),
        ({"axes": {"compute.gpus": [256], "compute.colour": ["red"]}}, "axes.compute.colour"),
        ({"constraints": {"power.facility_kw": {"min": 2, "max": 1}}}, "constraints.power.facility_kw.min"),
        ({"objectives": [{"key": "cost.tco_usd", "goal": "cheapest"}]}, "objectives[0].goal"),
        ({"base_file": "../secret.yaml"}, "base_file"),
        ({"axes": {"compute.gpus": {"from": 1, "to": 5000, "step": 1},
                   "facility.pue": {"from": 1.0, "to": 3.0, "step": 0.001}}}, "axes"),
    ],
)
def test_a_bad_sweep_is_400_naming_the_field(user_api, change, path):
    response = user_api.post(SWEEPS, {**SMALL_SWEEP, **change}, format="json")
    assert response.status_code == 400
    assert path in response.json()["errors"]
    assert not Job.objects.exists()


def test_a_sweep_that_is_not_a_mapping_is_400(user_api):
    response = user_api.post(SWEEPS, [1, 2], format="json")
    assert response.status_code == 400 and "document" in response.json()["errors"]


def test_sweeps_need_a_user_and_are_their_owners_alone(api, user_api, django_user_model):
    assert api.post(SWEEPS, SMALL_SWEEP, format="json").status_code in (401, 403)
    sweep_id = user_api.post(SWEEPS, SMALL_SWEEP, format="json").json()["id"]
    other = django_user_model.objects.create_user("grace", password="compiler-cobol")
    api.force_authenticate(other)
    assert api.get(f"{SWEEPS}{sweep_id}/").status_code == 404
    assert user_api.get(f"{SWEEPS}999999/").status_code == 404


def test_the_schema_lists_the_sweep_operations_and_their_errors():
    from drf_spectacular.generators import SchemaGenerator

    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    start, follow = paths["/api/v1/sweeps/"]["post"]["responses"], paths["/api/v1/sweeps/{id}/"]["get"]["responses"]
    assert {code for code in start if code >= "400"} == {"400", "403", "413", "415", "429"}
    assert "202" in start and "200" in follow
    assert {code for code in follow if code >= "400"} == {"403", "404"}
