"""The one place that knows the order of the steps: scenario in, plan out."""

from collections.abc import MutableMapping
from dataclasses import dataclass, fields, replace
from typing import Any, Protocol

import numpy as np

from catalog.solver.parts import SystemSpec
from catalog.solver.snapshot import CatalogSnapshot
from core.solver.kept import kept
from core.solver.part_counts import PartCount
from fabric.solver.results import FabricResult
from planner.solver.bom import BomLine, PartSource
from planner.solver.cluster import ClusterSizing
from planner.solver.compute import ComputeResult, system_with_nics
from planner.solver.phases import plan_phases
from planner.solver.plan import Plan
from planner.solver.pools import one_pool_scenario, pool_paths
from planner.solver.references import check_references
from planner.solver.reliability import ReliabilityResult
from planner.solver.rounds import FULL_PLAN, PlanOptions
from planner.solver.scenario import FinanceSpec, ScenarioSpec, read_scenario
from planner.solver.site import SiteSizing, one_pool_plan
from planner.solver.steps import bill_of_materials, plan_cost, size_storage_and_reliability
from planner.solver.tco import FINANCE_COST_FIELDS, CostResult
from planner.solver.workload import WorkloadResult
from power.solver.power_plan import CooledRacks, cooled_power, cooled_racks_facility
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
    sizing = SiteSizing if scenario.pools else ClusterSizing
    basis = kept(
        cache, lambda: basis_key(scenario, options),
        lambda: plan_basis(scenario, catalog, sizing(scenario, catalog), options, cache=cache),
    )
    return basis.plan(scenario)


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
    ) -> tuple[dict[str, FabricResult], CooledRacks]:
        """The fabrics and the cooled racks where they agree (`rounds.settle`)."""

    def warnings(self, job_warnings: list[str], fabrics: dict[str, FabricResult], facility: CooledRacks) -> list[str]:
        """Every warning of the plan, the job's (storage and reliability) among them."""

    def part_counts(self) -> list[PartCount]:
        """The systems' parts for the bill of materials."""

    def dense_tflops_per_gpu(self) -> float | None:
        """What a GPU computes (the cost per GPU-hour's and per TFLOP's denominator)."""

    def priced(self, cost: CostResult, fabrics: dict[str, FabricResult], years: int) -> tuple[CostResult, dict]:
        """The cost with inference's cost per token over `years`, and the plan's own sections."""


@dataclass(frozen=True)
class PlanBasis:
    """All of a plan but its facility's power and its cost: what the facility's power fields
    (`facility.FACILITY_POWER_FIELDS`: PUE, energy price, backup, losses) and the finance's cost
    fields (`tco.FINANCE_COST_FIELDS`: life, rates, fees) do not reach. A sweep's designs that
    differ only in those share one basis (`basis_key`); each is priced by `plan`."""

    catalog: CatalogSnapshot
    sizing: Sizing
    storage: StorageResult | None
    reliability: ReliabilityResult | None
    fabrics: dict[str, FabricResult]
    racks: CooledRacks
    warnings: tuple[str, ...]
    bom: tuple[BomLine, ...]
    sources: tuple[PartSource, ...]

    def plan(self, scenario: ScenarioSpec) -> Plan:
        """The plan of `scenario`, this basis's or one that differs from it only in the facility's
        power and the finance's cost fields: the facility powered, the cost of ownership and
        inference priced."""
        power = cooled_power(self.racks, scenario.facility)
        sizing = self.sizing
        cost = plan_cost(
            scenario, self.bom, power, gpus=sizing.compute.gpus, reliability=self.reliability,
            dense_tflops_per_gpu=sizing.dense_tflops_per_gpu(),
        )
        cost, sections = sizing.priced(cost, self.fabrics, scenario.finance.years)
        return Plan(
            name=scenario.name,
            compute=sizing.compute,
            racks=self.racks.racks,
            fabrics=self.fabrics or None,
            power=power,
            storage=self.storage,
            reliability=self.reliability,
            cost=cost,
            bom=self.bom,
            warnings=self.warnings,
            sources=self.sources,
            inputs=scenario,
            catalog=self.catalog,
            **sections,
        )


def plan_basis(
    scenario: ScenarioSpec, catalog: CatalogSnapshot, sizing: Sizing, options: PlanOptions = FULL_PLAN, *,
    cache: MutableMapping | None = None,
) -> PlanBasis:
    """The steps after sizing, for one cluster and a site alike, but the facility's power and the
    cost (`PlanBasis.plan`): storage with the job's checkpoints and reliability; the fabrics, then
    racks, floor and cooling plant with the fabrics' switches and optics; the warnings; the bill
    of materials."""
    storage, reliability, job_warnings = size_storage_and_reliability(
        scenario, catalog, sizing.system, sizing.compute, sizing.workload
    )
    fabrics, racks = sizing.fabrics_and_racks(storage, options, cache)
    warnings = sizing.warnings(job_warnings, fabrics, racks)
    bom, sources = bill_of_materials(scenario, catalog, sizing.part_counts(), storage, fabrics, racks, cache)
    return PlanBasis(catalog, sizing, storage, reliability, fabrics, racks, tuple(warnings), bom, sources)


_BASIS_SECTIONS = tuple(
    field.name for field in fields(ScenarioSpec) if field.name not in ("name", "facility", "finance", "prices")
)
_FINANCE_BASIS_FIELDS = tuple(field.name for field in fields(FinanceSpec) if field.name not in FINANCE_COST_FIELDS)


def basis_key(scenario: ScenarioSpec, options: PlanOptions) -> tuple:
    """All that a plan's basis reads (`plan_basis`; the catalog aside, one cache serves one): the
    scenario but its name, its facility's power fields and its finance's cost fields."""
    finance = scenario.finance
    return (
        "basis", options, *(getattr(scenario, name) for name in _BASIS_SECTIONS),
        tuple(sorted(scenario.prices.items())), cooled_racks_facility(scenario.facility),
        *(getattr(finance, name) for name in _FINANCE_BASIS_FIELDS),
    )


PRICED_KEYS = frozenset({
    "facility.pue", "facility.electricity_usd_per_kwh", "facility.average_load", "facility.grid_gco2_per_kwh",
    "facility.wue_l_per_kwh", *(f"finance.{name}" for name in FINANCE_COST_FIELDS if name != "years"),
})
"""Scenario keys a plan may be priced at for arrays of values at once (`priced_scenario`): the
PUE, energy price, load, grid carbon and water of the facility's power fields, and the finance's
cost fields but the life. Only the facility's power (`facility.size_facility`), the cost of
ownership and inference's cost per token read them, with arithmetic that takes an array as it
takes a number (`tco.power`, `cooling_plant.units_needed`)."""


def priced_scenario(scenario: ScenarioSpec, values: dict[str, np.ndarray]) -> ScenarioSpec:
    """The scenario with an array of values at each of some PRICED_KEYS: its plan
    (`plan_scenario`) is the plan of each design at once, its power and cost figures arrays
    over them, its other figures the designs' one."""
    sections: dict[str, dict[str, np.ndarray]] = {}
    for key, column in values.items():
        section, name = key.split(".")
        sections.setdefault(section, {})[name] = column
    return replace(scenario, **{section: replace(getattr(scenario, section), **columns)
                                for section, columns in sections.items()})
