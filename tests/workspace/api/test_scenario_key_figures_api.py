"""The scenario list of the API gives each scenario's key figures, as the page's list does:
kept with the revision when it was saved, not planned on each request."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from planner.models import ScenarioRevision
from planner.services import plan_document

pytestmark = pytest.mark.django_db

URL = "/api/v1/scenarios/"
DOCUMENT = {"name": "B200 pod", "compute": {"system": "dgx-b200", "nodes": 32}, "racks": {"power_budget_kw": 60}}


def test_the_list_gives_the_key_figures_of_the_current_revision(user_api, monkeypatch):
    created = user_api.post(URL, {"document": DOCUMENT}, format="json").json()
    plan = plan_document(DOCUMENT)
    assert created["key_figures"]["gpus"] == 256

    def no_planning(*args, **kwargs):
        raise AssertionError("the list planned a scenario")

    monkeypatch.setattr("planner.services.plan_document", no_planning)
    (item,) = user_api.get(URL).json()["results"]
    figures = item["key_figures"]
    assert figures["planned"] is True and figures["system"] == "dgx-b200"
    assert figures["gpus"] == plan.compute.gpus
    assert figures["capex_usd"] == plan.cost.capex_usd
    assert figures["warnings"] == len(plan.warnings)


def test_the_list_reads_the_figures_of_a_page_at_once(user_api):
    for index in range(5):
        user_api.post(URL, {"document": {**DOCUMENT, "name": f"pod {index}"}}, format="json")
    with CaptureQueriesContext(connection) as five:
        user_api.get(URL)
    user_api.post(URL, {"document": {**DOCUMENT, "name": "pod 6"}}, format="json")
    with CaptureQueriesContext(connection) as six:
        user_api.get(URL)
    assert len(six) == len(five)


def test_figures_missing_from_an_old_revision_are_computed_once(user_api):
    user_api.post(URL, {"document": DOCUMENT}, format="json")
    ScenarioRevision.objects.update(key_figures={})
    (item,) = user_api.get(URL).json()["results"]
    assert item["key_figures"]["gpus"] == 256
    assert ScenarioRevision.objects.get().key_figures["gpus"] == 256
