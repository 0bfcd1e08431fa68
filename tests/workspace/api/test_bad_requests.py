"""Every bad request is a 4xx: ids that are not numbers or too large, huge list parameters, text
no database can store, and tampered editor fields (issue 11: each of these was a 500)."""

import json

import pytest
from django.urls import reverse

from planner.services import scenario_create

pytestmark = pytest.mark.django_db

URL = "/api/v1/scenarios/"
DOCUMENT = {"name": "B200 pod", "compute": {"system": "dgx-b200", "nodes": 32}}
HUGE = "9" * 5_000


@pytest.fixture
def scenario(user):
    return scenario_create(owner=user, document=dict(DOCUMENT))


@pytest.mark.parametrize("pk", ["abc", "1.5", "-1", "0", str(2**63), "99999999999999999999", HUGE])
def test_an_id_that_is_no_scenario_is_404(user_api, scenario, pk):
    for suffix in ("", "plan/", "revisions/", "export.csv"):
        response = user_api.get(f"{URL}{pk}/{suffix}")
        assert response.status_code == 404, (pk, suffix, response.content[:200])


@pytest.mark.parametrize("pk", [str(2**63), HUGE])
def test_a_huge_id_in_the_workspace_is_404(client, user, pk):
    client.force_login(user)
    assert client.get(f"/scenarios/{pk}/").status_code == 404


@pytest.mark.parametrize(
    "query", ["limit=" + HUGE, "limit=99999999999999999999", "limit=-1", "limit=x", "offset=" + HUGE,
              "offset=99999999999999999999", "limit=0"],
)
def test_an_out_of_range_page_is_400_naming_the_parameter(user_api, scenario, query):
    response = user_api.get(f"{URL}?{query}")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == [query.split("=")[0]]


def test_a_page_in_range_still_lists(user_api, scenario):
    assert user_api.get(f"{URL}?limit=1000&offset=0").json()["count"] == 1


@pytest.mark.parametrize("name", ["a\x00b", "a\ud800b"])
def test_unstorable_text_in_a_name_is_400_naming_the_field(user_api, name):
    body = json.dumps({"document": {**DOCUMENT, "name": name}})
    response = user_api.post(URL, body, content_type="application/json")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["document.name"]
    response = user_api.post("/api/v1/plan/", json.dumps({**DOCUMENT, "name": name}), content_type="application/json")
    assert list(response.json()["errors"]) == ["name"]


def test_a_stale_revision_of_any_size_is_a_4xx(user_api, scenario):
    for revision in (2**40, HUGE):
        body = json.dumps({"document": DOCUMENT, "revision": revision}) if revision != HUGE else (
            '{"document": {"name": "B200 pod", "compute": {"system": "dgx-b200", "nodes": 32}}, "revision": ' + HUGE + "}"
        )
        response = user_api.put(f"{URL}{scenario.pk}/", body, content_type="application/json")
        assert response.status_code == 400, response.content[:300]


def test_a_catalog_slug_with_a_nul_is_404(api):
    assert api.get("/api/v1/catalog/systems/a%00b/").status_code == 404


def test_the_editor_refuses_a_hidden_document_nested_500_deep(client, user, scenario):
    client.force_login(user)
    deep = "[" * 500 + "]" * 500
    form = {"document": '{"name": "x", "a": ' + deep + "}", "base_revision": "1", "name": "x",
            "compute.system": "dgx-b200", "compute.nodes": "4"}
    for url in (reverse("workspace:scenario-preview"), reverse("workspace:scenario-edit", args=[scenario.pk])):
        response = client.post(url, form)
        assert response.status_code == 400
        assert "nested more than" in response.content.decode()


def test_the_editor_refuses_a_nul_in_a_field(client, user, scenario):
    client.force_login(user)
    form = {"document": json.dumps(DOCUMENT), "base_revision": "1", "name": "a\x00b",
            "compute.system": "dgx-b200", "compute.nodes": "4", "compute.gpus": HUGE}
    response = client.post(reverse("workspace:scenario-edit", args=[scenario.pk]), form)
    assert response.status_code == 400
    response = client.post(reverse("workspace:scenario-edit", args=[scenario.pk]), {**form, "base_revision": HUGE})
    assert response.status_code in (400, 409)


def test_a_nul_in_the_list_search_or_a_rename_is_refused_not_a_500(client, user, scenario):
    client.force_login(user)
    assert client.get("/scenarios/?q=a%00b").status_code in (200, 400)
    response = client.post(reverse("workspace:scenario-rename", args=[scenario.pk]), {"name": "a\x00b"})
    assert response.status_code in (200, 400)
    scenario.refresh_from_db()
    assert scenario.name == "B200 pod"
