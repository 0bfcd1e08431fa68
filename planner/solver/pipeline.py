"""The one place that knows the order of the steps: scenario in, plan out."""

from collections.abc import MutableMapping
from dataclasses import replace
from typing import Any, Protocol

from catalog.solver.parts import SystemSpec
from catalog.solver.snapshot import CatalogSnapshot
from core.solver.part_counts import PartCount
from fabric.solver.results import FabricResult
from planner.solver.cluster import ClusterSizing
from planner.solver.compute import ComputeResult, system_with_nics
from planner.solver.phases import plan_phases
from planner.solver.plan import Plan
from planner.solver.pools import one_pool_scenario, pool_paths
from planner.solver.references import check_references
from planner.solver.rounds import FULL_PLAN, PlanOptions
from planner.solver.scenario import ScenarioSpec, read_scenario
from planner.solver.site import SiteSizing, one_pool_plan
from planner.solver.steps import bom_and_cost, size_storage_and_reliability
from planner.solver.tco import CostResult
from planner.solver.workload import WorkloadResult
from power.solver.power_plan import RacksAndPower
from storage.solver.tiers import StorageResult


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
    document: Any, catalog: CatalogSnapshot, options: PlanOptions = FULL_PLAN, *, cache: MutableMapping | None = None,
) -> Plan:
    """Plan a scenario document (or a spec read from one). Raises ScenarioError (bad input) or
    InfeasibleError (no design).

    `options` say how far the plan goes (a sweep's screen, `rounds.PlanOptions`). `cache` keeps
    each fabric planned and each rack packing for given inputs, for the designs of a sweep that
    share them (one catalog for every design that uses it).
    """
    given_catalog = catalog
    scenario, catalog = validate_scenario(document, catalog)
    if scenario.phases:
        return plan_phases(document, scenario, catalog, lambda phase_document: plan_scenario(
            phase_document, given_catalog, options, cache=cache))
    if len(scenario.pools) == 1:
        with pool_paths():
            plan = plan_scenario(one_pool_scenario(scenario), catalog, options, cache=cache)
        return one_pool_plan(plan, scenario)
    sizing = SiteSizing(scenario, catalog) if scenario.pools else ClusterSizing(scenario, catalog)
    return plan_steps(scenario, catalog, sizing, options, cache=cache)


class Sizing(Protocol):
    """One cluster's systems (`cluster.ClusterSizing`) or a site's pools (`site.SiteSizing`),
    sized: what the steps read of them."""

    compute: ComputeResult
    system: SystemSpec
    """The (first pool's) system: storage and reliability read its NICs and failure rate."""
    workload: WorkloadResult | None
    """The (first pool's) training job: its checkpoints size the storage."""

    def fabrics_and_racks(
        self, storage: StorageResult | None, options: PlanOptions, cache: MutableMapping | None = None,
    ) -> tuple[dict[str, FabricResult], RacksAndPower]:
        """The fabrics, racks and power where they agree (`rounds.settle`)."""

    def warnings(self, job_warnings: list[str], fabrics: dict[str, FabricResult], facility: RacksAndPower) -> list[str]:
        """Every warning of the plan, the job's (storage and reliability) among them."""

    def part_counts(self) -> list[PartCount]:
        """The systems' parts for the bill of materials."""

    def dense_tflops_per_gpu(self) -> float | None:
        """What a GPU computes (the cost per GPU-hour's and per TFLOP's denominator)."""

    def priced(self, cost: CostResult, fabrics: dict[str, FabricResult]) -> tuple[CostResult, dict]:
        """The cost with inference's cost per token, and the plan's own sections."""


def plan_steps(
    scenario: ScenarioSpec, catalog: CatalogSnapshot, sizing: Sizing, options: PlanOptions = FULL_PLAN, *,
    cache: MutableMapping | None = None,
) -> Plan:
    """The steps after sizing, for one cluster and a site alike: storage with the job's
    checkpoints and reliability; the fabrics, then racks, floor, cooling and facility with the
    fabrics' switches and optics; the warnings; the bill of materials and its cost of ownership;
    inference priced."""
    storage, reliability, job_warnings = size_storage_and_reliability(
        scenario, catalog, sizing.system, sizing.compute, sizing.workload
    )
    fabrics, facility = sizing.fabrics_and_racks(storage, options, cache)
    warnings = sizing.warnings(job_warnings, fabrics, facility)
    bom, sources, cost = bom_and_cost(
        scenario, catalog, sizing.part_counts(), storage, fabrics, facility, gpus=sizing.compute.gpus,
        reliability=reliability, dense_tflops_per_gpu=sizing.dense_tflops_per_gpu(), cache=cache,
    )
    cost, sections = sizing.priced(cost, fabrics)
    return Plan(
        name=scenario.name,
        compute=sizing.compute,
        racks=facility.racks,
        fabrics=fabrics or None,
        power=facility.power,
        storage=storage,
        reliability=reliability,
        cost=cost,
        bom=bom,
        warnings=tuple(warnings),
        sources=sources,
        inputs=scenario,
        catalog=catalog,
        **sections,
    )
