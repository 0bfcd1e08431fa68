"""Bounded work: the quantities a valid scenario drives, checked against stated limits before
the pipeline builds anything.

Each input has its own bounds (the spec dataclasses), but a plan's size follows from products
and quotients of them: GPUs from a training job's FLOPs over very few days, storage systems from
a checkpoint written in a vanishing share of its interval. These are the closed-form figures the
pipeline starts from, worked out here the same way and cheaply, so that a request that would
hold a server for minutes and gigabytes is refused in milliseconds with an `InfeasibleError`
naming the input that drove it.

The limits themselves are guards inside the steps that yield the figures: GPUs where the
systems are sized (`systems`), storage systems in storage sizing (`storage_limits`), racks and
rows in the compute racks' packing (`rack_limits`), cables on the fabrics as the pipeline first
plans them (`cable_limit`), a site's pools together in the site's steps (`site_limits`). So a
plan made without this estimate (a sweep's design) stops there too, before the floor is laid out
or a cable placed; the estimate works the figures out with the same steps and meets the same
guards. The sums over a site's phases and the CPU budget of a request are this module's alone.
"""

from collections.abc import MutableMapping
from dataclasses import dataclass, replace
from typing import Any

from catalog.solver.snapshot import CatalogSnapshot
from core.solver.errors import InfeasibleError, PlanLimitError, ScenarioError
from core.solver.management import server_groups
from fabric.solver.cable_limit import check_cable_limit
from fabric.solver.endpoints import management_port_endpoints
from fabric.solver.fabric import plan_fabrics
from planner.solver.cluster import ClusterSizing
from planner.solver.compute import ComputeResult, size_field, system_with_nics
from planner.solver.phase_checks import phase_error
from planner.solver.phases import phase_document, spec_document
from planner.solver.pipeline import validate_scenario
from planner.solver.pools import one_pool_scenario, pool_paths
from planner.solver.scenario import ScenarioSpec
from planner.solver.site_limits import check_site_limits
from planner.solver.steps import size_storage_and_reliability
from power.solver.rack_packing import pack_compute_racks
from storage.solver.tiers import (
    StorageResult,
    storage_endpoint_groups,
    storage_system_counts,
)

CPU_S_PER_PLAN = 0.003
"""A one-pool plan's fixed cost [CPU s]: validating, sizing, pricing and the plan's sections,
whatever its size (a site's pool, or a phase's).

The coefficients are a non-negative least-squares fit of the estimate's figures to measured
plan times, rounded up: `scripts/benchmark_limits.py --calibrate` plans 15 documents (one pool
of 1k to 10 M GPUs with and without fabrics, rows of 2 racks, 10 and 100 pools sharing a fabric
or with their own, 10 and 50 phases to 24k and 240k GPUs) in one process on a 2-core machine
shared with other work, best of two, plan and its JSON. The fit was 0.00286 s a plan, 0.0133 s a
fabric, 2.61e-7 s a cable, 0 a rack and 1.96e-5 s a row; with the values taken here every
estimate is within a factor of two of the time measured (most within 25 %), and above it for
the heaviest: 50 phases to 240k GPUs (19.4 M cables summed) took 7.0 s, estimated 7.8 s;
10 M GPUs without fabrics 0.76 s, estimated 0.78 s; 100 pools of 5,000 GPUs, each on its own
fabric, 2.2 s, estimated 2.1 s, where 100 pools of 800 sharing one took 0.23 s: what a pool
costs is mostly its fabric (CPU_S_PER_FABRIC)."""
CPU_S_PER_FABRIC = 0.014
"""Planning one fabric (its tiers, links and their placement), besides its cables [CPU s]."""
CPU_S_PER_CABLE = 3e-7
"""Counting and placing one cable where it stands, and its share of the plan's links [CPU s]."""
CPU_S_PER_RACK = 1e-7
"""Packing one compute rack (its rows, below, are what its layout costs) [CPU s]."""
CPU_S_PER_ROW = 2e-5
"""Laying out and describing one row of the floor, its racks' positions [CPU s]."""


@dataclass(frozen=True)
class PlanWork:
    """The work the pipeline will do for one plan or a sum of plans, from the closed forms
    (`check_work_limits`' figures): before anything is planned, cheaply (milliseconds)."""

    plans: int
    """One-pool plans the pipeline makes: each pool of each phase."""
    fabrics: int
    """Fabrics the pipeline plans: each pool's own, and the site's shared ones, in each phase."""
    racks: int
    """Compute racks, summed over the plans."""
    rows: int
    cables: int
    """Cables of every fabric and plane, summed over the plans."""
    driver: str
    """The input that drove the most work (a dotted path), which a refusal names."""

    @property
    def cpu_s(self) -> float:
        """The estimated CPU time of the plan(s) [s], a linear model of the figures above.

        Notes: cpu_s = CPU_S_PER_PLAN x plans + CPU_S_PER_FABRIC x fabrics
        + CPU_S_PER_CABLE x cables + CPU_S_PER_RACK x racks + CPU_S_PER_ROW x rows
        (calibration: CPU_S_PER_PLAN)."""
        return (CPU_S_PER_PLAN * self.plans + CPU_S_PER_FABRIC * self.fabrics + CPU_S_PER_CABLE * self.cables
                + CPU_S_PER_RACK * self.racks + CPU_S_PER_ROW * self.rows)


@dataclass(frozen=True)
class WorkEstimate(PlanWork):
    """The work of a whole request: every phase's plan (each phase is a site planned in full),
    summed, times the designs planned (a sweep's; 1 for a plan)."""

    phases: int = 1
    designs: int = 1
    extra_cpu_s: float = 0.0
    """What the request makes of the plan besides [CPU s]: a workbook's sheets (`workbook_cpu_s`)."""

    @property
    def cpu_s(self) -> float:
        """The estimated CPU time of the request [s]: the designs' plans' sum, and the extra."""
        return self.designs * super().cpu_s + self.extra_cpu_s

    def describe(self) -> str:
        """The figures in words, for a message."""
        parts = [f"{self.plans:,} pool plan{'s' if self.plans != 1 else ''}"]
        if self.phases > 1:
            parts[0] += f" over {self.phases} phases"
        parts += [f"{self.cables:,} cables", f"{self.racks:,} racks"]
        if self.designs > 1:
            parts.append(f"for each of {self.designs:,} designs")
        if self.extra_cpu_s:
            parts.append(f"{self.rows:,} rows of racks in a workbook")
        return ", ".join(parts)


def work_estimate(
    document: Any, catalog: CatalogSnapshot, *, designs: int = 1, budget_cpu_s: float | None = None,
    cache: MutableMapping | None = None,
) -> WorkEstimate:
    """The work a valid document's plan will take, summed over its pools and phases, or
    InfeasibleError when one of its plans would pass a limit above (`check_work_limits`).

    `document` is the document (or the spec read from it) and `catalog` the catalog it is
    planned against, as `planner.solver.pipeline.plan_scenario` takes them. The number of plans
    is counted first (the pools of each phase): past `budget_cpu_s` on that alone, that estimate
    is returned before any plan's figures are worked out. Then each phase's document is read and
    checked as the pipeline will plan it, and its figures summed, stopping once the sum is past
    `budget_cpu_s` (the estimate is then a lower bound, enough to refuse the request).

    `cache` keeps the fabrics planned here for the plan that follows (`plan_scenario`'s
    `cache`): the pipeline's first round plans them with the same inputs.
    """
    scenario, scenario_catalog = validate_scenario(document, catalog)
    phases = len(scenario.phases) or 1
    plans_at_most = sum(max(1, len(phase.pools)) for phase in scenario.phases) or max(1, len(scenario.pools))
    rough = WorkEstimate(plans=plans_at_most, fabrics=0, racks=0, rows=0, cables=0,
                         driver="phases" if scenario.phases else "pools", phases=phases, designs=designs)
    if budget_cpu_s is not None and rough.cpu_s > budget_cpu_s:
        return rough
    if not scenario.phases:
        return _estimate(check_work_limits(scenario, scenario_catalog, cache), phases=1, designs=designs)
    if not isinstance(document, dict):
        document = spec_document(scenario)
    tier_names = tuple(tier.name for tier in scenario.storage.tiers)
    works: list[PlanWork] = []
    for index in reversed(range(len(scenario.phases))):  # the last phase is the site, the largest as a rule
        phase = scenario.phases[index]
        phased_document = phase_document(document, phase, tier_names)
        try:
            phased, phased_catalog = validate_scenario(phased_document, catalog)
            works.append(check_work_limits(phased, phased_catalog, cache))
        except ScenarioError as error:  # named on the phase's own key, as planning the phase would
            raise phase_error(error, index, phase, phased_document) from error
        if budget_cpu_s is not None and sum(work.cpu_s for work in works) * designs > budget_cpu_s:
            break
    total = PlanWork(
        plans=sum(work.plans for work in works), fabrics=sum(work.fabrics for work in works),
        racks=sum(work.racks for work in works),
        rows=sum(work.rows for work in works), cables=sum(work.cables for work in works), driver="phases",
    )
    heaviest = max(works, key=lambda work: work.cpu_s)
    # The largest phase drives the work when it alone is most of it; otherwise their number does.
    driver = heaviest.driver if heaviest.cpu_s * 2 >= total.cpu_s else "phases"
    return _estimate(replace(total, driver=driver), phases=phases, designs=designs)


JOB_CPU_S = 30 * 60.0
"""CPU seconds a background job's plan may take (an export's, a sweep's design's): a job holds
the one job worker, and half an hour of it is the most a plan may ask for."""


def _estimate(work: PlanWork, *, phases: int, designs: int) -> WorkEstimate:
    return WorkEstimate(plans=work.plans, fabrics=work.fabrics, racks=work.racks, rows=work.rows, cables=work.cables,
                        driver=work.driver, phases=phases, designs=designs)


CPU_S_PER_WORKBOOK_ROW = 2.5e-4
"""Writing one row of the floor into the XLSX workbook (its racks' cells) [CPU s]: 10 M GPUs,
39,063 rows, took 9.45 s (openpyxl; measured on this 2-core machine under load), where the
workbook's other sheets take about 0.3 s whatever the size."""


def workbook_cpu_s(rows: int) -> float:
    """The CPU time the XLSX workbook of a plan of `rows` rows of racks takes [s]."""
    return CPU_S_PER_WORKBOOK_ROW * rows


class TooMuchWork(InfeasibleError):
    """A valid plan within the limits that is more work than the budget it was asked under."""


def check_work_budget(estimate: WorkEstimate, budget_cpu_s: float, *, remedy: str = "") -> None:
    """InfeasibleError on the input that drove the work when the estimate is over the budget
    [CPU s]: a request's (`settings.PLAN_INTERACTIVE_CPU_S`, about 2 s: one heavy request on a
    2-core machine otherwise holds a worker and stalls everyone's small plans, issue 27) or a
    job's (`JOB_CPU_S`). `remedy` says what else the user may do (a background job, say)."""
    if estimate.cpu_s <= budget_cpu_s:
        return
    raise TooMuchWork.at(
        estimate.driver,
        f"this plan is too much work for one request: about {estimate.cpu_s:.3g} CPU seconds "
        f"({estimate.describe()}), more than the {budget_cpu_s:g} a request may take"
        f"{remedy or ': plan fewer or smaller pools, fewer phases or fewer planes'}",
    )


def check_work_limits(
    scenario: ScenarioSpec, catalog: CatalogSnapshot, cache: MutableMapping | None = None,
) -> PlanWork:
    """The figures of one plan of a valid scenario (without its phases: `work_estimate` sums
    them), or InfeasibleError when the plan would pass a limit above.

    `catalog` is the catalog with the scenario's components (as `validate_scenario` returns it).
    A site of several pools is checked pool by pool, and its GPUs, racks and cables together.
    """
    if scenario.pools:
        return _check_pools(scenario, catalog)
    return _check_one_pool(scenario, catalog, cache)


def _check_one_pool(scenario: ScenarioSpec, catalog: CatalogSnapshot, cache: MutableMapping | None = None) -> "PlanWork":
    """The limits of a one-pool scenario; its figures, for a site's sums and the estimate. The
    systems are sized as the pipeline sizes them (`cluster.ClusterSizing`), whose guards refuse
    a workload, an inference load or a count past the GPUs a plan may have."""
    sizing = ClusterSizing(scenario, catalog)
    system, compute = sizing.system, sizing.compute
    # storage sized as the pipeline sizes it; its guard refuses too many storage systems
    storage, _, _ = size_storage_and_reliability(scenario, catalog, system, compute, sizing.workload)
    racks, rows = _check_racks(scenario, catalog, compute, system)
    cables, cable_field = _check_cables(scenario, catalog, compute, storage, system, cache)
    fabrics = sum(getattr(scenario.fabrics, name) is not None for name in ("compute", "storage", "inband", "oob"))
    return PlanWork(
        plans=1, fabrics=fabrics, racks=racks, rows=rows, cables=cables,
        driver=cable_field if cables * CPU_S_PER_CABLE >= racks * CPU_S_PER_RACK else size_field(scenario),
    )


def _check_pools(scenario: ScenarioSpec, catalog: CatalogSnapshot) -> "PlanWork":
    """Each pool as a one-pool scenario (its errors on its own paths), then the site's GPUs,
    compute racks and cables summed over its pools (`site_limits.check_site_limits`, which the
    site's own steps apply too). The site's shared fabrics are counted with each pool's share of
    their endpoints."""
    gpus = racks = rows = cables = 0
    heaviest, heaviest_cpu_s = "pools", -1.0
    for index, pool in enumerate(scenario.pools):
        system = system_with_nics(catalog.systems[pool.system], pool.nics, f"pools[{index}].nics")
        with pool_paths(index):
            work = _check_one_pool(
                one_pool_scenario(replace(scenario, pools=(pool,))),
                replace(catalog, systems={**catalog.systems, system.slug: system}),
            )
        racks += work.racks
        rows += work.rows
        cables += work.cables
        if work.cpu_s > heaviest_cpu_s:
            heaviest, heaviest_cpu_s = _pool_path(work.driver, index), work.cpu_s
        nodes = -(-pool.gpus // system.gpus) if pool.gpus is not None else pool.nodes or 0
        gpus += (nodes + pool.spare_nodes) * system.gpus
    check_site_limits(gpus=gpus, racks=racks, cables=cables)
    shared = sum(getattr(scenario.fabrics, name) is not None for name in ("compute", "storage", "inband", "oob"))
    fabrics = shared + sum(pool.fabric is not None for pool in scenario.pools)
    site = PlanWork(plans=len(scenario.pools), fabrics=fabrics, racks=racks, rows=rows, cables=cables,
                    driver="pools")
    # The heaviest pool drives the work when it alone is most of it; otherwise their number does.
    return replace(site, driver=heaviest) if heaviest_cpu_s * 2 >= site.cpu_s else site


def _pool_path(path: str, index: int) -> str:
    """A one-pool scenario's path on the pool's own (as `site.pool_paths` moves an error's)."""
    pool = f"pools[{index}]"
    for old, new in (("fabrics.compute", f"{pool}.fabric"), ("compute", pool), ("workload", f"{pool}.workload"),
                     ("inference", f"{pool}.inference")):
        if path == old or path.startswith((old + ".", old + "[")):
            return new + path[len(old):]
    return path


def _check_racks(
    scenario: ScenarioSpec, catalog: CatalogSnapshot, compute: ComputeResult, system,
) -> tuple[int, int]:
    """The compute racks and their rows, or PlanLimitError past the racks' or rows' limit (the
    packing's own guard, `rack_limits.check_rack_limits`)."""
    try:
        packed = pack_compute_racks(compute.total_nodes, system, scenario.racks, catalog.cooling_types)
    except PlanLimitError:
        raise
    except InfeasibleError:
        return 0, 0  # no system fits a rack: the pipeline says why, in its order
    return packed.compute, -(-packed.compute // scenario.racks.racks_per_row)


def _check_cables(
    scenario: ScenarioSpec, catalog: CatalogSnapshot, compute: ComputeResult, storage: StorageResult | None,
    system, cache: MutableMapping | None = None,
) -> tuple[int, str]:
    """The fabrics planned as the pipeline first plans them (their counts are closed-form, a
    millisecond at any size), before any cable is placed or any rack packed: their cables and
    the input that drove them (the largest fabric's planes, or the systems' count), or
    PlanLimitError past the limit (the guard the pipeline's first round applies,
    `cable_limit.check_cable_limit`)."""
    specs = {name: getattr(scenario.fabrics, name) for name in ("compute", "storage", "inband", "oob")}
    if all(spec is None for spec in specs.values()):
        return 0, size_field(scenario)
    nodes_per_rack = None
    if any(spec is not None and spec.leaf_placement == "top_of_rack" for spec in specs.values()):
        nodes_per_rack = pack_compute_racks(
            compute.total_nodes, system, scenario.racks, catalog.cooling_types
        ).nodes_per_rack
    servers = server_groups(scenario.racks, scenario.fabrics, catalog.servers)
    endpoints = {
        "storage": storage_endpoint_groups(storage),
        "oob": management_port_endpoints({}, servers, storage_system_counts(storage)),
    }
    fabrics = plan_fabrics(scenario.fabrics, system, compute.total_nodes, nodes_per_rack, catalog, endpoints,
                           cache=cache)
    return check_cable_limit(fabrics, scenario.fabrics, size_field(scenario))


