"""The limits on a site's pools together (each pool's own are the guards of its steps): the
GPUs, compute racks and cables summed over the pools, which a hundred pools each within the
limits pass (issue 27: 8 pools of 100k GPUs on 16 planes, 25.6 M cables). Guards of the site's
sizing, packing and first fabric plan, and of the work estimate's sums."""

from core.solver.errors import PlanLimitError
from fabric.solver import cable_limit
from planner.solver.scenario import MAX_GPUS
from power.solver import rack_limits


def check_site_limits(*, gpus: int = 0, racks: int = 0, cables: int = 0) -> None:
    """PlanLimitError on `pools` when the pools' GPUs (spares included), compute racks or cables
    together pass what one plan may have."""
    if gpus > MAX_GPUS:
        raise PlanLimitError.at("pools", f"the pools have {gpus:,} GPUs together, more than the {MAX_GPUS:,} a plan may have")
    if racks > rack_limits.MAX_PLAN_RACKS:
        raise PlanLimitError.at(
            "pools", f"the pools fill {racks:,} compute racks together, more than the {rack_limits.MAX_PLAN_RACKS:,} "
            "a plan may have",
        )
    if cables > cable_limit.MAX_PLAN_CABLES:
        raise PlanLimitError.at(
            "pools", f"the pools' fabrics would have {cables:,} cables together, more than the "
            f"{cable_limit.MAX_PLAN_CABLES:,} a plan may have: plan fewer or smaller pools, or fewer planes",
        )
