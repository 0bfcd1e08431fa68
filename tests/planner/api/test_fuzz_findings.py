"""Requests a schema-driven fuzzer sent that once got a server error: each is answered now."""

import json

import pytest

pytestmark = pytest.mark.django_db

NO_TIME_TO_WRITE_A_CHECKPOINT = {
    "name": "fuzz",
    "compute": {"system": "l40s-8", "gpus": 64},
    "storage": {"checkpoint_tb": 4394692.374476007, "checkpoint_write_share": 5e-324, "tiers": []},
}


def test_a_write_share_below_the_float_range_plans(api):
    """δ = τ = 0 divided by zero in the time lost to checkpoints (500)."""
    response = api.post("/api/v1/plan/", json.dumps(NO_TIME_TO_WRITE_A_CHECKPOINT), content_type="application/json")
    assert response.status_code == 200
    reliability = response.json()["reliability"]
    assert reliability["checkpoint_share"] == 0 and 0 < reliability["goodput"] < 1
