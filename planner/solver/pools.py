"""A site's compute pools, sized: each pool's systems from its GPUs, nodes, workload days or
inference load; its compute fabric's name; the site's compute over every pool; a one-pool
scenario in its `compute:` form, and the errors of a pool planned in that form on the pool's
own paths."""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace

from catalog.solver.parts import SystemSpec
from catalog.solver.snapshot import CatalogSnapshot
from core.solver.errors import FieldError, ScenarioError
from planner.solver.compute import ComputeResult, system_with_nics
from planner.solver.inference import InferenceResult
from planner.solver.scenario import PoolSpec, ScenarioSpec
from planner.solver.systems import sized_compute, sized_inference
from planner.solver.workload import WorkloadResult, size_workload


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
    fabric_field: str
    """Where the scenario writes the pool's compute fabric: `pools[i].fabric`, or `fabrics.compute`
    for one cluster (a `compute:` scenario, planned as a site of one pool)."""


def size_pool(
    index: int, pool: PoolSpec, catalog: CatalogSnapshot, pools: int, shared_compute: bool = False,
) -> SizedPool:
    """The pool's systems from its GPUs, nodes, workload days or inference load, sized as one
    cluster's are (`systems`), its errors on the pool's paths.
    `shared_compute`: the site has a fabrics.compute, which a pool without its own joins."""
    system = system_with_nics(catalog.systems[pool.system], pool.nics, f"pools[{index}].nics")
    with pool_paths(index):
        inference = sized_inference(pool.inference, system, catalog)
        compute = sized_compute(pool.compute(), pool.workload, system, inference)
    workload = size_workload(pool.workload, system, compute.gpus) if pool.workload else None
    shares = shared_compute and pool.fabric is None
    return SizedPool(index, pool, system, compute, workload, inference, pool_fabric_name(pool.name, pools, shares),
                     f"pools[{index}].fabric")


def one_pool_scenario(scenario: ScenarioSpec) -> ScenarioSpec:
    """A `pools:` list of one pool as its `compute:` form: its own fabric, or the site's
    `fabrics.compute` when it names none (a lone pool keeps the site's shared fabric)."""
    (pool,) = scenario.pools
    return replace(
        scenario, compute=pool.compute(), pools=(), workload=pool.workload, inference=pool.inference,
        fabrics=replace(scenario.fabrics, compute=pool.fabric or scenario.fabrics.compute),
    )



COMPUTE_POOL = "compute"
"""The name of a `compute:` scenario's one pool, in the rounds (its plan has no pools section)."""


def cluster_pool(scenario: ScenarioSpec, system: SystemSpec, compute: ComputeResult,
                 workload: WorkloadResult | None, inference: InferenceResult | None) -> SizedPool:
    """A `compute:` scenario as the one pool of a site, sized: its compute fabric,
    `fabrics.compute`, is its own (the reverse of `one_pool_scenario`)."""
    given = scenario.compute
    spec = PoolSpec(COMPUTE_POOL, given.system, given.gpus, given.nodes, spare_nodes=given.spare_nodes,
                    nics=given.nics, fabric=scenario.fabrics.compute)
    return SizedPool(0, spec, system, compute, workload, inference, pool_fabric_name(COMPUTE_POOL, 1),
                     "fabrics.compute")


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
def pool_fabric_paths(pool: SizedPool) -> Iterator[None]:
    try:
        yield
    except ScenarioError as error:
        moves = ((f"fabrics.{pool.fabric_name}", pool.fabric_field),)
        raise type(error)([FieldError(_moved(e.path, moves), e.message) for e in error.errors], error.count) from None


def _moved(path: str, moves: tuple[tuple[str, str], ...]) -> str:
    for old, new in moves:
        if path == old or path.startswith((old + ".", old + "[")):
            return new + path[len(old):]
    return path



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



def rated_system(pool: SizedPool, optics_kw: float) -> SystemSpec:
    """The pool's system drawing its share of the NIC modules its rating leaves out, `optics_kw`
    (every fabric's, shared over the nodes of every pool with that system: one slug, one module
    set)."""
    if not optics_kw:
        return pool.system
    return replace(pool.system, power_kw=pool.system.power_kw + optics_kw / pool.compute.total_nodes)
