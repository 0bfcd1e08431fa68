"""Output tokens per second one GPU serves for a model at a pool's latency targets: read off the
published operating points of its GPU (operating_points.py), scaled from the nearest published
model of its class when its own model has none, or estimated from dense TFLOPS when its GPU has
no published point for that class.

Scaling a published figure to another model (an estimate, said so in the plan):

    tokens/s per GPU = published per GPU × (N_ref / N) × (b_ref / b)

with N the active parameters and b the bytes per weight: decoding reads every active weight
once per step, so at equal batch the step time grows with the bytes of active weights read.
Only from a model of the same class (dense, or mixture of experts) whose context window is
within CONTEXT_RATIO_MAX (when the pool gives its own); across more than ACTIVE_RATIO_WARN in
active parameters the plan warns. Where no published model of the class ran on the GPU:

    tokens/s per GPU = dense TFLOPS × 10¹² × efficiency / (2 × N)

2 FLOPs per active parameter per generated token (a multiply and an add per weight: Kaplan et
al. 2020, section 2.1, https://arxiv.org/abs/2001.08361), at DERIVED_EFFICIENCY of the peak.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass

from catalog.solver.operating_points import CurveFigure, InferenceOperatingPointSpec, curve_figure
from catalog.solver.parts import SystemSpec
from core.solver.errors import ScenarioError
from planner.solver.inference_spec import BYTES_PER_PARAMETER, InferenceModelSpec

INFERENCE_FLOPS_PER_PARAMETER_TOKEN = 2
"""One multiply-add per active weight per generated token; Kaplan et al. 2020, section 2.1."""
DERIVED_EFFICIENCY = 0.2
"""Share of dense peak FLOPS that turns into output tokens. Analysis from the H100 offline point
of the catalog: MLPerf v4.1 closed, Llama 2 70B offline, 24,524.9 tokens/s on 8 H100 = 3,065.6
per GPU = 3,065.6 × 2 × 70 × 10⁹ = 429 TFLOPS of 1,978.9 dense FP8, 0.217 (the prefill of the
input tokens is in that share); rounded down."""
PARAMETERS_PER_BILLION = 1e9
FLOPS_PER_TFLOPS = 1e12
CONTEXT_RATIO_MAX = 2.0
"""A published model stands in for another only when their context windows are within 2× (the
KV cache per sequence, and with it the batch, follows the context)."""
ACTIVE_RATIO_WARN = 4.0
"""Scaling across more than 4× in active parameters changes the parallelism and batch a
submitter chose (a 405B model is not a 70B one run slower): the plan warns."""
SAME_MODEL_TOLERANCE = 0.01
"""Parameters within 1 % name the same model (46.7 B for Mixtral 8x7B)."""

_DENSE_TFLOPS_FIELD = {
    "fp16": "dense_bf16_tflops_per_gpu",
    "bf16": "dense_bf16_tflops_per_gpu",
    "fp8": "dense_fp8_tflops_per_gpu",
    # No catalog field for FP4: FP8 is the conservative figure (Blackwell doubles it at FP4).
    "fp4": "dense_fp8_tflops_per_gpu",
}


@dataclass(frozen=True)
class GpuThroughput:
    tokens_per_s_per_gpu: float
    source: str
    """Where the figure comes from: the scenario, the operating points (with their URLs), or an estimate."""
    arithmetic: tuple[str, ...]
    warnings: tuple[str, ...] = ()
    operating_point: str = ""
    """The point used, in a sentence (or the two interpolated between)."""
    extrapolated: bool = False
    estimated: bool = False


@dataclass(frozen=True)
class PublishedModel:
    """A model the points of one GPU cover."""

    name: str
    model_class: str
    parameters_billion: float
    active_billion: float
    context_tokens: int
    points: tuple[InferenceOperatingPointSpec, ...]


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


def model_class(spec: InferenceModelSpec) -> str:
    """moe when fewer parameters are active than held, else dense."""
    return "moe" if spec.active_billion < spec.parameters_billion else "dense"


def published_models(points: tuple[InferenceOperatingPointSpec, ...], gpu_model: str) -> list[PublishedModel]:
    """The published models the GPU's points cover."""
    by_model: dict[str, list[InferenceOperatingPointSpec]] = {}
    for point in points:
        if point.gpu_model == gpu_model:
            by_model.setdefault(point.model, []).append(point)
    return [
        PublishedModel(name, group[0].model_class, group[0].model_parameters_billion,
                       group[0].model_active_parameters_billion, group[0].model_context_tokens, tuple(group))
        for name, group in sorted(by_model.items())
    ]


def same_model(spec: InferenceModelSpec, model: PublishedModel) -> bool:
    return (math.isclose(spec.parameters_billion, model.parameters_billion, rel_tol=SAME_MODEL_TOLERANCE)
            and math.isclose(spec.active_billion, model.active_billion, rel_tol=SAME_MODEL_TOLERANCE)
            and _context_fits(spec, model))


def _context_fits(spec: InferenceModelSpec, model: PublishedModel) -> bool:
    if spec.context_window_tokens is None:
        return True
    ratio = spec.context_window_tokens / model.context_tokens
    return 1 / CONTEXT_RATIO_MAX <= ratio <= CONTEXT_RATIO_MAX


def nearest_models(spec: InferenceModelSpec, models: list[PublishedModel]) -> list[PublishedModel]:
    """Published models of the spec's class whose context fits, nearest in active parameters first."""
    kind = model_class(spec)
    candidates = [model for model in models if model.model_class == kind and _context_fits(spec, model)]
    return sorted(candidates, key=lambda model: abs(math.log(model.active_billion / spec.active_billion)))


def gpu_throughput(
    spec: InferenceModelSpec, system: SystemSpec, points: tuple[InferenceOperatingPointSpec, ...],
    path: str = "inference", roofline: Callable[[float], float] | None = None,
) -> GpuThroughput:
    """Output tokens per second per GPU for the spec's model on the system at its targets, with its source."""
    if spec.tokens_per_s_per_gpu is not None:
        return GpuThroughput(spec.tokens_per_s_per_gpu, "scenario (inference.tokens_per_s_per_gpu)", (
            f"tokens/s per GPU = {spec.tokens_per_s_per_gpu:,g} (given by the scenario)",
        ))
    models = published_models(points, system.gpu_model)
    own = next((model for model in models if same_model(spec, model)), None)
    if own is not None:
        return _published(spec, own, roofline)
    nearest = nearest_models(spec, models)
    if nearest:
        return _scaled(spec, nearest, roofline)
    return _from_tflops(spec, system, path)


def _figure(spec: InferenceModelSpec, model: PublishedModel, roofline, scale: float = 1.0) -> CurveFigure:
    """The model's figure at the spec's targets: its offline point for a batch load, else its
    batching curve (server and interactive points, or only the scenario asked)."""
    scenario = spec.benchmark_scenario
    if scenario == "offline":
        offline = [p for p in model.points if p.scenario == "offline"]
        if offline:
            point = max(offline, key=lambda p: (p.round_order, p.tokens_per_s_per_gpu))
            value = point.tokens_per_s_per_gpu * scale
            return CurveFigure(value, (point,), False, (
                f"a batch load (benchmark_scenario: offline), latency targets not served: {point.sentence}",))
    bound = [p for p in model.points if p.scenario != "offline" and (scenario in (None, "offline") or p.scenario == scenario)]
    if not bound:
        bound = [p for p in model.points if p.scenario != "offline"]
    if not bound:
        point = max(model.points, key=lambda p: (p.round_order, p.tokens_per_s_per_gpu))
        return CurveFigure(point.tokens_per_s_per_gpu * scale, (point,), True, (
            f"only an offline point is published, standing in for a latency-bound load (optimistic): {point.sentence}",))
    return curve_figure(bound, spec.target_time_per_output_token_ms, spec.time_to_first_token_ms, roofline, scale)


def _precision_scale(spec: InferenceModelSpec, model: PublishedModel) -> float:
    return BYTES_PER_PARAMETER[model.points[0].precision] / BYTES_PER_PARAMETER[spec.precision]


def _published(spec: InferenceModelSpec, model: PublishedModel, roofline) -> GpuThroughput:
    scale = _precision_scale(spec, model)
    figure = _figure(spec, model, roofline, scale)
    lines = list(figure.arithmetic)
    warnings = []
    if scale != 1.0:
        lines.append(f"scaled to {spec.precision.upper()} weights: × {scale:g} ({model.points[0].precision.upper()}"
                     " published; an approximation: throughput taken as inversely proportional to the bytes read)")
        warnings.append(f"the tokens/s per GPU of {model.name} is scaled from its published {model.points[0].precision.upper()}"
                        f" points to {spec.precision.upper()} (× {scale:g}): an estimate")
    if figure.extrapolated:
        warnings.append(f"the latency targets are tighter than every published point of {model.name} on this GPU:"
                        f" {figure.tokens_per_s_per_gpu:,.1f} tokens/s per GPU is an extrapolation")
    return GpuThroughput(
        figure.tokens_per_s_per_gpu, _source(figure), tuple(lines), tuple(warnings),
        _point_sentence(figure), figure.extrapolated, scale != 1.0,
    )


def _scaled(spec: InferenceModelSpec, nearest: list[PublishedModel], roofline) -> GpuThroughput:
    """An estimate from the nearest published model of the class; the second nearest, if any,
    says how much the published points disagree."""
    figures = []
    for model in nearest[:2]:
        scale = (model.active_billion / spec.active_billion) * _precision_scale(spec, model)
        figures.append((model, scale, _figure(spec, model, None if model is not nearest[0] else roofline, scale)))
    model, scale, figure = figures[0]
    ratio = max(model.active_billion, spec.active_billion) / min(model.active_billion, spec.active_billion)
    lines = [f"no published point for this model ({spec.parameters_billion:,g} B, {spec.active_billion:,g} B active,"
             f" {model_class(spec)}) on this GPU: scaled from the nearest of its class, {model.name}", *figure.arithmetic,
             (f"scaled to the model: × ({model.active_billion:,g} / {spec.active_billion:,g} billion active parameters)"
              f" × ({BYTES_PER_PARAMETER[model.points[0].precision]:g} / {BYTES_PER_PARAMETER[spec.precision]:g} bytes"
              f" per parameter) = × {scale:.4g} (an estimate)")]
    if len(figures) > 1:
        other = figures[1]
        spread = abs(figure.tokens_per_s_per_gpu / other[2].tokens_per_s_per_gpu - 1)
        agreement = (f"the nearest published models disagree by {spread:.0%}: {model.name} gives"
                     f" {figure.tokens_per_s_per_gpu:,.1f}, {other[0].name} {other[2].tokens_per_s_per_gpu:,.1f} tokens/s per GPU")
    else:
        agreement = "no second published model of its class on this GPU to check it against"
    lines.append(agreement)
    warnings = [f"the tokens/s per GPU ({figure.tokens_per_s_per_gpu:,.1f}) is an estimate scaled from {model.name}; {agreement}"]
    if ratio > ACTIVE_RATIO_WARN:
        warnings.append(f"the estimate is scaled across {ratio:,.1f}× in active parameters ({model.active_billion:,g} B"
                        f" → {spec.active_billion:,g} B), more than {ACTIVE_RATIO_WARN:g}×: parallelism and batch differ"
                        " at that distance; give tokens_per_s_per_gpu from a measurement")
    if figure.extrapolated:
        warnings.append("the latency targets are tighter than every published point of the model it is scaled from:"
                        " an extrapolation")
    return GpuThroughput(
        figure.tokens_per_s_per_gpu, f"estimate scaled from {_source(figure)}", tuple(lines), tuple(warnings),
        _point_sentence(figure), figure.extrapolated, True,
    )


def _from_tflops(spec: InferenceModelSpec, system: SystemSpec, path: str) -> GpuThroughput:
    active = spec.active_billion
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
    kind = model_class(spec)
    return GpuThroughput(value, f"estimate from {used} × {DERIVED_EFFICIENCY:g} efficiency", (
        f"no published MLPerf point of a {kind} model on {system.gpu_model or system.slug}: estimate from dense TFLOPS",
        (f"tokens/s per GPU = {tflops:,g} TFLOPS × 10¹² × {DERIVED_EFFICIENCY:g} efficiency"
         f" / (2 × {active:,g} × 10⁹ FLOP per token) = {value:,.1f} (an estimate)"),
    ), (f"no published MLPerf point of a {kind} model on {system.gpu_model or system.slug}: the tokens/s per GPU"
        f" ({value:,.1f}) is an estimate from dense TFLOPS, whatever the latency targets",), "", False, True)


def _source(figure: CurveFigure) -> str:
    return "; ".join(f"{point.id} ({point.source_url})" for point in figure.points)


def _point_sentence(figure: CurveFigure) -> str:
    ids = " and ".join(point.id for point in figure.points)
    if figure.extrapolated:
        return f"extrapolated beyond {ids}"
    if len(figure.points) == 2:
        return f"interpolated on log TPOT between {ids}"
    return ids
