"""/api/v1/scenarios/: owned by their user, every save a revision, stale edits refused."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from planner.models import Scenario

pytestmark = pytest.mark.django_db

URL = "/api/v1/scenarios/"
DOCUMENT = {"name": "B200 pod", "compute": {"system": "dgx-b200", "nodes": 32}, "racks": {"power_budget_kw": 60}}


def create(client, document=DOCUMENT):
    return client.post(URL, {"document": document}, format="json")


def test_create_keeps_revision_one(user_api):
    response = create(user_api)
    assert response.status_code == 201
    body = response.json()
    assert (body["name"], body["revision"], body["document"]) == ("B200 pod", 1, DOCUMENT)
    assert body["plan_url"].endswith(f"/api/v1/scenarios/{body['id']}/plan/")


def test_list_retrieve_and_plan(user_api):
    scenario_id = create(user_api).json()["id"]
    assert [item["id"] for item in user_api.get(URL).json()["results"]] == [scenario_id]
    assert user_api.get(f"{URL}{scenario_id}/").json()["document"] == DOCUMENT
    plan = user_api.get(f"{URL}{scenario_id}/plan/").json()
    # 32 DGX B200 at 14.3 kW: the 45 kW air limit holds floor(45 / 14.3) = 3 per rack -> 11 racks
    assert plan["compute"]["gpus"] == 256
    assert plan["racks"]["nodes_per_rack"] == 3 and plan["racks"]["compute"] == 11


def test_update_makes_a_new_revision_and_keeps_the_old(user_api):
    scenario_id = create(user_api).json()["id"]
    changed = {**DOCUMENT, "name": "B200 pod, 64 nodes", "compute": {"system": "dgx-b200", "nodes": 64}}
    response = user_api.put(f"{URL}{scenario_id}/", {"document": changed, "revision": 1}, format="json")
    assert response.status_code == 200
    assert (response.json()["revision"], response.json()["name"]) == (2, "B200 pod, 64 nodes")
    revisions = user_api.get(f"{URL}{scenario_id}/revisions/").json()
    assert [(item["number"], item["document"]["compute"]["nodes"]) for item in revisions] == [(2, 64), (1, 32)]


def test_an_edit_against_a_stale_revision_is_refused(user_api):
    scenario_id = create(user_api).json()["id"]
    assert user_api.put(f"{URL}{scenario_id}/", {"document": DOCUMENT, "revision": 1}, format="json").status_code == 200
    stale = user_api.put(f"{URL}{scenario_id}/", {"document": {**DOCUMENT, "name": "lost?"}, "revision": 1}, format="json")
    assert stale.status_code == 409
    assert stale.json()["current_revision"] == 2
    assert "revision" in stale.json()["errors"]
    assert Scenario.objects.get(pk=scenario_id).name == "B200 pod"


def test_update_requires_the_base_revision(user_api):
    scenario_id = create(user_api).json()["id"]
    response = user_api.patch(f"{URL}{scenario_id}/", {"document": DOCUMENT}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == {"revision": ["This field is required."]}


def test_bad_documents_are_refused_with_paths_inside_document(user_api):
    response = create(user_api, {"name": "x", "compute": {"system": "dgx-b200", "gpus": -8}})
    assert response.status_code == 400
    assert response.json()["errors"] == {"document.compute.gpus": ["must be a positive whole number"]}
    assert create(user_api, "not a mapping").json()["errors"] == {"document": ["must be a mapping of keys to values"]}
    assert user_api.post(URL, {}, format="json").json()["errors"] == {"document": ["This field is required."]}
    assert Scenario.objects.count() == 0


def test_a_failed_update_keeps_the_saved_scenario(user_api):
    scenario_id = create(user_api).json()["id"]
    bad = {"document": {"name": "x", "compute": {"system": "nope", "gpus": 8}}, "revision": 1}
    assert user_api.put(f"{URL}{scenario_id}/", bad, format="json").status_code == 400
    scenario = Scenario.objects.get(pk=scenario_id)
    assert (scenario.revision, scenario.document) == (1, DOCUMENT)


def test_an_infeasible_scenario_can_be_saved_but_its_plan_is_422(user_api):
    document = {**DOCUMENT, "racks": {"power_budget_kw": 5}}
    scenario_id = create(user_api, document).json()["id"]
    response = user_api.get(f"{URL}{scenario_id}/plan/")
    assert response.status_code == 422
    assert list(response.json()["errors"]) == ["racks.power_budget_kw"]


def test_another_user_gets_404_for_every_action(user_api):
    scenario_id = create(user_api).json()["id"]
    other = APIClient()
    other.force_authenticate(get_user_model().objects.create_user("eve", password="x" * 12))
    detail = f"{URL}{scenario_id}/"
    assert other.get(URL).json()["results"] == []
    for response in (
        other.get(detail),
        other.get(f"{detail}plan/"),
        other.get(f"{detail}revisions/"),
        other.put(detail, {"document": DOCUMENT, "revision": 1}, format="json"),
        other.delete(detail),
    ):
        assert response.status_code == 404
        assert response.json()["errors"]
    assert Scenario.objects.filter(pk=scenario_id).exists()


def test_delete(user_api):
    scenario_id = create(user_api).json()["id"]
    assert user_api.delete(f"{URL}{scenario_id}/").status_code == 204
    assert user_api.get(f"{URL}{scenario_id}/").status_code == 404


def test_anonymous_users_cannot_use_scenarios(api):
    response = api.get(URL)
    assert response.status_code in (401, 403)
    assert response.json()["errors"]["detail"]


def test_saving_a_revision_moves_updated_at(user_api):
    created = create(user_api).json()
    updated = user_api.put(f"{URL}{created['id']}/", {"document": DOCUMENT, "revision": 1}, format="json").json()
    assert updated["updated_at"] > created["updated_at"]
