"""The shipped examples as templates: listed with their figures on the home page and in the new
scenario's form; picking one opens the form filled with it."""

from pathlib import Path

import pytest
from django.urls import reverse

from workspace.examples import _summary, example_document, examples

pytestmark = pytest.mark.django_db

EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.yaml"))


@pytest.fixture(autouse=True)
def plain_static_names(settings):
    settings.STORAGES = {
        **settings.STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture
def ada_client(client, user):
    client.force_login(user)
    return client


def test_every_example_is_listed_with_its_name_summary_and_figures(catalog):
    listed = {example.slug: example for example in examples()}
    assert set(listed) == {path.stem for path in EXAMPLES}
    superpod = listed["dgx-h100-4su"]
    assert superpod.name == "DGX H100 SuperPOD, 4 scalable units"
    assert superpod.summary.startswith("Four scalable units of the NVIDIA DGX SuperPOD")
    assert [figure.key for figure in superpod.figures] == ["gpus", "racks", "facility_mw", "capex_usd"]
    assert superpod.figures[0].value == 1024
    assert examples() is examples(), "planned once per catalog and example files"


def test_a_summary_is_the_first_sentence_of_the_leading_comment():
    assert _summary("# One line. Two\n# lines.\nname: x\n# later") == "One line."
    assert _summary("name: x\n") == ""


def test_an_unknown_or_hostile_example_name_is_none():
    assert example_document("../config/settings") is None
    assert example_document("no-such-example") is None
    assert example_document("dgx-h100-4su")["compute"]["system"] == "dgx-h100"


def test_the_home_page_and_the_new_form_offer_the_examples(ada_client, catalog):
    home = ada_client.get(reverse("home")).content.decode()
    assert "Start from an example" in home
    assert "?example=dgx-h100-4su" in home
    new = ada_client.get(reverse("workspace:scenario-new")).content.decode()
    assert "Start from an example instead" in new


def test_picking_an_example_opens_the_form_filled_with_it(ada_client, catalog):
    page = ada_client.get(reverse("workspace:scenario-new") + "?example=dgx-h100-4su").content.decode()
    assert "DGX H100 SuperPOD, 4 scalable units" in page
    assert "Filled from the example" in page
    assert "Start from an example instead" not in page


def test_the_list_names_a_sites_systems_not_their_slugs(ada_client, user):
    from planner.services import scenario_create

    document = {"name": "Site", "pools": [{"name": "a", "system": "hgx-a100", "gpus": 64},
                                          {"name": "b", "system": "dgx-h100", "gpus": 64}]}
    scenario_create(owner=user, document=document)
    page = ada_client.get(reverse("workspace:scenario-list")).content.decode()
    assert "A100" in page and "NVIDIA DGX H100" in page and " + " in page


def test_an_infeasible_plan_names_its_fields_in_words(ada_client, user):
    from planner.services import scenario_create

    scenario = scenario_create(owner=user, document={
        "name": "Tight", "compute": {"system": "dgx-h100", "gpus": 64}, "racks": {"power_budget_kw": 5}})
    page = ada_client.get(reverse("workspace:scenario-detail", args=[scenario.pk])).content.decode()
    assert "racks.power_budget_kw" not in page
    assert "Power budget (kW)" in page


def test_a_get_of_a_post_only_address_is_the_sites_405(ada_client, user):
    from planner.services import scenario_create

    scenario = scenario_create(owner=user, document={"name": "S", "compute": {"system": "dgx-h100", "gpus": 8}})
    response = ada_client.get(reverse("workspace:scenario-clone", args=[scenario.pk]))
    assert response.status_code == 405 and response["Allow"] == "POST"
    assert 'class="topbar"' in response.content.decode() and "only takes a form" in response.content.decode()


def test_the_dashboard_shows_the_nic_overrides(ada_client, user):
    from planner.services import scenario_create

    nics = [{"role": "storage", "count": 2, "gbps": 200}]
    scenario = scenario_create(owner=user, document={
        "name": "NICs", "compute": {"system": "dgx-h100", "gpus": 64, "nics": nics}})
    page = ada_client.get(reverse("workspace:scenario-detail", args=[scenario.pk])).content.decode()
    assert "NIC overrides:" in page and "2 × 200 Gb/s storage, in place of the system" in page
