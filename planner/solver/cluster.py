"""One cluster (a `compute:` scenario): its systems sized from the GPUs, nodes, workload days or
inference load; its fabrics and racks in the rounds a site's pools take too (`ClusterDesign`,
`rounds.settle`); its warnings, parts and inference priced (`ClusterSizing`, for the pipeline's
steps)."""

from collections.abc import MutableMapping
from dataclasses import replace

from catalog.solver.parts import SystemSpec
from catalog.solver.snapshot import CatalogSnapshot
from core.solver.kept import kept
from core.solver.management import server_groups
from core.solver.part_counts import PartCount
from fabric.solver.cable_limit import check_cable_limit
from fabric.solver.cabling import PlanCabling
from fabric.solver.cabling_counts import CabledPlan
from fabric.solver.endpoints import management_port_endpoints
from fabric.solver.fabric import plan_fabrics
from fabric.solver.results import FabricResult
from planner.solver.bom import system_part_counts
from planner.solver.compute import (
    ComputeResult,
    compute_warnings,
    size_field,
)
from planner.solver.rounds import CABLES_ENGINE, PlanOptions, optics_kw_by_device, settle
from planner.solver.scenario import ScenarioSpec
from planner.solver.systems import sized_compute, sized_inference
from planner.solver.tco import CostResult
from planner.solver.token_cost import inference_with_token_cost
from planner.solver.workload import size_workload
from power.solver.power_plan import (
    RackDemand,
    RacksAndPower,
    in_rack_cdu_units,
    packed_racks,
    racks_and_power,
)
from power.solver.rack_packing import RacksResult, pack_compute_racks
from storage.solver.tiers import (
    StorageResult,
    storage_endpoint_groups,
    storage_system_counts,
)


class ClusterSizing:
    """A cluster's systems, from its GPUs or nodes, the days its training job may take, or the
    load it must serve, and what the pipeline's steps read of them (`pipeline.Sizing`)."""

    def __init__(self, scenario: ScenarioSpec, catalog: CatalogSnapshot) -> None:
        self.scenario, self.catalog = scenario, catalog
        self.system = catalog.systems[scenario.compute.system]
        self.inference = sized_inference(scenario.inference, self.system, catalog)
        self.compute = sized_compute(scenario.compute, scenario.workload, self.system, self.inference)
        self.workload = size_workload(scenario.workload, self.system, self.compute.gpus) if scenario.workload else None

    def fabrics_and_racks(
        self, storage: StorageResult | None, options: PlanOptions, cache: MutableMapping | None = None,
    ) -> tuple[dict[str, FabricResult], RacksAndPower]:
        """Every fabric the scenario names, then the racks and power with their switches and
        optics, where they agree (`rounds.settle`)."""
        design = ClusterDesign(self.scenario, self.catalog, self.system, self.compute, storage, cache=cache,
                               lay_out_floor=options.lay_out_floor)
        if options.cables == CABLES_ENGINE:
            settled = design.settled()
            if settled is not None:
                return settled
        return settle(design, options.cables)

    def warnings(self, job_warnings: list[str], fabrics: dict[str, FabricResult], facility: RacksAndPower) -> list[str]:
        warnings = compute_warnings(self.scenario.compute, self.system, self.compute) + job_warnings
        warnings += [f"Inference: {warning}" for warning in (self.inference.warnings if self.inference else ())]
        warnings += [warning for fabric in fabrics.values() for warning in (*fabric.warnings, *fabric.media_warnings)]
        return warnings + facility.warnings

    def part_counts(self) -> list[PartCount]:
        return system_part_counts(self.system, self.compute.total_nodes)

    def dense_tflops_per_gpu(self) -> float | None:
        return self.workload.dense_tflops_per_gpu if self.workload else self.system.dense_bf16_tflops_per_gpu

    def priced(self, cost: CostResult, fabrics: dict[str, FabricResult]) -> tuple[CostResult, dict]:
        """The cost with the inference load's cost per million output tokens, and the plan's
        workload and inference sections."""
        inference = self.inference
        if inference is not None:
            inference = inference_with_token_cost(inference, cost.tco_usd, self.scenario.finance.years)
            cost = replace(cost, usd_per_million_output_tokens=inference.usd_per_million_output_tokens)
        return cost, {"workload": self.workload, "inference": inference}


class ClusterDesign:
    """One cluster's rounds (`rounds.settle`): every fabric the scenario names over its systems,
    and its racks packed with the fabrics' switches and optics.

    `cache` keeps each fabric planned and each rack packing for given inputs, for the designs of
    a sweep that share them; a screen (CABLES_ENGINE) keeps the fabrics and rack spec its rounds
    settled on, for any other design that shares what the rounds read."""

    def __init__(
        self, scenario: ScenarioSpec, catalog: CatalogSnapshot, system: SystemSpec, compute: ComputeResult,
        storage: StorageResult | None, *, cache: MutableMapping | None = None, lay_out_floor: bool = True,
    ) -> None:
        self.scenario, self.catalog, self.system, self.compute = scenario, catalog, system, compute
        self.storage, self.cache, self.lay_out_floor = storage, cache, lay_out_floor
        fabric_specs = [getattr(scenario.fabrics, name) for name in ("compute", "storage", "inband", "oob")]
        self.top_of_rack = any(spec is not None and spec.leaf_placement == "top_of_rack" for spec in fabric_specs)
        self.oob = scenario.fabrics.oob is not None
        self.nodes_per_rack = None
        if self.top_of_rack:
            self.nodes_per_rack = pack_compute_racks(
                compute.total_nodes, system, scenario.racks, catalog.cooling_types
            ).nodes_per_rack
        self.servers = server_groups(scenario.racks, scenario.fabrics, catalog.servers)
        self.stored = storage_system_counts(storage)
        self.racks_spec = scenario.racks
        self.systems_per_rack_tried: set[int] = set()
        self.demand: RackDemand | None = None
        """What the last packing packed, and the racks it gave."""
        self.packed: RacksResult | None = None

    def plan(self, pdus: dict[str, int], planned: dict[str, FabricResult] | None = None) -> dict[str, FabricResult]:
        if planned is not None:
            planned = {name: fabric for name, fabric in planned.items() if name != "oob"}
        pdu_ports = {slug: (count, self.catalog.pdus[slug].management_ports) for slug, count in pdus.items()}
        extra_endpoints = {
            "storage": storage_endpoint_groups(self.storage),
            "oob": management_port_endpoints(pdu_ports, self.servers, self.stored),
        }
        fabrics = plan_fabrics(
            self.scenario.fabrics, self.system, self.compute.total_nodes, self.nodes_per_rack, self.catalog,
            extra_endpoints, planned=planned, cache=self.cache,
        )
        if not pdus:  # the limit counts the fabrics as first planned: the PDUs' cables come on top
            check_cable_limit(fabrics, self.scenario.fabrics, size_field(self.scenario))
        return fabrics

    def pack(self, fabrics: dict[str, FabricResult], optics_kw: dict[str, float]) -> RacksResult:
        """The racks alone: a round reads nothing else (systems and PDUs per rack); `powered`
        adds cooling, facility, parts and warnings to the last packing, once."""
        optics_kw = dict(optics_kw)
        system_optics_kw = optics_kw.pop(self.system.slug, 0.0)
        rated = self.system
        if system_optics_kw:
            rated = replace(self.system, power_kw=self.system.power_kw + system_optics_kw / self.compute.total_nodes)
        self.demand = RackDemand.of(
            self.compute.total_nodes, rated, self.racks_spec, storage_systems=self.stored, servers=self.servers,
            optics_kw_by_switch=optics_kw,
            switch_groups=[group for fabric in fabrics.values() for group in fabric.switch_groups()],
        )
        self.packed = packed_racks(
            self.demand, self.scenario.facility, self.catalog, lay_out_floor=self.lay_out_floor,
            packing_cache=self.cache,
        )
        return self.packed

    def leaves_moved(self) -> bool:
        return self.top_of_rack and self.packed.nodes_per_rack != self.nodes_per_rack

    def follow_leaves(self) -> None:
        """Where the leaves for N + 1 systems leave room for only N, and N's for N + 1, the
        racks hold the fewer: the packing is capped there, with a warning."""
        packed = self.packed.nodes_per_rack
        if packed in self.systems_per_rack_tried:
            packed = min(self.systems_per_rack_tried | {packed})
            self.racks_spec = replace(self.racks_spec, max_nodes_per_rack=packed)
        self.systems_per_rack_tried.add(packed)
        self.nodes_per_rack = packed

    def cabling(self, fabrics: dict[str, FabricResult], racks: RacksResult) -> PlanCabling:
        return PlanCabling(CabledPlan(fabrics, racks, self.compute, self.storage, self.scenario), self.catalog)

    def settled_key(self) -> tuple | None:
        """A screened design settles on the same fabrics and rack spec as any other design that
        shares what the rounds read (not the PUE, climate or prices)."""
        if self.cache is None:
            return None
        scenario = self.scenario
        return (
            "settled", scenario.fabrics, scenario.racks, scenario.components, self.system, self.compute.total_nodes,
            self.storage, scenario.facility.air_delta_t_k, scenario.facility.water_delta_t_k,
            in_rack_cdu_units(scenario.racks, scenario.facility, self.catalog), self.lay_out_floor,
        )

    def screened(self, fabrics: dict[str, FabricResult]) -> None:
        key = self.settled_key()
        if key is not None:
            self.cache[key] = (fabrics, self.racks_spec)

    def settled(self) -> tuple[dict[str, FabricResult], RacksAndPower] | None:
        """What another screened design that shares what the rounds read settled on, packed."""
        key = self.settled_key()
        settled = None if key is None else self.cache.get(key)
        if settled is None:
            return None
        fabrics, self.racks_spec = settled
        self.pack(fabrics, optics_kw_by_device(fabrics))
        return fabrics, self.powered()

    def powered(self) -> RacksAndPower:
        """The last packing cooled and powered; kept in the cache by all it reads (the packing's
        demand, the facility, who pays for its cooling plant): the designs of a sweep that differ
        only in their finance are powered once."""
        scenario = self.scenario
        powered = kept(
            self.cache,
            lambda: ("powered", self.demand, scenario.facility, scenario.finance.facility, self.lay_out_floor),
            lambda: racks_and_power(
                self.demand, scenario.facility, self.catalog, lay_out_floor=self.lay_out_floor,
                finance_facility=scenario.finance.facility, packed=self.packed,
            ),
        )
        return replace(powered, warnings=list(powered.warnings))  # the rounds add theirs to the list

    def warnings(self) -> list[str]:
        spec = self.racks_spec
        if spec is self.scenario.racks or not self.top_of_rack:
            return []
        return [(
            f"The top-of-rack leaves for {spec.max_nodes_per_rack + 1} systems a rack would leave room for only "
            f"{spec.max_nodes_per_rack}: the compute racks hold {spec.max_nodes_per_rack} systems each, "
            f"with their leaves."
        )]
