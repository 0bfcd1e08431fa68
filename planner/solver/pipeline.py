"""The one place that knows the order of the steps: scenario in, plan out."""

from collections.abc import MutableMapping
from dataclasses import replace
from typing import Any

from catalog.solver.parts import SystemSpec
from catalog.solver.snapshot import CatalogSnapshot
from core.solver.management import server_groups
from core.solver.records import copy_with
from fabric.solver.cabling import PlanCabling
from fabric.solver.cabling_counts import CabledPlan, counted_fabrics, estimated_fabrics
from fabric.solver.cabling_links import SAMPLE_LINKS
from fabric.solver.cabling_racks import placement_key
from fabric.solver.endpoints import management_port_endpoints
from fabric.solver.fabric import plan_fabrics
from fabric.solver.results import FabricResult
from planner.solver import site
from planner.solver.bom import bom_sources, system_part_counts
from planner.solver.compute import ComputeResult, compute_warnings, size_compute, system_with_nics
from planner.solver.inference import InferenceResult, size_inference
from planner.solver.phases import plan_phases
from planner.solver.plan import Plan
from planner.solver.references import check_references
from planner.solver.scenario import ScenarioSpec, read_scenario
from planner.solver.steps import bom_and_cost, size_storage_and_reliability
from planner.solver.token_cost import inference_with_token_cost
from planner.solver.workload import (
    size_workload,
    workload_gpus_needed,
)
from power.solver.power_plan import (
    RacksAndPower,
    in_rack_cdu_units,
    packed_racks,
    rack_pdu_counts,
    racks_and_power,
)
from power.solver.rack_packing import RacksResult, pack_compute_racks
from storage.solver.tiers import (
    StorageResult,
    storage_endpoint_groups,
    storage_system_counts,
)

CABLES_COUNTED = "counted"
"""Every cable placed and counted where it stands: the plan the pages and exports show."""
CABLES_SAMPLED = "sampled"
"""A screen: the racks packed with the optics of a sample of the links (a sweep)."""
CABLES_ENGINE = "engine"
"""A coarser screen: the racks packed with the fabric engine's optics (one length a segment)."""
CABLE_MODES = (CABLES_COUNTED, CABLES_SAMPLED, CABLES_ENGINE)


def validate_scenario(document: Any, catalog: CatalogSnapshot) -> tuple[ScenarioSpec, CatalogSnapshot]:
    """The document read into a spec, and the catalog with its inline components, or ScenarioError.
    A spec already read (a sweep reads its designs' sections once each) is taken as it is.

    The compute system in that catalog has the scenario's NICs (`compute.nics`) in place of its
    own, so that every step after (limits, fabrics, storage, racks, cabling) sees one system.
    """
    scenario = document if isinstance(document, ScenarioSpec) else read_scenario(document)
    catalog = catalog.with_components(scenario)
    check_references(scenario, catalog)
    if scenario.compute is None:
        return scenario, catalog  # pools: each pool's system takes its NICs (site.size_pool)
    slug = scenario.compute.system
    system = system_with_nics(catalog.systems[slug], scenario.compute.nics)
    if system is not catalog.systems[slug]:
        catalog = replace(catalog, systems={**catalog.systems, slug: system})
    return scenario, catalog


def plan_scenario(
    document: Any, catalog: CatalogSnapshot, *, cables: str = CABLES_COUNTED,
    cache: MutableMapping | None = None, lay_out_floor: bool = True,
) -> Plan:
    """Plan a scenario document (or a spec read from one). Raises ScenarioError (bad input) or
    InfeasibleError (no design).

    `cables` other than CABLES_COUNTED screens the design (a sweep): the cables are not placed
    and counted one by one, and the cables and modules are the fabric engine's (one length a
    segment). CABLES_SAMPLED packs the racks once more with the optics' power of a sample of the
    links where they stand (`cabling_counts.estimated_fabrics`); CABLES_ENGINE packs them with
    the engine's optics. `cache` keeps each fabric planned and each rack packing for given
    inputs, for the designs of a sweep that share them (one catalog for every design that uses
    it). `lay_out_floor` False (a screen only: the cabling needs the floor) leaves the floor
    layout out, `racks.floor` None and `racks.rows` 0; no other figure changes.
    """
    if cables != CABLES_ENGINE:
        lay_out_floor = True
    given_catalog = catalog
    scenario, catalog = validate_scenario(document, catalog)
    if scenario.phases:
        return plan_phases(document, scenario, catalog, lambda phase_document: plan_scenario(
            phase_document, given_catalog, cables=cables, cache=cache, lay_out_floor=lay_out_floor))
    if len(scenario.pools) > 1:
        return site.plan_site(scenario, catalog, lay_out_floor=lay_out_floor)
    if scenario.pools:
        with site.pool_paths():
            plan = plan_scenario(site.one_pool_scenario(scenario), catalog, cables=cables, cache=cache,
                                 lay_out_floor=lay_out_floor)
        return site.one_pool_plan(plan, scenario)
    system = catalog.systems[scenario.compute.system]
    inference = _size_inference(scenario, catalog, system)
    compute = size_compute(_compute_spec(scenario, system, inference), system)
    workload = size_workload(scenario.workload, system, compute.gpus) if scenario.workload else None
    storage, reliability, job_warnings = size_storage_and_reliability(scenario, catalog, system, compute, workload)
    # Fabrics, then racks, floor, cooling and facility with the fabrics' switches and optics.
    fabrics, facility = _fabrics_and_racks(
        scenario, catalog, system, compute, storage, cables=cables, cache=cache, lay_out_floor=lay_out_floor,
    )
    racks = facility.racks
    warnings = compute_warnings(scenario.compute, system, compute) + job_warnings
    warnings += [f"Inference: {warning}" for warning in (inference.warnings if inference else ())]
    warnings += [warning for fabric in fabrics.values() for warning in (*fabric.warnings, *fabric.media_warnings)]
    warnings += facility.warnings
    bom, cost = bom_and_cost(
        scenario, catalog, system_part_counts(system, compute.total_nodes), storage, fabrics, facility,
        gpus=compute.gpus, reliability=reliability,
        dense_tflops_per_gpu=workload.dense_tflops_per_gpu if workload else system.dense_bf16_tflops_per_gpu,
    )
    if inference is not None:
        inference = inference_with_token_cost(inference, cost.tco_usd, scenario.finance.years)
        cost = replace(cost, usd_per_million_output_tokens=inference.usd_per_million_output_tokens)
    return Plan(
        name=scenario.name,
        compute=compute,
        racks=racks,
        fabrics=fabrics or None,
        power=facility.power,
        workload=workload,
        inference=inference,
        storage=storage,
        reliability=reliability,
        cost=cost,
        bom=bom,
        warnings=tuple(warnings),
        sources=bom_sources(bom, catalog),
        inputs=scenario,
        catalog=catalog,
    )


PLAN_AND_PACK_ROUNDS = 6
"""Plan-and-pack rounds until top-of-rack leaves and the PDUs on the oob network agree with the
racks (they agree after one to three)."""
CABLING_ROUNDS = 10
"""Count-and-pack rounds, the PDUs joining oob included (they agree after one to three)."""
ESTIMATE_ROUNDS = 3
"""Sampled estimates of the optics' power before the cables are counted: another where the
last moved devices between racks, where the sample is at most 1 / ESTIMATE_SHARE of the links."""
ESTIMATE_SHARE = 4


def _fabrics_and_racks(
    scenario: ScenarioSpec, catalog: CatalogSnapshot, system: SystemSpec, compute: ComputeResult,
    storage: StorageResult | None, *, cables: str = CABLES_COUNTED, cache: MutableMapping | None = None,
    lay_out_floor: bool = True,
) -> tuple[dict[str, FabricResult], RacksAndPower]:
    """Every fabric the scenario names, then the racks and power with their switches and optics.

    Two inputs of the fabrics are only known once racks are packed, which needs the fabrics'
    switches:
    - top-of-rack leaves share the compute racks: their count depends on the systems per rack,
      which their rack units and power lower in turn;
    - the oob network serves every rack PDU's management port, and PDUs follow the racks (each
      rack's kW), which the oob switches add to.
    And the optics' power, which the racks carry, is only known once every cable is placed.

    Rule: start from the racks packed without switches; plan the fabrics (no PDUs on oob yet)
    and pack again until the systems per rack agree. Then plan the fabrics with the PDUs of the
    last packing on oob, pack, and repeat (only oob is planned again when only the PDUs
    changed) until the packing gives back the PDUs oob was planned with. Then every cable is
    placed on the floor and counted (`cabling_counts.counted_fabrics`: the BOM's cables and optics
    are the cabling plan's rows), and the racks are packed again with the optics' power as
    counted, until the packing places every device where the cables were measured
    (`placement_key`) with the PDUs oob serves. Each round can only add switches, racks and
    PDUs, so this converges, in one or two rounds. Fabric managers, management servers and
    storage systems are known before, and join oob from the start.
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

    def plan(pdus: dict[str, int], planned=None) -> dict[str, FabricResult]:
        pdu_ports = {slug: (count, catalog.pdus[slug].management_ports) for slug, count in pdus.items()}
        extra_endpoints = {
            "storage": storage_endpoint_groups(storage),
            "oob": management_port_endpoints(pdu_ports, servers, stored),
        }
        return plan_fabrics(
            scenario.fabrics, system, compute.total_nodes, nodes_per_rack, catalog, extra_endpoints,
            planned=planned, cache=cache,
        )

    racks_spec = scenario.racks
    systems_per_rack_tried: set[int] = set()

    def follow_systems_per_rack(packed: int) -> None:
        """The top-of-rack leaves follow the systems per rack of the last packing. Where the two
        alternate (leaves for N + 1 systems leave room for only N, and N's leaves for N + 1),
        the racks hold the fewer: the packing is capped there, with a warning."""
        nonlocal nodes_per_rack, racks_spec
        if packed in systems_per_rack_tried:
            packed = min(systems_per_rack_tried | {packed})
            racks_spec = replace(racks_spec, max_nodes_per_rack=packed)
        systems_per_rack_tried.add(packed)
        nodes_per_rack = packed

    last_packing: dict = {}

    def racks_for(fabrics: dict[str, FabricResult], reserve: dict[str, float] | None = None) -> RacksResult:
        """The racks alone: a round reads nothing else (systems and PDUs per rack); `powered`
        adds cooling, facility, parts and warnings to the last packing, once."""
        optics_kw = racks_optics_kw(reserve, fabrics) if reserve else optics_kw_by_device(fabrics)
        system_optics_kw = optics_kw.pop(system.slug, 0.0)
        rated = system
        if system_optics_kw:
            rated = replace(system, power_kw=system.power_kw + system_optics_kw / compute.total_nodes)
        last_packing.clear()
        last_packing.update(
            system=rated, racks=racks_spec, storage_systems=stored, servers=servers, optics_kw_by_switch=optics_kw,
            switch_groups=[group for fabric in fabrics.values() for group in fabric.switch_groups()],
        )
        last_packing["packed"] = packed_racks(
            compute.total_nodes, facility=scenario.facility, catalog=catalog, lay_out_floor=lay_out_floor,
            packing_cache=cache, **last_packing,
        )
        return last_packing["packed"]

    def powered() -> RacksAndPower:
        """The last packing with its cooling, facility, parts and warnings."""
        return racks_and_power(
            compute.total_nodes, facility=scenario.facility, catalog=catalog, lay_out_floor=lay_out_floor,
            finance_facility=scenario.finance.facility, **last_packing,
        )

    def all_but_oob(fabrics: dict[str, FabricResult]) -> dict[str, FabricResult]:
        """Only the PDUs changed: they reach oob alone."""
        return {name: fabric for name, fabric in fabrics.items() if name != "oob"}

    cabled: list = []

    def cabling_for(fabrics: dict[str, FabricResult], racks: RacksResult, key: tuple) -> PlanCabling:
        """The cabling of the fabrics where the racks place the devices (`key`: their
        `placement_key`): the last one made where they are the same fabrics, placed alike (an
        estimate's racks, packed again with its optics, often place them so)."""
        if not cabled or cabled[0] is not fabrics or cabled[1] != key:
            cabled[:] = fabrics, key, PlanCabling(CabledPlan(fabrics, racks, compute, storage, scenario), catalog)
        return cabled[2]

    settled_key = None
    if cables == CABLES_ENGINE and cache is not None:
        # A screened design settles on the same fabrics and rack spec as any other design that
        # shares what the rounds read (not the PUE, climate or prices): pack once with them.
        settled_key = (
            "settled", scenario.fabrics, scenario.racks, scenario.components, system, compute.total_nodes, storage,
            scenario.facility.air_delta_t_k, scenario.facility.water_delta_t_k,
            in_rack_cdu_units(scenario.racks, scenario.facility, catalog), lay_out_floor,
        )
        settled = cache.get(settled_key)
        if settled is not None:
            fabrics, racks_spec = settled
            racks_for(fabrics)
            return fabrics, powered()
    # Top-of-rack leaves and the racks agree, without PDUs on oob yet.
    for _ in range(PLAN_AND_PACK_ROUNDS):
        fabrics = plan({})
        racks = racks_for(fabrics)
        if not top_of_rack or racks.nodes_per_rack == nodes_per_rack:
            break
        follow_systems_per_rack(racks.nodes_per_rack)
    else:
        fabrics = plan({})
        racks = racks_for(fabrics)
    # The PDUs of the last packing join oob, until the packing gives back the PDUs oob was
    # planned with; then the cables are counted where they stand, until the packing with their
    # optics puts every device where they were measured.
    pdus: dict[str, int] = {}
    counted = counted_racks = reserve = estimate = estimated_at = None
    estimates = 0
    seen: set = set()
    for _ in range(CABLING_ROUNDS):
        key = placement_key(racks)
        if key in seen and reserve is None:
            # The counts and PDUs alternate between packings: from now on pack for the largest
            # optics counted, which only grows, so the packing settles.
            reserve = optics_kw_by_device(counted) if counted else {}
        seen.add(key)
        if top_of_rack and racks.nodes_per_rack != nodes_per_rack:
            # The optics as counted changed the systems per rack: the top-of-rack leaves follow.
            follow_systems_per_rack(racks.nodes_per_rack)
            fabrics = plan(pdus)
            racks, counted = racks_for(fabrics, reserve), None
            continue
        if oob and rack_pdu_counts(racks) != pdus:
            pdus = rack_pdu_counts(racks)
            fabrics = plan(pdus, all_but_oob(fabrics))
            # Every fabric's optics as last counted (or estimated): a few PDUs more or less
            # change oob's cables little, and its modules as the engine guesses them (one
            # length a segment) would move the packing back and forth.
            packed_with = counted or estimate
            if packed_with:
                oob_optics = packed_with["oob"].optics_power_kw_by_device
                racks = racks_for({**packed_with, "oob": copy_with(fabrics["oob"], optics_power_kw_by_device=oob_optics)},
                              reserve)
            else:
                racks = racks_for(fabrics, reserve)
            counted = None
            continue
        if not fabrics or (counted is not None and placement_key(counted_racks) == key):
            break
        if cables == CABLES_ENGINE:
            if settled_key is not None:
                cache[settled_key] = (fabrics, racks_spec)
            return fabrics, powered()
        cabling = cabling_for(fabrics, racks, key)
        if estimate is None or (counted_racks is None and estimated_at != key and estimates < ESTIMATE_ROUNDS
                                and _sampled(fabrics)):
            # The engine's optics take one length per segment: first pack with the optics of a
            # sample of the cables where they stand, which often moves switches between racks,
            # and again where they moved, so that the full count is made once, where they end up.
            estimate, estimated_at, estimates = estimated_fabrics(cabling), key, estimates + 1
            racks, seen = racks_for(estimate, reserve), set()
            if cables == CABLES_SAMPLED:
                return estimate, powered()
            continue
        counted = counted_fabrics(cabling)
        counted_racks = racks
        if reserve is not None:
            reserve = {device: max(kw, reserve.get(device, 0.0))
                       for device, kw in {**reserve, **optics_kw_by_device(counted)}.items()}
        racks = racks_for(counted, reserve)
    key = placement_key(racks)
    if fabrics and (counted is None or placement_key(counted_racks) != key):
        cabling = cabling_for(fabrics, racks, key)
        counted = counted_fabrics(cabling)
    facility = powered()
    if racks_spec is not scenario.racks and top_of_rack:
        facility.warnings.append(
            f"The top-of-rack leaves for {racks_spec.max_nodes_per_rack + 1} systems a rack would leave room for only "
            f"{racks_spec.max_nodes_per_rack}: the compute racks hold {racks_spec.max_nodes_per_rack} systems each, "
            f"with their leaves."
        )
    if reserve:
        margin_kw = sum(racks_optics_kw(reserve, counted).values()) - sum(optics_kw_by_device(counted).values())
        if margin_kw > 1e-9:
            facility.warnings.append(
                f"The optics' power moved switches between racks from one count of the cables to the "
                f"next: the racks are packed and powered for the largest count, {margin_kw:,.2f} kW more "
                f"than the modules the cabling plan holds."
            )
    return (counted if fabrics else fabrics), facility


def _sampled(fabrics: dict[str, FabricResult]) -> bool:
    """Whether the optics' estimate samples at most a quarter of the links: only then is another
    estimate worth making before the count (otherwise it costs about what the count does)."""
    links = [link.count for fabric in fabrics.values() for link in fabric.links]
    return sum(links) >= ESTIMATE_SHARE * sum(min(count, SAMPLE_LINKS) for count in links)


def racks_optics_kw(reserve: dict[str, float], counted: dict[str, FabricResult]) -> dict[str, float]:
    """The optics' power [kW] the racks are packed for: the counted, or the reserve where larger."""
    optics_kw = optics_kw_by_device(counted)
    return {device: max(optics_kw.get(device, 0.0), reserve.get(device, 0.0))
            for device in optics_kw.keys() | reserve.keys()}


def optics_kw_by_device(fabrics: dict[str, FabricResult]) -> dict[str, float]:
    """The modules' power [kW] by the slug of the switch or system that holds them, all fabrics.
    A system's share (only when its rating leaves its NIC modules out) is added to its power,
    the switches' to theirs: each module draws in the rack where it is plugged in."""
    totals: dict[str, float] = {}
    for fabric in fabrics.values():
        for device, kw in fabric.optics_power_kw_by_device.items():
            totals[device] = totals.get(device, 0.0) + kw
    return totals


def _compute_spec(scenario: ScenarioSpec, system: SystemSpec, inference: InferenceResult | None = None):
    """The compute section, with the systems the workload needs when it gives the days, or the
    systems the inference load needs."""
    gpus = workload_gpus_needed(scenario.workload, system) if scenario.workload else None
    gpus = inference.gpus_needed if inference else gpus
    if gpus is None:
        return scenario.compute
    return replace(scenario.compute, nodes=-(-gpus // system.gpus))


def _size_inference(scenario: ScenarioSpec, catalog: CatalogSnapshot, system: SystemSpec) -> InferenceResult | None:
    if scenario.inference is None:
        return None
    return size_inference(scenario.inference, system, tuple(catalog.inference_operating_points.values()))
