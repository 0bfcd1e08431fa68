"""Which systems the cabling plan places, pool by pool, and which pools each fabric serves.

One pool (`compute:`) is the plan's systems in its compute racks. A site of several pools
(`pools:`) packs each pool's compute racks for its own system, pool after pool
(`planner.solver.site`): pool k's systems stand in the compute racks after the earlier pools'.
A pool's own compute fabric (`compute-<pool>`) serves its systems alone; the site's shared
fabrics (storage, in-band, oob, and `compute` for the pools without a fabric of their own) serve
every pool whose system has NICs of that role, in pool order: the fabric engine names the first
such pool's systems `node` and the others by their system's slug.
"""

from typing import TYPE_CHECKING, Any

from fabric.solver.cabling_wiring import NodePool

if TYPE_CHECKING:
    from catalog.solver.snapshot import CatalogSnapshot


def node_pools(plan: Any, catalog: "CatalogSnapshot") -> list[NodePool]:
    """Every pool's systems in cabling order, each with where its racks start."""
    pools = getattr(plan, "pools", None) or {}
    if len(pools) > 1:
        entries = [(name, pool.system, pool.compute.total_nodes, pool.racks) for name, pool in pools.items()]
    else:
        entries = [(next(iter(pools), "compute"), plan.compute.system, plan.compute.total_nodes, plan.racks)]
    result, first_node, first_rack = [], 0, 0
    for name, slug, nodes, racks in entries:
        per_rack = max(getattr(racks, "nodes_per_rack", 1) or 1, 1)
        used = getattr(racks, "compute_rack_units_used", 0) or 0
        system = catalog.systems.get(slug)
        holder = slug if system is not None and not system.nic_optics_in_power else None
        result.append(NodePool(
            name, slug, first_node, nodes, first_rack, per_rack,
            max(getattr(racks, "racks_per_node", 1) or 1, 1), max(used // per_rack, 1), holder,
        ))
        first_node += nodes
        first_rack += getattr(racks, "compute", 0) or 0
    return result


def fabric_node_pools(plan: Any, catalog: "CatalogSnapshot", pools: list[NodePool], fabric: str) -> list[NodePool]:
    """The pools whose systems `fabric` serves, in the fabric engine's order."""
    specs = {spec.name: spec for spec in getattr(getattr(plan, "inputs", None), "pools", ()) or ()}
    if len(pools) == 1:
        return pools
    own = {f"compute-{name}" for name, spec in specs.items() if spec.fabric is not None}
    if fabric in own:
        return [pool for pool in pools if f"compute-{pool.name}" == fabric]
    role = fabric
    serving = [pool for pool in pools if f"compute-{pool.name}" not in own] if fabric == "compute" else pools
    return [pool for pool in serving if _has_ports(catalog, specs.get(pool.name), pool.system, role)]


def _has_ports(catalog: "CatalogSnapshot", spec: Any, slug: str, role: str) -> bool:
    """Whether the pool's systems have NICs of `role` (its own NICs replace the system's)."""
    given = {nic.role: nic for nic in getattr(spec, "nics", ()) or ()}
    if role in given:
        return True
    system = catalog.systems.get(slug)
    return system is not None and system.nic(role) is not None


def pool_fabric_spec(plan: Any, fabric: str) -> Any:
    """The scenario's spec of a fabric: a pool's own (`compute-<pool>`) or the site's."""
    inputs = getattr(plan, "inputs", None)
    for pool in getattr(inputs, "pools", ()) or ():
        if fabric == f"compute-{pool.name}":
            return pool.fabric
    return getattr(getattr(inputs, "fabrics", None), fabric, None)
