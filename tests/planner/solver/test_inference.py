"""Inference sizing: hand calculations written out, the published MLPerf figures it rests on,
which count binds, and the targets no design meets."""

import pytest

from core.solver.errors import InfeasibleError, ScenarioError
from core.solver.schema import read_spec
from planner.solver.inference import (
    kv_cache_bytes_per_token,
    size_inference,
    tensor_parallel_widths,
    time_per_output_token_floor_ms,
)
from planner.solver.inference_spec import InferenceSpec
from planner.solver.inference_throughput import DERIVED_EFFICIENCY, gpu_throughput

MLPERF_V41_H100_LLAMA2_70B_SERVER_TOKENS_PER_S = 21_605.79
"""MLPerf Inference v4.1, closed, datacenter, llama2-70b-99.9 Server, NVIDIA DGX-H100
(8 × H100-SXM-80GB, TensorRT, FP8): "Completed tokens per second: 21605.79",
https://github.com/mlcommons/inference_results_v4.1/blob/main/closed/NVIDIA/results/DGX-H100_H100-SXM-80GBx8_TRT/llama2-70b-99.9/Server/performance/run_1/mlperf_log_summary.txt"""
MLPERF_V41_H100_LLAMA2_70B_OFFLINE_TOKENS_PER_S = 24_524.9
"""The same system, Offline: "Tokens per second: 24524.9" (.../llama2-70b-99.9/Offline/...)."""
LLAMA2_70B_FP8 = {
    # Llama 2 70B (Touvron et al. 2023): 80 layers, 8 KV heads (grouped-query attention), head dim 128.
    "parameters_billion": 70, "precision": "fp8", "layers": 80, "kv_heads": 8, "head_dim": 128,
    "input_tokens": 1000, "output_tokens": 1000, "concurrent_users": 1000,
}


def spec(**changes) -> InferenceSpec:
    """The Llama 2 70B service, at 20 tokens/s per user unless the changes give the pace."""
    pace = {} if "time_per_output_token_ms" in changes else {"tokens_per_s_per_user": 20}
    return read_spec(InferenceSpec, {**LLAMA2_70B_FP8, **pace, **changes}, "inference")


def rows(catalog):
    return tuple(catalog.inference_operating_points.values())


def errors_of(document) -> dict[str, list[str]]:
    with pytest.raises(ScenarioError) as caught:
        read_spec(InferenceSpec, document, "inference")
    return caught.value.as_dict()


def test_llama2_70b_fp8_on_hgx_h100_throughput_binds(catalog):
    h100 = catalog.systems["hgx-h100"]
    result = size_inference(spec(tokens_per_s_per_user=50), h100, rows(catalog))
    # weights: 70 × 10⁹ parameters × 1 B (FP8) = 70 GB
    assert result.weights_gb == pytest.approx(70)
    # KV cache per token: 2 (K and V) × 80 layers × 8 KV heads × 128 dim × 1 B = 163,840 B
    assert result.kv_cache_bytes_per_token == 2 * 80 * 8 * 128 * 1 == 163_840
    # 1,000 users × (1,000 + 1,000) tokens × 163,840 B = 327.68 GB
    assert result.concurrent_sequences == 1000
    assert result.kv_cache_gb == pytest.approx(327.68)
    # usable 80 GB × 0.9 = 72 GB; 1.1 × 70 GB = 77 GB > 72 → at least 2 GPUs per replica (144 GB)
    assert result.usable_memory_gb_per_gpu == pytest.approx(72)
    # 1,000 users × 50 tokens/s = 50,000 tokens/s at 20 ms a token, tighter than H100's only published
    # point (server, TPOT ≤ 200 ms: 21,605.79 / 8 = 2,700.72 tokens/s per GPU): the point scaled down
    # along the roofline of the replica, R_g(T) = 1,000 × (T × g × 3.35 − 70) / K / (T × g), with
    # K = 163,840 B × 2,000 = 0.32768 GB a sequence. Each width, memory | throughput → GPUs:
    #   g = 2: ceil(1.1 × 327.68 / (144 − 77)) = 6 → 12 | 2,700.72 × 4,882.8 / 9,689.3 = 1,361.0 → 36.7 → 38
    #   g = 4: ceil(360.448 / (288 − 77)) = 2 → 8       | 2,700.72 × 7,553.1 / 9,956.1 = 2,048.9 → 24.4 → 28
    #   g = 8: ceil(360.448 / (576 − 77)) = 1 → 8       | 2,700.72 × 8,888.2 / 10,089.9 = 2,379.1 → 21.0 → 24
    # The fewest GPUs in all: 8-GPU replicas, 24 GPUs (3 replicas), throughput binds.
    assert result.gpus_per_replica == 8
    assert result.gpus_for_memory == 8
    assert result.required_output_tokens_per_s == pytest.approx(50_000)
    assert result.tokens_per_s_per_gpu == pytest.approx(
        MLPERF_V41_H100_LLAMA2_70B_SERVER_TOKENS_PER_S / 8 * roofline(20, 8) / roofline(200, 8))
    assert result.tokens_per_s_per_gpu == pytest.approx(2_379.1, abs=0.1)
    assert result.operating_point_extrapolated
    assert (result.binds, result.gpus_for_throughput, result.replicas, result.gpus) == ("throughput", 24, 3, 24)
    # time per output token ≥ 70 GB / (8 × 3.35 TB/s) = 2.61 ms ≤ 20 ms (1,000 / 50 tokens/s)
    assert result.time_per_output_token_floor_ms == pytest.approx(70 / (8 * 3.35))
    assert result.time_per_output_token_target_ms == pytest.approx(20)
    assert "h100-llama2-70b-server-v4.1" in result.tokens_per_s_per_gpu_source
    assert any("MLPerf Inference v4.1 closed" in line for line in result.arithmetic)
    assert any(line.startswith("a replica of 8 GPUs needs fewer GPUs in all than one of 2 (24 against 38)")
               for line in result.arithmetic)
    assert any(line.startswith("throughput binds: 24 GPUs") for line in result.arithmetic)
    assert any("extrapolation" in warning for warning in result.warnings)


def roofline(tpot_ms: float, width: int, kv_gb_per_sequence: float = 0.32768) -> float:
    """Llama 2 70B FP8 on H100 (3.35 TB/s): 1,000 × (T × g × 3.35 − 70 GB) / K / (T × g) tokens/s per GPU."""
    return 1000 * (tpot_ms * width * 3.35 - 70) / kv_gb_per_sequence / (tpot_ms * width)


def test_the_same_service_at_a_slower_pace_is_memory_bound(catalog):
    result = size_inference(spec(tokens_per_s_per_user=10), catalog.systems["hgx-h100"], rows(catalog))
    # 100 ms a token: g = 2: memory 12, throughput 10,000 / (2,700.72 × 9,155.3 / 9,689.3 = 2,551.9) → 4;
    # g = 4: memory 8, throughput 10,000 / (2,700.72 × 9,689.3 / 9,956.1 = 2,628.4) = 3.8 → 4 → 8 in all;
    # g = 8 also 8 in all: the narrower, 4, is kept. Memory binds.
    assert result.gpus_per_replica == 4
    assert result.tokens_per_s_per_gpu == pytest.approx(
        MLPERF_V41_H100_LLAMA2_70B_SERVER_TOKENS_PER_S / 8 * roofline(100, 4) / roofline(200, 4))
    assert (result.gpus_for_throughput, result.gpus_for_memory) == (4, 8)
    assert (result.binds, result.gpus_needed, result.gpus) == ("memory", 8, 8)


def test_a_request_rate_holds_its_sequences_by_littles_law(catalog):
    result = size_inference(
        spec(concurrent_users=None, requests_per_s=10, time_per_output_token_ms=40, time_to_first_token_ms=1000),
        catalog.systems["hgx-h100"], rows(catalog),
    )
    # 10 requests/s × (1 s + 1,000 tokens × 0.04 s) = 410 sequences; 10 × 1,000 = 10,000 tokens/s
    assert result.concurrent_sequences == 410
    assert result.required_output_tokens_per_s == pytest.approx(10_000)
    assert result.time_to_first_token_floor_ms is not None
    assert result.time_to_first_token_floor_ms <= 1000


def test_the_offline_figure_is_the_published_one(catalog):
    offline = gpu_throughput(spec(benchmark_scenario="offline"), catalog.systems["dgx-h100"], rows(catalog))
    # 24,524.9 tokens/s / 8 GPUs = 3,065.61 tokens/s per GPU
    assert offline.tokens_per_s_per_gpu == pytest.approx(MLPERF_V41_H100_LLAMA2_70B_OFFLINE_TOKENS_PER_S / 8)


def test_another_model_scales_by_its_active_parameters_and_bytes(catalog):
    h100 = catalog.systems["hgx-h100"]
    # A dense 140B model at FP16, at the server point's 200 ms: from the nearest dense model,
    # Llama 2 70B: 2,700.72 × (70 / 140) × (1 B / 2 B) = 675.18 tokens/s per GPU
    scaled = gpu_throughput(spec(parameters_billion=140, precision="fp16", time_per_output_token_ms=200), h100, rows(catalog))
    assert scaled.tokens_per_s_per_gpu == pytest.approx(MLPERF_V41_H100_LLAMA2_70B_SERVER_TOKENS_PER_S / 8 / 4)
    assert scaled.estimated and any("an estimate" in line for line in scaled.arithmetic)
    # A mixture of experts is scaled from the nearest mixture of experts, Mixtral 8x7B (12.9B
    # active; v4.1 H100 server 50,795.57 / 8 = 6,349.45): × 12.9 / 35 = 2,340.2 tokens/s per GPU
    moe = gpu_throughput(spec(parameters_billion=140, active_parameters_billion=35, time_per_output_token_ms=200),
                         h100, rows(catalog))
    assert moe.tokens_per_s_per_gpu == pytest.approx(50_795.57 / 8 * 12.9 / 35)
    assert "h100-mixtral-8x7b-server-v4.1" in moe.source


def test_a_405b_model_on_b200_reads_the_405b_server_point(catalog):
    b200 = catalog.systems["hgx-b200"]
    throughput = gpu_throughput(spec(parameters_billion=405, precision="fp4", time_per_output_token_ms=175),
                                b200, rows(catalog))
    # MLPerf v5.0 llama3_1-405b Server on 8 B200 (TPOT ≤ 175 ms): 845.82 / 8 = 105.73 tokens/s per GPU,
    # not the 70B point scaled by 70 / 405 (98,443.30 / 8 × 70 / 405 = 2,126.8: 20 × as many)
    assert throughput.tokens_per_s_per_gpu == pytest.approx(845.82 / 8)
    assert not throughput.estimated


def test_a_gpu_without_a_published_figure_is_estimated_from_its_tflops(catalog):
    a100 = catalog.systems["hgx-a100"]
    throughput = gpu_throughput(spec(), a100, rows(catalog))
    # No FP8 on A100: 312 dense BF16 TFLOPS × 10¹² × 0.2 / (2 × 70 × 10⁹) = 445.7 tokens/s
    assert throughput.tokens_per_s_per_gpu == pytest.approx(312e12 * DERIVED_EFFICIENCY / (2 * 70e9))
    assert "estimate" in throughput.source
    assert any("(an estimate)" in line for line in throughput.arithmetic)


def test_the_scenario_figure_replaces_the_catalog(catalog):
    throughput = gpu_throughput(spec(tokens_per_s_per_gpu=1234), catalog.systems["hgx-h100"], rows(catalog))
    assert throughput.tokens_per_s_per_gpu == 1234
    assert throughput.source.startswith("scenario")


def test_kv_bytes_per_token_may_be_given_instead_of_the_shape(catalog):
    shaped = size_inference(spec(tokens_per_s_per_user=20), catalog.systems["hgx-h100"], rows(catalog))
    given = size_inference(
        spec(layers=None, kv_heads=None, head_dim=None, kv_bytes_per_token=163_840, tokens_per_s_per_user=20),
        catalog.systems["hgx-h100"], rows(catalog),
    )
    assert given.kv_cache_gb == shaped.kv_cache_gb
    # FP16 KV cache doubles it: 2 × 80 × 8 × 128 × 2 B
    assert kv_cache_bytes_per_token(80, 8, 128, 2) == 327_680


def test_tensor_parallel_widths_are_powers_of_two_within_the_domain():
    assert tensor_parallel_widths(8) == [1, 2, 4, 8]
    assert tensor_parallel_widths(72) == [1, 2, 4, 8, 16, 32, 64]


def test_a_tight_pace_widens_the_replica(catalog):
    h100 = catalog.systems["hgx-h100"]
    # 8 ms: 70 / (2 × 3.35) = 10.4 ms too slow, 70 / (4 × 3.35) = 5.2 ms meets it: 4 GPUs at least.
    # 125,000 tokens/s: g = 4 gives 2,700.72 × 3,547.6 / 9,956.1 = 962.3 per GPU → 132 GPUs;
    # g = 8 gives 2,700.72 × 6,885.6 / 10,089.9 = 1,843.0 → 67.8 → 72 GPUs: 8 GPUs a replica
    result = size_inference(spec(time_per_output_token_ms=8), h100, rows(catalog))
    assert result.gpus_per_replica == 8
    assert result.gpus_for_throughput == 72
    assert result.time_per_output_token_floor_ms == pytest.approx(time_per_output_token_floor_ms(70, 8, 3.35))
    assert any("a replica of 8 GPUs needs fewer GPUs in all than one of 4" in line for line in result.arithmetic)


@pytest.mark.parametrize(
    ("changes", "path"),
    [
        # 70 GB / (8 × 3.35 TB/s) = 2.61 ms > 2 ms even over the whole NVLink domain
        ({"time_per_output_token_ms": 2}, "inference.time_per_output_token_ms"),
        ({"tokens_per_s_per_user": 500}, "inference.tokens_per_s_per_user"),
        # 2,000B at FP16 = 4,000 GB × 1.1 > 8 × 72 GB
        ({"parameters_billion": 2000, "precision": "fp16", "tokens_per_s_per_user": 1}, "inference.parameters_billion"),
        # 2 × 70e9 × 1e6 tokens / (8 × 1,978.9e12 × 0.5) = 17.7 s > 100 ms
        ({"input_tokens": 1_000_000, "time_to_first_token_ms": 100, "tokens_per_s_per_user": 1},
         "inference.time_to_first_token_ms"),
    ],
)
def test_targets_no_design_meets_name_their_field(catalog, changes, path):
    with pytest.raises(InfeasibleError) as caught:
        size_inference(spec(**changes), catalog.systems["hgx-h100"], rows(catalog))
    assert list(caught.value.as_dict()) == [path]
    assert caught.value.as_dict()[path][0].startswith("no design")


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"requests_per_s": 5, "tokens_per_s_per_user": 10},
         {"inference.requests_per_s": ["give either requests_per_s or concurrent_users (exactly one load)"]}),
        ({"concurrent_users": None, "tokens_per_s_per_user": 10},
         {"inference.requests_per_s": ["give either requests_per_s or concurrent_users (exactly one load)"]}),
        ({}, {"inference.time_per_output_token_ms": [
            ("give time_per_output_token_ms or tokens_per_s_per_user: the pace of each sequence sets the "
             "throughput of concurrent users and the sequences in flight of a request rate")]}),
        ({"tokens_per_s_per_user": 10, "time_per_output_token_ms": 100},
         {"inference.tokens_per_s_per_user": ["give either tokens_per_s_per_user or time_per_output_token_ms, not both"]}),
        ({"tokens_per_s_per_user": 10, "head_dim": None},
         {"inference.head_dim": ["give layers, kv_heads and head_dim (or kv_bytes_per_token) to size the KV cache"]}),
        ({"tokens_per_s_per_user": 10, "kv_bytes_per_token": 1000},
         {"inference.layers": ["leave out when kv_bytes_per_token is given: one of the two sizes the KV cache"]}),
        ({"tokens_per_s_per_user": 10, "active_parameters_billion": 80},
         {"inference.active_parameters_billion": ["must not exceed parameters_billion"]}),
        ({"tokens_per_s_per_user": 10, "precision": "int3"},
         {"inference.precision": ["must be one of: fp16, bf16, fp8, fp4"]}),
    ],
)
def test_bad_inference_input_names_its_field(changes, expected):
    assert errors_of({**LLAMA2_70B_FP8, **changes}) == expected
