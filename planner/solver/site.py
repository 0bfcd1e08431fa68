"""A site of several compute pools: each pool's systems, compute fabric and compute racks; the
site's storage, in-band and oob fabrics over every pool's nodes; the site's racks, floor, power,
cooling, facility, BOM and TCO.

A `pools:` list of one pool plans as its `compute:` form (`one_pool_plan`), named after the pool.

The shared fabrics take the other pools' nodes as endpoint groups beside the first pool's
(`plan_fabrics`' `extra_endpoints`), as they already take storage systems and management ports:
the fabric engine counts ports by group whatever the device, so it needs no change, and the
one-pool pipeline keeps its code path. What that leaves out: a shared fabric's top-of-rack
leaves cannot sit in compute racks of several systems, so in a site they stand in network racks
(with a warning).
"""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace

from catalog.solver.parts import SystemSpec
from catalog.solver.snapshot import CatalogSnapshot
from core.solver.errors import FieldError, InfeasibleError, ScenarioError
from core.solver.management import server_groups
from fabric.solver.cabling import PlanCabling
from fabric.solver.cabling_counts import CabledPlan
from fabric.solver.endpoints import (
    fabric_manager_endpoints,
    management_endpoints,
    management_port_endpoints,
    system_endpoints,
)
from fabric.solver.fabric import plan_fabric, plan_fabrics
from fabric.solver.results import FabricResult
from fabric.solver.specs import FabricsSpec
from planner.solver.bom import bom_sources, system_part_counts
from planner.solver.compute import ComputeResult, compute_warnings, size_compute, system_with_nics
from planner.solver.inference import InferenceResult, size_inference
from planner.solver.plan import Plan, PoolFabric, PoolPower, PoolResult, PoolTier
from planner.solver.rounds import FULL_PLAN, PlanOptions, optics_kw_by_device, settle
from planner.solver.scenario import PoolSpec, ScenarioSpec
from planner.solver.steps import bom_and_cost, size_storage_and_reliability
from planner.solver.token_cost import (
    inference_with_token_cost,
    pool_tco_share_usd,
    site_usd_per_million_output_tokens,
)
from planner.solver.workload import WorkloadResult, size_workload, workload_gpus_needed
from power.solver.power_plan import (
    RackDemand,
    RacksAndPower,
    compute_rack_warnings,
    in_rack_cdu_units,
    packed_racks,
    racks_and_power,
)
from power.solver.rack_packing import (
    RacksResult,
    compute_rack_groups,
    pack_compute_racks,
    pack_compute_racks_with_switches,
)
from power.solver.scale_up_racks import scale_up_switch_rack_groups
from power.solver.support_racks import switch_equipment
from storage.solver.tiers import storage_endpoint_groups, storage_system_counts

SHARED_FABRICS = ("storage", "inband", "oob")


def pool_fabric_name(pool_name: str, pools: int, shared: bool = False) -> str:
    """A pool's compute fabric in `plan.fabrics`: `compute` alone or when it shares the site's
    fabrics.compute, `compute-<pool>` for its own among several."""
    return "compute" if pools == 1 or shared else f"compute-{pool_name}"


@dataclass(frozen=True)
class SizedPool:
    index: int
    spec: PoolSpec
    system: SystemSpec
    """The catalog system with the pool's NICs."""
    compute: ComputeResult
    workload: WorkloadResult | None
    inference: InferenceResult | None
    fabric_name: str

    @property
    def path(self) -> str:
        return f"pools[{self.index}]"


def size_pool(
    index: int, pool: PoolSpec, catalog: CatalogSnapshot, pools: int, shared_compute: bool = False,
) -> SizedPool:
    """The pool's systems from its GPUs, nodes, workload days or inference load.
    `shared_compute`: the site has a fabrics.compute, which a pool without its own joins."""
    path = f"pools[{index}]"
    system = system_with_nics(catalog.systems[pool.system], pool.nics, f"{path}.nics")
    spec = pool.compute()
    inference = None
    if pool.inference is not None:
        with pool_paths(index):
            inference = size_inference(pool.inference, system, tuple(catalog.inference_operating_points.values()))
    gpus = inference.gpus_needed if inference else pool_gpus_needed(pool, system)
    if gpus is not None:
        spec = replace(spec, nodes=-(-gpus // system.gpus))
    compute = size_compute(spec, system)
    workload = size_workload(pool.workload, system, compute.gpus) if pool.workload else None
    shares = shared_compute and pool.fabric is None
    return SizedPool(index, pool, system, compute, workload, inference, pool_fabric_name(pool.name, pools, shares))


def pool_gpus_needed(pool: PoolSpec, system: SystemSpec) -> int | None:
    """The GPUs the pool's workload asks for (its days), or None when the pool gives gpus or
    nodes (an inference section is sized in `size_pool`, which keeps its arithmetic)."""
    if pool.workload is not None:
        return workload_gpus_needed(pool.workload, system)
    return None


def one_pool_scenario(scenario: ScenarioSpec) -> ScenarioSpec:
    """A `pools:` list of one pool as its `compute:` form: its own fabric, or the site's
    `fabrics.compute` when it names none (a lone pool keeps the site's shared fabric)."""
    (pool,) = scenario.pools
    return replace(
        scenario, compute=pool.compute(), pools=(), workload=pool.workload, inference=pool.inference,
        fabrics=replace(scenario.fabrics, compute=pool.fabric or scenario.fabrics.compute),
    )


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


@contextmanager
def pool_paths(index: int = 0) -> Iterator[None]:
    """Errors of a pool planned (or checked) in its `compute:` form, on the pool's own paths."""
    try:
        yield
    except ScenarioError as error:
        pool = f"pools[{index}]"
        moves = (("compute", pool), ("fabrics.compute", f"{pool}.fabric"), ("workload", f"{pool}.workload"),
                 ("inference", f"{pool}.inference"))
        raise type(error)([FieldError(_moved(e.path, moves), e.message) for e in error.errors], error.count) from None


@contextmanager
def _pool_fabric_paths(pool: SizedPool) -> Iterator[None]:
    try:
        yield
    except ScenarioError as error:
        moves = ((f"fabrics.{pool.fabric_name}", f"{pool.path}.fabric"),)
        raise type(error)([FieldError(_moved(e.path, moves), e.message) for e in error.errors], error.count) from None


def _moved(path: str, moves: tuple[tuple[str, str], ...]) -> str:
    for old, new in moves:
        if path == old or path.startswith((old + ".", old + "[")):
            return new + path[len(old):]
    return path


def plan_site(scenario: ScenarioSpec, catalog: CatalogSnapshot, options: PlanOptions = FULL_PLAN) -> Plan:
    """Plan a site of two or more pools. Its cables and optics are the cabling plan's, counted
    where they stand (`cabling_counts.counted_fabrics`), in the same rounds as one pool's
    (`rounds.settle`; a pool's own top-of-rack leaves in that pool's compute racks). A screen
    (`options`) keeps the fabric engine's or a sample's optics."""
    shared_compute = scenario.fabrics.compute is not None
    pools = [size_pool(index, pool, catalog, len(scenario.pools), shared_compute)
             for index, pool in enumerate(scenario.pools)]
    compute = site_compute(pools)
    first_workload = next((pool.workload for pool in pools if pool.workload), None)
    storage, reliability, job_warnings = size_storage_and_reliability(
        scenario, catalog, pools[0].system, compute, first_workload
    )
    design = SiteDesign(scenario, catalog, pools, storage, options.lay_out_floor)
    fabrics, facility = settle(design, options.cables)
    pool_racks = design.packed
    optics_kw = optics_kw_by_device(fabrics)
    rated = {pool.spec.name: _rated(pool, optics_kw.get(pool.system.slug, 0.0)) for pool in pools}
    pool_results = {pool.spec.name: _pool_result(pool, fabrics, pool_racks[pool.spec.name], rated[pool.spec.name])
                    for pool in pools}
    # Reliability is the site's: its spares are every pool's together.
    warnings = [warning.replace("compute.spare_nodes is", "the pools' spare_nodes add up to") for warning in job_warnings]
    for pool in pools:
        own = compute_warnings(pool.spec.compute(), pool.system, pool.compute)
        fabric = fabrics.get(pool.fabric_name)
        if fabric is not None and pool.spec.fabric is not None:
            own += [*fabric.warnings, *fabric.media_warnings]
        own += compute_rack_warnings(pool_racks[pool.spec.name], rated[pool.spec.name], scenario.racks, catalog)
        own += list(pool.inference.warnings if pool.inference else ())
        warnings += [f"Pool {pool.spec.name}: {warning}" for warning in own]
    for name in ("compute", *SHARED_FABRICS):
        if name in fabrics:
            warnings += _shared_fabric_warnings(fabrics[name], getattr(scenario.fabrics, name).leaf_placement)
    warnings += facility.warnings
    bom, cost = bom_and_cost(
        scenario, catalog, [count for pool in pools for count in system_part_counts(pool.system, pool.compute.total_nodes)],
        storage, fabrics, facility, gpus=compute.gpus, reliability=reliability,
        dense_tflops_per_gpu=_mean_dense_tflops(pools),
    )
    pool_results, cost = _priced_inference(pools, pool_results, cost, scenario, catalog)
    return Plan(
        name=scenario.name,
        compute=compute,
        racks=facility.racks,
        fabrics=fabrics or None,
        power=facility.power,
        workload=None,
        storage=storage,
        reliability=reliability,
        cost=cost,
        bom=bom,
        warnings=tuple(warnings),
        sources=bom_sources(bom, catalog),
        inputs=scenario,
        pools=pool_results,
        catalog=catalog,
    )


def _priced_inference(pools: list[SizedPool], pool_results: dict, cost, scenario: ScenarioSpec, catalog: CatalogSnapshot):
    """Each inference pool's cost per million output tokens, from its share of the site's TCO
    (token_cost.pool_tco_share_usd: by the price of its systems), and the site's together."""
    def systems_usd(pool: SizedPool) -> float:
        return pool.compute.total_nodes * scenario.prices.get(pool.system.slug, pool.system.price_usd)

    all_systems_usd = sum(systems_usd(pool) for pool in pools)
    years = scenario.finance.years
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


def site_compute(pools: list[SizedPool]) -> ComputeResult:
    """The site's compute: every sum over the pools. `system` lists the pools' systems joined
    by '+'; `gpus_per_node` is 0 and `node_power_kw` the mean when the systems differ."""
    systems = list(dict.fromkeys(pool.system.slug for pool in pools))
    total_nodes = sum(pool.compute.total_nodes for pool in pools)
    it_kw = sum(pool.compute.it_kw for pool in pools)
    per_node = {pool.compute.gpus_per_node for pool in pools}
    return ComputeResult(
        system="+".join(systems),
        gpus_per_node=per_node.pop() if len(per_node) == 1 else 0,
        nodes=sum(pool.compute.nodes for pool in pools),
        gpus=sum(pool.compute.gpus for pool in pools),
        spare_nodes=sum(pool.compute.spare_nodes for pool in pools),
        total_nodes=total_nodes,
        node_power_kw=it_kw / total_nodes,
        it_kw=it_kw,
    )


def _mean_dense_tflops(pools: list[SizedPool]) -> float | None:
    """Dense TFLOPS per GPU over the site, each pool weighted by its GPUs; None when a pool's
    system gives none (an inline system may leave it out)."""
    figures = [pool.workload.dense_tflops_per_gpu if pool.workload else pool.system.dense_bf16_tflops_per_gpu
               for pool in pools]
    if any(figure is None for figure in figures):
        return None
    return sum(figure * pool.compute.gpus for figure, pool in zip(figures, pools)) / sum(
        pool.compute.gpus for pool in pools)


class SiteDesign:
    """A site's rounds (`rounds.settle`): each pool's compute fabric and the shared fabrics over
    every pool's nodes; each pool's compute racks, then the site's racks around them.

    A pool's top-of-rack compute leaves follow the systems per rack of its own last packing."""

    def __init__(
        self, scenario: ScenarioSpec, catalog: CatalogSnapshot, pools: list[SizedPool], storage, lay_out_floor: bool,
    ) -> None:
        self.scenario, self.catalog, self.pools, self.storage = scenario, catalog, pools, storage
        self.lay_out_floor = lay_out_floor
        self.oob = scenario.fabrics.oob is not None
        self.reserved_u = in_rack_cdu_units(scenario.racks, scenario.facility, catalog)
        self.racks_specs = {pool.spec.name: scenario.racks for pool in pools}
        self.nodes_per_rack: dict[str, int | None] = {}
        for pool in pools:
            top_of_rack = pool.spec.fabric is not None and pool.spec.fabric.leaf_placement == "top_of_rack"
            self.nodes_per_rack[pool.spec.name] = pack_compute_racks(
                pool.compute.total_nodes, pool.system, scenario.racks, catalog.cooling_types
            ).nodes_per_rack if top_of_rack else None
        self.servers = _servers(scenario, catalog, pools)
        self.stored = storage_system_counts(storage)
        self.tried: dict[str, set[int]] = {pool.spec.name: set() for pool in pools}
        self.packed: dict[str, RacksResult] = {}
        """Each pool's compute racks of the last packing; the site's racks it packed for `demand`
        around them (`compute_racks`, their systems drawing `compute_kw`) are `site_packed`."""
        self.demand: RackDemand | None = None
        self.compute_racks: tuple | None = None
        self.compute_kw = 0.0
        self.site_packed: RacksResult | None = None

    def plan(self, pdus: dict[str, int], planned: dict[str, FabricResult] | None = None) -> dict[str, FabricResult]:
        scenario, catalog, pools = self.scenario, self.catalog, self.pools
        extra = {name: [system_endpoints(pool.system, pool.compute.total_nodes, name) for pool in pools[1:]]
                 for name in SHARED_FABRICS}
        extra["storage"] += storage_endpoint_groups(self.storage)
        first = (pools[0].system, pools[0].compute.total_nodes, None, catalog)
        if planned is None:
            own = {
                pool.fabric_name: _plan_pool_fabric(pool, self.nodes_per_rack[pool.spec.name], catalog)
                for pool in pools if pool.spec.fabric is not None
            }
            fabrics = {**own, **_plan_shared_compute(scenario, catalog, pools)}
            fabrics.update(plan_fabrics(replace(scenario.fabrics, compute=None, oob=None), *first, extra))
        else:
            fabrics = {name: fabric for name, fabric in planned.items() if name != "oob"}
        if not self.oob:
            return fabrics
        # oob last, serving one management port per switch of every other fabric (one endpoint
        # group per model, as for one pool).
        pdu_ports = {slug: (count, catalog.pdus[slug].management_ports) for slug, count in pdus.items()}
        extra["oob"] += management_port_endpoints(pdu_ports, self.servers, self.stored)
        extra["oob"] += management_endpoints(group for fabric in fabrics.values() for group in fabric.switch_groups())
        return {**fabrics, **plan_fabrics(FabricsSpec(oob=scenario.fabrics.oob), *first, extra)}

    def pack(self, fabrics: dict[str, FabricResult], optics_kw: dict[str, float]) -> RacksResult:
        """Each pool's compute racks with its own top-of-rack leaves, then the site's racks."""
        scenario, catalog, pools = self.scenario, self.catalog, self.pools
        optics_kw = dict(optics_kw)
        system_optics_kw = {slug: optics_kw.pop(slug, 0.0) for slug in {pool.system.slug for pool in pools}}
        switch_groups = [group for fabric in fabrics.values() for group in fabric.switch_groups()]
        equipment = switch_equipment(switch_groups, catalog, optics_kw)
        self.packed, groups, compute_kw = {}, [], 0.0
        for pool in pools:
            rated = _rated(pool, system_optics_kw[pool.system.slug])
            in_compute: dict[str, int] = {}
            for group in switch_groups:
                if group.fabric == pool.fabric_name and group.placement == "compute_rack":
                    in_compute[group.switch] = in_compute.get(group.switch, 0) + group.count
            if rated.rack_scale and in_compute:
                raise InfeasibleError.at(
                    f"{pool.path}.fabric.leaf_placement",
                    f"a {rated.name} fills its own rack: there is no room for top-of-rack switches "
                    f"in it; choose rail_optimized",
                )
            spec = self.racks_specs[pool.spec.name]
            result = pack_compute_racks_with_switches(
                pool.compute.total_nodes, rated, spec, catalog, in_compute, equipment, self.reserved_u
            )
            self.packed[pool.spec.name] = result
            groups += compute_rack_groups(result, rated, spec, in_compute, equipment)
            groups += scale_up_switch_rack_groups(pool.compute.total_nodes, rated, spec, catalog.cooling_types)
            compute_kw += pool.compute.total_nodes * rated.power_kw
        site_racks = replace(self.packed[pools[0].spec.name], compute=sum(r.compute for r in self.packed.values()))
        self.demand = RackDemand.of(
            0, pools[0].system, scenario.racks, switch_groups=switch_groups, storage_systems=self.stored,
            servers=self.servers, optics_kw_by_switch=optics_kw,
        )
        self.compute_racks, self.compute_kw = (site_racks, groups), compute_kw
        self.site_packed = packed_racks(
            self.demand, scenario.facility, catalog, lay_out_floor=self.lay_out_floor, compute_racks=self.compute_racks
        )
        return self.site_packed

    def _moved(self) -> list[str]:
        return [name for name, wanted in self.nodes_per_rack.items()
                if wanted is not None and self.packed[name].nodes_per_rack != wanted]

    def leaves_moved(self) -> bool:
        return bool(self._moved())

    def follow_leaves(self) -> None:
        for name in self._moved():
            got = self.packed[name].nodes_per_rack
            if got in self.tried[name]:
                # Leaves for N + 1 systems leave room for N, N's for N + 1: hold the fewer.
                got = min(self.tried[name] | {got})
                self.racks_specs[name] = replace(self.racks_specs[name], max_nodes_per_rack=got)
            self.tried[name].add(got)
            self.nodes_per_rack[name] = got

    def cabling(self, fabrics: dict[str, FabricResult], racks: RacksResult) -> PlanCabling:
        cabled_pools = {pool.spec.name: CabledPool(pool.system.slug, pool.compute, self.packed[pool.spec.name])
                        for pool in self.pools}
        return PlanCabling(
            CabledPlan(fabrics, racks, site_compute(self.pools), self.storage, self.scenario, cabled_pools), self.catalog
        )

    def screened(self, fabrics: dict[str, FabricResult]) -> None:
        return None

    def powered(self) -> RacksAndPower:
        scenario = self.scenario
        return racks_and_power(
            self.demand, scenario.facility, self.catalog, finance_facility=scenario.finance.facility,
            lay_out_floor=self.lay_out_floor, compute_racks=self.compute_racks, compute_kw=self.compute_kw,
            packed=self.site_packed,
        )

    def warnings(self) -> list[str]:
        return [
            f"Pool {name}: the top-of-rack leaves for {spec.max_nodes_per_rack + 1} systems a rack would leave room "
            f"for only {spec.max_nodes_per_rack}: the compute racks hold {spec.max_nodes_per_rack} systems each, "
            f"with their leaves."
            for name, spec in self.racks_specs.items() if spec is not self.scenario.racks
        ]


@dataclass(frozen=True)
class CabledPool:
    """What the cabling plan reads of a pool: its system, its compute and its racks."""

    system: str
    compute: ComputeResult
    racks: RacksResult


def _plan_shared_compute(
    scenario: ScenarioSpec, catalog: CatalogSnapshot, pools: list[SizedPool]
) -> dict[str, FabricResult]:
    """The site's fabrics.compute over the nodes of every pool without a fabric of its own
    (A100 nodes with 200G HCAs beside H100 nodes with 400G ones under one set of spines): the
    first such pool's systems and the others' as endpoint groups, as the shared fabrics take
    them. Its top-of-rack leaves stand in network racks (`_shared_fabric_warnings`)."""
    sharing = [pool for pool in pools if pool.spec.fabric is None]
    if scenario.fabrics.compute is None or not sharing:
        return {}
    others = {"compute": [system_endpoints(pool.system, pool.compute.total_nodes, "compute") for pool in sharing[1:]]}
    only_compute = FabricsSpec(compute=scenario.fabrics.compute)
    return plan_fabrics(only_compute, sharing[0].system, sharing[0].compute.total_nodes, None, catalog, others)


def _plan_pool_fabric(pool: SizedPool, nodes_per_rack: int | None, catalog: CatalogSnapshot) -> FabricResult:
    spec = pool.spec.fabric
    groups = [system_endpoints(pool.system, pool.compute.total_nodes, "compute")]
    if spec.fabric_manager_ports:
        nic = pool.system.nic("compute")
        groups.append(fabric_manager_endpoints(spec.fabric_manager_ports, nic.gbps if nic else 0))
    with _pool_fabric_paths(pool):
        if groups[0] is None:
            raise ScenarioError.at(
                f"fabrics.{pool.fabric_name}",
                f"{pool.system.name} has no compute NICs: add them (nics) or leave the pool's fabric out",
            )
        return plan_fabric(
            pool.fabric_name, spec, groups, catalog, nodes_per_rack=nodes_per_rack, gpus_per_node=pool.system.gpus,
        )


def _servers(scenario: ScenarioSpec, catalog: CatalogSnapshot, pools: list[SizedPool]):
    """Each pool's fabric managers (its compute fabric's), then the site's fabrics' and its
    management servers."""
    groups = []
    no_servers = replace(scenario.racks, management_servers=0)
    for pool in pools:
        if pool.spec.fabric is not None and pool.spec.fabric.fabric_manager_ports:
            for group in server_groups(no_servers, FabricsSpec(compute=pool.spec.fabric), catalog.servers):
                groups.append(replace(group, fabric=pool.fabric_name))
    return tuple(groups) + server_groups(scenario.racks, scenario.fabrics, catalog.servers)


def _rated(pool: SizedPool, optics_kw: float) -> SystemSpec:
    """The pool's system drawing its share of the NIC modules its rating leaves out, `optics_kw`
    (every fabric's, shared over the nodes of every pool with that system: one slug, one module
    set)."""
    if not optics_kw:
        return pool.system
    return replace(pool.system, power_kw=pool.system.power_kw + optics_kw / pool.compute.total_nodes)


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

