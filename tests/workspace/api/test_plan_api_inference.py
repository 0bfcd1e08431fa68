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
    throughput: 50 ms is tighter than H100's only published point (MLPerf v4.1 server, TPOT ≤ 200 ms,
        21,605.79 / 8 = 2,700.72 tokens/s per GPU): along the roofline of a 2-GPU replica, with
        K = 0.24576 GB a sequence, R(T) = 1,000 × (T × 2 × 3.35 − 70) / K / (2T): R(50) = 10,782.9,
        R(200) = 12,919.0; 2,700.72 × 10,782.9 / 12,919.0 = 2,254.1 tokens/s per GPU (an extrapolation)
        100 × 500 = 50,000 tokens/s / 2,254.1 = 22.18 → 12 replicas = 24 GPUs
    (4-GPU replicas: memory 16, throughput 24 as well; the narrower is kept)
    throughput binds: 24 GPUs → 3 HGX H100 = 24 GPUs
    """
    inference = plan["inference"]
    assert (inference["gpus_for_memory"], inference["gpus_for_throughput"]) == (22, 24)
    assert (inference["binds"], inference["replicas"], inference["gpus_per_replica"]) == ("throughput", 12, 2)
    assert inference["tokens_per_s_per_gpu"] == pytest.approx(2_254.1, abs=0.1)
    assert inference["operating_point"] == "extrapolated beyond h100-llama2-70b-server-v4.1"
    assert inference["concurrent_sequences"] == 2700
    assert inference["kv_cache_gb"] == pytest.approx(163_840 * 1500 * 2700 / 1e9)
    assert (plan["compute"]["nodes"], plan["compute"]["gpus"], inference["gpus"]) == (3, 24, 24)
    assert inference["arithmetic"][-1] == "throughput binds: 24 GPUs = 12 replicas × 2 → 3 × 'hgx-h100' = 24 GPUs"
    # Cost per million output tokens: the TCO over 24 × 2,254.1 tokens/s × 0.6 × 3,600 s × 8,760 h × 5 years
    served = 24 * inference["tokens_per_s_per_gpu"] * 0.6 * 3_600 * 8_760 * 5
    assert inference["usd_per_million_output_tokens"] == pytest.approx(plan["cost"]["tco_usd"] / served * 1e6, rel=1e-4)
    assert plan["cost"]["usd_per_million_output_tokens"] == inference["usd_per_million_output_tokens"]
    assert any(warning.startswith("Inference: the latency targets are tighter than every published point")
               for warning in plan["warnings"])


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
    # 4 × the load, 10,800 sequences in flight (2,654.2 GB of KV cache), 200,000 tokens/s:
    # g = 2: memory ceil(1.1 × 2,654.2 / 67) = 44 → 88, throughput 200,000 / 2,254.1 = 88.7 → 90
    # g = 4: memory ceil(2,919.6 / 211) = 14 → 56, throughput / (2,700.72 × 12,207.0 / 13,275.1
    #        = 2,483.4) = 80.5 → 84
    # g = 8: memory ceil(2,919.6 / 499) = 6 → 48, throughput / (2,700.72 × 12,919.3 / 13,453.1
    #        = 2,593.5) = 77.1 → 80: the fewest, 8-GPU replicas, throughput binds → 10 systems
    assert plan.inference.gpus_per_replica == 8
    assert (plan.inference.gpus_for_memory, plan.inference.gpus_for_throughput) == (48, 80)
    assert (plan.compute.nodes, plan.compute.gpus) == (10, 80)
    assert plan.to_dict()["inference"]["binds"] == "throughput"


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
    assert "throughput binds: 24 GPUs = 12 replicas × 2" in html
    titles = [section.title for section in response.context["sections"]]
    assert titles.index("Inference sizing") == titles.index("Compute") + 1
