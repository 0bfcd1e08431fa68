"""Random valid scenario documents, and the plan (or refusal) each one gets.

`scenarios()` draws documents in the scenario format (`/work/shared/spec/scenario-format.md`,
`docs/scenario-reference.md`) across every catalog system (rack-scale ones included) and an
inline custom system with random NICs; 8 to ~20,000 GPUs (most of them small, so the suite
stays fast); every topology, leaf placement, tier choice, oversubscription, plane count and
spine switch (inline switches of radix 8 to 576; ratios any float from 0.25 to 64, or the
round ones); the compute, storage, inband and oob fabrics present or absent, each with a
switch whose ports are fast enough for its links (sometimes an inline switch); racks with a
power budget, cooling that suits the system (liquid-cooled systems get direct_liquid or
immersion) and optional limits; optional storage tiers, quotes and spares.

The documents are valid, but the planner may still refuse a design (a fabric beyond its tiers'
reach, a switch too heavy for its rack): `plan_or_reject` turns ScenarioError and
InfeasibleError into a rejected example. `test_strategy.py` keeps the share that plans above
60 %.
"""

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

from core.solver.errors import ScenarioError
from fabric.solver.cabling import cabling_rows
from planner.solver.pipeline import plan_scenario, validate_scenario

FABRICS = ("compute", "storage", "inband", "oob")
RATIOS = (1, 1.5, 2, 3, 4, 7)
"""The round ratios architects mostly type; `ratios()` also draws any float a form takes."""


def ratios():
    return st.one_of(st.floats(0.25, 64), st.sampled_from(RATIOS))
NIC_GBPS = (1, 25, 100, 200, 400, 800)
CUSTOM_SYSTEM = "custom-gpu-node"
CUSTOM_SWITCH = "custom-switch"


@lru_cache(maxsize=1)
def seed_catalog():
    """The catalog as the seed files give it (Django apps are loaded by pytest-django)."""
    from catalog.rows import catalog_snapshot_from_files

    return catalog_snapshot_from_files()


@dataclass(frozen=True)
class _System:
    """What the strategy needs to know of the system it drew."""

    slug: str
    gpus: int
    power_kw: float
    rack_units: int
    weight_kg: float
    rack_scale: bool
    liquid: bool
    nics: dict[str, tuple[int, float]]


def _catalog_system(slug: str) -> _System:
    part = seed_catalog().systems[slug]
    return _System(
        # What one compute rack of it holds: a multi-rack system (CloudMatrix 384) shares its
        # power and weight over its racks.
        slug, part.gpus, part.compute_rack_kw, part.rack_units, part.compute_rack_weight_kg, part.rack_scale,
        part.liquid_cooling_required, {nic.role: (nic.count, nic.gbps) for nic in part.nics},
    )


@st.composite
def custom_systems(draw) -> dict:
    """An inline system under components.systems, with random NICs (some roles left out)."""
    rack_scale = draw(st.integers(0, 9)) == 0
    if rack_scale:
        gpus = draw(st.sampled_from([36, 72]))
        power_kw = draw(st.sampled_from([60.0, 90.0, 120.0, 135.0]))
        rack_units, weight_kg = draw(st.sampled_from([42, 48])), draw(st.sampled_from([900.0, 1300.0]))
    else:
        gpus = draw(st.sampled_from([1, 2, 4, 8]))
        power_kw = draw(st.sampled_from([0.5, 1.2, 3.0, 6.5, 10.2, 14.3, 18.0]))
        rack_units = draw(st.sampled_from([1, 2, 4, 6, 8, 10]))
        weight_kg = draw(st.sampled_from([15.0, 40.0, 90.0, 130.0, 180.0]))
    nics = [{"role": "compute", "count": draw(st.sampled_from([1, 2, 4, 8] if not rack_scale else [18, 36, 72])),
             "gbps": draw(st.sampled_from(NIC_GBPS[1:]))}]
    for role in ("storage", "inband"):
        if draw(st.booleans()):
            nics.append({"role": role, "count": draw(st.integers(1, 4)), "gbps": draw(st.sampled_from(NIC_GBPS))})
    if draw(st.integers(0, 3)):
        nics.append({"role": "oob", "count": draw(st.sampled_from([1, 1, 2])),
                     "gbps": draw(st.sampled_from([1, 1, 25]))})
    return {
        "slug": CUSTOM_SYSTEM, "name": "Custom GPU node", "price_usd": draw(st.sampled_from([5000, 150000, 300000])),
        "gpus": gpus, "power_kw": power_kw, "rack_units": rack_units, "weight_kg": weight_kg,
        "nics": nics, "rack_scale": rack_scale,
        "liquid_cooling_required": rack_scale and draw(st.booleans()),
        "dense_bf16_tflops_per_gpu": 1000,
    }


@st.composite
def custom_switches(draw, min_gbps: float) -> dict:
    """An inline switch under components.switches whose ports carry `min_gbps` links."""
    port_gbps = draw(st.sampled_from([g for g in (100, 200, 400, 800, 1600) if g >= min_gbps] or [min_gbps]))
    ports = draw(st.one_of(st.sampled_from([8, 16, 24, 32, 48, 64, 128]), st.integers(8, 576)))
    uplinks = draw(st.sampled_from([0, 0, 0, 2, 4, 8]))
    # Twin-port cages only without fixed uplinks (SwitchSpec refuses both), on an even radix.
    ports_per_cage = draw(st.sampled_from([1, 2])) if not uplinks else 1
    ports -= ports % ports_per_cage
    return {
        "slug": CUSTOM_SWITCH, "name": "Custom switch", "price_usd": 10000, "ports": ports,
        "port_gbps": port_gbps, "ports_per_cage": ports_per_cage,
        "split": draw(st.sampled_from([[1], [1, 2], [1, 2, 4]])),
        "uplink_ports": uplinks, "uplink_gbps": port_gbps if uplinks else 0,
        "power_w": draw(st.sampled_from([150, 800, 1500])), "rack_units": draw(st.sampled_from([1, 2])),
    }


def _gpus(draw, system: _System, max_gpus: int) -> int:
    """Mostly small clusters, now and then a large one."""
    size = draw(st.sampled_from(["tiny"] * 10 + ["small"] * 6 + ["medium"] * 2 + ["large"]))
    low, high = {"tiny": (8, 256), "small": (257, 2048), "medium": (2049, 8192), "large": (8193, 20_000)}[size]
    high = max(min(high, max_gpus), 8)
    low = min(low, high)
    return max(draw(st.integers(low, high)), 1)


def _switch_fits(switch, link_gbps: float) -> bool:
    return switch.port_gbps >= link_gbps * (1 - 1e-9)


@st.composite
def _fabric(draw, name: str, link_gbps: float, components: dict, allow_custom: bool) -> dict:
    catalog = seed_catalog()
    planes = draw(st.sampled_from([1, 1, 1, 2, 3, 4])) if name != "oob" else draw(st.sampled_from([1, 1, 2]))
    per_plane = link_gbps / planes
    fitting = sorted(slug for slug, switch in catalog.switches.items() if _switch_fits(switch, per_plane))
    fabric: dict[str, Any] = {}
    if allow_custom and "switches" not in components and draw(st.integers(0, 7)) == 0:
        components["switches"] = [draw(custom_switches(per_plane))]
        fabric["switch"] = CUSTOM_SWITCH
        switch_gbps = components["switches"][0]["port_gbps"]
        uplink_gbps = components["switches"][0]["uplink_gbps"] or switch_gbps
    else:
        slug = draw(st.sampled_from(fitting))
        fabric["switch"] = slug
        switch = catalog.switches[slug]
        uplink_gbps = switch.uplink_gbps if switch.uplink_ports else switch.port_gbps
    topology = draw(st.sampled_from(["fat_tree"] * 4 + ["rail_only", "dragonfly"]))
    if topology != "fat_tree" or draw(st.booleans()):
        fabric["topology"] = topology
    if draw(st.booleans()):
        fabric["leaf_placement"] = draw(st.sampled_from(["rail_optimized", "top_of_rack"]))
    if draw(st.booleans()):
        fabric["tiers"] = draw(st.sampled_from(["auto", 2, 3]))
    over = draw(st.integers(0, 2))
    if over == 1:
        fabric["oversubscription"] = draw(ratios())
    elif over == 2:
        fabric["oversubscription"] = {"leaf": draw(ratios()), "spine": draw(ratios())}
    if planes > 1:
        fabric["planes"] = planes
    fixed_uplinks_faster = uplink_gbps > (components["switches"][0]["port_gbps"] if fabric["switch"] == CUSTOM_SWITCH
                                          else catalog.switches[fabric["switch"]].port_gbps)
    if draw(st.integers(0, 3)) == 0 or (fixed_uplinks_faster and draw(st.integers(0, 3))):
        spines = sorted(slug for slug, switch in catalog.switches.items() if _switch_fits(switch, uplink_gbps))
        if spines:
            fabric["spine_switch"] = draw(st.sampled_from(spines))
    if name in ("compute", "storage") and draw(st.integers(0, 3)) == 0:
        fabric["fabric_manager_ports"] = draw(st.integers(1, 4))
    if draw(st.integers(0, 3)) == 0:
        fabric["optical_media"] = "aoc"
    if topology == "dragonfly" and draw(st.integers(0, 4)) == 0:
        fabric["dragonfly"] = {draw(st.sampled_from(["terminals_per_router", "routers_per_group",
                                                     "global_links_per_router"])): draw(st.integers(2, 16))}
    return fabric


@st.composite
def _racks(draw, system: _System) -> dict:
    cooling_types = seed_catalog().cooling_types
    options = sorted(
        slug for slug, cooling in cooling_types.items()
        if cooling.max_rack_kw >= system.power_kw and (cooling.liquid_fraction > 0 or not system.liquid)
    )
    if system.liquid:
        options = [slug for slug in options if slug in ("direct_liquid", "immersion")] or options
    racks: dict[str, Any] = {"cooling": draw(st.sampled_from(options))}
    per_rack = 1 if system.rack_scale else draw(st.integers(1, 8))
    extra = draw(st.sampled_from([0, 0.5, 1, 2.5, 5, 10]))
    racks["power_budget_kw"] = round(min(system.power_kw * per_rack + extra, 2000), 3)
    if not system.rack_scale and draw(st.booleans()):
        racks["usable_u"] = draw(st.sampled_from([u for u in (42, 44, 48, 52) if u >= system.rack_units]))
    if not system.rack_scale and draw(st.integers(0, 4)) == 0:
        racks["max_nodes_per_rack"] = draw(st.integers(1, 8))
    if draw(st.integers(0, 5)) == 0:
        limits = [w for w in (250.0, 400.0, 600.0, 1000.0, 1500.0, 2000.0) if w >= 2 * system.weight_kg]
        racks["max_weight_kg"] = draw(st.sampled_from(limits or [2 * system.weight_kg]))
    if draw(st.booleans()):
        racks["racks_per_row"] = draw(st.sampled_from([4, 8, 10, 16, 20]))
    if draw(st.integers(0, 2)) == 0:
        racks["network_placement"] = draw(st.sampled_from(["middle_of_row", "end_of_row", "central_rows"]))
    if draw(st.integers(0, 2)) == 0:
        racks["management_servers"] = draw(st.integers(0, 6))
    if draw(st.integers(0, 2)) == 0:
        racks["support_power_budget_kw"] = draw(st.sampled_from([20, 30, 40]))
    if draw(st.integers(0, 3)) == 0:
        racks["network_reserved_u"] = draw(st.integers(0, 8))
    if draw(st.integers(0, 3)) == 0:
        racks["power_feeds"] = "single"
    return racks


@st.composite
def _storage(draw) -> dict:
    systems = sorted(seed_catalog().storage_systems)
    tiers = []
    # One tier per duty: both duties on one tier, or one tier each.
    layouts = [[["training_reads", "checkpoint_writes"]], [["training_reads"]], [["checkpoint_writes"]],
               [["training_reads"], ["checkpoint_writes"]]]
    for serves in draw(st.sampled_from(layouts)):
        tier = {"system": draw(st.sampled_from(systems)), "serves": serves}
        if draw(st.integers(0, 3)) == 0:
            tier["systems"] = draw(st.integers(1, 6))
        tiers.append(tier)
    storage: dict[str, Any] = {"tiers": tiers}
    if draw(st.booleans()):
        storage["read_gbytes_per_s"] = draw(st.sampled_from([20, 100, 500, 2000]))
    else:
        storage["read_gbytes_per_s_per_gpu"] = draw(st.sampled_from([0.1, 0.5, 1.0]))
    storage["checkpoint_tb"] = draw(st.sampled_from([1, 5, 20]))
    storage["checkpoint_write_s"] = draw(st.sampled_from([60, 300, 900]))
    storage["dataset_tb"] = draw(st.sampled_from([10, 100, 1000]))
    return storage


@st.composite
def scenarios(draw, max_gpus: int = 20_000) -> dict:
    """A valid scenario document (see the module docstring)."""
    catalog = seed_catalog()
    document: dict[str, Any] = {"name": "property-based scenario"}
    components: dict[str, Any] = {}
    if draw(st.integers(0, 6)) == 0:
        custom = draw(custom_systems())
        components["systems"] = [custom]
        system = _System(
            CUSTOM_SYSTEM, custom["gpus"], custom["power_kw"], custom["rack_units"], custom["weight_kg"],
            custom["rack_scale"], custom["liquid_cooling_required"],
            {nic["role"]: (nic["count"], nic["gbps"]) for nic in custom["nics"]},
        )
    else:
        system = _catalog_system(draw(st.sampled_from(sorted(catalog.systems))))
    gpus = _gpus(draw, system, max_gpus)
    compute: dict[str, Any] = {"system": system.slug}
    if draw(st.booleans()):
        compute["gpus"] = gpus
    else:
        compute["nodes"] = max(math.ceil(gpus / system.gpus), 1)
    if draw(st.integers(0, 4)) == 0:
        compute["spare_nodes"] = draw(st.integers(1, 4))
    document["compute"] = compute
    document["racks"] = draw(_racks(system))
    storage = draw(_storage()) if draw(st.integers(0, 3)) == 0 else None
    if storage:
        document["storage"] = storage
    fabrics: dict[str, Any] = {}
    for name in FABRICS:
        nic = system.nics.get(name)
        extra_gbps = 0.0
        if name == "storage" and storage:
            extra_gbps = max(catalog.storage_systems[tier["system"]].port_gbps for tier in storage["tiers"])
        if nic is None and not extra_gbps:
            continue
        if draw(st.integers(0, 9)) < (8 if name == "compute" else 4):
            link_gbps = max(nic[1] if nic else 0.0, extra_gbps)
            fabrics[name] = draw(_fabric(name, link_gbps, components, allow_custom=name != "oob"))
    if fabrics or draw(st.booleans()):
        document["fabrics"] = fabrics
    if draw(st.integers(0, 3)) == 0:
        document["prices"] = {system.slug: draw(st.sampled_from([1000, 250000]))}
    if draw(st.integers(0, 3)) == 0:
        document["finance"] = {"spares_percent": {
            part: draw(st.sampled_from([0, 2, 3, 10])) for part in ("network", "optics", "cables")}}
    if components:
        document["components"] = components
    return document


def racks_spanned(system) -> int:
    """The racks whose contents list one system: 1, or each rack of a system that spans several
    (CloudMatrix 384: its 12 compute and 4 switch racks)."""
    return system.compute_racks + system.switch_racks


# -- planning -----------------------------------------------------------------------------------

def plan_or_refusal(document: dict):
    """(plan, catalog with the document's inline parts), or (None, the ScenarioError)."""
    catalog = seed_catalog()
    try:
        plan = plan_scenario(document, catalog)
    except ScenarioError as error:
        return None, error
    _, with_components = validate_scenario(document, catalog)
    return plan, with_components


def plan_or_reject(document: dict):
    """The plan and its catalog; a refused design is rejected (`assume`), not a failure."""
    plan, catalog = plan_or_refusal(document)
    assume(plan is not None)
    return plan, catalog


def rows_of(plan, catalog) -> list[tuple]:
    return list(cabling_rows(plan, catalog))


def _switch_part(slug: str):
    """The catalog switch, or None for an inline one (left to its own pool)."""
    return seed_catalog().switches.get(slug) if slug != CUSTOM_SWITCH else None


def _compute_gbps(document: dict) -> float | None:
    """The rate of the compute NICs of a drawn document's catalog system (None: an inline system
    or none)."""
    system = seed_catalog().systems.get(document["compute"]["system"])
    nic = system.nic("compute") if system is not None else None
    return nic.gbps if nic is not None else None


@st.composite
def site_scenarios(draw, max_gpus: int = 5_000) -> dict:
    """A valid document of two pools: two drawn scenarios, each one's compute and compute fabric
    a pool; the first one's racks, shared fabrics, storage and the rest the site's."""
    first, second = draw(scenarios(max_gpus)), draw(scenarios(max_gpus))
    assume("components" not in first or "components" not in second)  # one inline part of a slug
    pools = []
    for index, document in enumerate((first, second)):
        pool = {"name": f"pool-{index}", **document["compute"]}
        fabric = document.get("fabrics", {}).get("compute")
        if fabric is not None:
            pool["fabric"] = fabric
        pools.append(pool)
    site = {key: value for key, value in first.items() if key not in ("compute", "fabrics", "components")}
    site["pools"] = pools
    site["fabrics"] = {name: spec for name, spec in first.get("fabrics", {}).items() if name != "compute"}
    if "fabric" in pools[0] and draw(st.integers(0, 3)) == 0:
        # Both pools under the first one's compute fabric, when its switch is fast enough for both.
        switch = _switch_part(pools[0]["fabric"]["switch"])
        rates = [_compute_gbps(document) for document in (first, second)]
        if switch is not None and all(rate is not None and _switch_fits(switch, rate) for rate in rates):
            site["fabrics"]["compute"] = pools[0].pop("fabric")
            pools[1].pop("fabric", None)
    components = first.get("components") or second.get("components")
    if components:
        site["components"] = components
    return site
