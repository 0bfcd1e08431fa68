"""The cost of a million output tokens (planner.solver.token_cost): hand calculations."""

from dataclasses import replace

import pytest

from core.solver.schema import read_spec
from planner.solver.inference import size_inference
from planner.solver.inference_spec import InferenceSpec
from planner.solver.token_cost import (
    inference_with_token_cost,
    output_tokens_served,
    pool_tco_share_usd,
    site_usd_per_million_output_tokens,
    usd_per_million_output_tokens,
)


def test_a_million_tokens_cost_the_share_of_the_tco_over_the_tokens_served():
    # 1,000 tokens/s × 0.6 × 3,600 s × 8,760 h × 5 years = 94,608,000,000 tokens
    served = output_tokens_served(1_000, 0.6, 5)
    assert served == pytest.approx(94_608_000_000)
    # 1,000,000 USD / 94.608e9 tokens × 1e6 = 10.57 USD per million
    assert usd_per_million_output_tokens(1_000_000, served) == pytest.approx(1e12 / 94_608_000_000)
    assert usd_per_million_output_tokens(1_000_000, 0) is None


def test_a_pools_share_of_the_site_follows_its_systems_price():
    # 3 M USD of TCO; the pool's systems 1 M of the site's 4 M: 0.75 M USD
    assert pool_tco_share_usd(3e6, 1e6, 4e6) == pytest.approx(0.75e6)
    assert pool_tco_share_usd(3e6, 0, 0) == 0


def test_several_models_split_the_pools_share_by_their_gpus(catalog):
    model = {"layers": 80, "kv_heads": 8, "head_dim": 128, "input_tokens": 128, "output_tokens": 256,
             "time_per_output_token_ms": 200, "time_to_first_token_ms": 2000}
    spec = read_spec(InferenceSpec, {"models": [
        {**model, "name": "big", "parameters_billion": 70, "requests_per_s": 40},
        {**model, "name": "small", "parameters_billion": 70, "requests_per_s": 5},
    ]}, "inference")
    result = size_inference(spec, catalog.systems["hgx-h100"], tuple(catalog.inference_operating_points.values()))
    priced = inference_with_token_cost(result, 1e6, 5)
    big, small = priced.models
    assert big.usd_per_million_output_tokens == pytest.approx(usd_per_million_output_tokens(
        1e6 * big.gpus_needed / result.gpus_needed, output_tokens_served(big.output_tokens_per_s_capacity, 0.6, 5)))
    assert priced.usd_per_million_output_tokens == pytest.approx(usd_per_million_output_tokens(
        1e6, output_tokens_served(result.output_tokens_per_s_capacity, 0.6, 5)))
    # The site: both shares over both pools' tokens
    other = replace(priced, utilisation=0.3)
    together = site_usd_per_million_output_tokens([(priced, 1e6), (other, 2e6)], 5)
    tokens = output_tokens_served(result.output_tokens_per_s_capacity, 0.6, 5) + output_tokens_served(
        result.output_tokens_per_s_capacity, 0.3, 5)
    assert together == pytest.approx(3e6 / tokens * 1e6)
