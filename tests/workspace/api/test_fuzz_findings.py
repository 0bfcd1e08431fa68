"""Requests a schema-driven fuzzer sent that once got a server error: each is answered now."""

import json

import pytest

pytestmark = pytest.mark.django_db

NO_TIME_TO_WRITE_A_CHECKPOINT = {
    "name": "fuzz",
    "compute": {"system": "l40s-8", "gpus": 64},
    "storage": {"checkpoint_tb": 4394692.374476007, "checkpoint_write_share": 5e-324, "tiers": []},
}


def test_a_write_share_below_the_float_range_is_refused_on_its_field(api):
    """δ = τ = 0 divided by zero in the time lost to checkpoints (500); planned then as the
    model's limit (no time lost to checkpoints), it silently took a write time of 0 s, which
    issue 27 refuses: a 422 on the share."""
    response = api.post("/api/v1/plan/", json.dumps(NO_TIME_TO_WRITE_A_CHECKPOINT), content_type="application/json")
    assert response.status_code == 422
    assert list(response.json()["errors"]) == ["storage.checkpoint_write_share"]


@pytest.mark.parametrize("key", ["generator_kw", "ups_module_kw"])
def test_a_backup_power_unit_below_one_kw_is_refused_naming_it(api, key):
    """A generator of 5e-324 kW made the count of generators infinite (500)."""
    document = {"name": "fuzz", "compute": {"system": "dgx-h100", "gpus": 64}, "facility": {key: 5e-324}}
    response = api.post("/api/v1/plan/", json.dumps(document), content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"] == {f"facility.{key}": ["must be a number of at least 1 kW"]}
