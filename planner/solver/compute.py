"""Compute sizing: from the GPUs (or systems) wanted to the systems to buy, power and cable."""

import math
from dataclasses import dataclass, replace

from catalog.solver.parts import NicSpec, SystemSpec
from core.solver.errors import PlanLimitError, ScenarioError, join_path
from planner.solver.scenario import MAX_GPUS, ComputeSpec

NICS_PATH = "compute.nics"


@dataclass(frozen=True)
class ComputeResult:
    system: str
    gpus_per_node: int
    nodes: int
    """Systems that run the workload."""
    gpus: int
    """GPUs in those systems (at least the GPUs asked for)."""
    spare_nodes: int
    total_nodes: int
    """Systems to buy, rack, power and cable: working systems plus spares."""
    node_power_kw: float
    it_kw: float
    """Maximum input power of all systems, spares included."""


def nodes_for_gpus(gpus: int, gpus_per_node: int) -> int:
    """Systems needed to hold `gpus` GPUs: ceil(gpus / gpus_per_node)."""
    return math.ceil(gpus / gpus_per_node)


def compute_it_power_kw(total_nodes: int, node_power_kw: float) -> float:
    """IT power of the systems [kW] at their maximum input power (the figure power is sized for)."""
    return total_nodes * node_power_kw


def size_compute(spec: ComputeSpec, system: SystemSpec) -> ComputeResult:
    """Systems, GPUs and IT power for the GPUs or systems the scenario asks for.

    GPUs are rounded up to whole systems.
    """
    nodes = nodes_for_gpus(spec.gpus, system.gpus) if spec.gpus is not None else spec.nodes
    total_nodes = nodes + spec.spare_nodes
    return ComputeResult(
        system=system.slug,
        gpus_per_node=system.gpus,
        nodes=nodes,
        gpus=nodes * system.gpus,
        spare_nodes=spec.spare_nodes,
        total_nodes=total_nodes,
        node_power_kw=system.power_kw,
        it_kw=compute_it_power_kw(total_nodes, system.power_kw),
    )


def compute_warnings(spec: ComputeSpec, system: SystemSpec, result: ComputeResult) -> list[str]:
    """A GPU count that does not fill its last system: the architect pays for the round-up."""
    if spec.gpus is None or result.gpus == spec.gpus:
        return []
    return [
        f"{spec.gpus:,} GPUs do not fill whole {system.name} systems of {system.gpus} GPUs: "
        f"the plan rounds up to {result.nodes:,} systems ({result.gpus:,} GPUs)."
    ]


def system_with_nics(system: SystemSpec, nics: tuple[NicSpec, ...], path: str = NICS_PATH) -> SystemSpec:
    """The system with `nics` in place of its own NICs of the same roles (a scenario's override).

    Each NIC given replaces the system's NIC of its role (count, rate and ports per cage); a
    role the system lacks is added after its own; the roles not given stay as they are. The
    system is returned unchanged when `nics` is empty.

    Raises ScenarioError at `path` when a role is given twice, and at the compute NIC's count
    when it no longer divides evenly into the system's compute trays.
    """
    if not nics:
        return system
    roles = [nic.role for nic in nics]
    repeated = sorted({role for role in roles if roles.count(role) > 1})
    if repeated:
        raise ScenarioError.at(path, f"lists the role '{repeated[0]}' more than once")
    given = {nic.role: nic for nic in nics}
    kept = tuple(given.pop(nic.role, nic) for nic in system.nics)
    overridden = replace(system, nics=kept + tuple(given.values()))
    compute = overridden.nic("compute")
    if compute is not None and compute.count % overridden.compute_trays:
        index = roles.index("compute") if "compute" in roles else None
        raise ScenarioError.at(
            join_path(join_path(path, index), "count") if index is not None else path,
            f"must divide evenly into the {system.name}'s {system.compute_trays} compute trays",
        )
    return overridden


def size_field(scenario) -> str:
    """The input that set a `compute:` scenario's systems' count: the training job's days, or
    the nodes or GPUs asked for."""
    if scenario.workload is not None and scenario.workload.days is not None:
        return "workload.days"
    return "compute.nodes" if scenario.compute.nodes is not None else "compute.gpus"


def check_gpu_limit(compute: ComputeResult, given: ComputeSpec) -> None:
    """PlanLimitError when the systems, spares included, hold more GPUs than a plan may have
    (MAX_GPUS): on the spares when the systems alone fit, else on the count the scenario gave
    (`given`, before a workload or an inference load set the systems)."""
    per_node = compute.gpus_per_node
    if compute.total_nodes * per_node <= MAX_GPUS:
        return
    field = "compute.spare_nodes" if compute.gpus <= MAX_GPUS else (
        "compute.nodes" if given.nodes is not None else "compute.gpus"
    )
    raise PlanLimitError.at(
        field,
        f"{compute.total_nodes:,} systems of {per_node} GPUs are {compute.total_nodes * per_node:,} GPUs, more than "
        f"the {MAX_GPUS:,} a plan may have",
    )
