"""Bounded work: a valid document whose plan would need more compute racks or cables than a plan
may have is refused (422 naming the input that drove it) before any rack or cable is placed
(issue 11, point 3)."""

import time

import pytest

from fabric.solver import cable_limit
from power.solver import rack_limits

pytestmark = pytest.mark.django_db

QUICK_S = 0.5
"""The fabric counts take a millisecond; the plan of 16 planes of 10 million GPUs took minutes.
Timed in this process's CPU seconds, which other processes on the machine do not lengthen."""


def refused(api, document, limit=None):
    api.post("/api/v1/plan/", {"name": "warm", "compute": {"system": "dgx-b300", "nodes": 1}}, format="json")
    started = time.process_time()
    response = api.post("/api/v1/plan/", document, format="json")
    elapsed = time.process_time() - started
    assert response.status_code == 422, response.content[:500]
    assert elapsed < QUICK_S, f"took {elapsed:.3f} s"
    [(field, [message])] = response.json()["errors"].items()
    assert f"{limit or cable_limit.MAX_PLAN_CABLES:,}" in message
    return field, message


def test_planes_that_multiply_the_cables_past_the_limit_are_named(api):
    document = {
        "name": "16 planes",
        "compute": {"system": "dgx-b300", "gpus": 10_000_000},
        "fabrics": {"compute": {"switch": "arista-7800r4-16", "topology": "dragonfly", "planes": 16}},
    }
    field, message = refused(api, document)
    assert field == "fabrics.compute.planes"
    # 10 million GPUs of 8 NICs each, 16 planes: 1.28 billion links to the systems alone.
    cables = int(message.split(" cables")[0].rsplit(" ", 1)[1].replace(",", ""))
    assert cables > 10_000_000 // 8 * 8 * 16


@pytest.mark.parametrize(("compute", "field"), [
    ({"system": "dgx-b300", "gpus": 2_000_000}, "compute.gpus"),
    ({"system": "dgx-b300", "nodes": 250_000}, "compute.nodes"),
])
def test_systems_whose_cables_pass_the_limit_name_their_count(api, compute, field):
    document = {"name": "big", "compute": compute, "fabrics": {"compute": {"switch": "arista-7800r4-16"}}}
    assert refused(api, document)[0] == field


def test_a_workload_sized_past_the_cable_limit_names_its_days(api):
    document = {
        "name": "job",
        "compute": {"system": "dgx-h100"},
        "workload": {"parameters_billion": 405, "tokens_trillion": 15.6, "days": 0.2},
        "fabrics": {"compute": {"switch": "arista-7800r4-16"}},
    }
    assert refused(api, document)[0] == "workload.days"


def test_the_limit_counts_the_cables_the_plan_has(api, monkeypatch):
    """The limit counts the fabrics as the pipeline first plans them: the plan's cables but for
    the rack PDUs' management cables (none here: no oob fabric). At the limit a plan is made;
    one cable fewer allowed, it is refused."""

    document = {"name": "pod", "compute": {"system": "dgx-b200", "nodes": 64},
                "fabrics": {"compute": {"switch": "qm9700"}, "storage": {"switch": "qm9700"}}}
    plan = api.post("/api/v1/plan/", document, format="json").json()
    cables = sum(link["count"] for fabric in plan["fabrics"].values() for link in fabric["links"])
    monkeypatch.setattr(cable_limit, "MAX_PLAN_CABLES", cables)
    assert api.post("/api/v1/plan/", document, format="json").status_code == 200
    monkeypatch.setattr(cable_limit, "MAX_PLAN_CABLES", cables - 1)
    response = api.post("/api/v1/plan/", document, format="json")
    assert response.status_code == 422
    assert f"would have {cables:,} cables" in response.json()["errors"]["compute.nodes"][0]


TINY = {"slug": "tiny", "name": "One-GPU box", "gpus": 1, "power_kw": 1, "rack_units": 1, "weight_kg": 10,
        "price_usd": 1000}


@pytest.mark.parametrize(("racks", "field"), [
    ({"max_nodes_per_rack": 1}, "racks.max_nodes_per_rack"),
    ({"power_budget_kw": 2}, "racks.power_budget_kw"),
])
def test_systems_spread_over_more_racks_than_a_plan_may_have_name_what_spreads_them(api, racks, field):
    """10 million one-GPU systems, one a rack, took 6 s and 370 MB to lay out on the floor."""
    document = {"name": "racks", "compute": {"system": "tiny", "gpus": 10_000_000}, "racks": racks,
                "components": {"systems": [TINY]}}
    found, message = refused(api, document, rack_limits.MAX_PLAN_RACKS)
    assert found == field
    assert "10,000,000 systems at" in message


def test_racks_spread_over_more_rows_than_a_plan_may_have_name_the_racks_per_row(api):
    """Every row is described in the plan: 2 million racks one a row made a 200 MB plan."""
    document = {"name": "rows", "compute": {"system": "dgx-b300", "gpus": 1_000_000},
                "racks": {"max_nodes_per_rack": 1, "racks_per_row": 2}}
    found, message = refused(api, document, rack_limits.MAX_PLAN_ROWS)
    assert found == "racks.racks_per_row"
    assert message.startswith("125,000 compute racks at 2 a row fill 62,500 rows")
