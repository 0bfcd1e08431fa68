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

    def problems(self):
        if self.gpus is not None and self.nodes is not None:
            yield "gpus", "give either gpus or nodes, not both"
        elif self.gpus is None and self.nodes is None:
            yield "gpus", "give the pool's gpus or nodes at the end of the phase"

    @property
    def unit(self) -> str:
        return "gpus" if self.gpus is not None else "nodes"

    @property
    def size(self) -> int:
        return self.gpus if self.gpus is not None else self.nodes


@dataclass(frozen=True)
class PhaseStorageSpec:
    """A storage tier's size at the end of a phase (the tier's own keys that fix its size)."""

    systems: int | None = spec_field(
        None, minimum=1, maximum=100_000, help="Systems of the tier at the end of the phase."
    )
    other_tb: float | None = spec_field(
        None, unit="TB", minimum=0, maximum=1e9, help="Further data the tier holds at the end of the phase."
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
        help="Storage tiers (by name or index in storage.tiers) resized at the end of the phase; "
        "a tier left out keeps the scenario's size.",
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
    """No pool shrinks from one phase to the next (a pool left out of a later phase would
    shrink to none), and the last phase is the site."""
    previous: dict[str, int] = {}
    for index, phase in enumerate(phases):
        for pool_name, size in previous.items():
            if pool_name not in phase.pools:
                yield f"phases[{index}].pools", f"leaves out the pool '{pool_name}' that phases[{index - 1}] builds"
        for pool_name, size in phase.pools.items():
            if pool_name in pools and size.unit == _pool_unit(pools[pool_name]):
                before = previous.get(pool_name)
                if before is not None and size.size < before:
                    yield (f"phases[{index}].pools.{pool_name}.{size.unit}",
                           f"must not shrink the pool: {size.size:,} is fewer than the {before:,} of phases[{index - 1}]")
                previous[pool_name] = size.size
    last = len(phases) - 1
    for pool_name, pool in pools.items():
        unit = _pool_unit(pool)
        if unit is None:
            continue
        size = phases[last].pools.get(pool_name)
        if size is None:
            yield f"phases[{last}].pools.{pool_name}", f"the last phase is the site: give the pool's {unit} ({getattr(pool, unit):,})"
        elif size.unit == unit and size.size != getattr(pool, unit):
            yield (f"phases[{last}].pools.{pool_name}.{unit}",
                   f"the last phase is the site: must equal the pool's own {unit} ({getattr(pool, unit):,}), not {size.size:,}")


def _pool_unit(pool: Any) -> str | None:
    if getattr(pool, "gpus", None) is not None:
        return "gpus"
    if getattr(pool, "nodes", None) is not None:
        return "nodes"
    return None
