"""The storage systems one plan may have: a guard storage sizing applies to the tiers it sizes,
so that every way to a plan (a request, a job, a sweep's design) stops there, naming the input
that made a tier so large."""

from core.solver.errors import PlanLimitError
from storage.solver.specs import StorageSpec

MAX_STORAGE_SYSTEMS = 100_000
"""Storage systems of one plan, all tiers: the largest count a tier may be given by hand."""


def check_storage_limit(spec: StorageSpec, tiers: tuple) -> None:
    """PlanLimitError on the input that drove the largest tier when the tiers' systems pass
    MAX_STORAGE_SYSTEMS."""
    systems = sum(tier.systems for tier in tiers)
    if systems <= MAX_STORAGE_SYSTEMS:
        return
    tier_index, tier = max(enumerate(tiers), key=lambda item: item[1].systems)
    raise PlanLimitError.at(
        _storage_driver(spec, tier_index, tier),
        f"storage tier {tier_index} ({tier.system}) would need {tier.systems:,} systems for its "
        f"{tier.bound_by}, and the plan {systems:,}: more than the {MAX_STORAGE_SYSTEMS:,} a plan may have",
    )


def unbounded_writes(spec: StorageSpec) -> PlanLimitError:
    """A checkpoint write time so small that the rate it needs is beyond a float."""
    field = "storage.checkpoint_write_s" if spec.checkpoint_write_s is not None else "storage.checkpoint_write_share"
    return PlanLimitError.at(field, "needs unboundedly many storage systems")


def _storage_driver(spec: StorageSpec, tier_index: int, tier) -> str:
    """The input that made a tier this large: what sets its write rate, read rate or data."""
    if tier.bound_by == "bandwidth":
        if tier.systems_for_bandwidth and tier.write_gbytes_per_s_needed and "checkpoint_writes" in tier.serves:
            writes_drive = tier.read_gbytes_per_s_needed == 0 or (
                tier.write_gbytes_per_s_needed / max(tier.read_gbytes_per_s_needed, 1e-300) > 1
            )
            if writes_drive:
                if spec.checkpoint_write_s is not None:
                    return "storage.checkpoint_write_s"
                return "storage.checkpoint_write_share"
        return "storage.read_gbytes_per_s" if spec.read_gbytes_per_s is not None else (
            "storage.read_gbytes_per_s_per_gpu"
        )
    if tier.bound_by == "fixed":
        return f"storage.tiers[{tier_index}].systems"
    return "storage.dataset_tb" if "dataset" in tier.holds else f"storage.tiers[{tier_index}]"
