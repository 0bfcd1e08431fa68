"""The workspace pages: every page renders, privacy, the editor's wiring to the validator."""

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from planner.models import Scenario
from planner.services import scenario_create, scenario_update

pytestmark = pytest.mark.django_db

EXAMPLE = yaml.safe_load((Path(__file__).parents[2] / "examples" / "dgx-h100-4su.yaml").read_text())
SMALL = {"name": "Small H100", "compute": {"system": "dgx-h100", "gpus": 64}}


@pytest.fixture
def ada(user):
    return user


@pytest.fixture
def ada_client(client, ada):
    client.force_login(ada)
    return client


@pytest.fixture
def scenario(ada):
    return scenario_create(owner=ada, document=dict(SMALL))


@pytest.fixture
def other_client(client, db):
    other = get_user_model().objects.create_user("grace", password="cobol-compiler")
    client.force_login(other)
    return client


def editor_post(document, **fields):
    """What the editor posts: the hidden document and the visible fields by dotted path."""
    data = {"document": json.dumps(document), "base_revision": "1"}
    data.update(fields)
    return data


def page_urls(pk):
    return [
        reverse("workspace:scenario-detail", args=[pk]),
        reverse("workspace:scenario-edit", args=[pk]),
        reverse("workspace:scenario-history", args=[pk]),
        reverse("workspace:scenario-rename", args=[pk]),
        reverse("workspace:scenario-delete", args=[pk]),
        reverse("workspace:scenario-plan-json", args=[pk]),
        reverse("workspace:scenario-document", args=[pk, "yaml"]),
        reverse("workspace:scenario-document", args=[pk, "json"]),
        reverse("workspace:scenario-compare") + f"?ids={pk}&ids={pk}",
    ]


def test_every_page_renders_for_its_owner(ada_client, scenario):
    second = scenario_create(owner=scenario.owner, document=dict(EXAMPLE))
    for url in page_urls(scenario.pk) + [
        reverse("workspace:scenario-list"),
        reverse("workspace:scenario-new"),
        reverse("workspace:scenario-compare"),
        reverse("workspace:scenario-compare") + f"?ids={scenario.pk}&ids={second.pk}",
        "/",
    ]:
        response = ada_client.get(url)
        assert response.status_code == 200, url


def test_another_users_scenario_is_a_404_on_every_page(other_client, scenario):
    for url in page_urls(scenario.pk):
        assert other_client.get(url).status_code == 404, url
    for name in ("scenario-clone", "scenario-delete", "scenario-rename", "scenario-edit"):
        assert (
            other_client.post(reverse(f"workspace:{name}", args=[scenario.pk])).status_code == 404
        )
    restore = reverse("workspace:scenario-restore", args=[scenario.pk, 1])
    assert other_client.post(restore).status_code == 404
    assert Scenario.objects.filter(pk=scenario.pk).exists()


def test_workspace_pages_require_sign_in(client, scenario):
    response = client.get(reverse("workspace:scenario-list"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert client.get(reverse("workspace:scenario-detail", args=[scenario.pk])).status_code == 302


def test_sign_in_page_signs_in(client, ada):
    assert client.get(reverse("login")).status_code == 200
    response = client.post(reverse("login"), {"username": "ada", "password": "analytical-engine"})
    assert response.status_code == 302 and response["Location"] == reverse(
        "workspace:scenario-list"
    )


def test_the_editor_is_built_from_the_spec_with_units_help_and_catalog_figures(ada_client):
    html = ada_client.get(reverse("workspace:scenario-new")).content.decode()
    assert 'name="compute.system"' in html and 'name="racks.power_budget_kw"' in html
    assert "NVIDIA DGX H100 — 8 GPUs, 10.2 kW, 8U" in html
    assert '<span class="unit">kW</span>' in html
    assert "IT power one rack may draw." in html
    assert 'name="include:fabrics.storage"' in html
    assert 'name="prices.key"' in html
    assert '<label for="f-racks-power-budget-kw">' in html


def test_creating_through_the_form_converts_text_to_typed_values(ada_client):
    data = editor_post(
        {},
        **{
            "name": "Form made",
            "compute.system": "dgx-h100",
            "compute.gpus": "256",
            "racks.power_budget_kw": "41.5",
            "racks.cooling": "air",
            "prices.key": ["dgx-h100", ""],
            "prices.value": ["250000", ""],
        },
    )
    response = ada_client.post(reverse("workspace:scenario-new"), data)
    assert response.status_code == 302
    scenario = Scenario.objects.get(name="Form made")
    document = scenario.document
    assert document["compute"] == {"system": "dgx-h100", "gpus": 256}
    assert document["racks"]["power_budget_kw"] == 41.5
    assert document["prices"] == {"dgx-h100": 250000}
    assert (
        "cooling" not in document["racks"]
    )  # the default, not written when the document lacked it


def test_the_form_maps_errors_to_their_fields(ada_client):
    data = editor_post(
        SMALL,
        **{
            "name": "Bad",
            "compute.system": "dgx-h100",
            "compute.gpus": "lots",
            "racks.usable_u": "-3",
        },
    )
    response = ada_client.post(reverse("workspace:scenario-new"), data)
    assert response.status_code == 400
    editor = response.context["editor"]
    by_path = {field.path: field.errors for field in editor.all_fields()}
    lots = "“lots” is not a number: type digits, with thousands grouped by three if you like (1,024 or 1 024)"
    assert by_path["compute.gpus"] == [lots]
    assert by_path["racks.usable_u"] == ["must be a positive whole number"]
    html = response.content.decode()
    assert (
        'id="err-racks-usable-u" class="field-errors" role="alert"><p>must be a positive whole number</p>'
        in html
    )
    assert 'value="lots"' in html


def test_an_unknown_slug_is_reported_beside_its_select(ada_client):
    data = editor_post(SMALL, **{"name": "x", "compute.system": "dgx-h1000", "compute.gpus": "8"})
    response = ada_client.post(reverse("workspace:scenario-preview"), data)
    editor = response.context["editor"]
    errors = {field.path: field.errors for field in editor.all_fields()}
    assert "no system 'dgx-h1000'" in errors["compute.system"][0]


def test_preview_returns_key_figures_and_clears_old_errors_out_of_band(ada_client):
    data = editor_post(SMALL, **{"name": "x", "compute.system": "dgx-h100", "compute.gpus": "1024"})
    response = ada_client.post(reverse("workspace:scenario-preview"), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-key="gpus"' in html and "1,024" in html
    assert 'id="err-compute-gpus"' not in html, (
        "an empty error box is not sent: the page's script empties them before the swap"
    )
    assert "HX-Reswap" not in response


def test_preview_of_an_infeasible_design_marks_the_limiting_field(ada_client):
    data = editor_post(
        SMALL,
        **{
            "name": "x",
            "compute.system": "dgx-h100",
            "compute.gpus": "8",
            "racks.power_budget_kw": "5",
        },
    )
    response = ada_client.post(reverse("workspace:scenario-preview"), data)
    errors = {field.path: field.errors for field in response.context["editor"].all_fields()}
    assert "rack budget" in errors["racks.power_budget_kw"][0]
    html = response.content.decode()
    assert "1 problem to fix before this scenario plans" in html
    assert "the figures below are from the last input that planned" in html
    assert response["HX-Reswap"] == "none", "the page keeps the last good figures"


def test_keys_the_form_does_not_show_are_kept(ada_client, scenario, ada):
    component = {
        "slug": "host-1g",
        "name": "1 GbE host",
        "gpus": 1,
        "power_kw": 0.3,
        "rack_units": 1,
        "weight_kg": 15,
        "price_usd": 4000,
    }
    document = {**SMALL, "components": {"systems": [component]}}
    scenario_update(scenario=scenario, document=document, base_revision=1, author=ada)
    data = editor_post(
        document, **{"name": "Small H100", "compute.system": "host-1g", "compute.gpus": "16"}
    )
    data["base_revision"] = "2"
    response = ada_client.post(reverse("workspace:scenario-edit", args=[scenario.pk]), data)
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert scenario.revision == 3
    assert scenario.document["components"]["systems"][0]["slug"] == "host-1g"
    assert scenario.document["compute"] == {"system": "host-1g", "gpus": 16}


def test_an_optional_fabric_is_included_by_its_checkbox(ada_client, scenario):
    data = editor_post(
        SMALL,
        **{
            "name": "x",
            "compute.system": "dgx-h100",
            "compute.gpus": "64",
            "include:fabrics.compute": "on",
            "fabrics.compute.switch": "qm9700",
            "fabrics.compute.tiers": "2",
        },
    )
    data["base_revision"] = str(scenario.revision)
    ada_client.post(reverse("workspace:scenario-edit", args=[scenario.pk]), data)
    scenario.refresh_from_db()
    assert scenario.document["fabrics"]["compute"]["switch"] == "qm9700"
    assert scenario.document["fabrics"]["compute"]["tiers"] == 2
    data.pop("include:fabrics.compute")
    data["document"] = json.dumps(scenario.document)
    data["base_revision"] = str(scenario.revision)
    ada_client.post(reverse("workspace:scenario-edit", args=[scenario.pk]), data)
    scenario.refresh_from_db()
    assert "compute" not in scenario.document.get("fabrics", {})


def test_a_conflicting_save_is_refused_and_keeps_the_input(ada_client, scenario, ada):
    scenario_update(
        scenario=scenario,
        document={**SMALL, "name": "Saved meanwhile"},
        base_revision=1,
        author=ada,
    )
    data = editor_post(
        SMALL, **{"name": "My edit", "compute.system": "dgx-h100", "compute.gpus": "128"}
    )
    response = ada_client.post(reverse("workspace:scenario-edit", args=[scenario.pk]), data)
    assert response.status_code == 409
    html = response.content.decode()
    assert "someone else saved this scenario meanwhile" in html
    assert 'value="My edit"' in html and 'value="128"' in html
    assert 'name="base_revision" value="2"' in html
    scenario.refresh_from_db()
    assert scenario.name == "Saved meanwhile"


def test_yaml_editor_saves_the_whole_document(ada_client, scenario):
    text = yaml.safe_dump({**SMALL, "name": "From YAML"})
    response = ada_client.post(
        reverse("workspace:scenario-edit", args=[scenario.pk]),
        {"source": "yaml", "document_yaml": text, "base_revision": "1"},
    )
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert scenario.name == "From YAML" and scenario.revision == 2


def test_yaml_editor_reports_a_syntax_error(ada_client, scenario):
    response = ada_client.post(
        reverse("workspace:scenario-edit", args=[scenario.pk]),
        {"source": "yaml", "document_yaml": "name: [oops", "base_revision": "1"},
    )
    assert response.status_code == 400
    assert "is not valid YAML" in response.content.decode()


def test_import_and_export_round_trip(ada_client):
    upload = SimpleUploadedFile(
        "example.yaml", yaml.safe_dump(EXAMPLE).encode(), "application/yaml"
    )
    response = ada_client.post(reverse("workspace:scenario-import"), {"file": upload})
    assert response.status_code == 302
    scenario = Scenario.objects.get(name=EXAMPLE["name"])
    exported = ada_client.get(reverse("workspace:scenario-document", args=[scenario.pk, "yaml"]))
    assert exported["Content-Disposition"].startswith("attachment")
    assert yaml.safe_load(exported.content) == EXAMPLE
    as_json = ada_client.get(reverse("workspace:scenario-document", args=[scenario.pk, "json"]))
    upload = SimpleUploadedFile("again.json", as_json.content, "application/json")
    ada_client.post(reverse("workspace:scenario-import"), {"file": upload})
    assert Scenario.objects.filter(name=EXAMPLE["name"]).count() == 2


def test_import_of_a_bad_document_names_the_field(ada_client):
    upload = SimpleUploadedFile(
        "bad.json", b'{"name": "x", "compute": {"system": "dgx-h100", "gpus": 0}}'
    )
    response = ada_client.post(reverse("workspace:scenario-import"), {"file": upload})
    assert response.status_code == 400
    assert "compute.gpus: must be a positive whole number" in response.content.decode()


def test_clone_rename_and_delete(ada_client, scenario):
    response = ada_client.post(reverse("workspace:scenario-clone", args=[scenario.pk]))
    copy = Scenario.objects.get(name="Small H100 (copy)")
    assert response["Location"] == reverse("workspace:scenario-edit", args=[copy.pk]), "the clone opens"
    assert copy.document["compute"] == SMALL["compute"]
    response = ada_client.post(
        reverse("workspace:scenario-rename", args=[copy.pk]),
        {"name": "Renamed", "base_revision": "1"},
    )
    assert response.status_code == 302
    copy.refresh_from_db()
    assert copy.name == "Renamed" and copy.document["name"] == "Renamed" and copy.revision == 2
    confirm = ada_client.get(reverse("workspace:scenario-delete", args=[copy.pk]))
    assert "cannot be undone" in confirm.content.decode()
    ada_client.post(reverse("workspace:scenario-delete", args=[copy.pk]))
    assert not Scenario.objects.filter(pk=copy.pk).exists()


def test_list_searches_and_sorts(ada_client, ada):
    for name in ("Beta cluster", "Alpha cluster", "Gamma pod"):
        scenario_create(owner=ada, document={**SMALL, "name": name})
    response = ada_client.get(reverse("workspace:scenario-list") + "?q=cluster&sort=name")
    names = [scenario.name for scenario in response.context["scenarios"]]
    assert names == ["Alpha cluster", "Beta cluster"]


def test_history_shows_the_changes_between_two_revisions(ada_client, scenario, ada):
    changed = {
        "name": "Small H100",
        "compute": {"system": "dgx-h100", "gpus": 128},
        "racks": {"power_budget_kw": 45},
    }
    scenario_update(scenario=scenario, document=changed, base_revision=1, author=ada)
    response = ada_client.get(
        reverse("workspace:scenario-history", args=[scenario.pk]) + "?a=1&b=2"
    )
    changes = {change.path: change for change in response.context["changes"]}
    assert changes["compute.gpus"].kind == "changed"
    assert (changes["compute.gpus"].old, changes["compute.gpus"].new) == (64, 128)
    assert changes["racks.power_budget_kw"].kind == "added"
    back = ada_client.get(reverse("workspace:scenario-history", args=[scenario.pk]) + "?a=2&b=1")
    assert {change.path: change.kind for change in back.context["changes"]}[
        "racks.power_budget_kw"
    ] == "removed"


def test_restore_saves_an_old_revision_as_the_newest(ada_client, scenario, ada):
    scenario_update(
        scenario=scenario, document={**SMALL, "name": "Second"}, base_revision=1, author=ada
    )
    ada_client.post(
        reverse("workspace:scenario-restore", args=[scenario.pk, 1]), {"base_revision": "2"}
    )
    scenario.refresh_from_db()
    assert scenario.revision == 3 and scenario.name == "Small H100"


def test_dashboard_shows_key_figures_sections_and_figures(ada_client, ada):
    scenario = scenario_create(owner=ada, document=dict(EXAMPLE))
    response = ada_client.get(reverse("workspace:scenario-detail", args=[scenario.pk]))
    html = response.content.decode()
    keys = [figure.key for figure in response.context["figures"]]
    assert keys[:3] == ["gpus", "nodes", "racks"]
    assert "chart-bom-cost" in response.context["charts"]
    assert "chart-racks-elevation" in response.context["charts"]
    assert 'id="plan-charts"' in html and "vendor/plotly/plotly.min." in html  # hashed once collectstatic ran
    assert reverse("workspace:scenario-plan-json", args=[scenario.pk]) in html
    assert f"/api/v1/scenarios/{scenario.pk}/export.csv" in html  # the API's BOM export


def test_dashboard_of_an_infeasible_scenario_says_why(ada_client, ada):
    document = {**SMALL, "racks": {"power_budget_kw": 5}}
    scenario = scenario_create(owner=ada, document=document)
    response = ada_client.get(reverse("workspace:scenario-detail", args=[scenario.pk]))
    assert response.status_code == 200
    assert "No design satisfies this scenario" in response.content.decode()
    plan = ada_client.get(reverse("workspace:scenario-plan-json", args=[scenario.pk]))
    assert plan.status_code == 422 and "racks.power_budget_kw" in plan.json()["errors"]


def test_plan_export_is_the_plan_as_json(ada_client, scenario):
    response = ada_client.get(reverse("workspace:scenario-plan-json", args=[scenario.pk]))
    assert response["Content-Disposition"].startswith("attachment")
    assert response.json()["compute"]["gpus"] == 64


def test_compare_highlights_differences_to_the_first(ada_client, ada, scenario):
    bigger = scenario_create(
        owner=ada,
        document={**SMALL, "name": "Bigger", "compute": {"system": "dgx-h100", "gpus": 128}},
    )
    url = reverse("workspace:scenario-compare") + f"?ids={scenario.pk}&ids={bigger.pk}"
    response = ada_client.get(url)
    rows = {
        label: cells for _, group in response.context["groups"] for label, unit, cells in group
    }
    assert [cell.text for cell in rows["GPUs"]] == ["64", "128"]
    assert rows["GPUs"][1].change == "+100.0 %"
    assert rows["Nodes"][1].direction == "changed"
    assert response.context["charts"]
    assert f"ids={scenario.pk}&amp;ids={bigger.pk}" in response.content.decode()


def test_compare_of_more_than_six_shows_the_first_six(ada_client, ada):
    ids = [
        scenario_create(owner=ada, document={**SMALL, "name": f"S{index}"}).pk for index in range(7)
    ]
    response = ada_client.get(
        reverse("workspace:scenario-compare") + "?" + "&".join(f"ids={pk}" for pk in ids)
    )
    assert response.context["too_many"] and len(response.context["chosen"]) == 6


def test_compare_with_another_users_scenario_is_a_404(other_client, scenario, db):
    mine = scenario_create(
        owner=get_user_model().objects.get(username="grace"), document=dict(SMALL)
    )
    url = reverse("workspace:scenario-compare") + f"?ids={mine.pk}&ids={scenario.pk}"
    assert other_client.get(url).status_code == 404


def test_list_sorts_by_the_last_saved_revision(ada_client, ada):
    first = scenario_create(owner=ada, document={**SMALL, "name": "First"})
    scenario_create(owner=ada, document={**SMALL, "name": "Second"})
    scenario_update(
        scenario=first, document={**SMALL, "name": "First"}, base_revision=1, author=ada
    )
    response = ada_client.get(reverse("workspace:scenario-list") + "?sort=-updated")
    assert [scenario.name for scenario in response.context["scenarios"]] == ["First", "Second"]


class _Controls(HTMLParser):
    """The form controls of a page and the ids its labels name."""

    def __init__(self):
        super().__init__()
        self.controls, self.labelled, self.wrapped, self.depth = [], set(), set(), 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "label":
            self.depth += 1
            if attrs.get("for"):
                self.labelled.add(attrs["for"])
        elif tag in ("input", "select", "textarea") and attrs.get("type") not in (
            "hidden",
            "submit",
        ):
            self.controls.append(attrs.get("id") or attrs.get("name"))
            if self.depth:
                self.wrapped.add(attrs.get("id") or attrs.get("name"))

    def handle_endtag(self, tag):
        if tag == "label":
            self.depth -= 1


def test_every_control_of_every_page_has_a_label(ada_client, scenario):
    other = scenario_create(owner=scenario.owner, document={**SMALL, "name": "Other"})
    compare = reverse("workspace:scenario-compare") + f"?ids={scenario.pk}&ids={other.pk}"
    for url in [
        reverse("workspace:scenario-new"),
        reverse("workspace:scenario-edit", args=[scenario.pk]),
        reverse("workspace:scenario-list"),
        reverse("workspace:scenario-history", args=[scenario.pk]),
        reverse("workspace:scenario-rename", args=[scenario.pk]),
        compare,
    ]:
        parser = _Controls()
        parser.feed(ada_client.get(url).content.decode())
        unlabelled = [
            control
            for control in parser.controls
            if control not in parser.labelled and control not in parser.wrapped
        ]
        assert parser.controls and not unlabelled, (url, unlabelled)


def test_list_and_home_show_when_each_scenario_was_saved(client, django_user_model):
    from planner.services import scenario_create

    user = django_user_model.objects.create_user("grace", password="x" * 12)
    scenario = scenario_create(owner=user, document={"name": "Saved", "compute": {"system": "dgx-h100", "gpus": 8}})
    client.force_login(user)
    stamp = scenario.updated_at.strftime("%Y-%m-%d %H:%M")
    assert stamp in client.get("/scenarios/").content.decode()
    assert stamp in client.get("/").content.decode()


def test_import_of_an_oversized_file_is_refused_unread(ada_client):
    upload = SimpleUploadedFile("big.yaml", b"#" * (1024 * 1024 + 1), "application/yaml")
    response = ada_client.post(reverse("workspace:scenario-import"), {"file": upload})
    assert response.status_code == 400
    assert "is larger than the 1,024 KiB a scenario may be" in response.content.decode()


def test_a_request_body_beyond_the_limit_is_refused_before_it_is_read(ada_client):
    response = ada_client.generic(
        "POST", reverse("workspace:scenario-import"), b"", CONTENT_LENGTH=str(10**9)
    )
    assert response.status_code == 413
