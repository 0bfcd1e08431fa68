"""A site built in phases: each phase planned, what each phase buys, and the cost of ownership
with each phase's capex paid on its date and opex growing as phases come online.

Each phase is the scenario document with every pool (and storage tier) at that phase's size,
planned by the ordinary pipeline (`phase_document`); the last phase is the site.

What a phase buys (`capex_usd`, `added`):

- `growth: final`: the site is designed once, for the last phase, and filled in. The first
  phase buys everything the final design shares: the compute fabric's spine and core switches,
  the storage, in-band and out-of-band fabrics, storage and management systems, every rack,
  PDU and cooling unit of the final floor (and, for a built facility, the hall for the final
  IT power). Every phase buys the nodes it adds with the node-bound parts: the compute systems
  and the compute fabric's leaves as the phase's own design counts them (a rail-optimised unit
  needs its leaf per rail however few nodes it holds), and the final design's cables and optics
  in proportion to the nodes (the node-to-leaf links and the leaf uplinks both grow with the
  nodes): installed at the end of phase k, ceil(final quantity x nodes_k / final nodes).
  Spares follow the quantity installed. Nothing is re-cabled: the spines are in
  place from the start and each new leaf's uplinks are plugged once. A phase's racks are the
  final layout filled in: ceil(nodes_k / the final design's systems a rack) plus every
  network, storage and management rack.
- `growth: per_phase`: each phase is designed on its own, the smallest design for its size. A
  phase buys the BOM lines whose quantity grows over the phase before (`added`, with the delta);
  the lines whose quantity falls (`removed`) are parts the new design no longer uses (a
  one-tier fabric's switches becoming two-tier leaves, shorter cables). `recabled_links`
  follows `recabled_link_count`. A built facility pays the hall for the IT power each phase adds.

Installation is the finance section's share of what the phase buys. The IT and facility power
of a phase are its own design's (`growth: final` too: the nodes installed draw the power; the
spines bought early add a few kW that this leaves out).
"""

import copy
import dataclasses
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from core.solver.errors import ScenarioError
from core.solver.part_counts import PartCount
from planner.solver.bom import BomLine, bom_lines, bom_totals_by_category_usd
from planner.solver.phase_checks import changed_systems, check_fits_final_racks, phase_error
from planner.solver.phase_results import BomChange, PhaseResult
from planner.solver.phase_spec import PhaseSpec
from planner.solver.scenario import scenario_pools
from planner.solver.tco import capex_by_category_usd, facility_build_usd
from power.solver.facility import HOURS_PER_YEAR

if TYPE_CHECKING:
    from catalog.solver.snapshot import CatalogSnapshot
    from planner.solver.plan import Plan
    from planner.solver.scenario import ScenarioSpec

DAYS_PER_YEAR = 365.25
SITE_FABRICS = ("storage", "inband", "oob")
"""Fabrics that serve the whole site: bought with the first phase under growth: final."""
SHORTHAND_POOL = "compute"
COUNTED_BY_PHASE = ("compute", "network")
"""Node-bound parts a phase installs as its own design counts them (its systems, and the leaves
its nodes fill: a rail-optimised unit needs a leaf per rail however few nodes it holds); the
cables and optics are the final design's in proportion to the nodes."""


def phase_document(document: dict, phase: PhaseSpec, tier_names: tuple[str, ...]) -> dict:
    """The scenario document at the end of `phase`: each pool at the phase's size, system and
    fabric, pools the phase leaves out or retires dropped, storage tiers resized, changed or left
    out (`built: false`); without `phases`, `growth` and `salvage_share`."""
    phased = copy.deepcopy(document)
    for key in PHASING_KEYS:
        phased.pop(key, None)
    if SHORTHAND_POOL in phase.pools and isinstance(phased.get("compute"), dict):
        _set_pool(phased["compute"], phase.pools[SHORTHAND_POOL])
        if phase.pools[SHORTHAND_POOL].fabric is not None:
            phased.setdefault("fabrics", {})["compute"] = spec_document(phase.pools[SHORTHAND_POOL].fabric)
    if isinstance(phased.get("pools"), list):
        phased["pools"] = [pool for pool in phased["pools"]
                           if pool.get("name") in phase.pools and not phase.pools[pool["name"]].retire]
        for pool in phased["pools"]:
            _set_pool(pool, phase.pools[pool["name"]])
            if phase.pools[pool["name"]].fabric is not None:
                pool["fabric"] = spec_document(phase.pools[pool["name"]].fabric)
    left_out = []
    for key, tier_phase in phase.storage.items():
        index = tier_names.index(key) if key in tier_names else int(key)
        tier = phased["storage"]["tiers"][index]
        tier.update({name: getattr(tier_phase, name) for name in TIER_KEYS if getattr(tier_phase, name) is not None})
        if not tier_phase.built:
            left_out.append(index)
    if left_out:
        phased["storage"]["tiers"] = [tier for index, tier in enumerate(phased["storage"]["tiers"]) if index not in left_out]
    return phased


PHASING_KEYS = ("phases", "growth", "salvage_share")
"""Keys of the scenario about its build-out: a phase's own document has none."""
TIER_KEYS = ("systems", "other_tb", "system")
"""A phase's storage keys that replace the tier's own."""


def _set_pool(pool: dict, size) -> None:
    if size.retire:
        return
    pool.pop("gpus", None)
    pool.pop("nodes", None)
    pool[size.unit] = size.size
    if size.system is not None:
        pool["system"] = size.system


def spec_document(spec: Any) -> Any:
    """A spec read back into the plain document it was read from (lists for tuples; a section
    or value not given, None, left out as the document leaves it out)."""
    if dataclasses.is_dataclass(spec):
        return {field.name: spec_document(getattr(spec, field.name)) for field in dataclasses.fields(spec)
                if field.init and getattr(spec, field.name) is not None}
    if isinstance(spec, dict):
        return {key: spec_document(value) for key, value in spec.items()}
    if isinstance(spec, (list, tuple)):
        return [spec_document(item) for item in spec]
    return spec


def plan_phases(
    document: Any, scenario: "ScenarioSpec", catalog: "CatalogSnapshot", plan_one: Callable[[dict], "Plan"],
) -> "Plan":
    """The site's plan (the last phase's) with `phases` and the phased cost of ownership.

    `plan_one` plans one phase's document (the pipeline's `plan_scenario`); `catalog` is the
    scenario's (its inline components included), to price the parts each phase buys. A problem
    planning a phase is raised at the phase key that caused it (`phase_checks.phase_error`).
    """
    if not isinstance(document, dict):
        document = spec_document(document)
    tier_names = tuple(tier.name for tier in scenario.storage.tiers)
    plans = []
    for index, phase in enumerate(scenario.phases):
        phased = phase_document(document, phase, tier_names)
        try:
            plans.append(plan_one(phased))
        except ScenarioError as error:
            raise phase_error(error, index, phase, phased) from error
    final = plans[-1]
    own_systems = {pool.name: pool.system for pool in scenario_pools(scenario)}
    if scenario.growth == "final":
        check_fits_final_racks(plans, scenario, own_systems)
        retired = {name for phase in scenario.phases for name, size in phase.pools.items() if size.retire}
        own_pools = [frozenset(changed_systems(phase, own_systems)) | (retired & set(phase.pools))
                     for phase in scenario.phases]
        boms = filled_in_boms(plans, catalog, scenario, [bool(pools) for pools in own_pools])
        racks = [filled_in_racks(plan, final, pools) for plan, pools in zip(plans, own_pools, strict=True)]
        early_kw = [installed_early_kw(plan, final, catalog) for plan in plans]
    else:
        boms = [plan.bom for plan in plans]
        racks = [plan.racks.total for plan in plans]
        early_kw = [0.0] * len(plans)
    firsts = scenario.phases[0].start_date
    phases, installed_usd, cumulative = [], 0.0, 0.0
    previous_bom: tuple[BomLine, ...] = ()
    for index, (phase, plan, bom) in enumerate(zip(scenario.phases, plans, boms, strict=True)):
        changes = bom_changes(previous_bom, bom)
        added = tuple(change for change in changes if change.quantity > 0)
        removed = tuple(change for change in changes if change.quantity < 0)
        capex = capex_by_category_usd(
            bom_totals_by_category_usd(added), scenario.finance.installation_share  # type: ignore[arg-type]
        )
        if scenario.finance.facility == "built":
            capex["facility"] = _hall_usd(index, plans, scenario)
        credit_usd = salvage_credit_usd(removed, scenario.salvage_share)
        if credit_usd:
            capex["salvage"] = -credit_usd
        capex_usd = sum(capex.values())
        cumulative += capex_usd
        installed_usd += sum(change.extended_price_usd for change in changes)
        previous = plans[index - 1] if index else None
        it_kw, facility_kw = phase_power_kw(plan, early_kw[index])
        opex = phase_opex_by_category_usd_per_year(plan, installed_usd, scenario, it_kw)
        phases.append(PhaseResult(
            name=phase.name,
            start=phase.start,
            years_from_first=(phase.start_date - firsts).days / DAYS_PER_YEAR,
            gpus=plan.compute.gpus,
            nodes=plan.compute.total_nodes,
            racks=racks[index],
            racks_added=racks[index] - (racks[index - 1] if index else 0),
            it_kw=it_kw,
            facility_kw=facility_kw,
            fabric_tiers=compute_tiers(plan),
            capex_usd=capex_usd,
            capex_by_category_usd=capex,
            cumulative_capex_usd=cumulative,
            opex_usd_per_year=sum(opex.values()),
            opex_by_category_usd_per_year=opex,
            added=added,
            removed=removed,
            recabled_links=recabled_link_count(previous, plan) if scenario.growth == "per_phase" else 0,
            salvage_usd=credit_usd,
        ))
        previous_bom = bom
    cost, warnings = phased_cost(phases, final, scenario)
    return dataclasses.replace(
        final, phases=tuple(phases), cost=cost, warnings=final.warnings + warnings, inputs=scenario,
    )


def salvage_credit_usd(removed: tuple[BomChange, ...], salvage_share: float) -> float:
    """What the parts a phase retires bring back [USD]: salvage_share x their list price
    (sum of |quantity| x unit price over the removed lines). The share is the user's (a resale
    or trade-in quote); 0 by default, as retired gear is often scrapped."""
    return salvage_share * -sum(change.extended_price_usd for change in removed)


def phase_power_kw(plan: "Plan", early_kw: float) -> tuple[float, float]:
    """(IT, facility) power of a phase [kW]: its own design's, plus `early_kw` of IT gear the
    site installed before the phase needs it (growth: final), whose facility power is at the
    phase design's PUE (facility = IT x PUE)."""
    return plan.power.it_kw + early_kw, plan.power.facility_kw + early_kw * plan.power.pue


def installed_early_kw(plan: "Plan", final: "Plan", catalog: "CatalogSnapshot") -> float:
    """growth: final: IT power [kW] of the gear the final design installs from the first phase
    beyond what `plan` (the phase's own design) has: the storage and management systems
    (final's kW by category minus the phase's, at least 0), and the switches of every site fabric
    and of the compute fabrics' tiers above the leaves (final count minus the phase's, x the
    catalog's power without optics [W]). Leaves, nodes and their links are the phase's own."""
    own_kw, final_kw = plan.power.it_kw_by_category, final.power.it_kw_by_category
    early = sum(max(final_kw.get(category, 0.0) - own_kw.get(category, 0.0), 0.0)
                for category in ("storage", "management"))
    own_switches, final_switches = _shared_switches(plan), _shared_switches(final)
    for switch, count in final_switches.items():
        extra = count - own_switches.get(switch, 0)
        if extra > 0 and switch in catalog.switches:
            early += extra * catalog.switches[switch].power_w / W_PER_KW
    return early


W_PER_KW = 1000


def _shared_switches(plan: "Plan") -> dict[str, int]:
    """Switches by slug of the site fabrics and of the compute fabrics' tiers above the leaves."""
    counts: dict[str, int] = {}
    for name, fabric in (plan.fabrics or {}).items():
        for tier in fabric.tiers:
            if name in SITE_FABRICS or tier.role != "leaf":
                counts[tier.switch] = counts.get(tier.switch, 0) + tier.switches
    return counts


def _hall_usd(index: int, plans: list, scenario: "ScenarioSpec") -> float:
    """A built hall: for the final IT power at once (final), or the IT power each phase adds."""
    rate = scenario.finance.build_usd_per_mw
    if scenario.growth == "final":
        return facility_build_usd(plans[-1].power.it_kw, rate) if index == 0 else 0.0
    before = plans[index - 1].power.it_kw if index else 0.0
    return facility_build_usd(max(plans[index].power.it_kw - before, 0.0), rate)


def node_bound_counts(plan: "Plan") -> list[PartCount]:
    """The parts of a design that come with its nodes (installed, spares left out): the compute
    systems and their scale-up links, and every compute fabric's leaves, optics and cables."""
    counts = [PartCount(line.category, line.sku, line.quantity - line.spares, line.length_m)
              for line in plan.bom if line.category in ("compute", "scale_up")]
    for name, fabric in (plan.fabrics or {}).items():
        if name in SITE_FABRICS:
            continue
        counts += [PartCount("network", tier.switch, tier.switches) for tier in fabric.tiers if tier.role == "leaf"]
        counts += [PartCount("optics", part.sku, part.quantity) for part in fabric.transceiver_parts]
        counts += [PartCount("cables", cable.cable, cable.count, cable.length_m) for cable in fabric.cables if cable.cable]
    return counts


def filled_in_boms(
    plans: list, catalog: "CatalogSnapshot", scenario: "ScenarioSpec", own_node_parts: list[bool],
) -> list[tuple[BomLine, ...]]:
    """growth: final: each phase's bill of materials as bought so far: the final design's shared
    parts in full; its node-bound parts (`node_bound_counts`): systems and leaves as the phase's
    own design counts them (at most the final design's), cables and optics at ceil(final
    quantity x nodes_k / final nodes). A phase with a pool on another system than the final
    design's, or one retired before the last phase (`own_node_parts`), has its own design's
    node-bound parts instead: the phase that changes or retires the pool removes them. The last phase's is the final design's own."""
    final = plans[-1]
    node_bound = _summed(node_bound_counts(final))
    shared = _summed([PartCount(line.category, line.sku, line.quantity - line.spares, line.length_m)
                      for line in final.bom])
    for key, quantity in node_bound.items():
        shared[key] = shared.get(key, 0) - quantity
    final_nodes = final.compute.total_nodes
    boms = []
    for plan, own_parts in zip(plans, own_node_parts, strict=True):
        share = plan.compute.total_nodes / final_nodes
        own = _summed(node_bound_counts(plan))
        counts = [PartCount(category, sku, quantity, length_m)
                  for (category, sku, length_m), quantity in shared.items() if quantity > 0]
        if own_parts:
            counts += [PartCount(category, sku, quantity, length_m)
                       for (category, sku, length_m), quantity in own.items()]
        else:
            for (category, sku, length_m), quantity in node_bound.items():
                if category in COUNTED_BY_PHASE:
                    installed = min(own.get((category, sku, length_m), 0), quantity)
                else:
                    installed = math.ceil(quantity * share - 1e-9)
                counts.append(PartCount(category, sku, installed, length_m))
        boms.append(bom_lines(counts, catalog, scenario.prices, scenario.finance.spares_percent))
    return boms


def _summed(counts: list[PartCount]) -> dict[tuple[str, str, float | None], int]:
    totals: dict[tuple[str, str, float | None], int] = {}
    for count in counts:
        key = (count.category, count.sku, count.length_m)
        totals[key] = totals.get(key, 0) + count.quantity
    return totals


def filled_in_racks(plan: "Plan", final: "Plan", own_pools: frozenset[str] = frozenset()) -> int:
    """The final floor filled in: the compute racks each pool's nodes fill at the final design's
    systems a rack (all the racks of a system that spans several), and every network, storage and
    management rack. A pool in `own_pools` (on another system than the final's, or retired before
    the last phase) fills its own design's compute racks (for another system, within the final
    floor's: `phase_checks.check_fits_final_racks`)."""
    final_pools = _pool_racks(final)
    compute = 0
    for name, (nodes, racks) in _pool_racks(plan).items():
        if name in own_pools or name not in final_pools:
            compute += racks.compute
        else:
            laid_out = final_pools[name][1]
            compute += min(math.ceil(nodes / laid_out.nodes_per_rack) * laid_out.racks_per_node, laid_out.compute)
    return compute + final.racks.total - final.racks.compute


def _pool_racks(plan: "Plan") -> dict:
    """Each pool's (nodes, racks) in `plan`; a one-pool plan's are the plan's own."""
    if plan.pools and len(plan.pools) > 1:
        return {name: (pool.compute.total_nodes, pool.racks) for name, pool in plan.pools.items()}
    name = next(iter(plan.pools)) if plan.pools else SHORTHAND_POOL
    return {name: (plan.compute.total_nodes, plan.racks)}


def bom_changes(before: tuple[BomLine, ...], after: tuple[BomLine, ...]) -> tuple[BomChange, ...]:
    """Every BOM line whose quantity changes from `before` to `after`, with the change, in the
    order of `after` then the lines only `before` has."""
    def key(line: BomLine):
        return line.category, line.sku, line.length_m

    old = {key(line): line for line in before}
    new = {key(line): line for line in after}
    changes = []
    for line_key, line in {**new, **{k: v for k, v in old.items() if k not in new}}.items():
        delta = (new[line_key].quantity if line_key in new else 0) - (old[line_key].quantity if line_key in old else 0)
        if delta:
            changes.append(BomChange(
                category=line.category, sku=line.sku, description=line.description, quantity=delta,
                unit_price_usd=line.unit_price_usd, extended_price_usd=delta * line.unit_price_usd,
                length_m=line.length_m,
            ))
    return tuple(changes)


def compute_tiers(plan: "Plan") -> dict[str, int]:
    fabric = (plan.fabrics or {}).get("compute")
    return {tier.role: tier.switches for tier in fabric.tiers} if fabric else {}


def recabled_link_count(before: "Plan | None", after: "Plan") -> int:
    """Links of the design `before` that must be unplugged and plugged again to reach `after`.

    Rule, fabric by fabric: when the number of tiers changes (a one-tier fabric becoming two
    tiers), every link of `before` moves: the leaves' ports are split anew between nodes and
    uplinks. When only the switches of a tier above the leaves change, every switch-to-switch
    link of `before` moves (each leaf's uplinks are striped over the spines anew). Otherwise
    the links in place stay, and the new ones are only added. A fabric whose switches change
    model (100G RoCE becoming NDR InfiniBand) is replaced, not re-cabled: its old links are
    retired with their switches (the phase's `removed`) and the new ones bought.
    """
    if before is None:
        return 0
    moved = 0
    for name, old in (before.fabrics or {}).items():
        new = (after.fabrics or {}).get(name)
        if new is None or {tier.switch for tier in old.tiers} != {tier.switch for tier in new.tiers}:
            continue
        roles = {tier.role for tier in old.tiers}
        if len(old.tiers) != len(new.tiers):
            moved += sum(link.count for link in old.links)
        elif [tier.switches for tier in old.tiers[1:]] != [tier.switches for tier in new.tiers[1:]]:
            moved += sum(link.count for link in old.links if link.from_ in roles)
    return moved


def phase_opex_by_category_usd_per_year(
    plan: "Plan", installed_usd: float, scenario: "ScenarioSpec", it_kw: float | None = None,
) -> dict[str, float]:
    """A phase's first-year opex rate: its own design's energy, colocation, staff and software,
    and maintenance on the hardware installed (bought so far less what phases retired: retired
    gear costs nothing more). `it_kw` [kW], when the phase draws more than its own design
    (gear installed early, growth: final): the energy scales with it (energy = IT kW x hours x
    PUE x price, linear in the IT power at the design's PUE and load)."""
    rates = dict(plan.cost.opex_by_category_usd_per_year)
    rates["maintenance"] = scenario.finance.maintenance_share_per_year * installed_usd
    if it_kw is not None and plan.power.it_kw and "energy" in rates:
        rates["energy"] *= it_kw / plan.power.it_kw
    return rates


def phased_cost(phases: list[PhaseResult], final: "Plan", scenario: "ScenarioSpec"):
    """The site's cost of ownership with each phase's capex paid on its start date.

    Time t [years] runs from the first phase's start; the life is `finance.years` from there.
    capex: each phase's on its date, present value capex_k / (1 + r)^t_k.
    opex of year y (1..N): sum over phases of the phase's yearly rate x the share of year y
    during which it is the site's latest phase, x (1 + e)^(y - 1); paid at the end of the year,
    present value / (1 + r)^y, as the one-shot TCO does.
    GPU-hours: each phase's GPUs x the hours it runs within the life.

    The one-shot TCO buys the whole site at t = 0 and runs it in full from year 1; here later
    phases' capex is discounted by their date and the opex of the first years is the smaller
    sites', so both the TCO and its present value are lower, and the GPU-hours fewer.
    """
    finance = scenario.finance
    years = finance.years
    times = [phase.years_from_first for phase in phases] + [math.inf]
    opex_by_year = []
    gpu_hours = 0.0
    for year in range(1, years + 1):
        amount = 0.0
        for index, phase in enumerate(phases):
            share = max(0.0, min(times[index + 1], year) - max(times[index], year - 1))
            amount += phase.opex_usd_per_year * share
            gpu_hours += phase.gpus * HOURS_PER_YEAR * share
        opex_by_year.append(amount * (1 + finance.escalation_per_year) ** (year - 1))
    capex_usd = sum(phase.capex_usd for phase in phases)
    capex_by_category: dict[str, float] = {}
    for phase in phases:
        for category, usd in phase.capex_by_category_usd.items():
            capex_by_category[category] = capex_by_category.get(category, 0.0) + usd
    rate = finance.discount_rate
    present_value = sum(phase.capex_usd / (1 + rate) ** phase.years_from_first for phase in phases)
    present_value += sum(amount / (1 + rate) ** year for year, amount in enumerate(opex_by_year, start=1))
    tco_usd = capex_usd + sum(opex_by_year)
    one_shot = final.cost
    per_gpu_hour = tco_usd / gpu_hours if gpu_hours else 0.0
    warnings = []
    late = [phase.name for phase in phases if phase.years_from_first >= years]
    if late:
        warnings.append(
            f"The phases {', '.join(late)} start after the {years}-year life the TCO covers (from the first "
            f"phase's start): their capex is counted, their operation is not."
        )
    # The BOM is the site's as built (the last phase's lines, which add up to the one-shot
    # bom_total_usd); parts bought and retired on the way are in the phases' added and removed
    # and in the capex, not on a line of the finished site.
    cost = dataclasses.replace(
        one_shot,
        capex_usd=capex_usd,
        capex_by_category_usd=capex_by_category,
        opex_usd_per_year=opex_by_year[0],
        opex_by_category_usd_per_year=_first_year_by_category(phases),
        opex_usd_by_year=tuple(opex_by_year),
        tco_usd=tco_usd,
        tco_present_value_usd=present_value,
        gpu_hours=gpu_hours,
        usd_per_gpu_hour=per_gpu_hour,
        usd_per_useful_gpu_hour=_scaled(one_shot.usd_per_useful_gpu_hour, per_gpu_hour, one_shot.usd_per_gpu_hour),
        usd_per_pflop_hour=_scaled(one_shot.usd_per_pflop_hour, per_gpu_hour, one_shot.usd_per_gpu_hour),
        usd_per_million_output_tokens=_scaled(
            one_shot.usd_per_million_output_tokens, per_gpu_hour, one_shot.usd_per_gpu_hour),
    )
    return cost, tuple(warnings)


def _first_year_by_category(phases: list[PhaseResult]) -> dict[str, float]:
    """Year 1's opex by category: each phase's rates x the share of year 1 it runs."""
    times = [phase.years_from_first for phase in phases] + [math.inf]
    totals: dict[str, float] = {}
    for index, phase in enumerate(phases):
        share = max(0.0, min(times[index + 1], 1) - max(times[index], 0))
        for category, usd in phase.opex_by_category_usd_per_year.items():
            totals[category] = totals.get(category, 0.0) + usd * share
    return totals


def _scaled(one_shot_value: float | None, per_gpu_hour: float, one_shot_per_gpu_hour: float) -> float | None:
    """A cost per unit of work that the one-shot plan derives from its cost per GPU-hour (by the
    goodput, by the PFLOP/s per GPU), derived the same way from the phased cost per GPU-hour."""
    if one_shot_value is None or not one_shot_per_gpu_hour:
        return None
    return one_shot_value * per_gpu_hour / one_shot_per_gpu_hour
