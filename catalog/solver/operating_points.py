"""Published inference operating points, and the tokens/s per GPU a pool's latency targets allow.

An operating point is one MLPerf Inference result: a system's output tokens per second on a
model under a scenario's latency limits (time to first token and time per output token at the
99th percentile; none for offline). The pool's targets pick from the points of its GPU and model:

- a point is met when the pool's targets are no tighter than its limits (TPOT ≥ the point's
  TPOT limit, TTFT ≥ its TTFT limit; a pool without a TTFT target meets every TTFT limit);
- the loosest point met sets the figure; a target between two met-TTFT points of the batching
  curve (sorted by TPOT limit) is interpolated on log TPOT,

      t(T) = t_lo + (t_hi − t_lo) × ln(T / T_lo) / ln(T_hi / T_lo),

  since a serving engine trades batch (throughput) for pace, roughly exponentially in the batch;
- a target tighter than every met point is an extrapolation: the tightest point scaled down
  along the HBM roofline (`roofline_tokens_per_s_per_gpu`) to the target pace.

A looser point is never worse than a tighter one (a system that serves t tokens/s under 40 ms
serves them under 200 ms too), so each point counts as the best of those at its limits or
tighter: the figure never grows as a target tightens.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from catalog.solver.parts import Confidence
from core.solver.schema import spec_field

InferencePrecision = Literal["fp16", "bf16", "fp8", "fp4"]
ModelClass = Literal["dense", "moe"]
OperatingScenario = Literal["offline", "server", "interactive"]
MS_PER_S = 1000.0


@dataclass(frozen=True, kw_only=True)
class InferenceOperatingPointSpec:
    """One published result: a system's output tokens per second on a model under a scenario's limits."""

    id: str = spec_field(min_length=1, max_length=80)
    gpu_model: str = spec_field(min_length=1, help="As the systems catalog names the GPU (gpu_model).")
    model: str = spec_field(min_length=1, max_length=80, help="The published model, e.g. llama2-70b.")
    model_class: ModelClass = spec_field(help="dense, or moe (a mixture of experts).")
    model_parameters_billion: float = spec_field(unit="billion", minimum=0, exclusive_minimum=True, maximum=1e6)
    model_active_parameters_billion: float = spec_field(unit="billion", minimum=0, exclusive_minimum=True, maximum=1e6)
    model_context_tokens: int = spec_field(minimum=1, maximum=100_000_000, help="The model's context window.")
    benchmark: str = spec_field(min_length=1, help="MLPerf benchmark, e.g. llama2-70b-99.")
    scenario: OperatingScenario = spec_field()
    precision: InferencePrecision = spec_field(help="Precision of the weights as submitted.")
    mlperf_round: str = spec_field(min_length=1, max_length=20)
    division: Literal["closed", "open"] = spec_field()
    submitter_system: str = spec_field(min_length=1)
    gpus: int = spec_field(minimum=1, maximum=100_000, help="GPUs in the submitted system.")
    tokens_per_s: float = spec_field(unit="tokens/s", minimum=0, exclusive_minimum=True, maximum=1e9)
    time_to_first_token_limit_ms: float | None = spec_field(
        None, unit="ms", minimum=0, exclusive_minimum=True, maximum=1e7, help="99th percentile; none offline.")
    time_per_output_token_limit_ms: float | None = spec_field(
        None, unit="ms", minimum=0, exclusive_minimum=True, maximum=1e6, help="99th percentile; none offline.")
    source_url: str = spec_field(min_length=1, max_length=500)
    source_date: str = spec_field("", max_length=20, help="Date MLCommons published the round (YYYY-MM-DD).")
    confidence: Confidence = spec_field("datasheet")

    def problems(self):
        if self.model_active_parameters_billion > self.model_parameters_billion:
            yield "model_active_parameters_billion", "must not exceed model_parameters_billion"
        limits = (self.time_to_first_token_limit_ms, self.time_per_output_token_limit_ms)
        if (self.scenario == "offline") != (limits == (None, None)):
            yield "scenario", "an offline point has no latency limits; a server or interactive point has both"

    @property
    def tokens_per_s_per_gpu(self) -> float:
        return self.tokens_per_s / self.gpus

    @property
    def round_order(self) -> tuple[int, ...]:
        return tuple(int(part) for part in self.mlperf_round.lstrip("v").split(".") if part.isdigit())

    @property
    def limits(self) -> str:
        if self.time_per_output_token_limit_ms is None:
            return "no latency limits"
        return (f"TTFT ≤ {self.time_to_first_token_limit_ms:,g} ms, TPOT ≤ {self.time_per_output_token_limit_ms:,g} ms"
                " at the 99th percentile")

    @property
    def sentence(self) -> str:
        return (f"MLPerf Inference {self.mlperf_round} {self.division}, {self.model} {self.scenario} ({self.limits}),"
                f" {self.submitter_system}, {self.precision.upper()}: {self.tokens_per_s:,g} tokens/s / {self.gpus} GPUs"
                f" = {self.tokens_per_s_per_gpu:,.1f} tokens/s per GPU ({self.source_url})")


@dataclass(frozen=True)
class CurveFigure:
    """Tokens/s per GPU read off a batching curve, with the points used and the arithmetic."""

    tokens_per_s_per_gpu: float
    points: tuple[InferenceOperatingPointSpec, ...]
    """The point used, or the two interpolated between, or the cap of an extrapolation."""
    extrapolated: bool
    arithmetic: tuple[str, ...]


def newest_points(points: list[InferenceOperatingPointSpec]) -> list[InferenceOperatingPointSpec]:
    """One point per latency limits: the newest round's (today's software), then the fastest."""
    best: dict[tuple, InferenceOperatingPointSpec] = {}
    for point in points:
        key = (point.time_per_output_token_limit_ms, point.time_to_first_token_limit_ms)
        held = best.get(key)
        if held is None or (point.round_order, point.tokens_per_s_per_gpu) > (held.round_order, held.tokens_per_s_per_gpu):
            best[key] = point
    return list(best.values())


def tokens_per_s_per_gpu_log_tpot(
    tpot_ms: float, low_tpot_ms: float, low_tokens_per_s: float, high_tpot_ms: float, high_tokens_per_s: float,
) -> float:
    """Tokens/s per GPU at `tpot_ms` between two points of a batching curve, linear in ln TPOT:
    t = t_lo + (t_hi − t_lo) × ln(T / T_lo) / ln(T_hi / T_lo)."""
    share = math.log(tpot_ms / low_tpot_ms) / math.log(high_tpot_ms / low_tpot_ms)
    return low_tokens_per_s + (high_tokens_per_s - low_tokens_per_s) * share


def roofline_tokens_per_s_per_gpu(
    tpot_ms: float, active_weights_gb: float, kv_cache_gb_per_sequence: float, gpus_per_replica: int,
    hbm_tb_per_s: float,
) -> float:
    """Most output tokens/s one GPU decodes at a time per output token [ms] (memory-bandwidth roofline).

    A decode step of a batch of B sequences reads the active weights W once and each sequence's
    KV cache K; at g GPUs of bandwidth BW it takes (W + B·K) / (g·BW) (GB / (TB/s) = ms). The
    largest batch that meets T is B = (T·g·BW − W) / K (at least one sequence: the width was
    chosen so that W / (g·BW) ≤ T), and the replica emits B tokens every T:

        tokens/s per GPU = 1,000 · B / (T · g)

    Williams, Waterman, Patterson, "Roofline", CACM 52(4), 2009, https://doi.org/10.1145/1498765.1498785.
    An upper bound: compute, communication and scheduling are left out.
    """
    batch = max(1.0, (tpot_ms * gpus_per_replica * hbm_tb_per_s - active_weights_gb) / kv_cache_gb_per_sequence)
    return MS_PER_S * batch / (tpot_ms * gpus_per_replica)


def curve_figure(
    points: list[InferenceOperatingPointSpec], tpot_target_ms: float, ttft_target_ms: float | None,
    roofline: Callable[[float], float] | None, scale: float = 1.0,
) -> CurveFigure:
    """Tokens/s per GPU × `scale` at the targets on the batching curve of `points` (latency-bound
    points of one GPU and model, at least one), as the module docstring says."""
    curve = sorted(newest_points(points), key=lambda p: (p.time_per_output_token_limit_ms, p.time_to_first_token_limit_ms))
    met_first = [ttft_target_ms is None or p.time_to_first_token_limit_ms <= ttft_target_ms for p in curve]
    envelope: list[float] = []
    for point, met in zip(curve, met_first):
        own = point.tokens_per_s_per_gpu * scale if met else 0.0
        envelope.append(max([own, *envelope[-1:]]))
    index = max((i for i, p in enumerate(curve) if met_first[i] and p.time_per_output_token_limit_ms <= tpot_target_ms),
                default=None)
    if index is None:
        return _extrapolated(curve, met_first, tpot_target_ms, roofline, scale)
    point, value = curve[index], envelope[index]
    lines = [f"operating point met: {point.sentence}"]
    if value > point.tokens_per_s_per_gpu * scale:
        lines.append(f"a tighter point gives more: {value:,.1f} tokens/s per GPU (a looser point is never worse)")
    upper = index + 1
    if (upper < len(curve) and met_first[upper] and tpot_target_ms > point.time_per_output_token_limit_ms
            and curve[upper].time_per_output_token_limit_ms > tpot_target_ms):
        high = curve[upper]
        low_tpot, high_tpot = point.time_per_output_token_limit_ms, high.time_per_output_token_limit_ms
        interpolated = tokens_per_s_per_gpu_log_tpot(tpot_target_ms, low_tpot, value, high_tpot, envelope[upper])
        lines.append(f"next looser point: {high.sentence}")
        lines.append(
            f"interpolated on log TPOT: {value:,.1f} + ({envelope[upper]:,.1f} − {value:,.1f}) × ln({tpot_target_ms:,g}"
            f" / {low_tpot:,g}) / ln({high_tpot:,g} / {low_tpot:,g}) = {interpolated:,.1f} tokens/s per GPU"
        )
        return CurveFigure(interpolated, (point, high), False, tuple(lines))
    lines.append(f"tokens/s per GPU = {value:,.1f} (the loosest point the targets meet)")
    return CurveFigure(value, (point,), False, tuple(lines))


def _extrapolated(curve, met_first, tpot_target_ms, roofline, scale) -> CurveFigure:
    """Targets tighter than every point: the tightest point whose TTFT is met, scaled down along
    the roofline to the target pace, t = t_p × min(1, R(T) / R(T_p)) (R: roofline_tokens_per_s_per_gpu;
    T / T_p without a bandwidth figure). When no point's TTFT is met, the least of that over every point."""
    met = [point for point, ok in zip(curve, met_first) if ok]
    candidates = met[:1] or curve
    figures = [(_along_roofline(point, tpot_target_ms, roofline, scale), point) for point in candidates]
    (value, line), point = min(figures, key=lambda figure: figure[0][0])
    lines = [f"no published point meets the targets; the tightest{'' if met else ' (none meets the TTFT target)'}:"
             f" {point.sentence}", line]
    return CurveFigure(value, (point,), True, tuple(lines))


def _along_roofline(point, tpot_target_ms, roofline, scale) -> tuple[float, str]:
    """The point's tokens/s per GPU at a tighter pace: × min(1, R(T) / R(T_p))."""
    published = point.tokens_per_s_per_gpu * scale
    limit = point.time_per_output_token_limit_ms
    if roofline is not None:
        at_target, at_limit = roofline(tpot_target_ms), roofline(limit)
        share = min(1.0, at_target / at_limit)
        return published * share, (
            f"extrapolation along the HBM roofline: {published:,.1f} × min(1, {at_target:,.1f} / {at_limit:,.1f}"
            f" roofline tokens/s per GPU at {tpot_target_ms:,g} / {limit:,g} ms) = {published * share:,.1f} tokens/s"
            " per GPU (an extrapolation beyond the published points)")
    share = min(1.0, tpot_target_ms / limit)
    return published * share, (
        f"extrapolation without a memory bandwidth figure: {published:,.1f} × min(1, {tpot_target_ms:,g} / {limit:,g} ms)"
        f" = {published * share:,.1f} tokens/s per GPU (an extrapolation)")
