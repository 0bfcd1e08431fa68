"""A real Nautobot (scripts/with-nautobot: from PyPI, on a throw-away PostgreSQL and Redis)
receives a one-scalable-unit plan: the racks, devices, interfaces and cables it then holds
equal the plan's; a second push changes nothing; after an edit the counts follow (issue 15,
point 2). Skipped where NAUTOBOT_URL is unset, except under scripts/with-nautobot
(NAUTOBOT_REQUIRED=1), where it must run."""

import os

import pynautobot
import pytest

from handoff.nautobot_push import PushError, push_plan
from handoff.solver.nautobot import desired_objects
from planner.solver.pipeline import plan_scenario
from tests.handoff.conftest import example_document

URL = os.environ.get("NAUTOBOT_URL", "")
TOKEN = os.environ.get("NAUTOBOT_TOKEN", "")
REQUIRED = os.environ.get("NAUTOBOT_REQUIRED", "") not in ("", "0")
LOCATION = f"planner integration {os.getpid()}"
"""A location of its own each run: a Nautobot kept between runs starts empty there."""

pytestmark = [
    pytest.mark.nautobot,
    pytest.mark.skipif(not URL and not REQUIRED,
                       reason="NAUTOBOT_URL is unset (scripts/with-nautobot runs a Nautobot for this test)"),
]


def one_su_plan(catalog, nodes: int = 16):
    document = example_document("dgx-h100-4su.yaml")
    document["name"] = LOCATION
    document["compute"]["nodes"] = nodes
    return plan_scenario(document, catalog)


def nautobot_counts() -> dict[str, int]:
    api = pynautobot.api(URL, token=TOKEN)
    location = api.dcim.locations.get(name=LOCATION)
    counts = {kind: getattr(api.dcim, kind).count(location=location.id) for kind in ("racks", "devices", "interfaces")}
    return {**counts, "cables": api.dcim.cables.count(location_id=location.id)}


def plan_counts(plan, catalog) -> dict[str, int]:
    desired = desired_objects(plan, catalog, LOCATION)
    return {kind: len(desired.objects[kind]) for kind in ("racks", "devices", "interfaces", "cables")}


def test_push_then_push_again_then_edit(catalog):
    assert URL and TOKEN, "scripts/with-nautobot sets NAUTOBOT_URL and NAUTOBOT_TOKEN"
    plan = one_su_plan(catalog)
    first = push_plan(plan, catalog, URL, TOKEN, LOCATION)
    assert first.total("created") > 0
    assert nautobot_counts() == plan_counts(plan, catalog)
    print("\n".join(["first push:", *first.lines()]))

    again = push_plan(plan, catalog, URL, TOKEN, LOCATION)
    assert (again.total("created"), again.total("updated")) == (0, 0), again.lines()
    assert nautobot_counts() == plan_counts(plan, catalog)

    bigger = one_su_plan(catalog, nodes=20)
    edited = push_plan(bigger, catalog, URL, TOKEN, LOCATION)
    assert edited.kinds["devices"].created > 0
    # Objects the plan no longer has are kept (devices unracked) and reported as left over.
    kept = {kind: edited.kinds[kind].left_over for kind in ("racks", "devices", "interfaces", "cables")}
    wanted = plan_counts(bigger, catalog)
    assert nautobot_counts() == {kind: wanted[kind] + kept[kind] for kind in wanted}
    print("\n".join(["after the edit:", *edited.lines()]))


def test_a_refused_token_is_a_clear_error(catalog):
    with pytest.raises(PushError, match="refused the token"):
        push_plan(one_su_plan(catalog), catalog, URL, "0" * 40, LOCATION)


def test_a_wrong_url_is_a_clear_error(catalog):
    with pytest.raises(PushError, match="cannot be reached|not a Nautobot API"):
        push_plan(one_su_plan(catalog), catalog, "http://127.0.0.1:9", TOKEN, LOCATION)
