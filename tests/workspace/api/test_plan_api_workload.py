"""POST /api/v1/plan/ with a workload, storage tiers and reliability: the sections and named errors."""

import json

import pytest

pytestmark = pytest.mark.django_db

URL = "/api/v1/plan/"
JOB = {
    "name": "70B in 30 days",
    "compute": {"system": "dgx-h100"},
    "workload": {"parameters_billion": 70, "tokens_trillion": 15, "days": 30},
    "storage": {"tiers": [{"system": "ddn-ai400x2", "serves": ["training_reads", "checkpoint_writes"]}]},
}


def post(api, body):
    return api.generic("POST", URL, json.dumps(body), content_type="application/json")


def test_a_job_plans_with_workload_storage_and_reliability(api):
    response = post(api, JOB)
    assert response.status_code == 200
    plan = response.json()
    # 6 × 70e9 × 15e12 = 6.3e24 / (30 × 86,400 × 395.76e12) = 6,141.7 → 6,142 GPUs → 768 DGX H100
    assert plan["workload"]["gpus_needed"] == 6142 and plan["compute"]["nodes"] == 768
    assert plan["storage"]["tiers"][0]["systems"] >= 1
    assert {"mtbi_h", "checkpoint_interval_s", "goodput"} <= set(plan["reliability"])
    assert any(line["category"] == "storage" for line in plan["bom"])


@pytest.mark.parametrize(
    ("change", "path", "message"),
    [
        ({"workload": {**JOB["workload"], "mfu": 0}}, "workload.mfu", "must be a number greater than 0"),
        ({"compute": {"system": "dgx-h100", "gpus": 64}}, "compute.gpus",
         "leave out when workload.days is given: the workload sizes the GPUs"),
        ({"storage": {"checkpoint_write_s": 0}}, "storage.checkpoint_write_s", "must be a number greater than 0 s"),
        ({"reliability": {"interruptions_per_gpu_year": -1}}, "reliability.interruptions_per_gpu_year",
         "must be a number, zero or more"),
    ],
)
def test_bad_job_input_is_a_400_naming_the_field(api, change, path, message):
    response = post(api, {**JOB, **change})
    assert response.status_code == 400
    assert response.json()["errors"] == {path: [message]}
