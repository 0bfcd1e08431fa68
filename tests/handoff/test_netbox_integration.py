"""A real NetBox (scripts/with-netbox: from PyPI, on a throw-away PostgreSQL and Redis) receives
a one-scalable-unit plan, then a second, different plan at another site; each site then holds
the racks, devices, cabled interfaces, cables and power cables of its plan, NetBox the device
types of both, and a re-push of the first changes nothing (issue 26). Skipped where NETBOX_URL
is unset, except under scripts/with-netbox (NETBOX_REQUIRED=1), where it must run."""

import os
import time

import pytest
import requests

from handoff.formats import netbox_tables
from handoff.netbox_push import PushError, push_plan
from planner.solver.pipeline import plan_scenario
from tests.handoff.conftest import example_document

URL = os.environ.get("NETBOX_URL", "")
TOKEN = os.environ.get("NETBOX_TOKEN", "")
REQUIRED = os.environ.get("NETBOX_REQUIRED", "") not in ("", "0")
RUN = os.getpid()
"""Sites of their own each run: a NetBox kept between runs starts empty there."""

pytestmark = [
    pytest.mark.netbox,
    pytest.mark.skipif(not URL and not REQUIRED,
                       reason="NETBOX_URL is unset (scripts/with-netbox runs a NetBox for this test)"),
]


def one_su_plan(catalog, name: str, nodes: int = 16):
    document = example_document("dgx-h100-4su.yaml")
    document["name"] = name
    document["compute"]["nodes"] = nodes
    return plan_scenario(document, catalog)


def cloudmatrix_plan(catalog, name: str):
    """A different plan: CloudMatrix 384 systems, each a virtual chassis of trays over several
    racks, with split switch ports (the plan's own interfaces); it shares the head node's and
    the PDU's device types with the first plan."""
    return plan_scenario({**example_document("cloudmatrix-384.yaml"), "name": name}, catalog)


def netbox_count(path: str, **params) -> int:
    answer = requests.get(f"{URL}/api/{path}/", params={**params, "limit": 1, "brief": 1},
                          headers={"Authorization": f"Token {TOKEN}"}, timeout=60)
    answer.raise_for_status()
    return answer.json()["count"]


def site_counts(site: str) -> dict[str, int]:
    site_id = requests.get(f"{URL}/api/dcim/sites/", params={"name": site}, timeout=60,
                           headers={"Authorization": f"Token {TOKEN}"}).json()["results"][0]["id"]
    return {
        "racks": netbox_count("dcim/racks", site_id=site_id),
        "devices": netbox_count("dcim/devices", site_id=site_id),
        "cabled interfaces": netbox_count("dcim/interfaces", site_id=site_id, cabled="true"),
        "cables": netbox_count("dcim/cables", site_id=site_id) - netbox_count("dcim/cables", site_id=site_id,
                                                                              type="power"),
        "power cables": netbox_count("dcim/cables", site_id=site_id, type="power"),
        "virtual chassis": netbox_count("dcim/virtual-chassis", site_id=site_id),
    }


def plan_counts(plan, catalog) -> dict[str, int]:
    tables = netbox_tables(plan, catalog)
    cables = tables.tables["cables"][1]
    return {"racks": tables.counts["racks"], "devices": tables.counts["devices"], "cabled interfaces": 2 * len(cables),
            "cables": len(cables), "power cables": tables.counts["power cables"],
            "virtual chassis": tables.counts["virtual chassis"]}


def timed_push(plan, catalog, what: str):
    started = time.monotonic()
    summary = push_plan(plan, catalog, URL, TOKEN)
    print("\n".join([f"{what} ({time.monotonic() - started:.1f} s):", *summary.lines()]))
    return summary


def test_two_plans_into_one_netbox_then_the_first_again(catalog):
    assert URL and TOKEN, "scripts/with-netbox sets NETBOX_URL and NETBOX_TOKEN"
    first = one_su_plan(catalog, f"planner netbox one {RUN}")
    second = cloudmatrix_plan(catalog, f"planner netbox two {RUN}")
    first_types = set(netbox_tables(first, catalog).device_types)
    second_types = set(netbox_tables(second, catalog).device_types)

    pushed = timed_push(first, catalog, "first plan")
    assert pushed.total("created") > 0
    assert site_counts(first.name) == plan_counts(first, catalog)

    pushed = timed_push(second, catalog, "second plan")
    # The device types the first plan made are found and reused, not made again.
    assert pushed.kinds["device_types"].created == len(second_types - first_types)
    assert site_counts(second.name) == plan_counts(second, catalog)
    assert site_counts(first.name) == plan_counts(first, catalog)
    assert netbox_count("dcim/device-types") == len(first_types | second_types)

    again = timed_push(first, catalog, "first plan again")
    assert (again.total("created"), again.total("updated"), again.total("deleted")) == (0, 0, 0), again.lines()
    assert site_counts(first.name) == plan_counts(first, catalog)
    assert site_counts(second.name) == plan_counts(second, catalog)


def test_a_refused_token_is_a_clear_error(catalog):
    with pytest.raises(PushError, match="refused the token"):
        push_plan(one_su_plan(catalog, f"planner netbox refused {RUN}"), catalog, URL, "0" * 40)


def test_a_wrong_url_is_a_clear_error(catalog):
    with pytest.raises(PushError, match="cannot be reached|not a NetBox API"):
        push_plan(one_su_plan(catalog, f"planner netbox unreachable {RUN}"), catalog, "http://127.0.0.1:9", TOKEN)
