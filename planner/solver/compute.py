"""Compute sizing: from the GPUs (or systems) wanted to the systems to buy, power and cable."""

import math
from dataclasses import dataclass

from planner.solver.parts import SystemSpec
from planner.solver.scenario import ComputeSpec


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
