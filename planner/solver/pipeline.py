"""The one place that knows the order of the steps: scenario in, plan out."""

from dataclasses import replace
from typing import Any

from fabric.solver.fabric import fabric_part_counts, plan_fabrics
from fabric.solver.results import FabricResult
from planner.solver.bom import PartCount, bom_lines, bom_sources
from planner.solver.catalog import CatalogSnapshot, check_references
from planner.solver.compute import ComputeResult, compute_warnings, size_compute
from planner.solver.management import server_groups
from planner.solver.parts import SystemSpec
from planner.solver.plan import Plan
from planner.solver.reliability import (
    ReliabilityResult,
    checkpoint_write_target_s,
    mtbi_s_for,
    reliability_warnings,
    size_reliability,
)
from planner.solver.scenario import ReliabilitySpec, ScenarioSpec, read_scenario
from planner.solver.tco import cost_of_ownership
from planner.solver.workload import (
    WorkloadResult,
    size_workload,
    workload_gpus_needed,
)
from power.solver.cooling_plant import cooling_units_paid_by
from power.solver.link_lengths import measured_link_lengths
from power.solver.power_plan import RacksAndPower, racks_and_power
from power.solver.rack_packing import pack_compute_racks
from storage.solver.specs import StorageSpec
from storage.solver.tiers import (
    StorageResult,
    size_storage,
    storage_endpoint_groups,
    storage_system_counts,
    storage_warnings,
)


def validate_scenario(document: Any, catalog: CatalogSnapshot) -> tuple[ScenarioSpec, CatalogSnapshot]:
    """The document read into a spec, and the catalog with its inline components, or ScenarioError."""
    scenario = read_scenario(document)
    catalog = catalog.with_components(scenario)
    check_references(scenario, catalog)
    return scenario, catalog


def plan_scenario(document: Any, catalog: CatalogSnapshot) -> Plan:
    """Plan a scenario document. Raises ScenarioError (bad input) or InfeasibleError (no design)."""
    scenario, catalog = validate_scenario(document, catalog)
    system = catalog.systems[scenario.compute.system]
    compute = size_compute(_compute_spec(scenario, system), system)
    workload = size_workload(scenario.workload, system, compute.gpus) if scenario.workload else None
    storage, reliability, job_warnings = _size_storage_and_reliability(scenario, catalog, system, compute, workload)
    # Fabrics, then racks, floor, cooling and facility with the fabrics' switches and optics.
    fabrics, facility = _fabrics_and_racks(scenario, catalog, system, compute, storage)
    racks = facility.racks
    warnings = compute_warnings(scenario.compute, system, compute) + job_warnings
    warnings += [warning for fabric in fabrics.values() for warning in fabric.warnings]
    warnings += facility.warnings
    part_counts = [PartCount("compute", system.slug, compute.total_nodes)]
    part_counts += [PartCount("storage", slug, count) for slug, count in storage_system_counts(storage)]
    part_counts += fabric_part_counts(fabrics)
    part_counts += facility.part_counts
    bom = bom_lines(part_counts, catalog, scenario.prices, scenario.finance.spares_percent)
    cost = cost_of_ownership(
        bom=bom,
        finance=scenario.finance,
        gpus=compute.gpus,
        it_kw=facility.power.it_kw,
        annual_energy_kwh=facility.power.annual_energy_mwh * 1000,
        electricity_usd_per_kwh=scenario.facility.electricity_usd_per_kwh,
        goodput=reliability.goodput if reliability else None,
        dense_tflops_per_gpu=workload.dense_tflops_per_gpu if workload else system.dense_bf16_tflops_per_gpu,
        cooling_paid_by=cooling_units_paid_by(facility.power.cooling.units, scenario.finance.facility),
    )
    return Plan(
        name=scenario.name,
        compute=compute,
        racks=racks,
        fabrics=fabrics or None,
        power=facility.power,
        workload=workload,
        storage=storage,
        reliability=reliability,
        cost=cost,
        bom=bom,
        warnings=tuple(warnings),
        sources=bom_sources(bom, catalog),
        inputs=scenario,
    )


TOP_OF_RACK_ROUNDS = 4
"""Plan-and-pack rounds for top-of-rack leaves (they agree after one or two)."""


def _fabrics_and_racks(
    scenario: ScenarioSpec, catalog: CatalogSnapshot, system: SystemSpec, compute: ComputeResult,
    storage: StorageResult | None,
) -> tuple[dict[str, FabricResult], RacksAndPower]:
    """Every fabric the scenario names, then the racks and power with their switches and optics.

    Top-of-rack leaves share the compute racks: their count depends on the systems per rack,
    which their rack units and power lower in turn. Start from the racks packed without
    switches, and plan again with the packed racks until both agree. Then plan the fabrics once
    more with the cable lengths measured on the floor.
    """
    fabric_specs = [getattr(scenario.fabrics, name) for name in ("compute", "storage", "inband", "oob")]
    top_of_rack = any(spec is not None and spec.leaf_placement == "top_of_rack" for spec in fabric_specs)
    nodes_per_rack = None
    if top_of_rack:
        nodes_per_rack = pack_compute_racks(
            compute.total_nodes, system, scenario.racks, catalog.cooling_types
        ).nodes_per_rack
    extra_endpoints = {"storage": storage_endpoint_groups(storage)}
    servers = server_groups(scenario.racks, scenario.fabrics, catalog.servers)

    def fabrics_then_racks(measured_lengths=None):
        fabrics = plan_fabrics(
            scenario.fabrics, system, compute.total_nodes, nodes_per_rack, catalog, extra_endpoints,
            measured_lengths,
        )
        facility = racks_and_power(
            compute.total_nodes, system, scenario.racks, scenario.facility, catalog,
            switch_groups=[group for fabric in fabrics.values() for group in fabric.switch_groups()],
            storage_systems=storage_system_counts(storage),
            servers=servers,
            optics_kw=sum(fabric.optics_power_kw for fabric in fabrics.values()),
            finance_facility=scenario.finance.facility,
        )
        return fabrics, facility

    for _ in range(TOP_OF_RACK_ROUNDS):
        fabrics, facility = fabrics_then_racks()
        if not top_of_rack or facility.racks.nodes_per_rack == nodes_per_rack:
            break
        nodes_per_rack = facility.racks.nodes_per_rack
    floor = facility.racks.floor
    if fabrics and floor is not None:
        # Once racks stand on the floor, their distances choose each link's medium; the switch
        # counts stay, only cables, optics and their power change.
        specs = {name: (getattr(scenario.fabrics, name), fabric.pods) for name, fabric in fabrics.items()}
        fabrics, facility = fabrics_then_racks(measured_link_lengths(floor, scenario.racks, specs))
    return fabrics, facility


def _compute_spec(scenario: ScenarioSpec, system: SystemSpec):
    """The compute section, with the systems the workload needs when it gives the days."""
    gpus = workload_gpus_needed(scenario.workload, system) if scenario.workload else None
    if gpus is None:
        return scenario.compute
    return replace(scenario.compute, nodes=-(-gpus // system.gpus))


def _size_storage_and_reliability(
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
