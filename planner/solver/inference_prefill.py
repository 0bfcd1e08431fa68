"""Disaggregated prefill: the GPUs that process the prompts apart from those that decode.

    prefill GPUs = input tokens/s / prefill tokens/s per GPU, in whole replicas of g

with the input tokens per second of the load (requests/s × input tokens; for concurrent users
the requests they complete: users / (output tokens × time per output token)) and the prefill
figure per GPU: the scenario's (a measurement) or, since MLPerf publishes none, from dense
TFLOPS (an estimate, said so):

    prefill tokens/s per GPU = dense TFLOPS × 10¹² × PREFILL_EFFICIENCY / (2 × N)

2 FLOPs per active parameter per token (Kaplan et al. 2020, section 2.1,
https://arxiv.org/abs/2001.08361). The decode GPUs are sized as without disaggregation.
Splitwise (Patel et al., ISCA 2024, https://arxiv.org/abs/2311.18677) and DistServe (Zhong et
al., OSDI 2024, https://arxiv.org/abs/2401.09670) describe the split.
"""

import math
from dataclasses import dataclass

from planner.solver.inference_spec import InferenceModelSpec

PREFILL_EFFICIENCY = 0.5
"""Share of dense peak FLOPS the prefill (large matrix products over the whole context) reaches:
an estimate, twice the decode share of inference_throughput.DERIVED_EFFICIENCY."""
PREFILL_FLOPS_PER_PARAMETER_TOKEN = 2
PARAMETERS_PER_BILLION = 1e9
FLOPS_PER_TFLOPS = 1e12
MS_PER_S = 1000.0


@dataclass(frozen=True)
class PrefillResult:
    input_tokens_per_s: float
    prefill_tokens_per_s_per_gpu: float
    source: str
    """scenario, or an estimate from dense TFLOPS."""
    gpus: int
    """Whole replicas."""
    arithmetic: tuple[str, ...]


def input_tokens_per_s(spec: InferenceModelSpec) -> float:
    """Input tokens per second of the load: requests/s × input tokens, or for concurrent users the
    requests they complete, users / (output tokens × time per output token [s]), × input tokens."""
    if spec.requests_per_s is not None:
        return spec.requests_per_s * spec.input_tokens
    requests_per_s = spec.concurrent_users / (spec.output_tokens * spec.target_time_per_output_token_ms / MS_PER_S)
    return requests_per_s * spec.input_tokens


def prefill_tokens_per_s_per_gpu_from_tflops(dense_tflops: float, active_billion: float,
                                             efficiency: float = PREFILL_EFFICIENCY) -> float:
    """Input tokens per second [tokens/s] one GPU prefills: TFLOPS × 10¹² × efficiency / (2 × N)."""
    return dense_tflops * FLOPS_PER_TFLOPS * efficiency / (
        PREFILL_FLOPS_PER_PARAMETER_TOKEN * active_billion * PARAMETERS_PER_BILLION)


def size_prefill(
    spec: InferenceModelSpec, dense_tflops: float | None, gpus_per_replica: int, given_per_gpu: float | None,
) -> PrefillResult | None:
    """Prefill GPUs of a disaggregated pool; None when neither a figure nor TFLOPS is known."""
    needed = input_tokens_per_s(spec)
    if given_per_gpu is not None:
        per_gpu, source = given_per_gpu, "scenario (inference.prefill_tokens_per_s_per_gpu)"
        figure_line = f"prefill tokens/s per GPU = {per_gpu:,g} (given by the scenario)"
    elif dense_tflops:
        per_gpu = prefill_tokens_per_s_per_gpu_from_tflops(dense_tflops, spec.active_billion)
        source = f"estimate from dense TFLOPS × {PREFILL_EFFICIENCY:g} efficiency (no published prefill figure)"
        figure_line = (f"prefill tokens/s per GPU = {dense_tflops:,g} TFLOPS × 10¹² × {PREFILL_EFFICIENCY:g}"
                       f" / (2 × {spec.active_billion:,g} × 10⁹) = {per_gpu:,.1f} (an estimate: no published prefill figure)")
    else:
        return None
    gpus = math.ceil(needed / per_gpu / gpus_per_replica - 1e-9) * gpus_per_replica
    load_line = (f"input tokens/s = {spec.requests_per_s:,g} requests/s × {spec.input_tokens:,} tokens = {needed:,.1f}"
                 if spec.requests_per_s is not None else
                 f"input tokens/s = {spec.concurrent_users:,} users / ({spec.output_tokens:,} tokens ×"
                 f" {spec.target_time_per_output_token_ms:,g} ms) × {spec.input_tokens:,} tokens = {needed:,.1f}")
    return PrefillResult(needed, per_gpu, source, gpus, (
        load_line, figure_line,
        f"prefill GPUs = {needed:,.1f} / {per_gpu:,.1f} = {needed / per_gpu:,.2f} → {gpus:,} (whole replicas of {gpus_per_replica})",
    ))
