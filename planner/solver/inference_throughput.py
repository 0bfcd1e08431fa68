"""Output tokens per second one GPU serves: a published MLPerf Inference figure scaled to the
model, or, where none is published for the GPU, an estimate from its dense TFLOPS.

Scaling a published figure to another model (an approximation, said so in the plan):

    tokens/s per GPU = published per GPU × (N_ref / N) × (b_ref / b)

with N the active parameters and b the bytes per weight. Decoding reads every active weight
once per step, so at equal batch and precision the step time grows with N (throughput ∝ 1/N),
and with the bytes read at another precision. Where the catalog has no figure for the GPU:

    tokens/s per GPU = dense TFLOPS × 10¹² × efficiency / (2 × N)

2 FLOPs per active parameter per generated token (a multiply and an add per weight: Kaplan et
al. 2020, section 2.1, https://arxiv.org/abs/2001.08361), at DERIVED_EFFICIENCY of the peak.
"""

import math
from dataclasses import dataclass
from typing import Literal

from planner.solver.errors import ScenarioError
from planner.solver.inference_spec import BYTES_PER_PARAMETER, InferencePrecision, InferenceSpec
from planner.solver.parts import Confidence, SystemSpec
from planner.solver.schema import spec_field

INFERENCE_FLOPS_PER_PARAMETER_TOKEN = 2
"""One multiply-add per active weight per generated token; Kaplan et al. 2020, section 2.1."""
DERIVED_EFFICIENCY = 0.2
"""Share of dense peak FLOPS that turns into output tokens. Analysis from the H100 row of the
catalog: MLPerf v4.1 closed, Llama 2 70B offline, 24,524.9 tokens/s on 8 H100 = 3,065.6 per GPU
= 3,065.6 × 2 × 70 × 10⁹ = 429 TFLOPS of 1,978.9 dense FP8, 0.217 (the prefill of the input
tokens is in that share); rounded down."""
PARAMETERS_PER_BILLION = 1e9
FLOPS_PER_TFLOPS = 1e12

_DENSE_TFLOPS_FIELD = {
    "fp16": "dense_bf16_tflops_per_gpu",
    "bf16": "dense_bf16_tflops_per_gpu",
    "fp8": "dense_fp8_tflops_per_gpu",
    # No catalog field for FP4: FP8 is the conservative figure (Blackwell doubles it at FP4).
    "fp4": "dense_fp8_tflops_per_gpu",
}


@dataclass(frozen=True)
class InferenceThroughputSpec:
    """One published result: a system's output tokens per second on a benchmark model."""

    id: str = spec_field(min_length=1, max_length=80)
    gpu_model: str = spec_field(min_length=1, help="As the systems catalog names the GPU (gpu_model).")
    benchmark: str = spec_field(min_length=1, help="MLPerf benchmark, e.g. llama2-70b-99.")
    model_active_parameters_billion: float = spec_field(unit="billion", minimum=0, exclusive_minimum=True, maximum=1e6)
    precision: InferencePrecision = spec_field(help="Precision of the weights as submitted.")
    mlperf_round: str = spec_field(min_length=1, max_length=20)
    division: Literal["closed", "open"] = spec_field()
    scenario: Literal["server", "offline"] = spec_field()
    submitter_system: str = spec_field(min_length=1)
    gpus: int = spec_field(minimum=1, maximum=100_000, help="GPUs in the submitted system.")
    tokens_per_s: float = spec_field(unit="tokens/s", minimum=0, exclusive_minimum=True, maximum=1e9)
    source_url: str = spec_field(min_length=1, max_length=500)
    source_date: str = spec_field("", max_length=20, help="Date MLCommons published the round (YYYY-MM-DD).")
    confidence: Confidence = spec_field("datasheet")

    @property
    def name(self) -> str:
        return f"MLPerf Inference {self.mlperf_round} {self.benchmark} {self.scenario}: {self.submitter_system}"

    @property
    def tokens_per_s_per_gpu(self) -> float:
        return self.tokens_per_s / self.gpus


@dataclass(frozen=True)
class GpuThroughput:
    tokens_per_s_per_gpu: float
    source: str
    """Where the figure comes from: the scenario, a catalog row (with its URL), or an estimate."""
    arithmetic: tuple[str, ...]


def tokens_per_s_per_gpu_scaled(
    published_per_gpu: float, reference_active_billion: float, active_billion: float,
    reference_bytes_per_parameter: float, bytes_per_parameter: float,
) -> float:
    """A published per-GPU figure [tokens/s] scaled to another model: × (N_ref / N) × (b_ref / b)."""
    return published_per_gpu * (reference_active_billion / active_billion) * (reference_bytes_per_parameter / bytes_per_parameter)


def tokens_per_s_per_gpu_from_tflops(dense_tflops: float, active_billion: float, efficiency: float = DERIVED_EFFICIENCY) -> float:
    """Output tokens per second [tokens/s] one GPU computes: TFLOPS × 10¹² × efficiency / (2 × N)."""
    flops_per_token = INFERENCE_FLOPS_PER_PARAMETER_TOKEN * active_billion * PARAMETERS_PER_BILLION
    return dense_tflops * FLOPS_PER_TFLOPS * efficiency / flops_per_token


def closest_row(
    rows: tuple[InferenceThroughputSpec, ...], gpu_model: str, active_billion: float, precision: str, scenario: str,
) -> InferenceThroughputSpec | None:
    """The row for this GPU nearest the model: the nearest size first (the ratio of active
    parameters, to one decimal of its logarithm: a 405B result beats a 70B one for a 400B model
    whatever its scenario), then the asked scenario, then the same precision."""
    candidates = [row for row in rows if row.gpu_model == gpu_model]
    if not candidates:
        return None
    return min(candidates, key=lambda row: (
        round(abs(math.log(row.model_active_parameters_billion / active_billion)), 1),
        row.scenario != scenario,
        row.precision != precision,
    ))


def gpu_throughput(
    spec: InferenceSpec, system: SystemSpec, rows: tuple[InferenceThroughputSpec, ...], path: str = "inference",
) -> GpuThroughput:
    """Output tokens per second per GPU for the spec's model on the system, with its source."""
    active = spec.active_billion
    if spec.tokens_per_s_per_gpu is not None:
        return GpuThroughput(spec.tokens_per_s_per_gpu, "scenario (inference.tokens_per_s_per_gpu)", (
            f"tokens/s per GPU = {spec.tokens_per_s_per_gpu:,g} (given by the scenario)",
        ))
    row = closest_row(rows, system.gpu_model, active, spec.precision, spec.benchmark_scenario)
    if row is not None:
        return _from_row(spec, row)
    field = _DENSE_TFLOPS_FIELD[spec.precision]
    tflops, used = getattr(system, field), field
    if not tflops and system.dense_bf16_tflops_per_gpu:
        # A GPU without FP8 tensor cores (A100, A800) computes FP8 weights at its 16-bit rate.
        tflops, used = system.dense_bf16_tflops_per_gpu, "dense_bf16_tflops_per_gpu"
    if not tflops:
        raise ScenarioError.at(
            f"{path}.tokens_per_s_per_gpu",
            f"the catalog has no published inference throughput for the GPU of '{system.slug}' "
            f"({system.gpu_model or 'unnamed'}) and no dense TFLOPS to estimate one from; give tokens_per_s_per_gpu",
        )
    value = tokens_per_s_per_gpu_from_tflops(tflops, active)
    return GpuThroughput(value, f"estimate from {used} × {DERIVED_EFFICIENCY:g} efficiency", (
        f"no published MLPerf figure for {system.gpu_model or system.slug}: estimate from dense TFLOPS",
        (f"tokens/s per GPU = {tflops:,g} TFLOPS × 10¹² × {DERIVED_EFFICIENCY:g} efficiency"
         f" / (2 × {active:,g} × 10⁹ FLOP per token) = {value:,.1f} (an estimate)"),
    ))


def _from_row(spec: InferenceSpec, row: InferenceThroughputSpec) -> GpuThroughput:
    active = spec.active_billion
    reference_bytes = BYTES_PER_PARAMETER[row.precision]
    bytes_per_parameter = BYTES_PER_PARAMETER[spec.precision]
    value = tokens_per_s_per_gpu_scaled(
        row.tokens_per_s_per_gpu, row.model_active_parameters_billion, active, reference_bytes, bytes_per_parameter,
    )
    lines = [
        (f"published: MLPerf Inference {row.mlperf_round} {row.division}, {row.benchmark} {row.scenario},"
         f" {row.submitter_system}: {row.tokens_per_s:,g} tokens/s / {row.gpus} GPUs"
         f" = {row.tokens_per_s_per_gpu:,.1f} tokens/s per GPU ({row.source_url})"),
    ]
    if row.scenario != spec.benchmark_scenario:
        lines.append(f"no {spec.benchmark_scenario} result for this GPU: the {row.scenario} result stands in")
    if row.model_active_parameters_billion != active or reference_bytes != bytes_per_parameter:
        lines.append(
            f"scaled to the model: × ({row.model_active_parameters_billion:,g} / {active:,g} billion active parameters)"
            f" × ({reference_bytes:g} / {bytes_per_parameter:g} bytes per parameter) = {value:,.1f} tokens/s per GPU"
            " (an approximation: throughput taken as inversely proportional to the bytes of active weights read per token)"
        )
    return GpuThroughput(value, f"{row.id} ({row.source_url})", tuple(lines))
