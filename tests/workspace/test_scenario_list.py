"""The scenario list: the key figures each revision keeps when saved, the filters, the pages."""

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from planner.models import ScenarioRevision
from planner.services import plan_document, scenario_create, scenario_update
from workspace.scenario_listing import SCENARIOS_PER_PAGE

pytestmark = pytest.mark.django_db

SMALL = {"name": "Small H100", "compute": {"system": "dgx-h100", "gpus": 64}}
AMD = {"name": "AMD pod", "compute": {"system": "mi300x-8", "gpus": 128}}
LIST = reverse("workspace:scenario-list")


@pytest.fixture
def ada_client(client, user):
    client.force_login(user)
    return client


class CellText(HTMLParser):
    """The text of each cell of the scenario table's body rows."""

    def __init__(self):
        super().__init__()
        self.rows, self._cell, self._in_body = [], None, False

    def handle_starttag(self, tag, attrs):
        if tag == "tbody":
            self._in_body = True
        elif tag == "tr" and self._in_body:
            self.rows.append([])
        elif tag in ("td", "th") and self._in_body:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(" ".join(" ".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def table_rows(response) -> list[list[str]]:
    parser = CellText()
    parser.feed(response.content.decode())
    return parser.rows


def test_a_saved_revision_keeps_the_figures_of_its_plan(user):
    scenario = scenario_create(owner=user, document=dict(SMALL))
    plan = plan_document(SMALL)
    figures = scenario.current_revision.key_figures
    assert figures["planned"] is True
    assert figures["system"] == "dgx-h100"
    assert figures["gpus"] == 64
    assert figures["racks"] == plan.racks.total
    assert figures["capex_usd"] == plan.cost.capex_usd
    assert figures["facility_mw"] == pytest.approx(plan.power.facility_kw / 1000)
    assert figures["warnings"] == len(plan.warnings)
    updated = scenario_update(
        scenario=scenario,
        document={**SMALL, "compute": {"system": "dgx-h100", "gpus": 128}},
        base_revision=1,
        author=user,
    )
    assert updated.current_revision.key_figures["gpus"] == 128
    assert scenario.revisions.get(number=1).key_figures["gpus"] == 64


def test_the_list_shows_each_scenarios_figures_without_planning(ada_client, user, monkeypatch):
    scenario_create(owner=user, document=dict(SMALL))
    plan = plan_document(SMALL)

    def no_planning(*args, **kwargs):
        raise AssertionError("the list planned a scenario")

    monkeypatch.setattr("planner.services.plan_document", no_planning)
    response = ada_client.get(LIST)
    (row,) = table_rows(response)
    # checkbox, name, system, GPUs, racks, MW, capex, $/GPU-hour, warnings, revision, ...
    # The name's cell repeats the system, shown under the name on a phone.
    assert row[1] == "Small H100 NVIDIA DGX H100"
    assert row[2:5] == ["NVIDIA DGX H100", "64", str(plan.racks.total)]
    assert row[5] == f"{plan.power.facility_kw / 1000:,.2f}"
    assert row[6] == f"{plan.cost.capex_usd / 1e6:,.1f} M"
    assert row[7] == f"{plan.cost.usd_per_gpu_hour:,.2f}"
    assert row[8] == str(len(plan.warnings))
    assert row[9] == "1"


def test_revisions_without_figures_are_planned_once_and_kept(ada_client, user):
    scenario = scenario_create(owner=user, document=dict(SMALL))
    ScenarioRevision.objects.filter(scenario=scenario).update(key_figures={})
    (row,) = table_rows(ada_client.get(LIST))
    assert row[3] == "64"
    assert scenario.current_revision.key_figures["gpus"] == 64


def test_a_revision_that_cannot_be_planned_says_so(ada_client, user):
    scenario = scenario_create(owner=user, document=dict(SMALL))
    # A revision restored from a backup of a catalog that had a system this one lacks.
    ScenarioRevision.objects.filter(scenario=scenario).update(
        key_figures={}, document={**SMALL, "compute": {"system": "gone-system", "gpus": 64}}
    )
    (row,) = table_rows(ada_client.get(LIST))
    assert row[3:8] == ["—"] * 5
    assert row[8] == "no plan"
    assert scenario.current_revision.key_figures == {"planned": False, "errors": 1}


def test_filter_by_system_and_search_by_name_or_system(ada_client, user):
    for document in (SMALL, AMD, {**SMALL, "name": "Big H100 cluster"}):
        scenario_create(owner=user, document=dict(document))
    response = ada_client.get(LIST)
    assert dict(response.context["form"].fields["system"].choices) == {
        "": "All systems",
        "dgx-h100": "NVIDIA DGX H100",
        "mi300x-8": "AMD Instinct MI300X 8-GPU platform server (UBB)",
    }

    def names(query):
        response = ada_client.get(LIST + query)
        assert response.status_code == 200
        return sorted(scenario.name for scenario in response.context["scenarios"])

    assert names("?system=mi300x-8") == ["AMD pod"]
    assert names("?system=dgx-h100") == ["Big H100 cluster", "Small H100"]
    assert names("?q=mi300") == ["AMD pod"]
    assert names("?q=cluster&system=dgx-h100") == ["Big H100 cluster"]
    assert names("?q=cluster&system=mi300x-8") == []
    # A system the owner does not use is not a choice: the filter is ignored, not a 500.
    assert len(names("?system=not-a-system")) == 3


def test_the_system_filter_reads_the_current_revision(ada_client, user):
    scenario = scenario_create(owner=user, document=dict(AMD))
    scenario_update(scenario=scenario, document={**AMD, "compute": SMALL["compute"]},
                    base_revision=1, author=user)
    scenario_create(owner=user, document={**AMD, "name": "Still AMD"})
    response = ada_client.get(LIST + "?system=mi300x-8")
    assert [scenario.name for scenario in response.context["scenarios"]] == ["Still AMD"]
    response = ada_client.get(LIST + "?system=dgx-h100")
    assert [scenario.name for scenario in response.context["scenarios"]] == ["AMD pod"]


def test_pages_keep_the_filters(ada_client, user):
    count = SCENARIOS_PER_PAGE + 3
    for index in range(count):
        scenario_create(owner=user, document={**SMALL, "name": f"H100 {index:02}"})
    scenario_create(owner=user, document=dict(AMD))
    first = ada_client.get(LIST + "?system=dgx-h100&sort=name")
    assert len(first.context["scenarios"]) == SCENARIOS_PER_PAGE
    assert first.context["page"].paginator.count == count
    html = first.content.decode()
    assert "system=dgx-h100&amp;sort=name&amp;page=2" in html
    second = ada_client.get(LIST + "?system=dgx-h100&sort=name&page=2")
    assert [s.name for s in second.context["scenarios"]] == [f"H100 {index:02}" for index in range(25, count)]
    # Past the last page, or not a number: the last or first page, never an error.
    assert ada_client.get(LIST + "?page=99").context["page"].number == 2
    assert ada_client.get(LIST + "?page=x").context["page"].number == 1


def test_the_list_shows_only_the_owners_scenarios(client, user, django_user_model):
    scenario_create(owner=user, document=dict(SMALL))
    other = django_user_model.objects.create_user("grace", password="cobol-compiler")
    client.force_login(other)
    response = client.get(LIST + "?system=dgx-h100")
    assert list(response.context["scenarios"]) == []
    assert dict(response.context["form"].fields["system"].choices) == {"": "All systems"}


def test_compare_selected_sends_the_ticked_scenarios_to_the_comparison(ada_client, user):
    for document in (SMALL, AMD):
        scenario_create(owner=user, document=dict(document))
    html = ada_client.get(LIST).content.decode()
    assert f'action="{reverse("workspace:scenario-compare")}" id="compare-form" data-keep-order' in html
    assert html.count('form="compare-form" name="ids"') == 2
    assert "Compare selected" in html


def test_the_data_migration_fills_the_figures_of_existing_revisions(user):
    """What 0006 does to revisions saved before they kept their figures: each is planned against
    its own catalog version; one that cannot be planned says so."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("planner.migrations.0006_revision_key_figures")
    scenario = scenario_create(owner=user, document=dict(SMALL))
    scenario_update(scenario=scenario, document={**SMALL, "compute": {"system": "dgx-h100", "gpus": 128}},
                    base_revision=1, author=user)
    broken = scenario_create(owner=user, document=dict(AMD))
    ScenarioRevision.objects.filter(scenario=broken).update(
        document={**AMD, "compute": {"system": "gone-system", "gpus": 8}}
    )
    ScenarioRevision.objects.update(key_figures={})
    migration.forwards(apps, None)
    figures = dict(ScenarioRevision.objects.filter(scenario=scenario).values_list("number", "key_figures"))
    assert (figures[1]["gpus"], figures[2]["gpus"]) == (64, 128)
    assert broken.current_revision.key_figures == {"planned": False, "errors": 1}
