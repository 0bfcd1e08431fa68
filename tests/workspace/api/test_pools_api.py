"""A site of several pools from the API and the command line: examples/two-pool-site.yaml."""

import copy
import csv
import io
import json
from pathlib import Path

import pytest
import yaml

from tests.commands import run_command

pytestmark = pytest.mark.django_db

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "two-pool-site.yaml"
DOCUMENT = yaml.safe_load(EXAMPLE.read_text())


def test_the_api_plans_a_site_of_two_pools(api):
    response = api.post("/api/v1/plan/", DOCUMENT, format="json")
    assert response.status_code == 200
    plan = response.json()
    assert (plan["compute"]["gpus"], plan["compute"]["nodes"]) == (512 + 256, 64 + 32)
    assert {name: pool["gpus"] for name, pool in plan["pools"].items()} == {"training": 512, "finetune": 256}
    assert plan["pools"]["training"]["fabric"]["name"] == "compute-training"
    assert {"compute-training", "compute-finetune", "storage"} <= set(plan["fabrics"])
    assert plan["racks"]["compute"] == sum(pool["racks"]["compute"] for pool in plan["pools"].values())
    assert "pools" in plan["inputs"] and "compute" not in plan["inputs"]


def test_the_api_names_a_pool_used_twice(api):
    document = {**DOCUMENT, "pools": [DOCUMENT["pools"][0], {**DOCUMENT["pools"][1], "name": "training"}]}
    response = api.post("/api/v1/plan/", document, format="json")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["pools[1].name"]


def test_the_site_exports_its_cabling_plan(api):
    response = api.post("/api/v1/plan/export.cabling", DOCUMENT, format="json")
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert {row["fabric"] for row in rows} == {"compute-training", "compute-finetune", "storage"}


def test_a_pools_own_top_of_rack_leaves_are_cabled(api):
    """A pool on its own top-of-rack fabric: the cabling plan exports its rows (its leaves
    stand in its compute racks), as the BOM does."""
    document = copy.deepcopy(DOCUMENT)
    document["pools"][1]["fabric"]["leaf_placement"] = "top_of_rack"
    assert api.post("/api/v1/plan/export.csv", document, format="json").status_code == 200
    response = api.post("/api/v1/plan/export.cabling", document, format="json")
    assert response.status_code == 200
    rows = b"".join(response.streaming_content if response.streaming else [response.content]).decode()
    assert "finetune" in rows


def test_a_saved_site_plans(user_api):
    created = user_api.post("/api/v1/scenarios/", {"document": DOCUMENT}, format="json")
    assert created.status_code == 201
    response = user_api.get(f"/api/v1/scenarios/{created.json()['id']}/export.json")
    assert json.loads(response.content)["pools"]["finetune"]["system"] == "hgx-a100"


def test_the_command_line_plans_the_example(capsys):
    code, out, err = run_command(capsys, "plan", EXAMPLE)
    assert (code, err) == (0, "")
    plan = json.loads(out)
    assert plan["pools"]["finetune"]["racks"]["compute"] == 6
    assert plan["power"]["it_kw"] > sum(pool["power"]["it_kw"] for pool in plan["pools"].values())


@pytest.mark.parametrize(
    ("pools", "path"),
    [
        ([{"name": "a", "system": "dgx-h100", "gpus": 20_000_000}], "pools[0].gpus"),
        ([{"name": "a", "system": "dgx-h100", "gpus": 8},
          {"name": "b", "system": "dgx-h100", "nodes": 8, "spare_nodes": 2_000_000}], "pools[1].spare_nodes"),
        ([{"name": "a", "system": "dgx-h100", "gpus": 6_000_000},
          {"name": "b", "system": "dgx-h100", "gpus": 6_000_000}], "pools"),
    ],
)
def test_a_site_beyond_the_work_limits_is_refused_on_its_path(api, pools, path):
    response = api.post("/api/v1/plan/", {"name": "big", "pools": pools}, format="json")
    assert response.status_code in (400, 422)
    assert path in response.json()["errors"], response.json()
