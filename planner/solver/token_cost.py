"""What a million output tokens cost: an inference pool's share of the cost of ownership over
the output tokens it serves in the TCO's years.

    USD per million output tokens = share of TCO / (t · u · 3,600 · 8,760 · years) × 10⁶

with t the output tokens per second the pool serves at full use (its decode GPUs × the tokens/s
per GPU of its operating point) and u its utilisation (the share of the time it serves so). A
pool of a site carries the share of the site's TCO that its systems carry of the systems' price
(the shared network, storage, facility and opex split in proportion); a pool alone carries all
of it. Several models of one pool split the pool's share by their GPUs.
"""

from dataclasses import replace

from planner.solver.inference import InferenceResult
from power.solver.facility import HOURS_PER_YEAR

SECONDS_PER_HOUR = 3_600
TOKENS_PER_MILLION = 1e6


def output_tokens_served(output_tokens_per_s: float, utilisation: float, years: int) -> float:
    """Output tokens served over `years` [tokens]: t × u × 3,600 s × 8,760 h × years."""
    return output_tokens_per_s * utilisation * SECONDS_PER_HOUR * HOURS_PER_YEAR * years


def usd_per_million_output_tokens(share_usd: float, tokens_served: float) -> float | None:
    """Cost of a million output tokens [USD]: share of TCO / tokens served × 10⁶ (None for no tokens)."""
    return share_usd / tokens_served * TOKENS_PER_MILLION if tokens_served > 0 else None


def pool_tco_share_usd(tco_usd: float, pool_systems_usd: float, all_systems_usd: float) -> float:
    """A pool's share of the site's TCO [USD]: TCO × its systems' price / every pool's systems' price
    (an equal share of the GPUs when no price is known)."""
    return tco_usd * pool_systems_usd / all_systems_usd if all_systems_usd else 0.0


def inference_with_token_cost(result: InferenceResult, share_usd: float, years: int) -> InferenceResult:
    """The result with its cost per million output tokens (and each of its models' by their GPUs)."""
    served = output_tokens_served(result.output_tokens_per_s_capacity, result.utilisation, years)
    models = tuple(
        inference_with_token_cost(model, share_usd * model.gpus_needed / result.gpus_needed, years)
        for model in result.models
    )
    return replace(result, usd_per_million_output_tokens=usd_per_million_output_tokens(share_usd, served), models=models)


def site_usd_per_million_output_tokens(priced: list[tuple[InferenceResult, float]], years: int) -> float | None:
    """Every inference pool together: the sum of their TCO shares over the sum of the tokens they serve."""
    served = sum(output_tokens_served(result.output_tokens_per_s_capacity, result.utilisation, years)
                 for result, _share in priced)
    return usd_per_million_output_tokens(sum(share for _result, share in priced), served)
