"""The one place that knows the order of the steps: scenario in, plan out."""

from dataclasses import replace
from typing import Any

from fabric.solver.endpoints import management_port_endpoints
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
from power.solver.power_plan import RacksAndPower, rack_pdu_counts, racks_and_power
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


PLAN_AND_PACK_ROUNDS = 6
"""Plan-and-pack rounds until top-of-rack leaves and the PDUs on the oob network agree with the
racks (they agree after one to three)."""


def _fabrics_and_racks(
    scenario: ScenarioSpec, catalog: CatalogSnapshot, system: SystemSpec, compute: ComputeResult,
    storage: StorageResult | None,
) -> tuple[dict[str, FabricResult], RacksAndPower]:
    """Every fabric the scenario names, then the racks and power with their switches and optics.

    Two inputs of the fabrics are only known once racks are packed, which needs the fabrics'
    switches:
    - top-of-rack leaves share the compute racks: their count depends on the systems per rack,
      which their rack units and power lower in turn;
    - the oob network serves every rack PDU's management port, and PDUs follow the racks (each
      rack's kW), which the oob switches add to.

    Rule: start from the racks packed without switches; plan the fabrics (no PDUs on oob yet)
    and pack again until the systems per rack agree. Then, with the cable lengths measured on
    that floor, plan the fabrics with the PDUs of the last packing on oob, pack, and repeat
    (only oob is planned again when only the PDUs changed) until the packing gives back the
    PDUs oob was planned with. Each round can only add switches, racks and PDUs, so this
    converges, in one or two rounds. Fabric managers, management servers and storage systems
    are known before, and join oob from the start.
    """
    fabric_specs = [getattr(scenario.fabrics, name) for name in ("compute", "storage", "inband", "oob")]
    top_of_rack = any(spec is not None and spec.leaf_placement == "top_of_rack" for spec in fabric_specs)
    oob = scenario.fabrics.oob is not None
    nodes_per_rack = None
    if top_of_rack:
        nodes_per_rack = pack_compute_racks(
            compute.total_nodes, system, scenario.racks, catalog.cooling_types
        ).nodes_per_rack
    servers = server_groups(scenario.racks, scenario.fabrics, catalog.servers)
    stored = storage_system_counts(storage)

    packed: list = []
    """The last packing and what it packed, as [(switch groups, optics kW), RacksAndPower]."""

    def fabrics_then_racks(pdus: dict[str, int], measured_lengths=None, planned=None):
        pdu_ports = {slug: (count, catalog.pdus[slug].management_ports) for slug, count in pdus.items()}
        extra_endpoints = {
            "storage": storage_endpoint_groups(storage),
            "oob": management_port_endpoints(pdu_ports, servers, stored),
        }
        fabrics = plan_fabrics(
            scenario.fabrics, system, compute.total_nodes, nodes_per_rack, catalog, extra_endpoints,
            measured_lengths, planned,
        )
        switch_groups = tuple(group for fabric in fabrics.values() for group in fabric.switch_groups())
        optics_kw = sum(fabric.optics_power_kw for fabric in fabrics.values())
        if packed and packed[0] == (switch_groups, optics_kw):
            # The same switches and optics pack the same racks.
            return fabrics, packed[1]
        facility = racks_and_power(
            compute.total_nodes, system, scenario.racks, scenario.facility, catalog,
            switch_groups=list(switch_groups),
            storage_systems=stored,
            servers=servers,
            optics_kw=optics_kw,
            finance_facility=scenario.finance.facility,
        )
        packed[:] = [(switch_groups, optics_kw), facility]
        return fabrics, facility

    def all_but_oob(fabrics: dict[str, FabricResult]) -> dict[str, FabricResult]:
        """Only the PDUs changed: they reach oob alone."""
        return {name: fabric for name, fabric in fabrics.items() if name != "oob"}

    def agrees(facility: RacksAndPower, pdus: dict[str, int]) -> bool:
        return (not top_of_rack or facility.racks.nodes_per_rack == nodes_per_rack) and (
            not oob or rack_pdu_counts(facility.racks) == pdus
        )

    # Top-of-rack leaves and the racks agree, without PDUs on oob yet.
    for _ in range(PLAN_AND_PACK_ROUNDS):
        fabrics, facility = fabrics_then_racks({})
        if not top_of_rack or facility.racks.nodes_per_rack == nodes_per_rack:
            break
        nodes_per_rack = facility.racks.nodes_per_rack
    # Once racks stand on the floor, their distances choose each link's medium; the switch
    # counts stay, only cables, optics and their power change. The PDUs of the last packing join
    # oob, until the packing gives back the PDUs oob was planned with (only oob is planned again
    # when only they changed).
    floor = facility.racks.floor
    measured = None
    if fabrics and floor is not None:
        specs = {name: (getattr(scenario.fabrics, name), fabric.pods) for name, fabric in fabrics.items()}
        measured = measured_link_lengths(floor, scenario.racks, specs)
    elif not oob:
        return fabrics, facility
    planned = None
    for _ in range(PLAN_AND_PACK_ROUNDS):
        pdus = rack_pdu_counts(facility.racks) if oob else {}
        fabrics, facility = fabrics_then_racks(pdus, measured, planned)
        if agrees(facility, pdus):
            break
        if top_of_rack and facility.racks.nodes_per_rack != nodes_per_rack:
            nodes_per_rack, planned = facility.racks.nodes_per_rack, None
        else:
            planned = all_but_oob(fabrics)
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
