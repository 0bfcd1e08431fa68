"""A real Nautobot (scripts/with-nautobot: from PyPI, on a throw-away PostgreSQL and Redis)
receives two plans at two locations: each location then holds the racks, devices, interfaces
and cables of its plan, a re-push of the first changes nothing, and after an edit the counts
follow, the objects the plan no longer has kept and reported (issues 15 and 26). Skipped where
NAUTOBOT_URL is unset, except under scripts/with-nautobot (NAUTOBOT_REQUIRED=1), where it must
run."""

import os
import time

import pynautobot
import pytest

from handoff.nautobot_push import PushError, push_plan
from handoff.solver.nautobot import desired_objects
from tests.handoff.conftest import inference_plan, superpod_plan

URL = os.environ.get("NAUTOBOT_URL", "")
TOKEN = os.environ.get("NAUTOBOT_TOKEN", "")
REQUIRED = os.environ.get("NAUTOBOT_REQUIRED", "") not in ("", "0")
RUN = os.getpid()
"""Locations of their own each run: a Nautobot kept between runs starts empty there."""
COUNTED = ("racks", "devices", "interfaces", "cables")

pytestmark = [
    pytest.mark.nautobot,
    pytest.mark.skipif(not URL and not REQUIRED,
                       reason="NAUTOBOT_URL is unset (scripts/with-nautobot runs a Nautobot for this test)"),
]


def nautobot_counts(location_name: str) -> dict[str, int]:
    api = pynautobot.api(URL, token=TOKEN)
    location = api.dcim.locations.get(name=location_name)
    counts = {kind: getattr(api.dcim, kind).count(location=location.id) for kind in COUNTED if kind != "cables"}
    return {**counts, "cables": api.dcim.cables.count(location_id=location.id)}


def plan_counts(plan, catalog) -> dict[str, int]:
    desired = desired_objects(plan, catalog, plan.name)
    return {kind: len(desired.objects[kind]) for kind in COUNTED}


def timed_push(plan, catalog, what: str):
    started = time.monotonic()
    summary = push_plan(plan, catalog, URL, TOKEN, plan.name)
    print("\n".join([f"{what} ({time.monotonic() - started:.1f} s), {plan_counts(plan, catalog)}:",
                     *summary.lines()]))
    return summary


def test_two_plans_into_one_nautobot_then_the_first_again_then_edited(catalog):
    assert URL and TOKEN, "scripts/with-nautobot sets NAUTOBOT_URL and NAUTOBOT_TOKEN"
    first = superpod_plan(catalog, f"planner nautobot one {RUN}")
    second = inference_plan(catalog, f"planner nautobot two {RUN}")

    pushed = timed_push(first, catalog, "first plan")
    assert pushed.total("created") > 0
    assert nautobot_counts(first.name) == plan_counts(first, catalog)

    pushed = timed_push(second, catalog, "second plan")
    # The shared objects Nautobot has (the first plan's head node and PDU types) are reused.
    assert pushed.kinds["device_types"].unchanged > 0
    assert nautobot_counts(second.name) == plan_counts(second, catalog)
    assert nautobot_counts(first.name) == plan_counts(first, catalog)

    again = timed_push(first, catalog, "first plan again")
    assert (again.total("created"), again.total("updated"), again.total("deleted")) == (0, 0, 0), again.lines()
    assert nautobot_counts(first.name) == plan_counts(first, catalog)
    assert nautobot_counts(second.name) == plan_counts(second, catalog)

    # Two systems fewer: their devices, interfaces and cables are left over, and the leaves'
    # cables are laid anew (the fewest cables an edit re-makes).
    smaller = superpod_plan(catalog, first.name, nodes=14)
    edited = timed_push(smaller, catalog, "first plan edited")
    assert edited.kinds["cables"].created > 0 and edited.kinds["devices"].left_over > 0
    # Objects the plan no longer has are kept (devices unracked) and reported as left over.
    kept = {kind: edited.kinds[kind].left_over for kind in COUNTED}
    wanted = plan_counts(smaller, catalog)
    assert nautobot_counts(first.name) == {kind: wanted[kind] + kept[kind] for kind in COUNTED}
    assert nautobot_counts(second.name) == plan_counts(second, catalog)


def test_the_4su_superpod_goes_in_whole_then_again_unchanged(catalog):
    """The whole 4-SU example (35 racks, 314 devices, 2,048 cables), at a location of its own:
    the push's size that issue 26 times (the summary prints each kind's seconds)."""
    plan = superpod_plan(catalog, f"planner nautobot 4su {RUN}", nodes=128)
    pushed = timed_push(plan, catalog, "4-SU plan")
    assert pushed.kinds["cables"].created == 2048
    assert nautobot_counts(plan.name) == plan_counts(plan, catalog)

    again = timed_push(plan, catalog, "4-SU plan again")
    assert (again.total("created"), again.total("updated"), again.total("deleted")) == (0, 0, 0), again.lines()
    assert nautobot_counts(plan.name) == plan_counts(plan, catalog)


def test_a_refused_token_is_a_clear_error(catalog):
    with pytest.raises(PushError, match="refused the token"):
        push_plan(superpod_plan(catalog, f"planner nautobot refused {RUN}"), catalog, URL, "0" * 40)


def test_a_wrong_url_is_a_clear_error(catalog):
    with pytest.raises(PushError, match="cannot be reached|not a Nautobot API"):
        push_plan(superpod_plan(catalog, f"planner nautobot unreachable {RUN}"), catalog, "http://127.0.0.1:9", TOKEN)
