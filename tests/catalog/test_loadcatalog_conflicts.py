"""`loadcatalog` never reverts a staff edit silently (issue 11): a field staff edited that the seed
file also changes is kept and reported; `--overwrite` takes the seed; loading twice records no
new catalog version."""

import dataclasses
from io import StringIO

import pytest
from django.core.management import call_command

from catalog import edits as catalog_edits
from catalog.edits import merge_edited_part
from catalog.models import CatalogVersion
from fabric.models import Switch
from tests.catalog.test_catalog_versions import admin_change

pytestmark = pytest.mark.django_db


@pytest.fixture
def new_seed(monkeypatch):
    """The seed files as a later release gives them: the QM9700 at 42,000 USD and 1,800 W."""
    original = catalog_edits.catalog_file_parts

    def parts(source):
        return [
            dataclasses.replace(part, price_usd=42000.0, power_w=1800.0)
            if part.slug == "qm9700" and source.model == "fabric.Switch"
            else part
            for part in original(source)
        ]

    monkeypatch.setattr(catalog_edits, "catalog_file_parts", parts)


def loadcatalog(*arguments) -> str:
    out = StringIO()
    call_command("loadcatalog", *arguments, stdout=out)
    return out.getvalue()


def test_an_admin_edit_the_seed_also_changes_is_kept_and_reported(admin_client, new_seed):
    admin_change(admin_client, Switch.objects.get(slug="qm9700"), price_usd=31000)
    output = loadcatalog()
    switch = Switch.objects.get(slug="qm9700")
    assert switch.price_usd == 31000, "the staff edit stays"
    assert switch.power_w == 1800, "a field staff left alone takes the seed's new value"
    assert "1 conflict(s)" in output
    assert (
        "fabric.Switch qm9700: price_usd: seed 42000.0, database 31000.0 (edited by admin on"
        in output
    )
    assert "price_usd: seed 42000.0" in loadcatalog("-v0"), "reported until it is resolved"


def test_an_admin_edit_the_seed_leaves_alone_is_kept_without_a_conflict(admin_client):
    admin_change(admin_client, Switch.objects.get(slug="qm9700"), price_usd=31000)
    output = loadcatalog()
    assert Switch.objects.get(slug="qm9700").price_usd == 31000
    assert "conflict" not in output


def test_overwrite_takes_the_seed_and_clears_the_edit_mark(admin_client, new_seed):
    admin_change(admin_client, Switch.objects.get(slug="qm9700"), price_usd=31000)
    output = loadcatalog("--overwrite")
    switch = Switch.objects.get(slug="qm9700")
    assert (switch.price_usd, switch.power_w, switch.edited_at, switch.edited_by) == (
        42000,
        1800,
        None,
        "",
    )
    assert "conflict" not in output
    assert CatalogVersion.objects.order_by("-number").first().reason == "loadcatalog --overwrite"


def test_overwrite_of_named_parts_only(admin_client, new_seed):
    admin_change(admin_client, Switch.objects.get(slug="qm9700"), price_usd=31000)
    admin_change(admin_client, Switch.objects.get(slug="sn5600"), price_usd=1)
    loadcatalog("--overwrite", "qm9700")
    assert Switch.objects.get(slug="qm9700").price_usd == 42000
    assert Switch.objects.get(slug="sn5600").price_usd == 1


def test_loading_twice_records_no_new_version(new_seed):
    first = loadcatalog()
    versions = CatalogVersion.objects.count()
    assert (
        "(recorded)" in first
        and CatalogVersion.objects.order_by("-number").first().reason == "loadcatalog"
    )
    second = loadcatalog()
    assert CatalogVersion.objects.count() == versions
    assert "0 parts created, 0 updated." in second and "(unchanged)" in second


def test_a_part_edited_back_to_the_seed_is_no_longer_marked_edited(admin_client, new_seed):
    admin_change(admin_client, Switch.objects.get(slug="qm9700"), price_usd=42000)
    loadcatalog()
    switch = Switch.objects.get(slug="qm9700")
    assert (switch.price_usd, switch.edited_at) == (42000, None)


@pytest.mark.parametrize(
    ("base", "current", "seed", "values", "conflicts"),
    [
        # neither changed
        ({"a": 1}, {"a": 1}, {"a": 1}, {"a": 1}, []),
        # only the seed changed: taken
        ({"a": 1}, {"a": 1}, {"a": 2}, {"a": 2}, []),
        # only staff changed: kept
        ({"a": 1}, {"a": 5}, {"a": 1}, {"a": 5}, []),
        # both changed alike
        ({"a": 1}, {"a": 2}, {"a": 2}, {"a": 2}, []),
        # both changed differently: kept and reported
        ({"a": 1}, {"a": 5}, {"a": 2}, {"a": 5}, ["a"]),
        # base unknown (edited before edits were recorded): every difference is reported
        (None, {"a": 5, "b": 1}, {"a": 2, "b": 1}, {"a": 5, "b": 1}, ["a"]),
    ],
)
def test_merge_edited_part(base, current, seed, values, conflicts):
    merged, new_base, conflicting = merge_edited_part(seed=seed, current=current, base=base)
    assert (merged, conflicting) == (values, conflicts)
    assert all(new_base[name] == seed[name] for name in seed if name not in conflicting)
