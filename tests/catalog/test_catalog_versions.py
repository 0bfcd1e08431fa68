"""Reproducible plans (issue 11, point 7): a saved revision is planned against the catalog it was
saved with; an admin edit makes a new catalog version; the dashboard offers a replan with
today's catalog that shows the differences; a deleted part never breaks a saved scenario."""

import importlib
import json

import pytest
from django.forms.models import model_to_dict

from catalog.models import CatalogVersion
from catalog.rows import catalog_digest, catalog_rows
from catalog.versions import FOUND_ON_SAVE, catalog_changes
from fabric.models import Switch
from planner.models import ScenarioRevision
from planner.selectors import revision_current
from planner.services import scenario_create, scenario_plan, scenario_update

pytestmark = pytest.mark.django_db

DOCUMENT = {
    "name": "H100 pod",
    "compute": {"system": "dgx-h100", "gpus": 256},
    "fabrics": {"compute": {"switch": "qm9700"}},
}


def admin_change(client, part, **changes):
    """Post the admin's change form of `part` with `changes`, as a browser does."""
    data = {}
    for name, value in {**model_to_dict(part), **changes}.items():
        field = part._meta.get_field(name)
        if name == "id" or not field.editable:
            continue
        if field.get_internal_type() == "JSONField":
            data[name] = json.dumps(value)
        elif field.get_internal_type() == "BooleanField":
            if value:
                data[name] = "on"
        else:
            data[name] = "" if value is None else value
    url = f"/admin/{part._meta.app_label}/{part._meta.model_name}/{part.pk}/change/"
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return response


def tco(plan) -> float:
    return plan.to_dict()["cost"]["tco_usd"]


@pytest.fixture
def scenario(admin_user):
    return scenario_create(owner=admin_user, document=DOCUMENT)


def test_a_saved_revision_is_pinned_to_the_catalog_version_it_was_saved_with(scenario):
    version = revision_current(scenario=scenario).catalog_version
    assert version == CatalogVersion.objects.order_by("-number").first()
    assert version.snapshot["switches"]["qm9700"]["price_usd"] == 40000


def test_an_admin_price_edit_makes_a_version_and_leaves_an_old_scenarios_tco(
    admin_client, scenario
):
    before = tco(scenario_plan(scenario=scenario))
    versions = CatalogVersion.objects.count()
    switch = Switch.objects.get(slug="qm9700")
    admin_change(admin_client, switch, price_usd=80000)

    latest = CatalogVersion.objects.order_by("-number").first()
    assert CatalogVersion.objects.count() == versions + 1
    assert latest.reason == "admin: edited switch qm9700 (admin)"
    assert latest.snapshot["switches"]["qm9700"]["price_usd"] == 80000
    switch.refresh_from_db()
    assert (switch.price_usd, switch.edited_by) == (80000, "admin")
    assert tco(scenario_plan(scenario=scenario)) == before
    response = admin_client.get(f"/scenarios/{scenario.pk}/")
    assert response.status_code == 200
    assert response.context["catalog"].outdated
    assert (
        f"Catalog version {revision_current(scenario=scenario).catalog_version.number}"
        in response.content.decode()
    )
    assert (
        f'href="/scenarios/{scenario.pk}/replan/">Replan with today\'s catalog'
        in response.content.decode()
    )


def test_replan_with_todays_catalog_shows_the_new_tco_and_saves_a_pinned_revision(
    admin_client, scenario
):
    before = tco(scenario_plan(scenario=scenario))
    admin_change(admin_client, Switch.objects.get(slug="qm9700"), price_usd=80000)
    new_scenario = scenario_create(owner=scenario.owner, document={**DOCUMENT, "name": "today"})
    after = tco(scenario_plan(scenario=new_scenario))
    assert after > before

    response = admin_client.get(f"/scenarios/{scenario.pk}/replan/")
    assert response.status_code == 200
    replan = response.context["replan"]
    [change] = replan.changes
    assert (change.kind, change.slug, [(f.path, f.old, f.new) for f in change.fields]) == (
        "changed",
        "qm9700",
        [("price_usd", 40000, 80000)],
    )
    assert "qm9700" in replan.used
    cost_row = {label: cells for label, _, cells in replan.figures}["TCO"]
    saved, today = cost_row
    assert saved.text != today.text and today.change.startswith("+")
    assert f"{(after - before) / before:+.1%}".replace("%", " %") == today.change

    response = admin_client.post(
        f"/scenarios/{scenario.pk}/replan/", {"base_revision": scenario.revision}
    )
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert scenario.revision == 2
    assert tco(scenario_plan(scenario=scenario)) == after
    assert (
        revision_current(scenario=scenario).catalog_version
        == CatalogVersion.objects.order_by("-number").first()
    )
    assert not admin_client.get(f"/scenarios/{scenario.pk}/").context["catalog"].outdated


def test_a_deleted_part_leaves_the_old_plan_and_the_replan_says_it_is_gone(admin_client, scenario):
    before = tco(scenario_plan(scenario=scenario))
    switch = Switch.objects.get(slug="qm9700")
    response = admin_client.post(f"/admin/fabric/switch/{switch.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Switch.objects.filter(slug="qm9700").exists()
    assert (
        CatalogVersion.objects.order_by("-number")
        .first()
        .reason.startswith("admin: deleted switch qm9700")
    )

    assert tco(scenario_plan(scenario=scenario)) == before
    page = admin_client.get(f"/scenarios/{scenario.pk}/")
    assert page.status_code == 200
    assert [part.slug for part in page.context["catalog"].gone] == ["qm9700"]
    assert "no longer in the catalog" in page.content.decode()

    replan = admin_client.get(f"/scenarios/{scenario.pk}/replan/")
    assert replan.status_code == 200
    text = replan.content.decode()
    assert "gone from today" in text and "qm9700" in text
    assert "fabrics.compute.switch" in replan.context["replan"].today_errors
    assert not replan.context["replan"].can_save
    refused = admin_client.post(f"/scenarios/{scenario.pk}/replan/", {"base_revision": 1})
    assert refused.status_code == 400
    scenario.refresh_from_db()
    assert scenario.revision == 1

    for url in (
        f"/scenarios/{scenario.pk}/plan.json",
        f"/scenarios/{scenario.pk}/edit/",
        f"/scenarios/{scenario.pk}/history/",
        f"/compare/?ids={scenario.pk}&ids={scenario.pk}",
    ):
        assert admin_client.get(url).status_code == 200, url
    assert admin_client.get(f"/api/v1/scenarios/{scenario.pk}/plan/").status_code == 200


def test_a_catalog_changed_outside_the_admin_is_recorded_when_a_scenario_is_saved(admin_user):
    Switch.objects.filter(slug="qm9700").update(price_usd=1)
    scenario = scenario_create(owner=admin_user, document=DOCUMENT)
    version = revision_current(scenario=scenario).catalog_version
    assert version.reason == FOUND_ON_SAVE
    assert version.snapshot["switches"]["qm9700"]["price_usd"] == 1
    again = scenario_create(owner=admin_user, document=DOCUMENT)
    assert revision_current(scenario=again).catalog_version == version


def test_catalog_changes_name_the_parts_and_their_fields():
    old = catalog_rows()
    new = json.loads(json.dumps(old))
    new["switches"]["qm9700"]["price_usd"] = 1
    new["systems"]["dgx-h100"]["nics"][0]["count"] = 4
    del new["cables"]["aoc-400g"]
    new["pdus"]["my-pdu"] = {
        **new["pdus"][next(iter(new["pdus"]))],
        "slug": "my-pdu",
        "name": "Mine",
    }
    changes = {(change.kind, change.slug): change for change in catalog_changes(old, new)}
    assert set(changes) == {
        ("changed", "qm9700"),
        ("changed", "dgx-h100"),
        ("removed", "aoc-400g"),
        ("added", "my-pdu"),
    }
    assert [(f.path, f.new) for f in changes["changed", "dgx-h100"].fields] == [
        ("nics[0].count", 4)
    ]
    assert changes["removed", "aoc-400g"].part_kind == "cable"


def test_the_public_catalog_api_shows_no_edit_record(api, admin_client):
    admin_change(admin_client, Switch.objects.get(slug="qm9700"), price_usd=1)
    part = api.get("/api/v1/catalog/switches/qm9700/").json()
    assert part["price_usd"] == 1
    assert not {"seed_values", "edited_by", "edited_at"} & set(part)


def test_the_history_names_each_revisions_catalog_version(admin_client, scenario):
    Switch.objects.filter(slug="qm9700").update(price_usd=1)
    scenario_update(scenario=scenario, document=DOCUMENT, base_revision=1, author=scenario.owner)
    page = admin_client.get(f"/scenarios/{scenario.pk}/history/")
    numbers = [r.catalog_version.number for r in page.context["revisions"]]
    assert numbers[0] == numbers[1] + 1
    assert f'<td class="num" title="{FOUND_ON_SAVE}' in page.content.decode()


def test_the_data_migration_pins_existing_revisions_to_the_catalog_of_the_day(admin_user, scenario):
    """What 0005 does to a database made before catalog versions: the catalog becomes version 1
    (with the digest the code computes), every revision is pinned to it, and the parts staff
    edited in the admin (its log says which) are marked edited."""
    from django.contrib.admin.models import CHANGE, LogEntry
    from django.contrib.contenttypes.models import ContentType
    from django.db import connection
    from django.db.migrations.loader import MigrationLoader

    migration = importlib.import_module("planner.migrations.0005_catalog_versions_data")
    ScenarioRevision.objects.update(catalog_version=None)
    CatalogVersion.objects.all().delete()
    switch = Switch.objects.get(slug="qm9700")
    LogEntry.objects.create(
        user=admin_user,
        content_type=ContentType.objects.get_for_model(Switch),
        object_id=str(switch.pk),
        object_repr="qm9700",
        action_flag=CHANGE,
    )
    # The models as 0005 knew them (CatalogVersion still planner's): every app at its last
    # migration but planner, which stops at 0008, and catalog, which takes CatalogVersion over.
    loader = MigrationLoader(connection)
    leaves = [node for node in loader.graph.leaf_nodes() if node[0] not in ("planner", "catalog")]
    migration.forwards(loader.project_state([*leaves, ("planner", "0008_system_spans_racks")]).apps, None)

    [version] = CatalogVersion.objects.all()
    assert (version.number, version.digest) == (1, catalog_digest(catalog_rows()))
    assert revision_current(scenario=scenario).catalog_version == version
    switch.refresh_from_db()
    assert switch.edited_by == "admin" and switch.edited_at is not None
    assert not Switch.objects.exclude(slug="qm9700").exclude(edited_at=None).exists()
