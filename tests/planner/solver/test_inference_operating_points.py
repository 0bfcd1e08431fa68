"""Inference sized from the published operating point the pool's latency targets meet: hand
calculations from the MLPerf Inference rows (planner/catalog/inference_operating_points.yaml),
estimates for unpublished models, disaggregated prefill, several models in one pool, and the
input no design meets."""

import math

import pytest

from catalog.solver.operating_points import (
    curve_figure,
    newest_points,
    roofline_tokens_per_s_per_gpu,
    tokens_per_s_per_gpu_log_tpot,
)
from core.solver.errors import InfeasibleError, ScenarioError
from core.solver.schema import read_spec
from planner.solver.inference import size_inference
from planner.solver.inference_prefill import PREFILL_EFFICIENCY
from planner.solver.inference_spec import InferenceSpec
from planner.solver.inference_throughput import gpu_throughput

LLAMA2_70B = {
    # Touvron et al. 2023 (arXiv 2307.09288): 80 layers, 8 KV heads (grouped-query attention), head dim 128
    "name": "llama2-70b", "parameters_billion": 70, "layers": 80, "kv_heads": 8, "head_dim": 128,
}
LLAMA31_405B = {
    # Meta, "The Llama 3 Herd of Models" (arXiv 2407.21783), table 3: 126 layers, 8 KV heads, head dim 128
    "name": "llama3.1-405b", "parameters_billion": 405, "layers": 126, "kv_heads": 8, "head_dim": 128,
}
MIXTRAL_8X7B = {
    # Jiang et al. 2024 (arXiv 2401.04088): 46.7B parameters, 12.9B active, 32 layers, 8 KV heads, dim 128
    "name": "mixtral-8x7b", "parameters_billion": 46.7, "active_parameters_billion": 12.9,
    "layers": 32, "kv_heads": 8, "head_dim": 128,
}
H100_LLAMA2_70B_SERVER = 21_605.79 / 8
"""MLPerf v4.1 closed, llama2-70b-99.9 Server (TTFT ≤ 2 s, TPOT ≤ 200 ms), DGX-H100 8 × H100, FP8."""
B200_LLAMA2_70B_SERVER = 98_443.30 / 8
"""MLPerf v5.0 closed, llama2-70b-99.9 Server (TTFT ≤ 2 s, TPOT ≤ 200 ms), 8 × B200, FP4."""
B200_LLAMA2_70B_INTERACTIVE = 59_409.25 / 8
"""MLPerf v5.0 closed, llama2-70b-interactive-99 (TTFT ≤ 450 ms, TPOT ≤ 40 ms), 8 × B200, FP4."""
B200_LLAMA31_405B_SERVER = 845.82 / 8
"""MLPerf v5.0 closed, llama3_1-405b Server (TTFT ≤ 6 s, TPOT ≤ 175 ms), 8 × B200, FP4."""
H100_MIXTRAL_SERVER = 50_795.57 / 8
"""MLPerf v4.1 closed, mixtral-8x7b Server (TTFT ≤ 2 s, TPOT ≤ 200 ms), DGX-H100 8 × H100, FP8."""
H200_LLAMA2_70B_SERVER = 29_228.22 / 8
H200_LLAMA2_70B_INTERACTIVE = 19_424.25 / 8
H200_LLAMA31_405B_SERVER = 291.37 / 8


def points(catalog):
    return tuple(catalog.inference_operating_points.values())


def inference(**document) -> InferenceSpec:
    return read_spec(InferenceSpec, document, "inference")


def size(catalog, system: str, **document):
    return size_inference(inference(**document), catalog.systems[system], points(catalog))


def test_a_70b_server_load_on_h100_reads_the_server_point(catalog):
    """40 requests/s of 128 + 256 tokens at TPOT 200 ms, TTFT 2 s on HGX H100, FP8.

    operating point: the server one is met (200 ≥ 200 ms, 2,000 ≥ 2,000 ms): 21,605.79 / 8 = 2,700.72
    throughput: 40 × 256 = 10,240 tokens/s / 2,700.72 = 3.79 GPUs
    in flight: 40 × (2 s + 256 × 0.2 s) = 2,128 sequences; KV 163,840 B × 384 × 2,128 = 133.88 GB
    g = 2: memory ceil(1.1 × 133.88 / (144 − 77)) = 3 replicas → 6; throughput 2 replicas → 4: 6 GPUs
    g = 4: memory ceil(147.27 / (288 − 77)) = 1 → 4; throughput 1 replica → 4: 4 GPUs (the fewest)
    """
    result = size(catalog, "hgx-h100", **LLAMA2_70B, requests_per_s=40, input_tokens=128, output_tokens=256,
                  time_per_output_token_ms=200, time_to_first_token_ms=2000)
    assert result.tokens_per_s_per_gpu == pytest.approx(H100_LLAMA2_70B_SERVER)
    assert result.operating_point == "h100-llama2-70b-server-v4.1"
    assert not (result.operating_point_extrapolated or result.tokens_per_s_per_gpu_estimated or result.warnings)
    assert result.kv_cache_gb == pytest.approx(163_840 * 384 * 2_128 / 1e9)
    assert (result.gpus_per_replica, result.gpus_for_memory, result.gpus_for_throughput) == (4, 4, 4)
    assert (result.binds, result.gpus_needed, result.gpus) == ("both", 4, 8)
    assert any("operating point met: MLPerf Inference v4.1 closed, llama2-70b server" in line for line in result.arithmetic)


def test_a_405b_server_load_on_b200_reads_the_405b_point_not_the_70b_one_scaled(catalog):
    """2 requests/s of 1,000 + 500 tokens at TPOT 175 ms, TTFT 6 s on HGX B200, FP4 weights and KV.

    operating point: llama3_1-405b server (6 s, 175 ms): 845.82 / 8 = 105.73 tokens/s per GPU
    (the old table scaled the 70B figure by 70 / 405: 12,305.4 × 0.173 = 2,126.8, 20 × too many)
    weights 405 × 0.5 B = 202.5 GB; × 1.1 = 222.75 > 180 × 0.9 = 162 → 2 GPUs a replica at least
    throughput: 2 × 500 = 1,000 tokens/s / 105.73 = 9.46 → 5 replicas of 2 = 10 GPUs
    KV per token 2 × 126 × 8 × 128 × 0.5 B = 129,024 B; 2 × (6 + 500 × 0.175) = 187 in flight:
    129,024 × 1,500 × 187 = 36.19 GB; g = 2: ceil(1.1 × 36.19 / (324 − 222.75)) = 1 replica → 2
    throughput binds: 10 GPUs (g = 4: 12, g = 8: 16) → 2 HGX B200 = 16 GPUs
    """
    result = size(catalog, "hgx-b200", **LLAMA31_405B, precision="fp4", requests_per_s=2, input_tokens=1000,
                  output_tokens=500, time_per_output_token_ms=175, time_to_first_token_ms=6000)
    assert result.tokens_per_s_per_gpu == pytest.approx(B200_LLAMA31_405B_SERVER)
    assert result.weights_gb == pytest.approx(202.5)
    assert result.kv_cache_gb == pytest.approx(129_024 * 1_500 * 187 / 1e9)
    assert (result.gpus_per_replica, result.gpus_for_memory, result.gpus_for_throughput) == (2, 2, 10)
    assert (result.binds, result.gpus_needed, result.gpus) == ("throughput", 10, 16)
    assert math.ceil(1_000 / (B200_LLAMA2_70B_SERVER * 70 / 405) / 2) * 2 == 2


def test_an_interactive_load_reads_the_interactive_point(catalog):
    """1,000 users at TPOT 40 ms, TTFT 450 ms on HGX B200, Llama 2 70B FP4.

    operating point: the interactive one is met (40 ≥ 40, 450 ≥ 450 ms); the server one (TTFT 2 s)
    is not: 59,409.25 / 8 = 7,426.16 tokens/s per GPU, 40 % under the server point's 12,305.41
    throughput: 1,000 × 25 tokens/s = 25,000 / 7,426.16 = 3.37 → 4 GPUs (replicas of 1: 35 GB × 1.1 ≤ 162)
    memory: KV 81,920 B × 1,500 × 1,000 = 122.88 GB; ceil(1.1 × 122.88 / (162 − 38.5)) = 2 → 2 GPUs
    """
    result = size(catalog, "hgx-b200", **LLAMA2_70B, precision="fp4", concurrent_users=1000, input_tokens=1000,
                  output_tokens=500, time_per_output_token_ms=40, time_to_first_token_ms=450)
    assert result.tokens_per_s_per_gpu == pytest.approx(B200_LLAMA2_70B_INTERACTIVE)
    assert result.operating_point == "b200-llama2-70b-interactive-v5.0"
    assert (result.gpus_per_replica, result.gpus_for_memory, result.gpus_for_throughput) == (1, 2, 4)
    assert result.gpus_needed == 4
    # Published: interactive gives a third less per GPU than server on H200 too (2,428.0 / 3,653.5)
    assert H200_LLAMA2_70B_INTERACTIVE / H200_LLAMA2_70B_SERVER == pytest.approx(0.665, abs=0.001)


def test_a_target_between_two_points_is_interpolated_on_log_tpot(catalog):
    """TPOT 100 ms, TTFT 2 s on B200: both points' TTFT limits are met, the target lies between
    their TPOT limits (40 and 200 ms):
    t = 7,426.16 + (12,305.41 − 7,426.16) × ln(100 / 40) / ln(200 / 40) = 10,204.0 tokens/s per GPU
    """
    spec = inference(**LLAMA2_70B, precision="fp4", concurrent_users=1000, input_tokens=1000, output_tokens=500,
                     time_per_output_token_ms=100, time_to_first_token_ms=2000)
    throughput = gpu_throughput(spec, catalog.systems["hgx-b200"], points(catalog))
    expected = B200_LLAMA2_70B_INTERACTIVE + (B200_LLAMA2_70B_SERVER - B200_LLAMA2_70B_INTERACTIVE) * (
        math.log(100 / 40) / math.log(200 / 40))
    assert throughput.tokens_per_s_per_gpu == pytest.approx(expected) == pytest.approx(10_204.0, abs=0.1)
    assert throughput.operating_point == (
        "interpolated on log TPOT between b200-llama2-70b-interactive-v5.0 and b200-llama2-70b-server-v5.0")
    assert tokens_per_s_per_gpu_log_tpot(100, 40, B200_LLAMA2_70B_INTERACTIVE, 200, B200_LLAMA2_70B_SERVER) == (
        pytest.approx(expected))
    # With TTFT 450 ms the server point is not met: no interpolation toward it
    tight_first = inference(**{**spec_document(spec), "time_to_first_token_ms": 450})
    assert gpu_throughput(tight_first, catalog.systems["hgx-b200"], points(catalog)).tokens_per_s_per_gpu == (
        pytest.approx(B200_LLAMA2_70B_INTERACTIVE))


def spec_document(spec: InferenceSpec) -> dict:
    return {**LLAMA2_70B, "precision": spec.precision, "concurrent_users": spec.concurrent_users,
            "input_tokens": spec.input_tokens, "output_tokens": spec.output_tokens,
            "time_per_output_token_ms": spec.time_per_output_token_ms}


def test_a_target_tighter_than_every_point_is_an_extrapolation_along_the_roofline(catalog):
    """TPOT 30 ms, TTFT 450 ms on B200 (8 TB/s), Llama 2 70B FP4, one GPU a replica:
    K = 81,920 B × 1,500 = 0.12288 GB a sequence; R(T) = 1,000 × (T × 8 − 35) / K / T
    t = 7,426.16 × R(30) / R(40) = 7,426.16 × 55,582.7 / 58,207.5 = 7,091.3 tokens/s per GPU"""
    spec = inference(**LLAMA2_70B, precision="fp4", concurrent_users=1000, input_tokens=1000, output_tokens=500,
                     time_per_output_token_ms=30, time_to_first_token_ms=450)
    b200 = catalog.systems["hgx-b200"]
    result = size_inference(spec, b200, points(catalog))
    width = result.gpus_per_replica
    roofline = lambda tpot: roofline_tokens_per_s_per_gpu(tpot, 35, 0.12288, width, b200.hbm_tb_per_s)  # noqa: E731
    assert result.tokens_per_s_per_gpu == pytest.approx(B200_LLAMA2_70B_INTERACTIVE * roofline(30) / roofline(40))
    assert result.tokens_per_s_per_gpu < B200_LLAMA2_70B_INTERACTIVE
    assert result.operating_point_extrapolated
    assert result.operating_point == "extrapolated beyond b200-llama2-70b-interactive-v5.0"
    assert any("extrapolation" in warning for warning in result.warnings)
    assert roofline_tokens_per_s_per_gpu(30, 35, 0.12288, 1, 8) == pytest.approx(1000 * (30 * 8 - 35) / 0.12288 / 30)


def test_a_mixture_of_experts_reads_its_own_point(catalog):
    """Mixtral 8x7B FP8 on HGX H100, 30 requests/s of 500 + 500 tokens at TPOT 200 ms, TTFT 2 s.

    operating point: mixtral-8x7b server, 50,795.57 / 8 = 6,349.45 tokens/s per GPU
    throughput: 30 × 500 = 15,000 / 6,349.45 = 2.36 GPUs
    KV per token 2 × 32 × 8 × 128 × 1 B = 65,536 B; 30 × (2 + 100) = 3,060 in flight: 200.54 GB
    g = 1: memory ceil(1.1 × 200.54 / (72 − 51.37)) = 11; g = 2: ceil(220.6 / 92.63) = 3 → 6;
    g = 4: ceil(220.6 / 236.63) = 1 → 4, throughput 1 replica → 4: 4 GPUs, both bind
    """
    result = size(catalog, "hgx-h100", **MIXTRAL_8X7B, requests_per_s=30, input_tokens=500, output_tokens=500,
                  time_per_output_token_ms=200, time_to_first_token_ms=2000)
    assert result.tokens_per_s_per_gpu == pytest.approx(H100_MIXTRAL_SERVER)
    assert result.operating_point == "h100-mixtral-8x7b-server-v4.1"
    assert result.kv_cache_gb == pytest.approx(65_536 * 1_000 * 3_060 / 1e9)
    assert (result.gpus_per_replica, result.gpus_needed, result.binds) == (4, 4, "both")


def test_an_unpublished_mixture_of_experts_is_scaled_from_the_nearest_one_and_says_so(catalog):
    """100B with 20B active on H100: the nearest MoE published there is Mixtral 8x7B (12.9B active):
    6,349.45 × 12.9 / 20 = 4,095.4 tokens/s per GPU, an estimate with no second MoE to check."""
    spec = inference(parameters_billion=100, active_parameters_billion=20, layers=32, kv_heads=8, head_dim=128,
                     requests_per_s=1, input_tokens=500, output_tokens=500, time_per_output_token_ms=200)
    throughput = gpu_throughput(spec, catalog.systems["hgx-h100"], points(catalog))
    assert throughput.tokens_per_s_per_gpu == pytest.approx(H100_MIXTRAL_SERVER * 12.9 / 20)
    assert throughput.estimated
    assert throughput.warnings[0].startswith("the tokens/s per GPU (4,095.4) is an estimate scaled from mixtral-8x7b")
    assert "no second published model of its class" in throughput.warnings[0]


def test_an_unpublished_dense_model_says_how_much_the_nearest_points_disagree(catalog):
    """A dense 140B on H200 at TPOT 200 ms: Llama 2 70B server 3,653.53 × 70 / 140 = 1,826.8; Llama 3.1
    405B server 36.42 × 405 / 140 = 105.4: they disagree by 1,826.8 / 105.4 − 1 = 1,633 %."""
    spec = inference(parameters_billion=140, layers=80, kv_heads=8, head_dim=128, requests_per_s=1,
                     input_tokens=500, output_tokens=500, time_per_output_token_ms=200)
    throughput = gpu_throughput(spec, catalog.systems["hgx-h200"], points(catalog))
    assert throughput.tokens_per_s_per_gpu == pytest.approx(H200_LLAMA2_70B_SERVER * 70 / 140)
    spread = (H200_LLAMA2_70B_SERVER * 70 / 140) / (H200_LLAMA31_405B_SERVER * 405 / 140) - 1
    assert f"the nearest published models disagree by {spread:.0%}" in throughput.warnings[0]
    assert not any("more than 4×" in warning for warning in throughput.warnings)
    # Its context window given (128K) rules Llama 2 70B (4,096) out: only the 405B stands in, 2.9 × apart
    long = inference(parameters_billion=140, layers=80, kv_heads=8, head_dim=128, requests_per_s=1,
                     input_tokens=500, output_tokens=500, time_per_output_token_ms=200, context_window_tokens=131_072)
    throughput = gpu_throughput(long, catalog.systems["hgx-h200"], points(catalog))
    assert throughput.tokens_per_s_per_gpu == pytest.approx(H200_LLAMA31_405B_SERVER * 405 / 140)


def test_scaling_across_more_than_4x_in_active_parameters_warns(catalog):
    """An 8B dense model on H100 from Llama 2 70B: 70 / 8 = 8.75 × apart; 2,700.72 × 8.75 = 23,631.3."""
    spec = inference(parameters_billion=8, layers=32, kv_heads=8, head_dim=128, requests_per_s=1,
                     input_tokens=500, output_tokens=500, time_per_output_token_ms=200)
    throughput = gpu_throughput(spec, catalog.systems["hgx-h100"], points(catalog))
    assert throughput.tokens_per_s_per_gpu == pytest.approx(H100_LLAMA2_70B_SERVER * 70 / 8)
    assert any("scaled across 8.8× in active parameters" in warning and "more than 4×" in warning
               for warning in throughput.warnings)


def test_a_disaggregated_pool_adds_prefill_gpus_from_the_input_tokens(catalog):
    """Llama 2 70B FP8 on HGX H100, 10 requests/s of 2,000 + 200 tokens, TPOT 200 ms, TTFT 2 s.

    decode: 10 × 200 = 2,000 tokens/s / 2,700.72 = 0.74; 10 × (2 + 40) = 420 in flight, KV
    163,840 × 2,200 × 420 = 151.39 GB
    prefill: 10 × 2,000 = 20,000 input tokens/s over 1,978.9 × 10¹² × 0.5 / (2 × 70 × 10⁹) = 7,067.5
    per GPU (an estimate from dense FP8 TFLOPS: MLPerf publishes no prefill figure) = 2.83 GPUs
    g = 2: decode memory ceil(1.1 × 151.39 / 67) = 3 → 6, prefill 2 replicas → 4: 10 GPUs
    g = 4: decode ceil(166.5 / 211) = 1 → 4, prefill 1 replica → 4: 8 GPUs (the fewest) → 1 HGX H100
    """
    document = {**LLAMA2_70B, "requests_per_s": 10, "input_tokens": 2000, "output_tokens": 200,
                "time_per_output_token_ms": 200, "time_to_first_token_ms": 2000, "disaggregated": True}
    result = size(catalog, "hgx-h100", **document)
    per_gpu = 1978.9e12 * PREFILL_EFFICIENCY / (2 * 70e9)
    assert result.prefill_tokens_per_s_per_gpu == pytest.approx(per_gpu) == pytest.approx(7_067.5, abs=0.1)
    assert (result.gpus_per_replica, result.prefill_gpus, result.gpus_needed, result.gpus) == (4, 4, 8, 8)
    assert "estimate" in result.prefill_source
    assert any("prefill GPUs rest on an estimate" in warning for warning in result.warnings)
    assert any("(4 decode + 4 prefill)" in line for line in result.arithmetic)
    # A measured prefill figure: 20,000 / 2,500 = 8 GPUs of prefill; g = 4: 4 + 8 = 12 (g = 2: 6 + 8)
    measured = size(catalog, "hgx-h100", **document, prefill_tokens_per_s_per_gpu=2500)
    assert (measured.prefill_gpus, measured.gpus_needed) == (8, 12)
    assert not any("estimate" in warning for warning in measured.warnings)


def test_several_models_in_one_pool_add_their_gpus(catalog):
    """The 70B server load (4 GPUs) and the Mixtral load (4 GPUs) above in one pool: 8 GPUs, 1 HGX H100."""
    chat = {**LLAMA2_70B, "name": "chat", "requests_per_s": 40, "input_tokens": 128, "output_tokens": 256,
            "time_per_output_token_ms": 200, "time_to_first_token_ms": 2000}
    moe = {**MIXTRAL_8X7B, "name": "moe", "requests_per_s": 30, "input_tokens": 500, "output_tokens": 500,
           "time_per_output_token_ms": 200, "time_to_first_token_ms": 2000}
    result = size(catalog, "hgx-h100", models=[chat, moe])
    assert [model.name for model in result.models] == ["chat", "moe"]
    assert [model.gpus_needed for model in result.models] == [4, 4]
    assert (result.gpus_needed, result.gpus) == (8, 8)
    assert result.required_output_tokens_per_s == pytest.approx(10_240 + 15_000)
    assert result.arithmetic[0] == "model chat:"
    assert result.arithmetic[-1] == "the pool: 4 + 4 GPUs = 8 → 1 × 'hgx-h100' = 8 GPUs"


def errors_of(document) -> dict[str, list[str]]:
    with pytest.raises(ScenarioError) as caught:
        read_spec(InferenceSpec, document, "inference")
    assert not isinstance(caught.value, InfeasibleError)
    return caught.value.as_dict()


MODEL = {**LLAMA2_70B, "requests_per_s": 1, "input_tokens": 100, "output_tokens": 100, "time_per_output_token_ms": 50}


@pytest.mark.parametrize(
    ("document", "path", "message"),
    [
        ({"models": [MODEL, MODEL]}, "inference.models[1].name",
         "the model name 'llama2-70b' is repeated: each of models needs its own"),
        ({"models": [{**MODEL, "requests_per_s": 0}]}, "inference.models[0].requests_per_s",
         "must be a number greater than 0 1/s"),
        ({**MODEL, "requests_per_s": 0}, "inference.requests_per_s", "must be a number greater than 0 1/s"),
        ({**MODEL, "utilisation": 0}, "inference.utilisation", None),
        ({**MODEL, "utilisation": 1.5}, "inference.utilisation", None),
        ({"models": [MODEL], "parameters_billion": 70}, "inference.parameters_billion",
         "leave out when models is given: give it in each of models"),
        ({"models": [{key: value for key, value in MODEL.items() if key != "input_tokens"}]},
         "inference.models[0].input_tokens", "is required"),
        ({**MODEL, "prefill_tokens_per_s_per_gpu": 1000}, "inference.prefill_tokens_per_s_per_gpu",
         "give with disaggregated: true (prefill on GPUs of its own)"),
    ],
)
def test_bad_pool_input_is_a_scenario_error_on_its_path(document, path, message):
    errors = errors_of(document)
    assert path in errors
    if message is not None:
        assert errors[path] == [message]


def test_utilisation_is_within_zero_and_one(catalog):
    assert inference(**MODEL, utilisation=1).utilisation == 1
    assert inference(**MODEL).utilisation == 0.6


@pytest.mark.parametrize(
    ("changes", "path", "reachable"),
    [
        # 70 GB / (8 × 3.35 TB/s) = 2.61 ms: the tightest reachable on HGX H100
        ({"time_per_output_token_ms": 2}, "inference.time_per_output_token_ms",
         "the tightest reachable time per output token on 'hgx-h100' is 2.61 ms"),
        # 2 × 70e9 × 100,000 tokens / (8 × 1,978.9e12 × 0.5) = 1,769 ms
        ({"input_tokens": 100_000, "time_to_first_token_ms": 100}, "inference.time_to_first_token_ms",
         "the tightest reachable time to first token on 'hgx-h100' is 1,769 ms"),
    ],
)
def test_a_target_nothing_meets_is_infeasible_naming_the_tightest_reachable(catalog, changes, path, reachable):
    with pytest.raises(InfeasibleError) as caught:
        size(catalog, "hgx-h100", **{**MODEL, **changes})
    assert list(caught.value.as_dict()) == [path]
    assert reachable in caught.value.as_dict()[path][0]


def test_a_looser_point_is_never_worse_than_a_tighter_one(catalog):
    """On a curve of an interactive and a server point, the figure never grows as a target tightens."""
    curve = [p for p in points(catalog) if p.gpu_model == "B200 SXM 180GB" and p.model == "llama2-70b"
             and p.scenario != "offline"]
    figures = [curve_figure(curve, tpot, 2000, None).tokens_per_s_per_gpu for tpot in (10, 20, 40, 60, 100, 200, 400)]
    assert figures == sorted(figures)
    assert figures[-1] == pytest.approx(B200_LLAMA2_70B_SERVER)


def load_at(point) -> InferenceSpec:
    """A load of exactly the point's tokens/s, at its limits, with a negligible KV cache."""
    document = {"parameters_billion": point.model_parameters_billion, "precision": point.precision,
                "kv_bytes_per_token": 1, "input_tokens": 1, "output_tokens": 1000,
                "requests_per_s": point.tokens_per_s / 1000}
    if point.model_active_parameters_billion != point.model_parameters_billion:
        document["active_parameters_billion"] = point.model_active_parameters_billion
    if point.scenario == "offline":
        document |= {"benchmark_scenario": "offline", "time_per_output_token_ms": 1000}
    else:
        document |= {"time_per_output_token_ms": point.time_per_output_token_limit_ms,
                     "time_to_first_token_ms": point.time_to_first_token_limit_ms}
    return inference(**document)


def test_a_load_at_each_points_throughput_needs_the_points_gpus(catalog):
    """Each published point, newest at its GPU, model and limits: a load of its tokens/s at its
    limits needs its GPUs for throughput, within 5 %."""
    systems = {}
    for system in catalog.systems.values():
        systems.setdefault(system.gpu_model, system)
    checked = 0
    for point in points(catalog):
        same = [p for p in points(catalog) if (p.gpu_model, p.model, p.scenario) == (point.gpu_model, point.model, point.scenario)]
        if point not in newest_points(same):
            continue
        result = size_inference(load_at(point), systems[point.gpu_model], points(catalog))
        assert result.gpus_for_throughput == pytest.approx(point.gpus, rel=0.05), point.id
        checked += 1
    assert checked >= 25
