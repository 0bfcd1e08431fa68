"""A real NetBox (scripts/with-netbox: from PyPI, on a throw-away PostgreSQL and Redis) receives
a one-scalable-unit plan, then a second, different plan at another site; each site then holds
the racks, devices, cabled interfaces, cables and power cables of its plan, NetBox the device
types of both, and a re-push of the first changes nothing (issue 26). Skipped where NETBOX_URL
is unset, except under scripts/with-netbox (NETBOX_REQUIRED=1), where it must run."""

import csv
import io
import os
import re
import time
import zipfile

import pytest
import requests
import yaml

from handoff.formats import netbox_bundle, netbox_tables
from handoff.netbox_push import PushError, push_plan
from tests.handoff.conftest import inference_plan, superpod_plan

URL = os.environ.get("NETBOX_URL", "")
TOKEN = os.environ.get("NETBOX_TOKEN", "")
REQUIRED = os.environ.get("NETBOX_REQUIRED", "") not in ("", "0")
USERNAME = os.environ.get("NETBOX_USERNAME", "")
PASSWORD = os.environ.get("NETBOX_PASSWORD", "")
"""A user who may import in NetBox's pages (scripts/with-netbox sets both)."""
IMPORT_PAGES = {"sites": "dcim/sites", "manufacturers": "dcim/manufacturers", "rack-roles": "dcim/rack-roles",
                "device-roles": "dcim/device-roles", "device-types": "dcim/device-types", "racks": "dcim/racks",
                "power-panels": "dcim/power-panels", "power-feeds": "dcim/power-feeds",
                "virtual-chassis": "dcim/virtual-chassis", "devices": "dcim/devices", "interfaces": "dcim/interfaces",
                "cables": "dcim/cables", "power-cables": "dcim/cables"}
"""A bundle file (by its name without number and extension) -> the list page whose Import takes it."""
STEP = re.compile(r"^(\d\d)\. (\d\d-([a-z-]+)(?:\.csv)?): ", re.MULTILINE)
RUN = os.getpid()
"""Sites of their own each run: a NetBox kept between runs starts empty there."""

pytestmark = [
    pytest.mark.netbox,
    pytest.mark.skipif(not URL and not REQUIRED,
                       reason="NETBOX_URL is unset (scripts/with-netbox runs a NetBox for this test)"),
]


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


def signed_in() -> requests.Session:
    """A browser's session, signed in to NetBox's pages."""
    session = requests.Session()
    session.get(f"{URL}/login/", timeout=60).raise_for_status()
    answer = session.post(f"{URL}/login/", timeout=60, allow_redirects=False, data={
        "csrfmiddlewaretoken": session.cookies["csrftoken"], "username": USERNAME, "password": PASSWORD, "next": "/"})
    assert answer.status_code == 302, "NetBox refused the sign-in"
    return session


def page_import(session: requests.Session, page: str, data: str, data_format: str) -> None:
    """One Import of NetBox's pages: a redirect to the list when every row went in, else the
    form again with its errors."""
    answer = session.post(f"{URL}/{page}/import/", timeout=600, allow_redirects=False, headers={"Referer": URL},
                          data={"csrfmiddlewaretoken": session.cookies["csrftoken"], "import_method": "direct",
                                "data": data, "format": data_format, "csv_delimiter": ","})
    errors = re.findall(r'class="[^"]*(?:invalid-feedback|alert-danger)[^"]*"[^>]*>(.*?)<', answer.text, re.DOTALL)
    assert answer.status_code == 302, f"{page}: HTTP {answer.status_code} {[e.strip() for e in errors][:5]}"


SHARED_FILES = {"manufacturers": "dcim/manufacturers", "rack-roles": "dcim/rack-roles",
                "device-roles": "dcim/device-roles"}
"""Files of objects other plans share, whose rows NetBox has are left out, as the README says."""


def rows_not_in_netbox(name: str, text: str) -> str:
    """The file without the rows whose objects (by slug) NetBox has already."""
    rows = list(csv.DictReader(io.StringIO(text)))
    kept = [row for row in rows if not netbox_count(SHARED_FILES[name], slug=row["slug"])]
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(kept)
    return buffer.getvalue() if kept else ""


def test_the_bundle_imports_by_its_readme_steps_in_order(catalog):
    """A user's way in: each file of the bundle's README, in its order, through NetBox's Import
    (leaving out the shared rows NetBox has, as the README says)."""
    assert USERNAME and PASSWORD, "scripts/with-netbox sets NETBOX_USERNAME and NETBOX_PASSWORD"
    plan = superpod_plan(catalog, f"planner netbox import {RUN}")
    archive = zipfile.ZipFile(io.BytesIO(netbox_bundle(plan, catalog)))
    steps = STEP.findall(archive.read("README.txt").decode("utf-8"))
    assert [number for number, _, _ in steps] == sorted(number for number, _, _ in steps)
    assert {path for _, path, _ in steps} == {name.split("/")[0] for name in archive.namelist()} - {"README.txt"}
    session = signed_in()
    started = time.monotonic()
    for _, path, name in steps:
        if name == "device-types":
            for member in sorted(n for n in archive.namelist() if n.startswith(path + "/")):
                text = archive.read(member).decode("utf-8")
                if not netbox_count("dcim/device-types", slug=yaml.safe_load(text)["slug"]):
                    page_import(session, IMPORT_PAGES[name], text, "yaml")
            continue
        text = archive.read(path).decode("utf-8")
        text = rows_not_in_netbox(name, text) if name in SHARED_FILES else text
        if text:
            page_import(session, IMPORT_PAGES[name], text, "csv")
    print(f"bundle imported by its README's {len(steps)} steps in {time.monotonic() - started:.1f} s")
    assert site_counts(plan.name) == plan_counts(plan, catalog)


def test_two_plans_into_one_netbox_then_the_first_again(catalog):
    assert URL and TOKEN, "scripts/with-netbox sets NETBOX_URL and NETBOX_TOKEN"
    first = superpod_plan(catalog, f"planner netbox one {RUN}")
    second = inference_plan(catalog, f"planner netbox two {RUN}")
    first_models = {data["model"] for data in netbox_tables(first, catalog).device_types.values()}
    second_models = {data["model"] for data in netbox_tables(second, catalog).device_types.values()}

    pushed = timed_push(first, catalog, "first plan")
    assert pushed.total("created") > 0
    assert site_counts(first.name) == plan_counts(first, catalog)

    present = netbox_count("dcim/device-types", model=sorted(second_models))
    pushed = timed_push(second, catalog, "second plan")
    # The device types NetBox has (the first plan's among them) are found and reused, not made again.
    assert pushed.kinds["device_types"].created == len(second_models) - present
    assert site_counts(second.name) == plan_counts(second, catalog)
    assert site_counts(first.name) == plan_counts(first, catalog)
    assert netbox_count("dcim/device-types", model=sorted(first_models | second_models)) == len(
        first_models | second_models)

    again = timed_push(first, catalog, "first plan again")
    assert (again.total("created"), again.total("updated"), again.total("deleted")) == (0, 0, 0), again.lines()
    assert site_counts(first.name) == plan_counts(first, catalog)
    assert site_counts(second.name) == plan_counts(second, catalog)


def test_a_refused_token_is_a_clear_error(catalog):
    with pytest.raises(PushError, match="refused the token"):
        push_plan(superpod_plan(catalog, f"planner netbox refused {RUN}"), catalog, URL, "0" * 40)


def test_a_wrong_url_is_a_clear_error(catalog):
    with pytest.raises(PushError, match="cannot be reached|not a NetBox API"):
        push_plan(superpod_plan(catalog, f"planner netbox unreachable {RUN}"), catalog, "http://127.0.0.1:9", TOKEN)
