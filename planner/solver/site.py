"""A site of several compute pools: each pool sized (`pools`), the fabrics and racks in the same
rounds as one cluster's (`site_design.SiteDesign`, `rounds.settle`), then the site's power,
cooling, facility, BOM and TCO, and each pool's share.

A `pools:` list of one pool plans as its `compute:` form (`one_pool_plan`), named after the pool.
"""

from collections.abc import MutableMapping
from dataclasses import replace

from catalog.solver.parts import SystemSpec
from catalog.solver.snapshot import CatalogSnapshot
from core.solver.part_counts import PartCount
from fabric.solver.results import FabricResult
from planner.solver.bom import system_part_counts
from planner.solver.compute import compute_warnings
from planner.solver.plan import Plan, PoolFabric, PoolPower, PoolResult, PoolTier
from planner.solver.pools import SizedPool, rated_system, site_compute, size_pool
from planner.solver.rounds import PlanOptions, optics_kw_by_device, settle
from planner.solver.scenario import ScenarioSpec
from planner.solver.site_design import SHARED_FABRICS, SiteDesign
from planner.solver.site_limits import check_site_limits
from planner.solver.tco import CostResult
from planner.solver.token_cost import (
    inference_with_token_cost,
    pool_tco_share_usd,
    site_usd_per_million_output_tokens,
)
from power.solver.power_plan import CooledRacks, compute_rack_warnings
from power.solver.rack_packing import RacksResult


def one_pool_plan(plan: Plan, scenario: ScenarioSpec) -> Plan:
    """The plan of a one-pool scenario's `compute:` form, with its pool under its own name."""
    (pool,) = scenario.pools
    fabric = (plan.fabrics or {}).get("compute")
    racks = plan.racks
    compute_kw = plan.compute.it_kw
    pool_kw = compute_kw + (_fabric_it_kw(fabric, {plan.compute.system}) if fabric else 0.0)
    result = PoolResult(
        system=plan.compute.system, gpus=plan.compute.gpus, compute=plan.compute,
        fabric=_fabric_summary(fabric) if fabric else None,
        racks=replace(racks, network=0, storage=0, management=0, total=racks.compute, rows=0, per_rack=(),
                      floor=None, servers=()),
        power=PoolPower(pool_kw), workload=plan.workload, inference=plan.inference,
    )
    return replace(plan, inputs=scenario, pools={pool.name: result})


class SiteSizing:
    """A site's pools, each sized from its GPUs, nodes, workload days or inference load, and what
    the pipeline's steps read of them (`pipeline.Sizing`): the site's compute is every pool's;
    storage and reliability read the first pool's system and the first training job."""

    def __init__(self, scenario: ScenarioSpec, catalog: CatalogSnapshot) -> None:
        self.scenario, self.catalog = scenario, catalog
        shared_compute = scenario.fabrics.compute is not None
        self.pools = [size_pool(index, pool, catalog, len(scenario.pools), shared_compute)
                      for index, pool in enumerate(scenario.pools)]
        self.compute = site_compute(self.pools)
        check_site_limits(gpus=sum(pool.compute.total_nodes * pool.system.gpus for pool in self.pools))
        self.system = self.pools[0].system
        self.workload = next((pool.workload for pool in self.pools if pool.workload), None)

    def fabrics_and_racks(
        self, storage, options: PlanOptions, cache: MutableMapping | None = None,
    ) -> tuple[dict[str, FabricResult], CooledRacks]:
        """Each pool's own fabric and the shared ones, and the racks, in the same rounds as one
        cluster's (`rounds.settle`; a pool's own top-of-rack leaves in its compute racks). A
        screen (`options`) keeps the fabric engine's or a sample's optics."""
        self.design = SiteDesign(self.scenario, self.catalog, self.pools, storage, options.lay_out_floor, cache)
        fabrics, facility = settle(self.design, options.cables)
        optics_kw = optics_kw_by_device(fabrics)
        self.rated = {pool.spec.name: rated_system(pool, optics_kw.get(pool.system.slug, 0.0)) for pool in self.pools}
        return fabrics, facility

    def warnings(self, job_warnings: list[str], fabrics: dict[str, FabricResult], facility: CooledRacks) -> list[str]:
        """The site's (reliability's are the site's: its spares are every pool's together), each
        pool's own, the shared fabrics', the racks' and facility's."""
        scenario = self.scenario
        warnings = [warning.replace("compute.spare_nodes is", "the pools' spare_nodes add up to")
                    for warning in job_warnings]
        for pool in self.pools:
            own = compute_warnings(pool.spec.compute(), pool.system, pool.compute)
            fabric = fabrics.get(pool.fabric_name)
            if fabric is not None and pool.spec.fabric is not None:
                own += [*fabric.warnings, *fabric.media_warnings]
            own += compute_rack_warnings(self.design.packed[pool.spec.name], self.rated[pool.spec.name],
                                         scenario.racks, self.catalog)
            own += list(pool.inference.warnings if pool.inference else ())
            warnings += [f"Pool {pool.spec.name}: {warning}" for warning in own]
        for name in ("compute", *SHARED_FABRICS):
            if name in fabrics:
                warnings += _shared_fabric_warnings(fabrics[name], getattr(scenario.fabrics, name).leaf_placement)
        return [*warnings, *facility.warnings]

    def part_counts(self) -> list[PartCount]:
        return [count for pool in self.pools for count in system_part_counts(pool.system, pool.compute.total_nodes)]

    def dense_tflops_per_gpu(self) -> float | None:
        return _mean_dense_tflops(self.pools)

    def priced(self, cost: CostResult, fabrics: dict[str, FabricResult], years: int) -> tuple[CostResult, dict]:
        """Each pool's result, inference pools priced from their share of the site's TCO over
        `years`."""
        pool_results = {
            pool.spec.name: _pool_result(pool, fabrics, self.design.packed[pool.spec.name], self.rated[pool.spec.name])
            for pool in self.pools
        }
        pool_results, cost = _priced_inference(self.pools, pool_results, cost, self.scenario.prices, years)
        return cost, {"pools": pool_results}


def _priced_inference(pools: list[SizedPool], pool_results: dict, cost, prices: dict[str, float], years: int):
    """Each inference pool's cost per million output tokens over `years`, from its share of the
    site's TCO (token_cost.pool_tco_share_usd: by the price of its systems), and the site's
    together."""
    def systems_usd(pool: SizedPool) -> float:
        return pool.compute.total_nodes * prices.get(pool.system.slug, pool.system.price_usd)

    all_systems_usd = sum(systems_usd(pool) for pool in pools)
    priced = []
    for pool in pools:
        if pool.inference is None:
            continue
        share = pool_tco_share_usd(cost.tco_usd, systems_usd(pool), all_systems_usd)
        inference = inference_with_token_cost(pool.inference, share, years)
        pool_results[pool.spec.name] = replace(pool_results[pool.spec.name], inference=inference)
        priced.append((inference, share))
    if not priced:
        return pool_results, cost
    return pool_results, replace(cost, usd_per_million_output_tokens=site_usd_per_million_output_tokens(priced, years))


def _mean_dense_tflops(pools: list[SizedPool]) -> float | None:
    """Dense TFLOPS per GPU over the site, each pool weighted by its GPUs; None when a pool's
    system gives none (an inline system may leave it out)."""
    figures = [pool.workload.dense_tflops_per_gpu if pool.workload else pool.system.dense_bf16_tflops_per_gpu
               for pool in pools]
    if any(figure is None for figure in figures):
        return None
    return sum(figure * pool.compute.gpus for figure, pool in zip(figures, pools)) / sum(
        pool.compute.gpus for pool in pools)


def _fabric_it_kw(fabric: FabricResult, systems: set[str]) -> float:
    """A fabric's switches and the modules in their ports [kW] (not those in the systems' NICs)."""
    return fabric.switch_power_kw + sum(
        kw for device, kw in fabric.optics_power_kw_by_device.items() if device not in systems
    )


def _fabric_summary(fabric: FabricResult) -> PoolFabric:
    return PoolFabric(
        name=fabric.name, topology=fabric.topology, tier_count=fabric.tier_count,
        tiers=tuple(PoolTier(tier.role, tier.switch, tier.switches) for tier in fabric.tiers),
        switches=sum(tier.switches for tier in fabric.tiers), links=sum(link.count for link in fabric.links),
    )


def _pool_result(pool: SizedPool, fabrics: dict[str, FabricResult], racks: RacksResult, rated: SystemSpec) -> PoolResult:
    fabric = fabrics.get(pool.fabric_name)
    # A fabric the pool shares with others is the site's, like the storage fabric.
    own = fabric is not None and pool.spec.fabric is not None
    it_kw = pool.compute.total_nodes * rated.power_kw + (_fabric_it_kw(fabric, {pool.system.slug}) if own else 0.0)
    return PoolResult(
        system=pool.system.slug, gpus=pool.compute.gpus, compute=pool.compute,
        fabric=_fabric_summary(fabric) if fabric else None, racks=racks, power=PoolPower(it_kw),
        workload=pool.workload, inference=pool.inference,
    )


def _shared_fabric_warnings(fabric: FabricResult, leaf_placement: str) -> list[str]:
    """A shared fabric's warnings; its top-of-rack leaves stand in network racks in a site (the
    engine's sentence for that case speaks of a fabric without systems)."""
    warnings = [*fabric.warnings, *fabric.media_warnings]
    if leaf_placement != "top_of_rack":
        return warnings
    lead = f"The {fabric.name} fabric's leaves stand in network racks, not at the top of compute racks"
    return [
        f"{lead}: in a site of several pools the {fabric.name} fabric serves the nodes of every pool, "
        f"so its top-of-rack leaves are planned in network racks."
        if warning.startswith(lead) else warning
        for warning in warnings
    ]
