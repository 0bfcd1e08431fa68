"""Reliability: interruptions of a synchronous training job, its checkpoint interval and goodput.

A synchronous job stops whenever any of its GPUs (or their hosts, links, switches) fails. With
interruptions arriving as a Poisson process at a rate λ per GPU and year, a job on G GPUs sees
its mean time between interruptions (MTBI)

    M = 8,766 h / (λ · G)                                       (8,766 h = 365.25 days)

It saves a checkpoint every τ seconds of compute, each taking δ seconds to write, and after an
interruption spends R seconds restarting and redoes on average half of the last segment. The
checkpoint interval that minimises the time lost is Young's

    τ = √(2 δ M)                  (J. W. Young, CACM 17(9), 1974, doi:10.1145/361147.361115)

or, with Daly's first-order correction for the write time itself,

    τ = √(2 δ M) − δ,  and τ = M when δ ≥ 2M
                                  (J. T. Daly, Future Gener. Comput. Syst. 22(3), 2006,
                                   doi:10.1016/j.future.2004.11.016)

Daly's higher-order estimate, τ = √(2δM)·[1 + ⅓·√(δ/2M) + (1/9)·(δ/2M)] − δ, is accurate to a
few per cent even when δ approaches M (his figures 3-5: M = 24 h, 6 h, 15 min with δ = 5 min
give 117, 57 and 9.1 min).

Goodput, the share of wall-clock time that advances training, follows from Daly's first-order
cost model: each interruption costs R + (τ + δ)/2, and the wall time W of the job satisfies
W = S·(τ + δ)/τ + (W/M)·(R + (τ + δ)/2) for a solve time S, so

    goodput = S / W = τ/(τ + δ) · (1 − (R + (τ + δ)/2) / M)

and the rest of W splits into checkpoint writes (1 − f)·δ/(τ + δ), lost work ((τ + δ)/2)/M and
restarts R/M, with f = (R + (τ + δ)/2)/M.
"""

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy import optimize, stats

from core.solver.errors import InfeasibleError
from planner.solver.scenario import ReliabilitySpec

HOURS_PER_YEAR = 8_766.0
"""365.25 days."""
SECONDS_PER_HOUR = 3_600.0

LLAMA3_UNEXPECTED_INTERRUPTIONS = 419
LLAMA3_GPUS = 16_384
LLAMA3_DAYS = 54
DEFAULT_INTERRUPTIONS_PER_GPU_YEAR = LLAMA3_UNEXPECTED_INTERRUPTIONS / (LLAMA3_GPUS * LLAMA3_DAYS / 365.25)
"""≈ 0.173: Meta's Llama 3 405B pre-training, all causes (GPU 58.7 %, network, host...)."""
DEFAULT_INTERRUPTIONS_SOURCE = (
    "Meta, The Llama 3 Herd of Models (2024), section 3.3.4: 419 unexpected interruptions in a "
    "54-day snapshot on 16,384 H100 GPUs, i.e. 419 / (16,384 × 54 / 365.25) ≈ 0.173 per GPU-year "
    "(https://ai.meta.com/research/publications/the-llama-3-herd-of-models/)"
)

IntervalPolicy = Literal["young", "daly", "daly_higher_order"]


@dataclass(frozen=True)
class ReliabilityResult:
    interruptions_per_gpu_year: float
    interruptions_source: str
    """Where the rate comes from: the scenario, or the published fleet data of the default."""
    gpus: int
    """GPUs of the job (spares excluded: they do not run it)."""
    interruptions_per_day: float
    mtbi_h: float | None
    """Mean time between interruptions of the job; None when the rate is zero (never)."""
    checkpoint_write_s: float | None
    """Time to write one checkpoint (achieved by the storage tier, else the target)."""
    checkpoint_interval_policy: str
    checkpoint_interval_s: float | None
    """Compute time between checkpoints; None when nothing interrupts the job."""
    young_interval_s: float | None
    daly_interval_s: float | None
    restart_s: float
    checkpoint_share: float
    """Share of wall-clock time spent writing checkpoints."""
    lost_work_share: float
    """Share of wall-clock time redoing work lost since the last checkpoint."""
    restart_share: float
    goodput: float
    """Share of wall-clock time that advances training: 1 − the three shares above."""
    node_repair_h: float
    nodes_out_mean: float
    """Nodes out for repair at any moment, on average: interruptions per hour × repair hours."""
    spare_confidence: float
    spare_nodes_needed: int
    """Spares that cover every node out for repair with probability spare_confidence (Poisson)."""
    spare_nodes: int
    """Spares the scenario holds (compute.spare_nodes)."""
    expected_job_days: float | None
    """Workload training days / goodput: the wall-clock days the job is expected to take."""


def cluster_mtbi_h(interruptions_per_gpu_year, gpus):
    """Mean time between interruptions of a job on `gpus` GPUs [h]: M = 8,766 / (λ · G).

    Returns inf where the rate is zero.
    """
    rate_per_h = np.asarray(interruptions_per_gpu_year, dtype=float) * np.asarray(gpus) / HOURS_PER_YEAR
    with np.errstate(divide="ignore"):
        return np.where(rate_per_h > 0, 1.0 / np.where(rate_per_h > 0, rate_per_h, 1.0), np.inf)[()]


def young_interval_s(write_s, mtbi_s):
    """Young's optimal checkpoint interval [s]: τ = √(2 δ M)."""
    return np.sqrt(2.0 * np.asarray(write_s) * np.asarray(mtbi_s))[()]


def daly_interval_s(write_s, mtbi_s):
    """Daly's first-order optimal checkpoint interval [s]: τ = √(2 δ M) − δ, or M when δ ≥ 2M."""
    write_s, mtbi_s = np.asarray(write_s, dtype=float), np.asarray(mtbi_s, dtype=float)
    return np.where(write_s < 2 * mtbi_s, np.sqrt(2 * write_s * mtbi_s) - write_s, mtbi_s)[()]


def daly_higher_order_interval_s(write_s, mtbi_s):
    """Daly's higher-order optimal interval [s]: √(2δM)·[1 + ⅓√(δ/2M) + (δ/2M)/9] − δ, or M when δ ≥ 2M."""
    write_s, mtbi_s = np.asarray(write_s, dtype=float), np.asarray(mtbi_s, dtype=float)
    ratio = write_s / (2 * mtbi_s)
    series = np.sqrt(2 * write_s * mtbi_s) * (1 + np.sqrt(ratio) / 3 + ratio / 9) - write_s
    return np.where(write_s < 2 * mtbi_s, series, mtbi_s)[()]


_INTERVALS = {"young": young_interval_s, "daly": daly_interval_s, "daly_higher_order": daly_higher_order_interval_s}


def checkpoint_interval_s(policy: IntervalPolicy | float, write_s: float | None, mtbi_s: float) -> float | None:
    """The interval a policy gives [s]; a number is the interval itself. None when it is unbounded."""
    if not isinstance(policy, str):
        return float(policy)
    if math.isinf(mtbi_s) or write_s is None:
        return None
    return float(_INTERVALS[policy](write_s, mtbi_s))


def write_time_for_share_s(share: float, mtbi_s: float, policy: IntervalPolicy | float) -> float | None:
    """The write time δ [s] that is `share` of the interval the policy gives for it: δ = share · τ(δ).

    - a fixed interval τ: δ = share · τ
    - Young: δ / √(2δM) = s  ⇒  δ = 2 M s²
    - Daly first order: δ / (√(2δM) − δ) = s  ⇒  δ = 2 M s² / (1 + s)²
    - Daly higher order: solved numerically (δ/τ grows with δ).
    None when nothing interrupts the job and the interval is not fixed.
    """
    if not isinstance(policy, str):
        return share * float(policy)
    if math.isinf(mtbi_s):
        return None
    if policy == "young":
        return 2 * mtbi_s * share**2
    if policy == "daly":
        return 2 * mtbi_s * share**2 / (1 + share) ** 2
    # δ/τ rises from 0 to 2.25 as δ goes from 0 to 2M, so any share in (0, 1] has one root there.
    return optimize.brentq(
        lambda write_s: write_s / daly_higher_order_interval_s(write_s, mtbi_s) - share,
        1e-12 * mtbi_s, (2 - 1e-9) * mtbi_s,
    )


def checkpoint_write_target_s(
    target_s: float | None, share: float, mtbi_s: float, policy: IntervalPolicy | float
) -> float | None:
    """The time one checkpoint may take to write [s]: the target given, else `share` of the interval.

    A share so small that the time rounds to 0 s (1e-200 of a Young interval is 2·M·1e-400) is
    refused on its field rather than read as "no time at all", which storage would take as no
    write target.
    """
    if target_s is not None:
        return target_s
    write_s = write_time_for_share_s(share, mtbi_s, policy)
    if write_s is not None and not write_s > 0:
        raise InfeasibleError.at(
            "storage.checkpoint_write_share",
            f"gives a checkpoint write time of 0 s ({share:g} of the interval, below a float's "
            "range): no storage writes that fast; give a larger share or checkpoint_write_s",
        )
    return write_s


@dataclass(frozen=True)
class TimeLost:
    checkpoint_share: float
    lost_work_share: float
    restart_share: float
    goodput: float


def time_lost(interval_s: float | None, write_s: float | None, restart_s: float, mtbi_s: float) -> TimeLost:
    """Shares of wall-clock time lost to checkpoint writes, lost work and restarts, and goodput.

    With f = (R + (τ + δ)/2) / M (Daly's first-order cost model, see the module notes):
    checkpoints (1 − f)·δ/(τ + δ), lost work ((τ + δ)/2)/M, restarts R/M, goodput (1 − f)·τ/(τ + δ).
    When f ≥ 1 the job never completes a segment: goodput 0.
    """
    write_s = write_s or 0.0
    if interval_s is None:
        return TimeLost(0.0, 0.0, 0.0, 1.0)
    segment_s = interval_s + write_s
    failures = 0.0 if math.isinf(mtbi_s) else 1.0 / mtbi_s
    lost_work, restart = segment_s / 2 * failures, restart_s * failures
    lost = lost_work + restart
    if lost >= 1:
        return TimeLost(0.0, lost_work / lost, restart / lost, 0.0)
    if segment_s == 0:
        # δ = τ = 0: a write time below the float range (a share of 5e-324). The model's limit
        # as δ → 0 (τ = √(2δM) ≫ δ): checkpoints and lost work cost nothing, restarts remain.
        return TimeLost(0.0, lost_work, restart, 1 - lost)
    return TimeLost(
        checkpoint_share=(1 - lost) * write_s / segment_s,
        lost_work_share=lost_work,
        restart_share=restart,
        goodput=(1 - lost) * interval_s / segment_s,
    )


def spare_nodes_needed(interruptions_per_h: float, node_repair_h: float, confidence: float) -> int:
    """Spares that cover the nodes out for repair with probability `confidence`.

    Nodes out at a moment ~ Poisson(mean = interruptions per hour × repair hours) (each
    interruption takes one node out for the repair time; Little's law gives the mean); the
    answer is the smallest k with P(out ≤ k) ≥ confidence.
    """
    mean = interruptions_per_h * node_repair_h
    if mean <= 0:
        return 0
    return int(stats.poisson.ppf(confidence, mean))


def mtbi_s_for(spec: ReliabilitySpec, gpus: int) -> float:
    """The job's MTBI [s] (inf when nothing interrupts it)."""
    return float(cluster_mtbi_h(interruptions_per_gpu_year(spec), gpus)) * SECONDS_PER_HOUR


def interruptions_per_gpu_year(spec: ReliabilitySpec) -> float:
    if spec.interruptions_per_gpu_year is None:
        return DEFAULT_INTERRUPTIONS_PER_GPU_YEAR
    return spec.interruptions_per_gpu_year


def size_reliability(
    spec: ReliabilitySpec,
    *,
    gpus: int,
    spare_nodes: int,
    checkpoint_write_s: float | None,
    training_days: float | None = None,
) -> ReliabilityResult:
    """MTBI, checkpoint interval, time lost and goodput, and the spares for a job on `gpus` GPUs."""
    rate = interruptions_per_gpu_year(spec)
    mtbi_h = float(cluster_mtbi_h(rate, gpus))
    mtbi_s = mtbi_h * SECONDS_PER_HOUR
    interval_s = checkpoint_interval_s(spec.checkpoint_interval_s, checkpoint_write_s, mtbi_s)
    lost = time_lost(interval_s, checkpoint_write_s, spec.restart_s, mtbi_s)
    bounded = not math.isinf(mtbi_s) and checkpoint_write_s is not None
    interruptions_per_h = rate * gpus / HOURS_PER_YEAR
    return ReliabilityResult(
        interruptions_per_gpu_year=rate,
        interruptions_source="scenario" if spec.interruptions_per_gpu_year is not None else DEFAULT_INTERRUPTIONS_SOURCE,
        gpus=gpus,
        interruptions_per_day=interruptions_per_h * 24,
        mtbi_h=None if math.isinf(mtbi_h) else mtbi_h,
        checkpoint_write_s=checkpoint_write_s,
        checkpoint_interval_policy=spec.checkpoint_interval_s if isinstance(spec.checkpoint_interval_s, str) else "fixed",
        checkpoint_interval_s=interval_s,
        young_interval_s=float(young_interval_s(checkpoint_write_s, mtbi_s)) if bounded else None,
        daly_interval_s=float(daly_interval_s(checkpoint_write_s, mtbi_s)) if bounded else None,
        restart_s=spec.restart_s,
        checkpoint_share=lost.checkpoint_share,
        lost_work_share=lost.lost_work_share,
        restart_share=lost.restart_share,
        goodput=lost.goodput,
        node_repair_h=spec.node_repair_h,
        nodes_out_mean=interruptions_per_h * spec.node_repair_h,
        spare_confidence=spec.spare_confidence,
        spare_nodes_needed=spare_nodes_needed(interruptions_per_h, spec.node_repair_h, spec.spare_confidence),
        spare_nodes=spare_nodes,
        expected_job_days=(training_days / lost.goodput if lost.goodput > 0 else None) if training_days else None,
    )


def reliability_warnings(result: ReliabilityResult, days_allowed: float | None = None) -> list[str]:
    """Plain sentences about checkpoints that do not fit, missing spares, and a job that runs late."""
    warnings = []
    interval, write = result.checkpoint_interval_s, result.checkpoint_write_s
    if interval is not None and write is not None and write > interval:
        warnings.append(
            f"A checkpoint takes {write:,.0f} s to write, longer than the {interval:,.0f} s of training "
            f"between checkpoints: the job spends more time saving than training. Write faster or "
            f"checkpoint less state."
        )
    if result.goodput == 0:
        warnings.append(
            f"With an interruption every {result.mtbi_h:,.2f} h, restarts and lost work take all of the "
            f"time: the job cannot make progress."
        )
    if result.spare_nodes < result.spare_nodes_needed:
        warnings.append(
            f"The job is interrupted {result.interruptions_per_day:,.1f} times a day; with "
            f"{result.node_repair_h:g} h to repair a node, {result.spare_nodes_needed:,} spare nodes keep it at "
            f"full size {result.spare_confidence:.0%} of the time, but compute.spare_nodes is {result.spare_nodes:,}."
        )
    expected = result.expected_job_days
    if days_allowed is not None and expected is not None and expected > days_allowed:
        enough_gpus = math.ceil(result.gpus * expected / days_allowed)
        warnings.append(
            f"At a goodput of {result.goodput:.1%}, the job takes {expected:,.1f} days, more than the "
            f"{days_allowed:,g} days allowed: about {enough_gpus:,} GPUs would finish in time, or "
            f"reduce the time lost to failures."
        )
    elif days_allowed is not None and expected is None:
        warnings.append(f"The job cannot finish in the {days_allowed:,g} days allowed: its goodput is zero.")
    return warnings
