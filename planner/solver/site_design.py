"""A site's rounds (`rounds.settle`), and one cluster's: a `compute:` scenario is a site of one
pool. Each pool's compute fabric and the shared fabrics over every pool's nodes, planned; each
pool's compute racks, then the site's racks around them, packed.

The shared fabrics take the other pools' nodes as endpoint groups beside the first pool's
(`plan_fabrics`' `extra_endpoints`), as they already take storage systems and management ports:
the fabric engine counts ports by group whatever the device. A shared fabric's top-of-rack
leaves cannot sit in compute racks of several systems, so in a site of several pools they stand
in network racks (with a warning, `site`); with one pool they sit in its compute racks.
"""

from collections.abc import MutableMapping
from dataclasses import dataclass, replace

from catalog.solver.snapshot import CatalogSnapshot
from core.solver.errors import ScenarioError
from core.solver.kept import kept
from core.solver.management import server_groups
from fabric.solver.cable_limit import check_cable_limit
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
from planner.solver.compute import ComputeResult, size_field
from planner.solver.pools import SizedPool, pool_fabric_paths, rated_system, site_compute
from planner.solver.rounds import optics_kw_by_device
from planner.solver.scenario import ScenarioSpec
from planner.solver.site_limits import check_site_limits
from power.solver.power_plan import (
    CooledRacks,
    RackDemand,
    cooled_racks,
    cooled_racks_facility,
    in_rack_cdu_units,
    packed_racks,
)
from power.solver.rack_packing import RacksResult, pack_compute_racks, pack_system_racks
from power.solver.support_racks import switch_equipment, switch_totals
from storage.solver.tiers import storage_endpoint_groups, storage_system_counts

SHARED_FABRICS = ("storage", "inband", "oob")


class SiteDesign:
    """A site's rounds (`rounds.settle`): each pool's compute fabric and the shared fabrics over
    every pool's nodes; each pool's compute racks, then the site's racks around them.

    One pool is one cluster (a `compute:` scenario, or a site of one pool planned as one): its
    fabric is `fabrics.compute`, every fabric's top-of-rack leaves share its compute racks, and
    its limits, warnings and errors are the cluster's. A pool's top-of-rack leaves follow the
    systems per rack of its own last packing.

    `cache` keeps each fabric planned, each packing and each packing cooled, by their inputs,
    for the designs of a sweep that share them; a screen (CABLES_ENGINE) keeps the fabrics and
    rack specs its rounds settled on, for any other design that shares what the rounds read."""

    def __init__(
        self, scenario: ScenarioSpec, catalog: CatalogSnapshot, pools: list[SizedPool], storage, lay_out_floor: bool,
        cache: MutableMapping | None = None,
    ) -> None:
        self.scenario, self.catalog, self.pools, self.storage = scenario, catalog, pools, storage
        self.lay_out_floor, self.cache = lay_out_floor, cache
        self.cluster = len(pools) == 1
        self.oob = scenario.fabrics.oob is not None
        self.reserved_u = in_rack_cdu_units(scenario.racks, scenario.facility, catalog)
        self.racks_specs = {pool.spec.name: scenario.racks for pool in pools}
        shared = [getattr(scenario.fabrics, name) for name in SHARED_FABRICS] if self.cluster else []
        self.nodes_per_rack: dict[str, int | None] = {}
        for pool in pools:
            specs = [pool.spec.fabric, *shared]
            top_of_rack = any(spec is not None and spec.leaf_placement == "top_of_rack" for spec in specs)
            self.nodes_per_rack[pool.spec.name] = pack_compute_racks(
                pool.compute.total_nodes, pool.system, scenario.racks, catalog.cooling_types
            ).nodes_per_rack if top_of_rack else None
        # One pool's fabric is fabrics.compute, whose fabric managers the scenario's servers hold.
        self.servers = _servers(scenario, catalog, [] if self.cluster else pools)
        self.stored = tuple(storage_system_counts(storage))
        self.tried: dict[str, set[int]] = {pool.spec.name: set() for pool in pools}
        self.packed: dict[str, RacksResult] = {}
        """Each pool's compute racks of the last packing; the site's racks it packed for `demand`
        around them (`compute_racks`, their systems drawing `compute_kw`) are `site_packed`."""
        self.demand: RackDemand | None = None
        self.compute_racks: tuple | None = None
        self.compute_kw = 0.0
        self.site_packed: RacksResult | None = None
        self.packing_key: tuple | None = None

    def plan(self, pdus: dict[str, int], planned: dict[str, FabricResult] | None = None) -> dict[str, FabricResult]:
        fabrics = self._cluster_fabrics(pdus, planned) if self.cluster else self._site_fabrics(pdus, planned)
        if not pdus:  # the limits count the fabrics as first planned: the PDUs' cables come on top
            if self.cluster:
                check_cable_limit(fabrics, self.scenario.fabrics, size_field(self.scenario))
            else:
                check_site_limits(cables=sum(link.count for fabric in fabrics.values() for link in fabric.links))
        return fabrics

    def _pdu_ports(self, pdus: dict[str, int]) -> list:
        """The management ports oob serves besides the switches': the PDUs', servers' and storage
        systems'."""
        pdu_ports = {slug: (count, self.catalog.pdus[slug].management_ports) for slug, count in pdus.items()}
        return management_port_endpoints(pdu_ports, self.servers, self.stored)

    def _cluster_fabrics(self, pdus: dict[str, int], planned: dict[str, FabricResult] | None) -> dict[str, FabricResult]:
        """One pool's: every fabric over its systems, whose top-of-rack leaves stand in its
        compute racks (oob's management ports for every other fabric's switches, `plan_fabrics`)."""
        (pool,) = self.pools
        extra = {"storage": storage_endpoint_groups(self.storage), "oob": self._pdu_ports(pdus)}
        if planned is not None:
            planned = {name: fabric for name, fabric in planned.items() if name != "oob"}
        return plan_fabrics(
            self.scenario.fabrics, pool.system, pool.compute.total_nodes, self.nodes_per_rack[pool.spec.name],
            self.catalog, extra, planned=planned, cache=self.cache,
        )

    def _site_fabrics(self, pdus: dict[str, int], planned: dict[str, FabricResult] | None) -> dict[str, FabricResult]:
        """Several pools': each pool's own compute fabric, then the shared fabrics over every
        pool's systems, oob last."""
        scenario, catalog, pools = self.scenario, self.catalog, self.pools
        extra = {name: [system_endpoints(pool.system, pool.compute.total_nodes, name) for pool in pools[1:]]
                 for name in SHARED_FABRICS}
        extra["storage"] += storage_endpoint_groups(self.storage)
        first = (pools[0].system, pools[0].compute.total_nodes, None, catalog)
        if planned is None:
            own = {pool.fabric_name: self._pool_fabric(pool) for pool in pools if pool.spec.fabric is not None}
            fabrics = {**own, **_plan_shared_compute(scenario, catalog, pools)}
            fabrics.update(plan_fabrics(replace(scenario.fabrics, compute=None, oob=None), *first, extra,
                                        cache=self.cache))
        else:
            fabrics = {name: fabric for name, fabric in planned.items() if name != "oob"}
        if self.oob:
            # oob last, serving one management port per switch of every other fabric (one
            # endpoint group per model, as for one pool).
            extra["oob"] += self._pdu_ports(pdus)
            extra["oob"] += management_endpoints(group for fabric in fabrics.values() for group in fabric.switch_groups())
            fabrics = {**fabrics, **plan_fabrics(FabricsSpec(oob=scenario.fabrics.oob), *first, extra,
                                                 cache=self.cache)}
        return fabrics

    def _pool_fabric(self, pool: SizedPool) -> FabricResult:
        """A pool's own compute fabric among several (one pool's is `fabrics.compute`)."""
        nodes_per_rack = self.nodes_per_rack[pool.spec.name]
        return kept(self.cache, lambda: ("pool fabric", pool.fabric_name, pool.spec.fabric, pool.system,
                                         pool.compute.total_nodes, nodes_per_rack),
                    lambda: _plan_pool_fabric(pool, nodes_per_rack, self.catalog))

    def pack(self, fabrics: dict[str, FabricResult], optics_kw: dict[str, float]) -> RacksResult:
        """Each pool's compute racks with its own top-of-rack leaves (one pool: every fabric's),
        then the site's racks."""
        optics_kw = dict(optics_kw)
        system_optics_kw = {slug: optics_kw.pop(slug, 0.0) for slug in {pool.system.slug for pool in self.pools}}
        switch_groups = tuple([group for fabric in fabrics.values() for group in fabric.switch_groups()])
        rated = {pool.spec.name: rated_system(pool, system_optics_kw[pool.system.slug]) for pool in self.pools}

        def key() -> tuple:
            facility = self.scenario.facility
            self.packing_key = (
                "site racks", tuple([(pool.spec.name, pool.fabric_name, pool.compute.total_nodes, rated[pool.spec.name],
                                      self.racks_specs[pool.spec.name]) for pool in self.pools]),
                switch_groups, tuple(optics_kw.items()), self.stored, self.servers, self.scenario.racks,
                facility.air_delta_t_k, facility.water_delta_t_k, self.reserved_u, self.lay_out_floor,
            )
            return self.packing_key

        self.packed, self.demand, self.compute_racks, self.compute_kw, self.site_packed = kept(
            self.cache, key, lambda: self._packed(switch_groups, optics_kw, rated),
        )
        return self.site_packed

    def _packed(self, switch_groups: tuple, optics_kw: dict[str, float], rated: dict) -> tuple:
        scenario, catalog = self.scenario, self.catalog
        equipment = switch_equipment(switch_groups, catalog, optics_kw)
        packed, groups, compute_kw = {}, [], 0.0
        for pool in self.pools:
            system, spec = rated[pool.spec.name], self.racks_specs[pool.spec.name]
            # A pool's own top-of-rack leaves; one pool's racks hold every fabric's.
            fabric = None if self.cluster else pool.fabric_name
            in_compute = switch_totals(switch_groups, "compute_rack", fabric)
            result, pool_groups = pack_system_racks(
                pool.compute.total_nodes, system, spec, catalog, in_compute, equipment, self.reserved_u,
                lambda: _leaf_field(pool, switch_groups, fabric),
            )
            packed[pool.spec.name] = result
            groups += pool_groups
            compute_kw += pool.compute.total_nodes * system.power_kw
        first = self.pools[0].spec.name
        site_racks = packed[first] if self.cluster else replace(
            packed[first], compute=sum(racks.compute for racks in packed.values()))
        check_site_limits(racks=site_racks.compute)
        # One pool's racks are warned about as one cluster's: the demand carries its system and racks.
        system, spec = (rated[first], self.racks_specs[first]) if self.cluster else (self.pools[0].system, scenario.racks)
        demand = RackDemand.of(
            0, system, spec, switch_groups=list(switch_groups), storage_systems=self.stored,
            servers=self.servers, optics_kw_by_switch=optics_kw,
        )
        compute_racks = (site_racks, groups)
        site_packed = packed_racks(
            demand, scenario.facility, catalog, lay_out_floor=self.lay_out_floor, compute_racks=compute_racks,
            packing_cache=self.cache, equipment=equipment,
        )
        return packed, demand, compute_racks, compute_kw, site_packed

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
        cabled_pools = None if self.cluster else {
            pool.spec.name: CabledPool(pool.system.slug, pool.compute, self.packed[pool.spec.name])
            for pool in self.pools
        }
        return PlanCabling(
            CabledPlan(fabrics, racks, site_compute(self.pools), self.storage, self.scenario, cabled_pools), self.catalog
        )

    def settled_key(self) -> tuple | None:
        """A screened design settles on the same fabrics and rack specs as any other design that
        shares what the rounds read (not the PUE, climate or prices)."""
        if self.cache is None:
            return None
        scenario = self.scenario
        return (
            "settled", scenario.fabrics, scenario.racks, scenario.components,
            tuple((pool.spec.fabric, pool.fabric_field, pool.system, pool.compute.total_nodes) for pool in self.pools),
            self.storage, scenario.facility.air_delta_t_k, scenario.facility.water_delta_t_k, self.reserved_u,
            self.lay_out_floor,
        )

    def screened(self, fabrics: dict[str, FabricResult]) -> None:
        key = self.settled_key()
        if key is not None:
            self.cache[key] = (fabrics, dict(self.racks_specs))

    def settled(self) -> tuple[dict[str, FabricResult], CooledRacks] | None:
        """What another screened design that shares what the rounds read settled on, packed."""
        key = self.settled_key()
        settled = None if key is None else self.cache.get(key)
        if settled is None:
            return None
        fabrics, racks_specs = settled
        self.racks_specs = dict(racks_specs)
        self.pack(fabrics, optics_kw_by_device(fabrics))
        return fabrics, self.cooled()

    def cooled(self) -> CooledRacks:
        """The last packing cooled, with its parts and warnings; kept in the cache by all it
        reads: the packing, the facility but its power fields, and who pays for the cooling
        plant (the designs of a sweep that differ only in PUE, energy or finance are cooled
        once)."""
        scenario = self.scenario
        facility, finance_facility = scenario.facility, scenario.finance.facility
        return kept(
            self.cache,
            lambda: ("cooled", self.packing_key, cooled_racks_facility(facility), finance_facility),
            lambda: cooled_racks(
                self.demand, facility, self.catalog, finance_facility=finance_facility,
                lay_out_floor=self.lay_out_floor, compute_racks=self.compute_racks, compute_kw=self.compute_kw,
                packed=self.site_packed, compute_warnings=self.cluster,
            ),
        )

    def warnings(self) -> list[str]:
        capped = [(name, spec.max_nodes_per_rack) for name, spec in self.racks_specs.items()
                  if spec is not self.scenario.racks]
        words = [f"the top-of-rack leaves for {held + 1} systems a rack would leave room for only {held}: the "
                 f"compute racks hold {held} systems each, with their leaves." for _, held in capped]
        if self.cluster:
            return [text[0].upper() + text[1:] for text in words]
        return [f"Pool {name}: {text}" for (name, _), text in zip(capped, words)]


def _leaf_field(pool: SizedPool, switch_groups: tuple, fabric: str | None) -> str:
    """Where the scenario places the leaves in a pool's compute racks (of `fabric`, None: of any)."""
    leaves = next((group.fabric for group in switch_groups
                   if group.placement == "compute_rack" and fabric in (None, group.fabric)), pool.fabric_name)
    return f"{pool.fabric_field if leaves == pool.fabric_name else f'fabrics.{leaves}'}.leaf_placement"


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
    for pool in pools:
        if pool.spec.fabric is not None and pool.spec.fabric.fabric_manager_ports:
            no_servers = replace(scenario.racks, management_servers=0)
            for group in server_groups(no_servers, FabricsSpec(compute=pool.spec.fabric), catalog.servers):
                groups.append(replace(group, fabric=pool.fabric_name))
    return tuple(groups) + server_groups(scenario.racks, scenario.fabrics, catalog.servers)
