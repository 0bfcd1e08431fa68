"""One cluster or a site of several pools: the form's switch between the `compute:` shorthand
and a `pools:` list, keeping every value (phases name the shorthand's pool `compute`)."""

import copy

from planner.solver.scenario import SHORTHAND_POOL

SITE_ACTION = "site_action"
TO_POOLS = "pools"
TO_COMPUTE = "compute"
POOL_PARTS = ("workload", "inference")
"""Sections a one-pool scenario keeps at its top that belong to a pool in a site (the format
refuses them at a site's top): they move into the pool."""


def document_as_site(document: dict) -> dict:
    """`compute:` as the first pool of `pools:` (named as phases name it), with its workload
    and inference."""
    site = copy.deepcopy(document)
    compute = site.pop("compute", None)
    if not isinstance(compute, dict) or site.get("pools"):
        return document
    pool = {"name": SHORTHAND_POOL, **compute}
    for part in POOL_PARTS:
        if part in site:
            pool[part] = site.pop(part)
    site["pools"] = [pool]
    return site


def document_as_cluster(document: dict) -> dict:
    """A site of one pool back as `compute:`: its workload, inference and own fabric to the top."""
    pools = document.get("pools")
    if not isinstance(pools, list) or len(pools) != 1 or not isinstance(pools[0], dict):
        return document
    cluster = copy.deepcopy(document)
    pool = dict(cluster.pop("pools")[0])
    name = pool.pop("name", SHORTHAND_POOL)
    for part in POOL_PARTS:
        if part in pool and part not in cluster:
            cluster[part] = pool.pop(part)
    fabric = pool.pop("fabric", None)
    if isinstance(fabric, dict):
        cluster.setdefault("fabrics", {}).setdefault("compute", fabric)
    cluster["compute"] = {key: value for key, value in pool.items() if key not in POOL_PARTS}
    if name != SHORTHAND_POOL:
        for phase in cluster.get("phases") or ():
            if isinstance(phase, dict) and isinstance(phase.get("pools"), dict) and name in phase["pools"]:
                phase["pools"][SHORTHAND_POOL] = phase["pools"].pop(name)
    return cluster


def site_switched(document: dict, action: str) -> dict:
    if action == TO_POOLS:
        return document_as_site(document)
    if action == TO_COMPUTE:
        return document_as_cluster(document)
    return document
