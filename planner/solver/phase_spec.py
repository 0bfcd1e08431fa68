"""Phases of a site's build-out: each phase's name, start date and the size of every pool (and
storage tier) at its end; and the rules that tie them to the scenario.

The scenario's own size is the site at the end of the last phase: the last phase must give each
pool exactly the size the scenario gives it (`compute.gpus` for the one-pool shorthand, whose
pool is named `compute`). The document then still reads, and plans, as the finished site for
any tool that ignores `phases:`, and a mismatch is an error rather than one size silently
winning over the other.
"""

import datetime
from dataclasses import dataclass
from typing import Any, Literal

from core.solver.schema import spec_field
from fabric.solver.specs import FabricSpec

MAX_PHASES = 50
"""Phases of one build-out; each is planned in full (milliseconds each)."""
MAX_GPUS = 10_000_000

Growth = Literal["final", "per_phase"]


@dataclass(frozen=True)
class PhasePoolSpec:
    """One pool's size at the end of a phase: GPUs or systems, in the unit the pool is given in."""

    gpus: int | None = spec_field(None, minimum=1, maximum=MAX_GPUS, help="GPUs of the pool at the end of the phase.")
    nodes: int | None = spec_field(
        None, minimum=1, maximum=MAX_GPUS, help="Systems of the pool at the end of the phase."
    )
    system: str | None = spec_field(
        None, min_length=1, max_length=80,
        help="The pool's GPU system in this phase (catalog slug); left out, the pool's own. A phase "
        "that changes it retires the systems of the phase before.",
    )
    fabric: FabricSpec | None = spec_field(
        None, help="The pool's compute fabric in this phase, the shape of fabrics.compute (switch, "
        "topology, placement, tiers); left out, the pool's own (or the site's it joins).",
    )
    retire: bool = spec_field(
        False, help="The pool is taken out of service by the end of the phase: its parts are removed, "
        "and no later phase may name it.",
    )

    def problems(self):
        if self.retire:
            for key in ("gpus", "nodes", "system", "fabric"):
                if getattr(self, key) is not None:
                    yield key, "leave out for a retired pool"
            return
        if self.gpus is not None and self.nodes is not None:
            yield "gpus", "give either gpus or nodes, not both"
        elif self.gpus is None and self.nodes is None:
            yield "gpus", "give the pool's gpus or nodes at the end of the phase"

    @property
    def unit(self) -> str:
        return "gpus" if self.gpus is not None else "nodes"

    @property
    def size(self) -> int:
        return self.gpus if self.gpus is not None else (self.nodes or 0)

    @property
    def changes_technology(self) -> bool:
        return self.system is not None or self.fabric is not None


@dataclass(frozen=True)
class PhaseStorageSpec:
    """A storage tier's size at the end of a phase (the tier's own keys that fix its size)."""

    systems: int | None = spec_field(
        None, minimum=1, maximum=100_000, help="Systems of the tier at the end of the phase."
    )
    other_tb: float | None = spec_field(
        None, unit="TB", minimum=0, maximum=1e9, help="Further data the tier holds at the end of the phase."
    )
    system: str | None = spec_field(
        None, min_length=1, max_length=80,
        help="The tier's storage system in this phase (catalog slug); left out, the tier's own.",
    )
    built: bool = spec_field(
        True, help="false: the tier is not in the site during this phase (built later, or retired).",
    )


@dataclass(frozen=True)
class PhaseSpec:
    """One step of the build-out."""

    name: str = spec_field(min_length=1, max_length=80, help="What the phase is called (unique).")
    # The scenario's YAML is read with the core schema: an unquoted 2026-03-01 stays text.
    start: str = spec_field(
        min_length=1, max_length=40, help="The day the phase comes online (ISO date, 2026-03-01)."
    )
    pools: dict[str, PhasePoolSpec] = spec_field(
        help="Each pool's size at the end of the phase; a pool left out is not built yet."
    )
    storage: dict[str, PhaseStorageSpec] = spec_field(
        default_factory=dict,
        help="Storage tiers (by name or index in storage.tiers) at the end of the phase: their size, "
        "system, or built: false; a tier left out is the scenario's.",
    )

    def problems(self):
        try:
            datetime.date.fromisoformat(self.start)
        except ValueError:
            yield "start", "must be a date written YYYY-MM-DD"
        if not self.pools:
            yield "pools", "name at least one pool and its size"

    @property
    def start_date(self) -> datetime.date:
        return datetime.date.fromisoformat(self.start)


def phase_problems(phases: tuple[PhaseSpec, ...], pools: dict[str, Any], tier_names: tuple[str, ...]):
    """(dotted path, message) for every rule that ties the phases to each other and to the site.

    `pools`: the site's pools by name, each with `gpus` and `nodes` (None when not given);
    `tier_names`: the storage tiers' names, in order.
    """
    if not phases:
        return
    if len(phases) > MAX_PHASES:
        yield "phases", f"must have at most {MAX_PHASES} phases"
        return
    seen_names: dict[str, int] = {}
    retired: dict[str, int] = {}
    for index, phase in enumerate(phases):
        path = f"phases[{index}]"
        if phase.name in seen_names:
            yield f"{path}.name", f"'{phase.name}' is already the name of phases[{seen_names[phase.name]}]"
        seen_names.setdefault(phase.name, index)
        if index and phase.start_date <= phases[index - 1].start_date:
            yield f"{path}.start", f"must be after phases[{index - 1}].start ({phases[index - 1].start})"
        for pool_name, size in phase.pools.items():
            if pool_name not in pools:
                yield f"{path}.pools.{pool_name}", f"unknown pool; the site's pools are: {', '.join(pools)}"
                continue
            if pool_name in retired:
                yield (f"{path}.pools.{pool_name}",
                       f"the pool is retired by phases[{retired[pool_name]}]: a later phase cannot name it")
                continue
            if size.retire:
                retired[pool_name] = index
                continue
            unit = _pool_unit(pools[pool_name])
            if unit is None:
                yield f"{path}.pools.{pool_name}", "the pool must give gpus or nodes (not workload.days) to be built in phases"
            elif size.unit != unit:
                yield f"{path}.pools.{pool_name}.{size.unit}", f"give {unit}, as the pool itself does"
        for key in phase.storage:
            if not (key in tier_names or (key.isdigit() and int(key) < len(tier_names))):
                known = ", ".join(name for name in tier_names if name) or "none"
                yield f"{path}.storage.{key}", f"unknown storage tier; give a tier's name or index (tiers: {known})"
    yield from _growth_problems(phases, pools)


def _growth_problems(phases: tuple[PhaseSpec, ...], pools: dict[str, Any]):
    """No pool shrinks from one phase to the next on the same technology (a pool left out of a
    later phase would shrink to none; a retired one is named `retire: true` once), and the last
    phase is the site: each pool not retired at its own size, system and fabric."""
    previous: dict[str, tuple[int, Any, Any]] = {}
    retired: set[str] = set()
    for index, phase in enumerate(phases):
        for pool_name in previous:
            if pool_name not in phase.pools and pool_name not in retired:
                yield f"phases[{index}].pools", f"leaves out the pool '{pool_name}' that phases[{index - 1}] builds"
        for pool_name, size in phase.pools.items():
            if size.retire:
                retired.add(pool_name)
                continue
            if pool_name in pools and pool_name not in retired and size.unit == _pool_unit(pools[pool_name]):
                before = previous.get(pool_name)
                same_technology = before is not None and before[1:] == (size.system, size.fabric)
                if same_technology and size.size < before[0]:
                    yield (f"phases[{index}].pools.{pool_name}.{size.unit}",
                           (f"must not shrink the pool: {size.size:,} is fewer than the {before[0]:,} of "
                            f"phases[{index - 1}] (a phase that changes the pool's system or fabric may)"))
                previous[pool_name] = (size.size, size.system, size.fabric)
    last = len(phases) - 1
    for pool_name, pool in pools.items():
        unit = _pool_unit(pool)
        if unit is None or pool_name in retired:
            continue
        size = phases[last].pools.get(pool_name)
        path = f"phases[{last}].pools.{pool_name}"
        if size is None:
            yield path, f"the last phase is the site: give the pool's {unit} ({getattr(pool, unit):,})"
            continue
        if size.unit == unit and size.size != getattr(pool, unit):
            yield (f"{path}.{unit}",
                   f"the last phase is the site: must equal the pool's own {unit} ({getattr(pool, unit):,}), not {size.size:,}")
        if size.system is not None and size.system != getattr(pool, "system", size.system):
            yield f"{path}.system", f"the last phase is the site: leave out, or give the pool's own system ({pool.system})"
        if size.fabric is not None and size.fabric != getattr(pool, "fabric", size.fabric):
            yield f"{path}.fabric", "the last phase is the site: leave out, or give the pool's own fabric"


def final_growth_problems(phases: tuple[PhaseSpec, ...], growth: Growth):
    """(dotted path, message) for what `growth: final` cannot build: the final design's spines,
    storage and floor are installed from the first phase, so a phase may change a pool's system
    (into the final floor's racks) but not its fabric nor a storage tier's system or presence."""
    if growth != "final":
        return
    for index, phase in enumerate(phases):
        for name, size in phase.pools.items():
            if size.fabric is not None and index < len(phases) - 1:
                yield (f"phases[{index}].pools.{name}.fabric",
                       ("growth: final installs the last phase's fabric from the first: a phase cannot change "
                        "it (use growth: per_phase)"))
        for key, tier in phase.storage.items():
            if tier.system is not None:
                yield (f"phases[{index}].storage.{key}.system",
                       ("growth: final installs the last phase's storage from the first: a phase cannot "
                        "change a tier's system (use growth: per_phase)"))
            if not tier.built:
                yield (f"phases[{index}].storage.{key}.built",
                       "growth: final installs every storage tier with the first phase (use growth: per_phase)")


def _pool_unit(pool: Any) -> str | None:
    if getattr(pool, "gpus", None) is not None:
        return "gpus"
    if getattr(pool, "nodes", None) is not None:
        return "nodes"
    return None
