"""One cluster (a `compute:` scenario): its systems sized from the GPUs, nodes, workload days or
inference load; its fabrics and racks in the rounds of a site of one pool (`site_design.SiteDesign`,
`rounds.settle`); its warnings, parts and inference priced (`ClusterSizing`, for the pipeline's
steps)."""

from collections.abc import MutableMapping
from dataclasses import replace

from catalog.solver.snapshot import CatalogSnapshot
from core.solver.part_counts import PartCount
from fabric.solver.results import FabricResult
from planner.solver.bom import system_part_counts
from planner.solver.compute import compute_warnings
from planner.solver.pools import cluster_pool
from planner.solver.rounds import PlanOptions, settle
from planner.solver.scenario import ScenarioSpec
from planner.solver.site_design import SiteDesign
from planner.solver.systems import sized_compute, sized_inference
from planner.solver.tco import CostResult
from planner.solver.token_cost import inference_with_token_cost
from planner.solver.workload import size_workload
from power.solver.power_plan import CooledRacks
from storage.solver.tiers import StorageResult


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
    ) -> tuple[dict[str, FabricResult], CooledRacks]:
        """Every fabric the scenario names, then the racks and power with their switches and
        optics, where they agree (`rounds.settle`)."""
        pool = cluster_pool(self.scenario, self.system, self.compute, self.workload, self.inference)
        design = SiteDesign(self.scenario, self.catalog, [pool], storage, options.lay_out_floor, cache)
        return settle(design, options.cables)

    def warnings(self, job_warnings: list[str], fabrics: dict[str, FabricResult], facility: CooledRacks) -> list[str]:
        warnings = compute_warnings(self.scenario.compute, self.system, self.compute) + job_warnings
        warnings += [f"Inference: {warning}" for warning in (self.inference.warnings if self.inference else ())]
        warnings += [warning for fabric in fabrics.values() for warning in (*fabric.warnings, *fabric.media_warnings)]
        return [*warnings, *facility.warnings]

    def part_counts(self) -> list[PartCount]:
        return system_part_counts(self.system, self.compute.total_nodes)

    def dense_tflops_per_gpu(self) -> float | None:
        return self.workload.dense_tflops_per_gpu if self.workload else self.system.dense_bf16_tflops_per_gpu

    def priced(self, cost: CostResult, fabrics: dict[str, FabricResult], years: int) -> tuple[CostResult, dict]:
        """The cost with the inference load's cost per million output tokens over `years`, and
        the plan's workload and inference sections."""
        inference = self.inference
        if inference is not None:
            inference = inference_with_token_cost(inference, cost.tco_usd, years)
            cost = replace(cost, usd_per_million_output_tokens=inference.usd_per_million_output_tokens)
        return cost, {"workload": self.workload, "inference": inference}
