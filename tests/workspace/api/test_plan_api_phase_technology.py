"""Phases that change technology through the API: each bad input a 400 (validation) or 422 (no
design) on the dotted path of the key that caused it, never a 500."""

import json
from pathlib import Path

import pytest

from planner.solver.documents import parse_document

pytestmark = pytest.mark.django_db

URL = "/api/v1/plan/"
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def document(name, edit=None):
    parsed = parse_document((EXAMPLES / name).read_text())
    if edit:
        edit(parsed)
    return parsed


def post(api, scenario):
    return api.generic("POST", URL, json.dumps(scenario), content_type="application/json")


def _retire_then_name(d):
    d["phases"][2]["pools"]["a100"] = {"retire": True}
    d["phases"][3]["pools"]["a100"] = {"gpus": 200}


def _final_racks_too_few(d):
    d["compute"]["gpus"] = 200
    d["phases"] = [
        {"name": "a100", "start": "2026-01-01", "pools": {"compute": {"gpus": 800, "system": "hgx-a100"}}},
        {"name": "h100", "start": "2027-01-01", "pools": {"compute": {"gpus": 200}}},
    ]


MIXED, SLURM, THREE = "mixed-generation-expansion.yaml", "slurm-cluster-128-to-10k.yaml", "three-phase-expansion.yaml"
BAD = [
    # A retired pool that a later phase names.
    (MIXED, _retire_then_name, 400, "phases[3].pools.a100", "retired by phases[2]"),
    # A retired pool given a size.
    (MIXED, lambda d: d["phases"][3]["pools"]["a100"].update(gpus=8), 400, "phases[3].pools.a100.gpus",
     "leave out for a retired pool"),
    # A system the catalog does not have.
    (THREE, lambda d: d["phases"][0]["pools"]["compute"].update(system="hgx-z900"), 400,
     "phases[0].pools.compute.system", "hgx-z900"),
    # The last phase is the site.
    (THREE, lambda d: d["phases"][2]["pools"]["compute"].update(system="hgx-a100"), 400,
     "phases[2].pools.compute.system", "the last phase is the site"),
    # growth: final installs the last phase's spines and storage from the first.
    (THREE, lambda d: d["phases"][0]["pools"]["compute"].update(fabric={"switch": "qm8700"}), 400,
     "phases[0].pools.compute.fabric", "growth: per_phase"),
    (SLURM, lambda d: d.update(growth="final"), 400, "phases[0].pools.compute.fabric", "growth: per_phase"),
    # A phase's system the final floor's racks cannot hold (growth: final).
    (THREE, _final_racks_too_few, 422, "phases[0].pools.compute.system", "cannot hold"),
    # A switch that cannot serve the phase's fabric (400G NICs on 100G ports).
    (SLURM, lambda d: d["phases"][0]["pools"]["compute"]["fabric"].pop("planes"), 400,
     "phases[0].pools.compute.fabric.switch", "100 Gb/s ports of sn4600c"),
    (SLURM, lambda d: d["phases"][0]["pools"]["compute"]["fabric"].update(switch="nope"), 400,
     "phases[0].pools.compute.fabric.switch", "nope"),
    # A storage tier's system the catalog does not have.
    (SLURM, lambda d: d["phases"][0]["storage"]["datasets"].update(system="nfs-9000"), 400,
     "phases[0].storage.datasets.system", "nfs-9000"),
    (SLURM, lambda d: d.update(salvage_share=1.5), 400, "salvage_share", "1"),
]


@pytest.mark.parametrize(("name", "edit", "status", "path", "message"), BAD)
def test_bad_technology_changes_are_named_on_their_path(api, name, edit, status, path, message):
    response = post(api, document(name, edit))
    assert response.status_code == status, response.content[:500]
    errors = response.json()["errors"]
    assert path in errors, errors
    assert any(message in text for text in errors[path]), errors[path]


def test_the_examples_plan_with_their_retired_parts(api):
    response = post(api, document(SLURM))
    assert response.status_code == 200
    plan = response.json()
    assert plan["phases"][1]["salvage_usd"] == pytest.approx(164_067.95)
    assert {change["sku"] for change in plan["phases"][1]["removed"]} >= {"sn4600c", "vast-cbox-dbox"}
    assert sum(line["extended_price_usd"] for line in plan["bom"]) == pytest.approx(plan["cost"]["bom_total_usd"])
