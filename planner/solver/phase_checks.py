"""The problems of a phase that only planning it finds, named where the user wrote them.

A phase is planned as its own document (`phases.phase_document`): a bad system, a switch that
cannot serve the phase's fabric or a rack budget below one of the phase's nodes is reported by
the pipeline at the phase document's path (`compute.system`, `pools[0].fabric.switch`). Here
such a path is moved to the phase key that set the value (`phases[1].pools.compute.system`),
and the checks that tie a phase to the final design under `growth: final` are made.
"""

import re
from typing import TYPE_CHECKING

from core.solver.errors import FieldError, InfeasibleError, ScenarioError
from planner.solver.phase_spec import PhaseSpec

if TYPE_CHECKING:
    from planner.solver.plan import Plan
    from planner.solver.scenario import ScenarioSpec

SHORTHAND_POOL = "compute"
_SHORTHAND_KEYS = re.compile(r"compute\.(system|gpus|nodes)(.*)")
_SHORTHAND_FABRIC = re.compile(r"fabrics\.compute((?:\.|\[).*)?")
_POOL = re.compile(r"pools\[(\d+)\]((?:\.|\[).*)?")
_TIER = re.compile(r"storage\.tiers\[(\d+)\]((?:\.|\[).*)?")


def phase_error(error: ScenarioError, index: int, phase: PhaseSpec, phased: dict) -> ScenarioError:
    """`error`, raised planning phase `index` (whose document is `phased`), with each path moved
    to the phase's own key when the phase set the value, else kept and the message saying which
    phase; of the same type (a bad input stays a 400, an infeasible design a 422)."""
    moved = [_moved(problem, index, phase, phased) for problem in error.errors]
    return type(error)(moved, error.count)


def _moved(problem: FieldError, index: int, phase: PhaseSpec, phased: dict) -> FieldError:
    prefix = f"phases[{index}]"
    path = problem.path
    shorthand = phase.pools.get(SHORTHAND_POOL)
    if shorthand is not None and isinstance(phased.get("compute"), dict):
        if match := _SHORTHAND_KEYS.fullmatch(path):
            return FieldError(f"{prefix}.pools.{SHORTHAND_POOL}.{match[1]}{match[2]}", problem.message)
        if shorthand.fabric is not None and (match := _SHORTHAND_FABRIC.fullmatch(path)):
            return FieldError(f"{prefix}.pools.{SHORTHAND_POOL}.fabric{match[1] or ''}", problem.message)
    if (match := _POOL.fullmatch(path)) and int(match[1]) < len(phased.get("pools") or ()):
        name = phased["pools"][int(match[1])].get("name")
        if name in phase.pools:
            return FieldError(f"{prefix}.pools.{name}{match[2] or ''}", problem.message)
    if match := _TIER.fullmatch(path):
        tiers = (phased.get("storage") or {}).get("tiers") or ()
        name = tiers[int(match[1])].get("name") if int(match[1]) < len(tiers) else None
        if name in phase.storage:
            return FieldError(f"{prefix}.storage.{name}{match[2] or ''}", problem.message)
    return FieldError(path, f"in phase '{phase.name}' ({prefix}): {problem.message}")


def changed_systems(phase: PhaseSpec, own: dict[str, str]) -> tuple[str, ...]:
    """The pools whose system in `phase` is not the pool's own (`own`: system by pool, the final
    design's)."""
    return tuple(name for name, size in phase.pools.items()
                 if size.system is not None and own.get(name) not in (None, size.system))


def check_fits_final_racks(plans: list["Plan"], scenario: "ScenarioSpec", own: dict[str, str]) -> None:
    """growth: final: a phase whose pool runs another system than the final design's puts its
    nodes into the final floor's compute racks for that pool; raise InfeasibleError (422) at
    `phases[k].pools.<name>.system` when its own design needs more compute racks than that
    floor has (same rack type and power budget, so the count says whether they hold it)."""
    final = plans[-1]
    for index, (phase, plan) in enumerate(zip(scenario.phases, plans, strict=True)):
        for name in changed_systems(phase, own):
            needed, held = pool_compute_racks(plan, name), pool_compute_racks(final, name)
            if needed > held:
                raise InfeasibleError.at(
                    f"phases[{index}].pools.{name}.system",
                    f"growth: final lays the floor out for the last phase: its {held:,} compute racks for "
                    f"'{name}' cannot hold the {needed:,} racks that {phase.pools[name].system} needs "
                    "(use growth: per_phase, or fewer nodes in this phase)",
                )


def pool_compute_racks(plan: "Plan", name: str) -> int:
    """The compute racks of pool `name` in `plan` (0 when the plan has no such pool)."""
    if plan.pools and len(plan.pools) > 1:
        pool = plan.pools.get(name)
        return pool.racks.compute if pool else 0
    return plan.racks.compute
