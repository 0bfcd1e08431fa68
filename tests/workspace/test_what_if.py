"""What-if on the dashboard (workspace.dashboard.what_if and its view): the editor's Explore
drivers over the saved revision, planned without saving, shown against the saved plan."""

import json
from pathlib import Path

import pytest
from django.http import QueryDict
from django.urls import reverse

from planner.models import Scenario
from planner.services import scenario_create
from planner.solver.documents import parse_document
from planner.solver.pipeline import plan_scenario
from workspace.dashboard.what_if import what_if_document, what_if_sliders

EXAMPLES = Path(__file__).parents[2] / "examples"
SUPERPOD = parse_document((EXAMPLES / "dgx-h100-4su.yaml").read_text())
SITE = parse_document((EXAMPLES / "two-pool-site.yaml").read_text())


def sliders_of(document, catalog):
    plan = plan_scenario(document, catalog)
    return {item.key: item for item in what_if_sliders(document, plan)}, plan


def test_the_sliders_start_at_the_saved_plans_values(catalog):
    sliders, plan = sliders_of(SUPERPOD, catalog)
    assert list(sliders) == ["gpus", "rack-kw", "pue", "price", "years"]
    assert sliders["gpus"].value == 1024 and sliders["gpus"].step == 8
    assert sliders["gpus"].minimum <= 256 and sliders["gpus"].maximum >= 4096
    assert sliders["pue"].value == plan.power.pue
    assert (sliders["rack-kw"].value, sliders["price"].value, sliders["years"].value) == (41, 0.08, 5)
    assert sliders["price"].label == "Electricity price" and sliders["price"].unit == "USD/kWh"


def test_a_site_of_pools_or_phases_has_no_gpu_slider(catalog):
    sliders, _ = sliders_of(SITE, catalog)
    assert "gpus" not in sliders and "pue" in sliders
    phased = parse_document((EXAMPLES / "three-phase-expansion.yaml").read_text())
    sliders, _ = sliders_of(phased, catalog)
    assert "gpus" not in sliders and "years" in sliders


def test_only_the_drivers_moved_change_the_document(catalog):
    sliders, _ = sliders_of(SUPERPOD, catalog)
    sliders = list(sliders.values())
    posted = QueryDict(mutable=True)
    posted.update({item.key: str(item.value) for item in sliders})
    unchanged, moved = what_if_document(SUPERPOD, posted, sliders)
    assert unchanged == SUPERPOD and moved == []
    posted["pue"] = "1.45"
    posted["gpus"] = "2048"
    changed, moved = what_if_document(SUPERPOD, posted, sliders)
    # the SuperPOD counts systems: 2,048 GPUs are 256 DGX H100
    assert changed["compute"] == {**SUPERPOD["compute"], "nodes": 256}
    assert changed["facility"]["pue"] == 1.45
    assert moved[0].startswith("GPUs: 1,024 → 256 systems") and "PUE" in moved[1]
    assert SUPERPOD["compute"]["nodes"] == 128  # the saved document is not touched


@pytest.fixture
def saved(client, user):
    client.force_login(user)
    return scenario_create(owner=user, document=dict(SUPERPOD))


@pytest.mark.django_db
def test_the_dashboard_has_the_sliders_and_loads_htmx_from_our_static_files(client, saved):
    page = client.get(reverse("workspace:scenario-detail", args=[saved.pk])).content.decode()
    assert 'id="what-if-form"' in page and 'name="pue"' in page and 'name="gpus"' in page
    assert "/static/js/vendor/htmx." in page
    assert "<script>" not in page  # scripts only from our static files (CSP)


@pytest.mark.django_db
def test_a_moved_driver_is_planned_without_saving(client, saved):
    revision = saved.revision
    answer = client.post(reverse("workspace:scenario-what-if", args=[saved.pk]), {"pue": "1.6", "years": "5"})
    page = answer.content.decode()
    assert answer.status_code == 200
    assert "Not saved." in page and "PUE" in page and "Facility power" in page
    charts = json.loads(page.split('id="what-if-charts" type="application/json">')[1].split("</script>")[0])
    assert charts and all("data" in figure for figure in charts.values())
    assert Scenario.objects.get(pk=saved.pk).revision == revision


@pytest.mark.django_db
def test_nothing_moved_is_the_saved_revision(client, saved):
    page = client.post(reverse("workspace:scenario-what-if", args=[saved.pk]), {}).content.decode()
    assert "move a slider" in page


@pytest.mark.django_db
def test_the_what_if_is_a_post_of_the_owner(client, saved, django_user_model):
    url = reverse("workspace:scenario-what-if", args=[saved.pk])
    assert client.get(url).status_code == 405
    client.force_login(django_user_model.objects.create_user("eve", password="x-long-password-1"))
    assert client.post(url, {"pue": "1.6"}).status_code == 404
