"""How many systems a cluster or a site's pool has: the GPUs or nodes asked for, or those a
training job's days or an inference load need; within the GPUs a plan may have (guards on the
input that drove the count)."""

from dataclasses import replace

from catalog.solver.parts import SystemSpec
from catalog.solver.snapshot import CatalogSnapshot
from core.solver.errors import PlanLimitError
from planner.solver.compute import ComputeResult, check_gpu_limit, size_compute
from planner.solver.inference import InferenceResult, size_inference
from planner.solver.inference_spec import InferenceSpec
from planner.solver.scenario import MAX_GPUS, ComputeSpec, WorkloadSpec
from planner.solver.workload import workload_gpus_needed


def sized_inference(spec: InferenceSpec | None, system: SystemSpec, catalog: CatalogSnapshot) -> InferenceResult | None:
    """The inference load sized, or PlanLimitError on the load when it needs more GPUs than a
    plan may have."""
    if spec is None:
        return None
    sized = size_inference(spec, system, tuple(catalog.inference_operating_points.values()))
    if sized.gpus_needed > MAX_GPUS:
        load = "models" if spec.models else "requests_per_s" if spec.requests_per_s is not None else "concurrent_users"
        raise PlanLimitError.at(
            f"inference.{load}",
            f"the load needs {sized.gpus_needed:,} GPUs, more than the {MAX_GPUS:,} a plan may have",
        )
    return sized


def sized_compute(given: ComputeSpec, workload: WorkloadSpec | None, system: SystemSpec,
                  inference: InferenceResult | None) -> ComputeResult:
    """The systems asked for, or those the workload needs when it gives the days, or those the
    inference load needs; PlanLimitError past the GPUs a plan may have."""
    gpus = workload_gpus_needed(workload, system) if workload else None
    gpus = inference.gpus_needed if inference else gpus
    compute = size_compute(given if gpus is None else replace(given, nodes=-(-gpus // system.gpus)), system)
    check_gpu_limit(compute, given)
    return compute
