"""A site's rounds (`rounds.settle`): each pool's compute fabric and the shared fabrics over every
pool's nodes, planned; each pool's compute racks, then the site's racks around them, packed.

The shared fabrics take the other pools' nodes as endpoint groups beside the first pool's
(`plan_fabrics`' `extra_endpoints`), as they already take storage systems and management ports:
the fabric engine counts ports by group whatever the device. A shared fabric's top-of-rack
leaves cannot sit in compute racks of several systems, so in a site they stand in network racks
(with a warning, `site`).
"""

from dataclasses import dataclass, replace

from catalog.solver.snapshot import CatalogSnapshot
from core.solver.errors import InfeasibleError, ScenarioError
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
from planner.solver.compute import ComputeResult
from planner.solver.pools import SizedPool, pool_fabric_paths, rated_system, site_compute
from planner.solver.scenario import ScenarioSpec
from planner.solver.site_limits import check_site_limits
from power.solver.power_plan import (
    RackDemand,
    RacksAndPower,
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
        if self.oob:
            # oob last, serving one management port per switch of every other fabric (one
            # endpoint group per model, as for one pool).
            pdu_ports = {slug: (count, catalog.pdus[slug].management_ports) for slug, count in pdus.items()}
            extra["oob"] += management_port_endpoints(pdu_ports, self.servers, self.stored)
            extra["oob"] += management_endpoints(group for fabric in fabrics.values() for group in fabric.switch_groups())
            fabrics = {**fabrics, **plan_fabrics(FabricsSpec(oob=scenario.fabrics.oob), *first, extra)}
        if not pdus:  # the limit counts the fabrics as first planned: the PDUs' cables come on top
            check_site_limits(cables=sum(link.count for fabric in fabrics.values() for link in fabric.links))
        return fabrics

    def pack(self, fabrics: dict[str, FabricResult], optics_kw: dict[str, float]) -> RacksResult:
        """Each pool's compute racks with its own top-of-rack leaves, then the site's racks."""
        scenario, catalog, pools = self.scenario, self.catalog, self.pools
        optics_kw = dict(optics_kw)
        system_optics_kw = {slug: optics_kw.pop(slug, 0.0) for slug in {pool.system.slug for pool in pools}}
        switch_groups = [group for fabric in fabrics.values() for group in fabric.switch_groups()]
        equipment = switch_equipment(switch_groups, catalog, optics_kw)
        self.packed, groups, compute_kw = {}, [], 0.0
        for pool in pools:
            rated = rated_system(pool, system_optics_kw[pool.system.slug])
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
        check_site_limits(racks=site_racks.compute)
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
        """A site keeps nothing for other designs (it takes no sweep cache)."""

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
    with pool_fabric_paths(pool):
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
