"""An inference section through every door: the API (plan and named errors), the plan command,
the pipeline (GPUs from the load) and the plan page."""

import json
from pathlib import Path

import pytest
import yaml
from django.urls import reverse

from planner.services import scenario_create
from planner.solver.pipeline import plan_scenario
from tests.commands import run_command

pytestmark = pytest.mark.django_db

URL = "/api/v1/plan/"
EXAMPLE_PATH = Path(__file__).resolve().parents[3] / "examples" / "llama-70b-inference.yaml"
EXAMPLE = yaml.safe_load(EXAMPLE_PATH.read_text())


def post(api, body):
    return api.generic("POST", URL, json.dumps(body), content_type="application/json")


def with_inference(**changes) -> dict:
    return {**EXAMPLE, "inference": {**EXAMPLE["inference"], **changes}}


def check_example_plan(plan: dict) -> None:
    """The example: 100 requests/s of 1,000 + 500 tokens on HGX H100, FP8, at 50 ms per token.

    sequences in flight = 100 × (2 s + 500 × 0.05 s) = 2,700 (Little's law)
    KV cache = 163,840 B × 1,500 tokens × 2,700 = 663.55 GB
    replica = 2 GPUs (1.1 × 70 GB = 77 GB > 72 GB usable on one)
    memory: replicas = ceil(1.1 × 663.55 / (144 − 77)) = ceil(10.89) = 11 → 22 GPUs
    throughput: 100 × 500 = 50,000 tokens/s / (21,605.79 / 8 = 2,700.72 MLPerf v4.1 H100 server)
                = 18.51 → 10 replicas = 20 GPUs
    memory binds: 22 GPUs → 3 HGX H100 = 24 GPUs
    """
    inference = plan["inference"]
    assert (inference["gpus_for_memory"], inference["gpus_for_throughput"]) == (22, 20)
    assert (inference["binds"], inference["replicas"], inference["gpus_per_replica"]) == ("memory", 11, 2)
    assert inference["concurrent_sequences"] == 2700
    assert inference["kv_cache_gb"] == pytest.approx(163_840 * 1500 * 2700 / 1e9)
    assert (plan["compute"]["nodes"], plan["compute"]["gpus"], inference["gpus"]) == (3, 24, 24)
    assert inference["arithmetic"][-1] == "memory binds: 22 GPUs = 11 replicas × 2 → 3 × 'hgx-h100' = 24 GPUs"


def test_the_example_plans_from_the_api(api):
    response = post(api, EXAMPLE)
    assert response.status_code == 200
    check_example_plan(response.json())


def test_the_example_plans_from_the_command_line(capsys):
    code, out, err = run_command(capsys, "plan", EXAMPLE_PATH)
    assert (code, err) == (0, "")
    check_example_plan(json.loads(out))


def test_the_pipeline_sizes_the_compute_from_the_load(catalog):
    plan = plan_scenario(with_inference(requests_per_s=400), catalog)
    # 4 × the load: memory 4 × 2,700 sequences → ceil(1.1 × 2,654.2 / 67) = 44 replicas = 88 GPUs;
    # throughput 200,000 / 2,700.72 = 74.05 → 38 replicas = 76 GPUs; memory binds → 11 systems
    assert (plan.inference.gpus_for_memory, plan.inference.gpus_for_throughput) == (88, 76)
    assert (plan.compute.nodes, plan.compute.gpus) == (11, 88)
    assert plan.to_dict()["inference"]["binds"] == "memory"


@pytest.mark.parametrize(
    ("document", "path", "message"),
    [
        (with_inference(concurrent_users=10), "inference.requests_per_s",
         "give either requests_per_s or concurrent_users (exactly one load)"),
        (with_inference(requests_per_s=0), "inference.requests_per_s", "must be a number greater than 0 1/s"),
        (with_inference(layers="eighty"), "inference.layers", "must be a positive whole number"),
        (with_inference(precision="int4"), "inference.precision", "must be one of: fp16, bf16, fp8, fp4"),
        (with_inference(unknown=1), "inference.unknown", None),
        ({**EXAMPLE, "compute": {"system": "hgx-h100", "gpus": 64}}, "compute.gpus",
         "leave out when inference is given: the inference load sizes the GPUs"),
        ({**EXAMPLE, "workload": {"parameters_billion": 70, "tokens_trillion": 2, "days": 30}}, "inference",
         "leave out when workload.days is given: either the training job or the inference load sizes the GPUs"),
    ],
)
def test_bad_inference_input_is_a_400_naming_the_field(api, document, path, message):
    response = post(api, document)
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert path in errors
    if message is not None:
        assert errors[path] == [message]


@pytest.mark.parametrize(
    ("changes", "path"),
    [
        ({"time_per_output_token_ms": 2}, "inference.time_per_output_token_ms"),
        ({"parameters_billion": 3000, "precision": "fp16"}, "inference.parameters_billion"),
        ({"requests_per_s": 1e9}, "inference.requests_per_s"),
    ],
)
def test_a_load_no_design_meets_is_a_422_naming_the_field(api, changes, path):
    response = post(api, with_inference(**changes))
    assert response.status_code == 422
    errors = response.json()["errors"]
    assert list(errors) == [path]


def test_the_plan_page_shows_the_inference_arithmetic(client, django_user_model):
    ada = django_user_model.objects.create_user("ada", password="x")
    client.force_login(ada)
    scenario = scenario_create(owner=ada, document=dict(EXAMPLE))
    response = client.get(reverse("workspace:scenario-detail", args=[scenario.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Inference sizing" in html
    assert "memory binds: 22 GPUs = 11 replicas × 2" in html
    titles = [section.title for section in response.context["sections"]]
    assert titles.index("Inference sizing") == titles.index("Compute") + 1
