"""Workload sizing: from a training job (parameters, tokens, days) to the GPUs it needs, or back.

Training a dense transformer costs about 6 floating-point operations per parameter per token:
2 in the forward pass and 4 in the backward pass (Kaplan et al., *Scaling Laws for Neural
Language Models*, 2020, section 2.1, https://arxiv.org/abs/2001.08361). A GPU delivers its
dense (not 2:4 sparse) peak throughput at the training precision times the model FLOPs
utilisation (MFU) the software achieves on it. Hence

    training FLOPs  C = 6 · N · T
    GPUs            G = C / (days · 86,400 s · dense TFLOPS · 10¹² · MFU)
    days            D = C / (G · 86,400 s · dense TFLOPS · 10¹² · MFU)

with N the parameters each token passes through (the active ones of a mixture of experts) and
T the training tokens.
"""

import math
from dataclasses import dataclass

import numpy as np

from catalog.solver.parts import SystemSpec
from core.solver.errors import PlanLimitError, ScenarioError
from planner.solver.scenario import MAX_GPUS, WorkloadSpec

TRAINING_FLOPS_PER_PARAMETER_TOKEN = 6
"""Forward (2) plus backward (4) pass; Kaplan et al. 2020, section 2.1."""
SECONDS_PER_DAY = 86_400
PARAMETERS_PER_BILLION = 1e9
TOKENS_PER_TRILLION = 1e12
FLOPS_PER_TFLOPS = 1e12

_DENSE_TFLOPS_FIELD = {"bf16": "dense_bf16_tflops_per_gpu", "fp8": "dense_fp8_tflops_per_gpu"}


@dataclass(frozen=True)
class WorkloadResult:
    parameters_billion: float
    active_parameters_billion: float
    """N of 6·N·T: the parameters each token passes through."""
    tokens_trillion: float
    training_flops: float
    """C = 6 · N · T."""
    precision: str
    dense_tflops_per_gpu: float
    """Peak dense throughput of one GPU at the precision, from the catalog."""
    mfu: float
    effective_tflops_per_gpu: float
    """dense_tflops_per_gpu × mfu."""
    days_allowed: float | None
    """The days the scenario allows, when it sizes the GPUs from them."""
    gpus_needed: int | None
    """ceil(C / (days allowed · 86,400 · effective FLOP/s per GPU)), when the days are given."""
    gpus: int
    """GPUs the job runs on (the working GPUs of the plan, after rounding to whole systems)."""
    gpu_hours: float
    training_days: float
    """Days of training on `gpus` at the MFU, before time lost to failures and checkpoints."""
    arithmetic: tuple[str, ...]
    """The calculation, line by line, as the plan shows it."""


def training_flops(active_parameters: float, tokens: float) -> float:
    """Training compute [FLOP] of a dense transformer: C = 6 · N · T.

    Parameters
    ----------
    active_parameters : parameters each token passes through, N [-]
    tokens : training tokens, T [-]
    """
    product = np.asarray(active_parameters, dtype=float) * np.asarray(tokens, dtype=float)
    return (TRAINING_FLOPS_PER_PARAMETER_TOKEN * product)[()]


def gpus_for_days(flops: float, dense_tflops_per_gpu: float, mfu: float, days: float) -> float:
    """GPUs [-] (not rounded) that do `flops` of training in `days`.

    G = C / (D · 86,400 · TFLOPS · 10¹² · MFU)
    """
    return flops / (np.asarray(days) * SECONDS_PER_DAY * dense_tflops_per_gpu * FLOPS_PER_TFLOPS * mfu)


def days_for_gpus(flops: float, dense_tflops_per_gpu: float, mfu: float, gpus: float) -> float:
    """Days [d] that `gpus` GPUs take to do `flops` of training.

    D = C / (G · 86,400 · TFLOPS · 10¹² · MFU)
    """
    return flops / (np.asarray(gpus) * SECONDS_PER_DAY * dense_tflops_per_gpu * FLOPS_PER_TFLOPS * mfu)


def dense_tflops_per_gpu(system: SystemSpec, precision: str) -> float:
    """The system's dense throughput per GPU at `precision`, or ScenarioError if the catalog has none."""
    field = _DENSE_TFLOPS_FIELD[precision]
    value = getattr(system, field)
    if not value:
        raise ScenarioError.at(
            "workload.precision",
            f"the system '{system.slug}' gives no dense {precision.upper()} throughput per GPU; "
            f"choose another precision or give {field} for it in components.systems",
        )
    return value


def active_parameters_billion(spec: WorkloadSpec) -> float:
    return spec.active_parameters_billion if spec.active_parameters_billion is not None else spec.parameters_billion


def workload_gpus_needed(spec: WorkloadSpec, system: SystemSpec) -> int | None:
    """GPUs the job needs to finish in `spec.days` (rounded up), or None when the days are not
    given; PlanLimitError on the days past the GPUs a plan may have."""
    if spec.days is None:
        return None
    flops = float(training_flops(active_parameters_billion(spec) * PARAMETERS_PER_BILLION,
                                 spec.tokens_trillion * TOKENS_PER_TRILLION))
    exact = float(gpus_for_days(flops, dense_tflops_per_gpu(system, spec.precision), spec.mfu, spec.days))
    if not math.isfinite(exact) or exact > MAX_GPUS:
        raise PlanLimitError.at(
            "workload.days",
            f"the job needs {_count(exact)} GPUs to finish in {spec.days:g} days, more than the {MAX_GPUS:,} a "
            "plan may have: allow more days, or train on fewer tokens",
        )
    # Guards ceil() against binary fractions of a whole GPU count.
    return max(1, math.ceil(exact - 1e-9))


def _count(value: float) -> str:
    if not math.isfinite(value):
        return "unboundedly many"
    if value >= 1e12:
        return f"{value:.3g}"
    return f"{math.ceil(value):,}"


def size_workload(spec: WorkloadSpec, system: SystemSpec, gpus: int) -> WorkloadResult:
    """The job's compute, and its training days on the `gpus` the plan gives it."""
    active = active_parameters_billion(spec)
    flops = float(training_flops(active * PARAMETERS_PER_BILLION, spec.tokens_trillion * TOKENS_PER_TRILLION))
    tflops = dense_tflops_per_gpu(system, spec.precision)
    effective = tflops * spec.mfu
    days = float(days_for_gpus(flops, tflops, spec.mfu, gpus))
    needed = workload_gpus_needed(spec, system)
    arithmetic = [
        f"training compute = 6 × {active:,g} billion parameters × {spec.tokens_trillion:,g} trillion tokens"
        f" = {flops:.4g} FLOP",
        f"per GPU: {tflops:,g} dense {spec.precision.upper()} TFLOPS × {spec.mfu:g} MFU"
        f" = {effective:,.4g} TFLOPS",
    ]
    if needed is not None:
        arithmetic.append(
            f"GPUs = {flops:.4g} FLOP / ({spec.days:,g} days × 86,400 s × {effective:,.4g} × 10¹² FLOP/s)"
            f" = {float(gpus_for_days(flops, tflops, spec.mfu, spec.days)):,.1f} → {needed:,} GPUs"
        )
    arithmetic.append(
        f"days = {flops:.4g} FLOP / ({gpus:,} GPUs × 86,400 s × {effective:,.4g} × 10¹² FLOP/s) = {days:,.2f} days"
    )
    return WorkloadResult(
        parameters_billion=spec.parameters_billion,
        active_parameters_billion=active,
        tokens_trillion=spec.tokens_trillion,
        training_flops=flops,
        precision=spec.precision,
        dense_tflops_per_gpu=tflops,
        mfu=spec.mfu,
        effective_tflops_per_gpu=effective,
        days_allowed=spec.days,
        gpus_needed=needed,
        gpus=gpus,
        gpu_hours=gpus * days * 24,
        training_days=days,
        arithmetic=tuple(arithmetic),
    )
