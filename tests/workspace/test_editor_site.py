"""One cluster or a site of several pools in the form: the switch keeps every value, the form
shows compute or pools, and a pool row folds to its summary line with optional parts."""

import json
import re

import pytest
from django.urls import reverse

from planner.models import Scenario
from workspace.editor.form import ScenarioEditor
from workspace.editor.site import document_as_cluster, document_as_site

ONE = {"name": "One", "compute": {"system": "dgx-h100", "gpus": 64},
       "inference": {"parameters_billion": 70}, "fabrics": {"compute": {"switch": "qm9700"}}}


@pytest.fixture
def ada_client(client, user):
    client.force_login(user)
    return client


def test_compute_becomes_the_first_pool_and_back():
    site = document_as_site(ONE)
    assert "compute" not in site and "inference" not in site
    assert site["pools"] == [{"name": "compute", "system": "dgx-h100", "gpus": 64, "inference": {"parameters_billion": 70}}]
    assert document_as_cluster(site) == ONE
    two = {**site, "pools": [*site["pools"], {"name": "b", "system": "hgx-a100", "gpus": 8}]}
    assert document_as_cluster(two) == two, "only a site of one pool turns back"


def test_a_workload_that_does_not_size_the_cluster_moves_into_the_pool_all_the_same():
    one = {**ONE, "workload": {"parameters_billion": 70, "tokens_trillion": 2}}
    site = document_as_site(one)
    assert "workload" not in site, "the format refuses a workload at a site's top"
    assert site["pools"][0]["workload"] == one["workload"]
    assert document_as_cluster(site) == one


def test_a_site_shows_no_workload_or_inference_at_its_top_unless_the_document_gives_one(catalog):
    site = {"name": "S", "pools": [{"name": "training", "system": "dgx-h100", "gpus": 64}]}
    shown = [section.path for section in ScenarioEditor(site, catalog).shown_sections]
    assert "workload" not in shown and "inference" not in shown and "compute" not in shown
    assert {"workload", "inference"} <= {section.path for section in ScenarioEditor(ONE, catalog).shown_sections}
    given = {**site, "workload": {"parameters_billion": 70, "tokens_trillion": 2}}
    errors = {"workload": ["with pools, give each pool its own workload (pools[i].workload)"]}
    editor = ScenarioEditor(given, catalog, errors)
    [workload] = [section for section in editor.shown_sections if section.path == "workload"]
    assert workload.errors == errors["workload"], "shown with the error that says where it goes"


def test_the_form_offers_the_switch_and_shows_compute_or_pools(ada_client):
    html = ada_client.get(reverse("workspace:scenario-new")).content.decode()
    assert 'name="site_action" value="pools"' in html
    assert 'name="pools.0.system"' not in html and 'value="pools">' not in html.split('name="site_action"')[0][-200:]
    data = {"document": json.dumps({"name": "S", "compute": {"system": "dgx-h100", "gpus": 64}}),
            "base_revision": "0", "name": "S", "compute.system": "dgx-h100", "compute.gpus": "64",
            "site_action": "pools"}
    response = ada_client.post(reverse("workspace:scenario-new"), data)
    assert response.status_code == 200 and not Scenario.objects.exists()
    html = response.content.decode()
    assert 'name="compute.system"' not in html
    assert 'name="pools.0.system"' in html and "Make it one cluster again" in html
    assert 'id="section-workload"' not in html and 'href="#section-inference"' not in html
    assert re.search(r'name="row_add" value="pools"[^>]* autofocus', html)


def test_a_site_saves_without_a_compute_section(ada_client):
    document = {"name": "S", "pools": [{"name": "compute", "system": "dgx-h100", "gpus": 64}]}
    data = {"document": json.dumps(document), "base_revision": "0", "name": "S", "pools": "rows",
            "pools.0.__base": "0", "pools.0.name": "compute", "pools.0.system": "dgx-h100", "pools.0.gpus": "64"}
    response = ada_client.post(reverse("workspace:scenario-new"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Scenario.objects.get().document["pools"][0]["system"] == "dgx-h100"
    assert "compute" not in Scenario.objects.get().document


def test_a_pool_row_folds_to_its_summary_without_false_required_marks(catalog):
    document = {"name": "S", "pools": [{"name": "training", "system": "dgx-h100", "gpus": 1024}]}
    editor = ScenarioEditor(document, catalog)
    pools = next(rows for rows in editor.all_row_lists() if rows.path == "pools")
    row = pools.rows[0]
    assert row.folds and not row.unfolded
    assert row.summary.startswith("training · NVIDIA DGX H100 · 1024 GPUs")
    assert {part.key for part in row.parts} >= {"workload", "inference", "fabric"}
    assert not any(field.required for part in row.parts for field in part.fields)


def test_a_pool_rows_parts_are_included_only_when_the_pool_gives_them(catalog):
    """The inputs of a part the pool leaves out show their defaults (MFU 40 %, FP8): that part
    is still folded and said to be left out, not "included"."""
    document = {"name": "S", "pools": [
        {"name": "training", "system": "dgx-h100", "gpus": 64, "workload": {"parameters_billion": 70}},
        {"name": "serving", "system": "dgx-h200", "inference": {"parameters_billion": 70}},
    ]}
    editor = ScenarioEditor(document, catalog)
    pools = next(rows for rows in editor.all_row_lists() if rows.path == "pools")
    given = [{part.key for part in row.parts if part.has_value} for row in pools.rows]
    assert given == [{"workload"}, {"inference"}]
    assert not any(part.has_value for part in pools.template.parts)
    assert any(field.value for part in pools.rows[0].parts if part.key == "inference" for field in part.fields)


def test_the_preview_lists_every_error_the_save_would(ada_client):
    from tests.workspace.test_editor_page import editor_post

    fields = {"name": "Typed", "compute__system": "dgx-h100", "compute__gpus": "lots",
              "racks__power_budget_kw": "-5"}
    preview = ada_client.post(reverse("workspace:scenario-preview"), editor_post(**fields)).content.decode()
    save = ada_client.post(reverse("workspace:scenario-new"), editor_post(**fields))
    assert save.status_code == 400
    said = [link.message for link in save.context["editor"].error_summary()]
    assert len(said) >= 2
    for message in said:
        assert message in preview
