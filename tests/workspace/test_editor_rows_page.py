"""The editor page's rows as a browser without script uses them: add and remove by posting,
a refused tier named by its row's field with a banner link, and a save with rows."""

import json
import re

import pytest
from django.urls import reverse

from planner.models import Scenario
from tests.workspace.test_editor_page import read
from tests.workspace.test_editor_rows import tier

START = {"name": "Rows by post", "compute": {"system": "dgx-h100", "gpus": 64}}


@pytest.fixture
def ada_client(client, user):
    client.force_login(user)
    return client


def form(**fields) -> dict:
    data = {"document": json.dumps(START), "base_revision": "0", "name": "Rows by post",
            "compute.system": "dgx-h100", "compute.gpus": "64"}
    data.update(fields)
    return data


def banner_links(html: str) -> list[tuple[str, str, str]]:
    banner = re.search(r'<div id="error-summary" class="error-summary"[^>]*>(.*?)</div>', html, re.DOTALL)
    assert banner, "the page has the banner of errors"
    return re.findall(r'<li><a href="#([^"]+)">([^<]+)</a>: ([^<]+)</li>', banner.group(1))


def test_the_new_scenario_page_has_the_lists_and_their_blank_rows(ada_client):
    html = ada_client.get(reverse("workspace:scenario-new")).content.decode()
    for path, label in [("compute.nics", "Add a NIC override"), ("storage.tiers", "Add a storage tier"),
                        ("components.systems", "Add a GPU system"), ("components.switches", "Add a switch")]:
        assert f'<input type="hidden" name="{path}" value="rows">' in html
        assert f'name="row_add" value="{path}"' in html and label in html
    assert 'name="storage.tiers.NEWROW0.system"' in html, "the blank row the script copies"
    assert "edit them as YAML below" not in html
    assert html.index('class="default-submit"') < html.index('name="row_add"'), "Enter saves, it adds no row"


def test_adding_a_tier_without_script_shows_the_form_again_unsaved(ada_client):
    response = ada_client.post(reverse("workspace:scenario-new"), form(**{"storage.tiers": "rows", "row_add": "storage.tiers"}))
    assert response.status_code == 200
    assert not Scenario.objects.exists()
    html = response.content.decode()
    assert re.search(r'<select id="f-storage-tiers-0-system" name="storage.tiers.0.system"[^>]* autofocus>', html)
    assert 'id="row-storage-tiers-0"' in html and 'id="row-storage-tiers-1"' not in html
    data = form(**{"storage.tiers": "rows", "row_remove": "storage.tiers.0"},
                **tier(0, "ddn-ai400x2-turbo", serves=["training_reads"]))
    html = ada_client.post(reverse("workspace:scenario-new"), data).content.decode()
    assert 'name="storage.tiers.0.system"' not in html
    assert re.search(r'name="row_add" value="storage.tiers"[^>]* autofocus', html)


def test_a_row_added_without_script_is_blank_not_in_error(ada_client):
    html = ada_client.post(reverse("workspace:scenario-new"),
                           form(**{"storage.tiers": "rows", "row_add": "storage.tiers"})).content.decode()
    assert "is required" not in html
    assert 'id="error-summary"' not in html


def test_a_row_added_keeps_the_other_errors_without_taking_the_cursor_to_them(ada_client):
    data = form(**{"storage.tiers": "rows", "row_add": "storage.tiers", "compute.gpus": "many"})
    html = ada_client.post(reverse("workspace:scenario-new"), data).content.decode()
    assert [link[0] for link in banner_links(html)] == ["f-compute-gpus"]
    assert not re.search(r'<div id="error-summary"[^>]*role="alert"', html), "the cursor goes to the row added"
    assert re.search(r'name="storage.tiers.0.system"[^>]* autofocus', html)


def test_a_refused_tier_names_its_rows_field_with_a_link_in_the_banner(ada_client):
    data = form(**{"storage.tiers": "rows"}, **tier(0, "ddn-ai400x2-turbo", serves=["training_reads"]),
                **tier(1, "", holds=["dataset"]))
    response = ada_client.post(reverse("workspace:scenario-new"), data)
    assert response.status_code == 400
    html = response.content.decode()
    links = banner_links(html)
    assert ("f-storage-tiers-1-system", "Storage › Storage tiers › Storage tier 2 › Storage system",
            "is required") in links
    assert "f-storage-tiers-1-system" in read(html).ids
    assert not Scenario.objects.exists()


def test_a_tier_holding_checkpoints_asks_for_a_field_the_form_shows(ada_client):
    """Without a workload, a tier that holds checkpoints needs the checkpoint size: the error
    is on the storage section's input, which the page has, linked from the banner."""
    data = form(**{"storage.tiers": "rows"}, **tier(0, "object-hdd-4u60", holds=["checkpoints"]))
    response = ada_client.post(reverse("workspace:scenario-new"), data)
    assert response.status_code == 400
    html = response.content.decode()
    [(anchor, where, _)] = banner_links(html)
    assert (anchor, where) == ("f-storage-checkpoint-tb", "Storage › Checkpoint")
    assert anchor in read(html).ids
    data["storage.checkpoint_tb"] = "12"
    assert ada_client.post(reverse("workspace:scenario-new"), data).status_code == 302


def test_two_tiers_and_a_nic_override_saved_from_the_form(ada_client):
    data = form(**{
        "storage.tiers": "rows", "storage.checkpoint_tb": "12",
        "compute.nics": "rows", "compute.nics.0.__base": "", "compute.nics.0.role": "storage",
        "compute.nics.0.count": "2", "compute.nics.0.gbps": "200", "compute.nics.0.ports_per_cage": "1",
        "include:fabrics.storage": "on", "fabrics.storage.switch": "sn5600",
    }, **tier(0, "ddn-ai400x2-turbo", name="Hot NVMe", serves=["training_reads", "checkpoint_writes"]),
        **tier(1, "object-hdd-4u60", name="Archive", holds=["checkpoints"], retained_checkpoints="10"))
    response = ada_client.post(reverse("workspace:scenario-new"), data)
    assert response.status_code == 302, [link for link in response.context["editor"].error_summary()]
    document = Scenario.objects.get().document
    assert document["compute"]["nics"] == [{"role": "storage", "count": 2, "gbps": 200}]
    assert [(item["name"], item["system"]) for item in document["storage"]["tiers"]] == [
        ("Hot NVMe", "ddn-ai400x2-turbo"), ("Archive", "object-hdd-4u60")]
    plan = ada_client.get(reverse("workspace:scenario-plan-json", args=[Scenario.objects.get().pk])).json()
    assert [link["gbps"] for link in plan["fabrics"]["storage"]["links"] if link["from"] == "node"] == [200]
    assert [item["name"] for item in plan["storage"]["tiers"]] == ["Hot NVMe", "Archive"]
    edit = ada_client.get(reverse("workspace:scenario-edit", args=[Scenario.objects.get().pk])).content.decode()
    assert 'name="storage.tiers.1.name" value="Archive"' in edit
    assert 'name="compute.nics.0.gbps" value="200"' in edit
