"""Steps that one pool's plan and a site's plan take alike: storage with the job's
checkpoints and reliability, and the bill of materials with its cost of ownership."""

from collections.abc import MutableMapping

from catalog.solver.parts import SystemSpec
from catalog.solver.snapshot import CatalogSnapshot
from core.solver.kept import kept
from core.solver.part_counts import PartCount
from fabric.solver.fabric import fabric_part_counts
from fabric.solver.results import FabricResult
from planner.solver.bom import BomLine, PartSource, bom_lines, bom_sources
from planner.solver.compute import ComputeResult
from planner.solver.reliability import (
    ReliabilityResult,
    checkpoint_write_target_s,
    mtbi_s_for,
    reliability_warnings,
    size_reliability,
)
from planner.solver.scenario import ReliabilitySpec, ScenarioSpec
from planner.solver.tco import CostResult, cost_of_ownership
from planner.solver.workload import WorkloadResult
from power.solver.cooling_plant import cooling_units_paid_by
from power.solver.facility import PowerResult
from power.solver.power_plan import CooledRacks
from storage.solver.specs import StorageSpec
from storage.solver.tiers import (
    StorageResult,
    size_storage,
    storage_system_counts,
    storage_warnings,
)


def bill_of_materials(
    scenario: ScenarioSpec, catalog: CatalogSnapshot, systems: list[PartCount], storage: StorageResult | None,
    fabrics: dict[str, FabricResult], facility: CooledRacks, cache: MutableMapping | None = None,
) -> tuple[tuple[BomLine, ...], tuple[PartSource, ...]]:
    """The BOM (the GPU systems, storage systems, fabrics' parts, racks and facility) and its
    parts' sources, for a cluster or a site of pools. `cache` keeps the BOM by the parts,
    quotes and spares (`priced_parts`)."""
    part_counts = [*systems, *(PartCount("storage", slug, count) for slug, count in storage_system_counts(storage))]
    part_counts += fabric_part_counts(fabrics)
    part_counts += facility.part_counts
    return priced_parts(part_counts, catalog, scenario, cache)


def plan_cost(
    scenario: ScenarioSpec, bom: tuple[BomLine, ...], power: PowerResult, *, gpus: int,
    reliability: ReliabilityResult | None, dense_tflops_per_gpu: float | None,
) -> CostResult:
    """The cost of ownership of the BOM with the facility's power, over the scenario's finance."""
    return cost_of_ownership(
        bom=bom,
        finance=scenario.finance,
        gpus=gpus,
        it_kw=power.it_kw,
        annual_energy_kwh=power.annual_energy_mwh * 1000,
        electricity_usd_per_kwh=scenario.facility.electricity_usd_per_kwh,
        goodput=reliability.goodput if reliability else None,
        dense_tflops_per_gpu=dense_tflops_per_gpu,
        cooling_paid_by=cooling_units_paid_by(power.cooling.units, scenario.finance.facility),
    )


def priced_parts(
    part_counts: list[PartCount], catalog: CatalogSnapshot, scenario: ScenarioSpec, cache: MutableMapping | None,
) -> tuple[tuple[BomLine, ...], tuple[PartSource, ...]]:
    """The BOM's lines and their parts' sources, kept in `cache` by the parts, the quotes and the
    spares: the designs of a sweep that differ in PUE, energy or finance buy the same parts."""
    def priced() -> tuple[tuple[BomLine, ...], tuple[PartSource, ...]]:
        bom = bom_lines(part_counts, catalog, scenario.prices, scenario.finance.spares_percent)
        return bom, bom_sources(bom, catalog)

    return kept(
        cache,
        lambda: ("bom", tuple(part_counts), tuple(sorted(scenario.prices.items())), scenario.finance.spares_percent),
        priced,
    )


def size_storage_and_reliability(
    scenario: ScenarioSpec, catalog: CatalogSnapshot, system: SystemSpec, compute: ComputeResult,
    workload: WorkloadResult | None,
) -> tuple[StorageResult | None, ReliabilityResult | None, list[str]]:
    """Storage for the job, then its checkpoint interval and goodput with the write time it achieves.

    Left out (None) when the scenario has no workload, reliability or storage section.
    """
    if workload is None and scenario.reliability is None and scenario.storage == StorageSpec():
        return None, None, []
    reliability_spec = scenario.reliability or ReliabilitySpec()
    target_s = checkpoint_write_target_s(
        scenario.storage.checkpoint_write_s, scenario.storage.checkpoint_write_share,
        mtbi_s_for(reliability_spec, compute.gpus), reliability_spec.checkpoint_interval_s,
    )
    storage = size_storage(
        scenario.storage, catalog.storage_systems, gpus=compute.gpus, nodes=compute.nodes,
        storage_nic=system.nic("storage"),
        parameters_billion=workload.parameters_billion if workload else None,
        tokens_trillion=workload.tokens_trillion if workload else None,
        checkpoint_write_target_s=target_s,
    )
    write_s = storage.checkpoint_write_s if storage.checkpoint_write_s is not None else target_s
    reliability = size_reliability(
        reliability_spec, gpus=compute.gpus, spare_nodes=compute.spare_nodes, checkpoint_write_s=write_s,
        training_days=workload.training_days if workload else None,
    )
    warnings = storage_warnings(storage) + reliability_warnings(
        reliability, workload.days_allowed if workload else None
    )
    return storage, reliability, warnings
