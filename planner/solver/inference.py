"""Inference sizing: from a model, its load and its latency targets to the GPUs that serve it.

A replica of the model is tensor-parallel over `g` GPUs of one NVLink domain (a power of two,
at most the system's GPUs). The GPUs are the larger of two counts, each in whole replicas:

    memory      (1 + o)(r · W + K) ≤ r · g · f · M     (r replicas hold the weights and the KV cache)
    throughput  G = T / t                             (required output tokens/s over tokens/s per GPU)

with W the weights (parameters × bytes per parameter), K the KV cache of the sequences in flight
(2 · layers · KV heads · head dimension · bytes, per token, × tokens per sequence × sequences),
o the runtime overhead share, f the usable share of the GPU memory M, T the output tokens per
second the load needs and t the catalog's tokens per second per GPU (inference_throughput.py).

Latency bounds the replica's width. Decoding one token reads the active weights once, so

    time per output token ≥ active weights / (g · HBM bandwidth)

(the memory-bandwidth roofline; Williams, Waterman, Patterson, "Roofline", CACM 52(4), 2009,
https://doi.org/10.1145/1498765.1498785; KV-cache reads are left out, so it is a lower bound),
and the prefill of the context takes 2 · N · input tokens of compute (Kaplan et al. 2020),

    time to first token ≥ 2 · N · input tokens / (g · dense TFLOPS · 10¹² · PREFILL_EFFICIENCY).

Of the widths that hold the weights and meet both floors, the one that needs the fewest GPUs in
all is chosen (the narrowest of equals): wider replicas replicate the weights less and meet a
tight pace with a larger batch, so tighter targets, which only remove widths, never need fewer.
The tokens/s per GPU t is the published operating point the pool's TTFT and TPOT targets meet
(operating_points.py). Several models in one pool (`models:`) are each sized so and the pool's
GPUs are their sum; a disaggregated pool adds prefill GPUs (inference_prefill.py).
"""

import math
from dataclasses import dataclass

from catalog.solver.operating_points import (
    InferenceOperatingPointSpec,
    roofline_tokens_per_s_per_gpu,
)
from catalog.solver.parts import SystemSpec
from core.solver.errors import InfeasibleError, ScenarioError
from planner.solver.inference_prefill import PREFILL_EFFICIENCY, PrefillResult, size_prefill
from planner.solver.inference_spec import (
    BYTES_PER_PARAMETER,
    UTILISATION_DEFAULT,
    InferenceModelSpec,
    InferenceSpec,
)
from planner.solver.inference_throughput import (
    INFERENCE_FLOPS_PER_PARAMETER_TOKEN,
    GpuThroughput,
    gpu_throughput,
)

BYTES_PER_GB = 1e9
PARAMETERS_PER_BILLION = 1e9
FLOPS_PER_TFLOPS = 1e12
MS_PER_S = 1000.0
KV_TENSORS = 2
"""A key and a value vector per layer, KV head and token."""

_PREFILL_TFLOPS_FIELD = {
    "fp16": "dense_bf16_tflops_per_gpu", "bf16": "dense_bf16_tflops_per_gpu",
    "fp8": "dense_fp8_tflops_per_gpu", "fp4": "dense_fp8_tflops_per_gpu",
}


@dataclass(frozen=True)
class InferenceResult:
    weights_gb: float
    """Parameters × bytes per parameter [GB]."""
    kv_cache_bytes_per_token: float
    """2 × layers × KV heads × head dimension × bytes (or as given) [B]."""
    concurrent_sequences: int
    """Users, or requests/s × (time to first token + output tokens × time per output token)."""
    kv_cache_gb: float
    """KV cache of every sequence in flight, at input + output tokens each [GB]."""
    usable_memory_gb_per_gpu: float
    gpus_per_replica: int
    """Tensor-parallel width: a power of two within the NVLink domain."""
    required_output_tokens_per_s: float
    tokens_per_s_per_gpu: float
    tokens_per_s_per_gpu_source: str
    gpus_for_memory: int
    gpus_for_throughput: int
    binds: str
    """memory, throughput, or both (per model, for several)."""
    replicas: int
    gpus_needed: int
    """max(gpus_for_memory, gpus_for_throughput) in whole replicas, plus the prefill GPUs."""
    gpus: int
    """The GPUs of the whole systems that hold them."""
    time_per_output_token_floor_ms: float | None
    """Active weights per GPU of a replica / HBM bandwidth; None without a bandwidth figure."""
    time_per_output_token_target_ms: float
    time_to_first_token_floor_ms: float | None
    time_to_first_token_target_ms: float | None
    arithmetic: tuple[str, ...]
    """The calculation, line by line, as the plan shows it."""
    name: str = ""
    operating_point: str = ""
    """The published operating point used (or interpolated between, or extrapolated beyond)."""
    operating_point_extrapolated: bool = False
    tokens_per_s_per_gpu_estimated: bool = False
    """Scaled from another published model or precision, or from dense TFLOPS."""
    prefill_gpus: int = 0
    """Disaggregated: the GPUs that only prefill (in gpus_needed)."""
    prefill_tokens_per_s_per_gpu: float | None = None
    prefill_source: str = ""
    output_tokens_per_s_capacity: float = 0.0
    """Decode GPUs needed × tokens/s per GPU: the output tokens/s the pool serves at full use."""
    utilisation: float = UTILISATION_DEFAULT
    usd_per_million_output_tokens: float | None = None
    """The pool's share of the TCO over the output tokens it serves in the TCO's years at
    `utilisation` (set once the plan has its cost: token_cost.py)."""
    warnings: tuple[str, ...] = ()
    models: tuple["InferenceResult", ...] = ()
    """Each model of `models:`, sized alone (this result is their sum)."""


def weights_gb(parameters_billion: float, bytes_per_parameter: float) -> float:
    """Memory of the weights [GB]: parameters × bytes per parameter."""
    return parameters_billion * PARAMETERS_PER_BILLION * bytes_per_parameter / BYTES_PER_GB


def kv_cache_bytes_per_token(layers: int, kv_heads: int, head_dim: int, bytes_per_element: float) -> float:
    """KV cache of one token [B]: 2 (K and V) × layers × KV heads × head dimension × bytes."""
    return KV_TENSORS * layers * kv_heads * head_dim * bytes_per_element


def kv_cache_gb(bytes_per_token: float, tokens_per_sequence: int, sequences: int) -> float:
    """KV cache of `sequences` sequences of `tokens_per_sequence` tokens [GB]."""
    return bytes_per_token * tokens_per_sequence * sequences / BYTES_PER_GB


def concurrent_sequences(spec: InferenceModelSpec) -> int:
    """Sequences in flight: the users, or by Little's law requests/s × time each request stays
    (time to first token, 0 when not given, plus output tokens × time per output token)."""
    if spec.concurrent_users is not None:
        return spec.concurrent_users
    stay_s = ((spec.time_to_first_token_ms or 0.0)
              + spec.output_tokens * spec.target_time_per_output_token_ms) / MS_PER_S
    return max(1, math.ceil(spec.requests_per_s * stay_s - 1e-9))


def required_output_tokens_per_s(spec: InferenceModelSpec) -> float:
    """Output tokens per second the load needs: requests/s × output tokens, or users × tokens/s per user."""
    if spec.requests_per_s is not None:
        return spec.requests_per_s * spec.output_tokens
    return spec.concurrent_users * MS_PER_S / spec.target_time_per_output_token_ms


def time_per_output_token_floor_ms(active_weights_gb: float, gpus_per_replica: int, hbm_tb_per_s: float) -> float:
    """Least time per output token [ms]: active weights per GPU [GB] / HBM bandwidth [TB/s] (GB / (TB/s) = ms)."""
    return active_weights_gb / gpus_per_replica / hbm_tb_per_s


def time_to_first_token_floor_ms(
    input_tokens: int, active_billion: float, gpus_per_replica: int, dense_tflops: float,
    efficiency: float = PREFILL_EFFICIENCY,
) -> float:
    """Least prefill time [ms]: 2 × N × input tokens / (g × TFLOPS × 10¹² × efficiency)."""
    flops = INFERENCE_FLOPS_PER_PARAMETER_TOKEN * active_billion * PARAMETERS_PER_BILLION * input_tokens
    return flops / (gpus_per_replica * dense_tflops * FLOPS_PER_TFLOPS * efficiency) * MS_PER_S


def replicas_for_memory(weights: float, kv: float, overhead: float, replica_memory_gb: float) -> int:
    """Fewest replicas r with (1 + o)(r · W + K) ≤ r · replica memory (the free memory is > 0)."""
    free_gb = replica_memory_gb - (1 + overhead) * weights
    return max(1, math.ceil((1 + overhead) * kv / free_gb - 1e-9))


def tensor_parallel_widths(nvlink_domain_gpus: int) -> list[int]:
    """Powers of two up to the NVLink domain (the system's GPUs): 1, 2, 4, 8 for an 8-GPU system."""
    return [2**power for power in range(int(math.log2(nvlink_domain_gpus)) + 1)]


def size_inference(
    spec: InferenceSpec, system: SystemSpec, points: tuple[InferenceOperatingPointSpec, ...] = (),
    path: str = "inference",
) -> InferenceResult:
    """The GPUs that serve the spec's load (each of its models) on `system`, the binding count and the arithmetic."""
    if not system.gpu_memory_gb:
        raise ScenarioError.at("compute.system", f"the system '{system.slug}' gives no gpu_memory_gb: inference needs it")
    disaggregated, prefill_figure, utilisation = spec.disaggregated, spec.prefill_tokens_per_s_per_gpu, spec.utilisation
    if not spec.models:
        return _size_model(spec, system, points, path, disaggregated, prefill_figure, utilisation)
    results = tuple(
        _size_model(model, system, points, f"{path}.models[{index}]", disaggregated, prefill_figure, utilisation)
        for index, model in enumerate(spec.models)
    )
    return combined_result(results, system, utilisation)


@dataclass(frozen=True)
class _Sizing:
    """One model's GPUs at one tensor-parallel width."""

    width: int
    throughput: GpuThroughput
    replicas_memory: int
    gpus_throughput: int
    prefill: PrefillResult | None

    @property
    def gpus(self) -> int:
        return max(self.replicas_memory * self.width, self.gpus_throughput) + (self.prefill.gpus if self.prefill else 0)


def combined_result(results: tuple[InferenceResult, ...], system: SystemSpec, utilisation: float) -> InferenceResult:
    """Several models in one pool: memory the sum of each model's replicas, throughput each
    model's; the GPUs are the sum of each model's, in whole systems."""
    needed = sum(result.gpus_needed for result in results)
    systems = math.ceil(needed / system.gpus)
    capacity = sum(result.output_tokens_per_s_capacity for result in results)
    decode_gpus = needed - sum(result.prefill_gpus for result in results)
    lines = []
    for result in results:
        lines.append(f"model {result.name}:")
        lines.extend(f"  {line}" for line in result.arithmetic)
    lines.append(f"the pool: {' + '.join(f'{r.gpus_needed:,}' for r in results)} GPUs = {needed:,}"
                 f" → {systems:,} × '{system.slug}' = {systems * system.gpus:,} GPUs")
    tpot_floors = [r.time_per_output_token_floor_ms for r in results if r.time_per_output_token_floor_ms is not None]
    ttft_floors = [r.time_to_first_token_floor_ms for r in results if r.time_to_first_token_floor_ms is not None]
    ttft_targets = [r.time_to_first_token_target_ms for r in results if r.time_to_first_token_target_ms is not None]
    return InferenceResult(
        weights_gb=sum(r.weights_gb for r in results),
        kv_cache_bytes_per_token=max(r.kv_cache_bytes_per_token for r in results),
        concurrent_sequences=sum(r.concurrent_sequences for r in results),
        kv_cache_gb=sum(r.kv_cache_gb for r in results),
        usable_memory_gb_per_gpu=results[0].usable_memory_gb_per_gpu,
        gpus_per_replica=max(r.gpus_per_replica for r in results),
        required_output_tokens_per_s=sum(r.required_output_tokens_per_s for r in results),
        tokens_per_s_per_gpu=capacity / decode_gpus if decode_gpus else 0.0,
        tokens_per_s_per_gpu_source="; ".join(f"{r.name}: {r.tokens_per_s_per_gpu_source}" for r in results),
        gpus_for_memory=sum(r.gpus_for_memory for r in results),
        gpus_for_throughput=sum(r.gpus_for_throughput for r in results),
        binds=", ".join(f"{r.name}: {r.binds}" for r in results),
        replicas=sum(r.replicas for r in results),
        gpus_needed=needed,
        gpus=systems * system.gpus,
        time_per_output_token_floor_ms=max(tpot_floors) if tpot_floors else None,
        time_per_output_token_target_ms=min(r.time_per_output_token_target_ms for r in results),
        time_to_first_token_floor_ms=max(ttft_floors) if ttft_floors else None,
        time_to_first_token_target_ms=min(ttft_targets) if ttft_targets else None,
        arithmetic=tuple(lines),
        operating_point="; ".join(f"{r.name}: {r.operating_point}" for r in results),
        operating_point_extrapolated=any(r.operating_point_extrapolated for r in results),
        tokens_per_s_per_gpu_estimated=any(r.tokens_per_s_per_gpu_estimated for r in results),
        prefill_gpus=sum(r.prefill_gpus for r in results),
        output_tokens_per_s_capacity=capacity,
        utilisation=utilisation,
        warnings=tuple(f"{r.name}: {warning}" for r in results for warning in r.warnings),
        models=results,
    )


def _size_model(
    spec: InferenceModelSpec, system: SystemSpec, points: tuple[InferenceOperatingPointSpec, ...], path: str,
    disaggregated: bool, prefill_figure: float | None, utilisation: float,
) -> InferenceResult:
    """One model's GPUs: memory, throughput at its operating point, and prefill when disaggregated."""
    bytes_per_parameter = BYTES_PER_PARAMETER[spec.precision]
    kv_bytes = BYTES_PER_PARAMETER[spec.kv_cache_precision or spec.precision]
    weights = weights_gb(spec.parameters_billion, bytes_per_parameter)
    active_weights = weights_gb(spec.active_billion, bytes_per_parameter)
    per_token = spec.kv_bytes_per_token or kv_cache_bytes_per_token(spec.layers, spec.kv_heads, spec.head_dim, kv_bytes)
    sequences = concurrent_sequences(spec)
    tokens_per_sequence = spec.input_tokens + spec.output_tokens
    kv = kv_cache_gb(per_token, tokens_per_sequence, sequences)
    usable = system.gpu_memory_gb * spec.usable_memory_fraction
    overhead = spec.memory_overhead_fraction
    lines = [(f"weights = {spec.parameters_billion:,g} billion parameters × {bytes_per_parameter:g} B"
              f" ({spec.precision.upper()}) = {weights:,.4g} GB")]
    if spec.kv_bytes_per_token is None:
        lines.append(f"KV cache per token = 2 (K and V) × {spec.layers} layers × {spec.kv_heads} KV heads"
                     f" × {spec.head_dim} dim × {kv_bytes:g} B = {per_token:,.0f} B")
    else:
        lines.append(f"KV cache per token = {per_token:,g} B (given)")
    if spec.concurrent_users is not None:
        lines.append(f"sequences in flight = {sequences:,} concurrent users")
    else:
        lines.append(
            f"sequences in flight = {spec.requests_per_s:,g} requests/s × ({spec.time_to_first_token_ms or 0:,g} ms"
            f" + {spec.output_tokens:,} tokens × {spec.target_time_per_output_token_ms:,g} ms) = {sequences:,} (Little's law)"
        )
    lines.append(f"KV cache = {per_token:,.0f} B × ({spec.input_tokens:,} + {spec.output_tokens:,}) tokens"
                 f" × {sequences:,} sequences = {kv:,.4g} GB")
    lines.append(f"usable memory per GPU = {system.gpu_memory_gb:,g} GB × {spec.usable_memory_fraction:g} = {usable:,.4g} GB;"
                 f" runtime overhead {overhead:g} of weights and KV cache (estimate)")

    widths = tensor_parallel_widths(system.gpus)
    fitting = [width for width in widths if width * usable > (1 + overhead) * weights]
    if not fitting:
        raise InfeasibleError.at(
            f"{path}.parameters_billion",
            f"no design: the weights ({weights:,.4g} GB, {1 + overhead:g} × with overhead) do not fit in the"
            f" {widths[-1] * usable:,.4g} GB usable on {widths[-1]} GPUs, the widest tensor-parallel replica within"
            f" the NVLink domain of '{system.slug}'; choose a lower precision or a system with more memory per domain"
            " (pipeline parallel across systems is not modelled)",
        )
    width = fitting[0]
    lines.append(f"GPUs per replica for the weights: {1 + overhead:g} × {weights:,.4g} GB / {usable:,.4g} GB"
                 f" = {(1 + overhead) * weights / usable:,.2f} → {width} (a power of two within the NVLink domain of {system.gpus})")
    width, tpot_floor = _width_for_pace(spec, system, active_weights, width, widths, path, lines)
    width, ttft_floor = _width_for_first_token(spec, system, width, widths, path, lines)

    required = required_output_tokens_per_s(spec)
    kv_per_sequence_gb = per_token * tokens_per_sequence / BYTES_PER_GB

    def sized_at(replica: int) -> _Sizing:
        roofline = None
        if system.hbm_tb_per_s:
            roofline = lambda tpot_ms: roofline_tokens_per_s_per_gpu(  # noqa: E731
                tpot_ms, active_weights, kv_per_sequence_gb, replica, system.hbm_tb_per_s)
        throughput = gpu_throughput(spec, system, points, path, roofline)
        replicas_memory = replicas_for_memory(weights, kv, overhead, replica * usable)
        gpus_throughput = math.ceil(required / throughput.tokens_per_s_per_gpu / replica - 1e-9) * replica
        prefill = _prefill(spec, system, replica, disaggregated, prefill_figure)
        return _Sizing(replica, throughput, replicas_memory, gpus_throughput, prefill)

    narrowest = width
    sizing = min((sized_at(replica) for replica in widths if replica >= narrowest), key=lambda sized: sized.gpus)
    width, throughput, prefill = sizing.width, sizing.throughput, sizing.prefill
    if width != narrowest:
        lines.append(f"a replica of {width} GPUs needs fewer GPUs in all than one of {narrowest}"
                     f" ({sizing.gpus:,} against {sized_at(narrowest).gpus:,}): tensor parallel over {width}")
        tpot_floor = tpot_floor and time_per_output_token_floor_ms(active_weights, width, system.hbm_tb_per_s)
        ttft_floor = ttft_floor and ttft_floor * narrowest / width
    lines.extend(throughput.arithmetic)
    if spec.requests_per_s is not None:
        lines.append(f"output tokens/s needed = {spec.requests_per_s:,g} requests/s × {spec.output_tokens:,} tokens = {required:,.1f}")
    else:
        lines.append(f"output tokens/s needed = {spec.concurrent_users:,} users × 1,000 / {spec.target_time_per_output_token_ms:,g} ms"
                     f" = {required:,.1f}")
    replicas_memory, gpus_throughput = sizing.replicas_memory, sizing.gpus_throughput
    gpus_memory = replicas_memory * width
    lines.append(f"GPUs for memory = {replicas_memory:,} replicas of {width}: {1 + overhead:g} × ({replicas_memory:,} × {weights:,.4g}"
                 f" + {kv:,.4g}) GB ≤ {replicas_memory:,} × {width} × {usable:,.4g} GB → {gpus_memory:,} GPUs")
    lines.append(f"GPUs for throughput = {required:,.1f} / {throughput.tokens_per_s_per_gpu:,.1f} tokens/s per GPU"
                 f" = {required / throughput.tokens_per_s_per_gpu:,.2f} → {gpus_throughput:,} GPUs (whole replicas of {width})")
    decode = max(gpus_memory, gpus_throughput)
    binds = "both" if gpus_memory == gpus_throughput else "memory" if gpus_memory > gpus_throughput else "throughput"
    if prefill:
        lines.extend(prefill.arithmetic)
    elif disaggregated:
        lines.append(f"prefill not sized apart: no prefill figure and no dense TFLOPS for '{system.slug}'")
    needed = decode + (prefill.gpus if prefill else 0)
    systems = math.ceil(needed / system.gpus)
    split = f" ({decode:,} decode + {prefill.gpus:,} prefill)" if prefill else ""
    lines.append(f"{binds} binds: {needed:,} GPUs{split} = {needed // width:,} replicas × {width} → {systems:,} × '{system.slug}'"
                 f" = {systems * system.gpus:,} GPUs")
    warnings = list(throughput.warnings)
    if prefill and prefill_figure is None:
        warnings.append(f"the {prefill.gpus:,} prefill GPUs rest on an estimate from dense TFLOPS (no published prefill figure)")
    return InferenceResult(
        weights_gb=weights, kv_cache_bytes_per_token=per_token, concurrent_sequences=sequences, kv_cache_gb=kv,
        usable_memory_gb_per_gpu=usable, gpus_per_replica=width, required_output_tokens_per_s=required,
        tokens_per_s_per_gpu=throughput.tokens_per_s_per_gpu, tokens_per_s_per_gpu_source=throughput.source,
        gpus_for_memory=gpus_memory, gpus_for_throughput=gpus_throughput, binds=binds, replicas=needed // width,
        gpus_needed=needed, gpus=systems * system.gpus,
        time_per_output_token_floor_ms=tpot_floor, time_per_output_token_target_ms=spec.target_time_per_output_token_ms,
        time_to_first_token_floor_ms=ttft_floor, time_to_first_token_target_ms=spec.time_to_first_token_ms,
        arithmetic=tuple(lines), name=spec.name, operating_point=throughput.operating_point,
        operating_point_extrapolated=throughput.extrapolated, tokens_per_s_per_gpu_estimated=throughput.estimated,
        prefill_gpus=prefill.gpus if prefill else 0,
        prefill_tokens_per_s_per_gpu=prefill.prefill_tokens_per_s_per_gpu if prefill else None,
        prefill_source=prefill.source if prefill else "",
        output_tokens_per_s_capacity=decode * throughput.tokens_per_s_per_gpu,
        utilisation=utilisation, warnings=tuple(warnings),
    )


def _prefill(spec, system, width, disaggregated, prefill_figure) -> PrefillResult | None:
    if not disaggregated:
        return None
    tflops = getattr(system, _PREFILL_TFLOPS_FIELD[spec.precision]) or system.dense_bf16_tflops_per_gpu
    return size_prefill(spec, tflops, width, prefill_figure)


def _width_for_pace(spec, system, active_weights, width, widths, path, lines) -> tuple[int, float | None]:
    """The narrowest width ≥ `width` whose bandwidth floor meets the time per output token target."""
    target = spec.target_time_per_output_token_ms
    if not system.hbm_tb_per_s:
        lines.append(f"time per output token not checked: the catalog gives no hbm_tb_per_s for '{system.slug}'")
        return width, None
    meeting = [w for w in widths if w >= width
               and time_per_output_token_floor_ms(active_weights, w, system.hbm_tb_per_s) <= target]
    if not meeting:
        best = time_per_output_token_floor_ms(active_weights, widths[-1], system.hbm_tb_per_s)
        raise InfeasibleError.at(
            f"{path}.{spec.pace_field}",
            f"no design: the tightest reachable time per output token on '{system.slug}' is {best:,.3g} ms"
            f" (tensor parallel over the whole NVLink domain: {active_weights:,.4g} GB of active weights /"
            f" ({widths[-1]} × {system.hbm_tb_per_s:g} TB/s)), slower than the {target:,g} ms target;"
            " relax the target, lower the precision or choose a system with more memory bandwidth per domain",
        )
    floor = time_per_output_token_floor_ms(active_weights, meeting[0], system.hbm_tb_per_s)
    lines.append(f"time per output token ≥ {active_weights:,.4g} GB active weights / ({meeting[0]} × {system.hbm_tb_per_s:g} TB/s)"
                 f" = {floor:,.3g} ms ≤ {target:,g} ms target (memory-bandwidth bound; KV reads left out)")
    return meeting[0], floor


def _width_for_first_token(spec, system, width, widths, path, lines) -> tuple[int, float | None]:
    """The narrowest width ≥ `width` whose prefill meets the time to first token target."""
    if spec.time_to_first_token_ms is None:
        return width, None
    tflops = getattr(system, _PREFILL_TFLOPS_FIELD[spec.precision]) or system.dense_bf16_tflops_per_gpu
    if not tflops:
        lines.append(f"time to first token not checked: the catalog gives no dense TFLOPS for '{system.slug}'")
        return width, None
    active = spec.active_billion
    meeting = [w for w in widths if w >= width
               and time_to_first_token_floor_ms(spec.input_tokens, active, w, tflops) <= spec.time_to_first_token_ms]
    if not meeting:
        best = time_to_first_token_floor_ms(spec.input_tokens, active, widths[-1], tflops)
        raise InfeasibleError.at(
            f"{path}.time_to_first_token_ms",
            f"no design: the tightest reachable time to first token on '{system.slug}' is {best:,.4g} ms (the prefill"
            f" of {spec.input_tokens:,} tokens, tensor parallel over the whole NVLink domain of {widths[-1]} GPUs),"
            f" slower than the {spec.time_to_first_token_ms:,g} ms target; relax the target or shorten the context",
        )
    floor = time_to_first_token_floor_ms(spec.input_tokens, active, meeting[0], tflops)
    lines.append(f"time to first token ≥ 2 × {active:,g} × 10⁹ × {spec.input_tokens:,} tokens / ({meeting[0]} × {tflops:,g}"
                 f" TFLOPS × {PREFILL_EFFICIENCY:g}) = {floor:,.4g} ms ≤ {spec.time_to_first_token_ms:,g} ms target (estimate)")
    return meeting[0], floor
