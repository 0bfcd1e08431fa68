"""The catalog snapshot a process keeps: used until the catalog changes in any process, never
stale after an edit, never kept from inside a transaction."""

import pytest
from django.core.cache import cache
from django.db import transaction

from catalog import cache as catalog_cache
from catalog.rows import catalog_snapshot
from planner.models import System

pytestmark = pytest.mark.django_db


@pytest.fixture
def builds(monkeypatch):
    """Snapshots built by `kept_snapshot`, as a server's request (outside a transaction) asks.

    The test runs inside a transaction (rolled back at its end), where nothing is kept: the
    transaction check is replaced to see what a request outside one gets."""
    monkeypatch.setattr(catalog_cache, "_kept", None)
    monkeypatch.setattr(catalog_cache, "_in_transaction", lambda: False)
    made = []

    def build():
        made.append(object())
        return made[-1]

    return made, lambda: catalog_cache.kept_snapshot(build)


def test_a_snapshot_is_kept_while_the_catalog_does_not_change(builds):
    made, snapshot = builds
    assert snapshot() is snapshot() is made[0]
    assert len(made) == 1


def test_a_change_in_this_or_another_process_makes_a_new_snapshot(builds):
    made, snapshot = builds
    first = snapshot()
    catalog_cache.catalog_changed()
    assert snapshot() is not first
    # another worker's change: only the shared cache's generation moves
    cache.set(catalog_cache.GENERATION_KEY, "changed by another worker", timeout=None)
    assert snapshot() is made[2] and len(made) == 3


def test_a_generation_lost_from_the_cache_makes_a_new_snapshot(builds):
    made, snapshot = builds
    snapshot()
    cache.delete(catalog_cache.GENERATION_KEY)  # culled or cleared
    snapshot()
    assert len(made) == 2
    assert snapshot() is made[1]


def test_a_snapshot_older_than_the_maximum_age_is_built_again(builds, monkeypatch):
    made, snapshot = builds
    clock = [1000.0]
    monkeypatch.setattr(catalog_cache.time, "monotonic", lambda: clock[0])
    snapshot()
    clock[0] += catalog_cache.MAX_AGE_S - 1
    snapshot()
    clock[0] += 2
    snapshot()
    assert len(made) == 2


@pytest.mark.parametrize("change", ["save", "delete"])
def test_a_committed_save_or_delete_of_a_catalog_row_changes_the_generation(
    change, django_capture_on_commit_callbacks
):
    generation = cache.get_or_set(catalog_cache.GENERATION_KEY, "before", timeout=None)
    system = System.objects.get(slug="dgx-h100")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        if change == "save":
            system.price_usd += 1
            system.save()
        else:
            system.delete()
        # nothing changes before the commit: another worker would rebuild from the old rows
        assert cache.get(catalog_cache.GENERATION_KEY) == generation
    assert callbacks
    assert cache.get(catalog_cache.GENERATION_KEY) != generation


def test_inside_a_transaction_the_snapshot_is_read_from_the_database(monkeypatch):
    monkeypatch.setattr(catalog_cache, "_kept", None)
    with monkeypatch.context() as outside:
        outside.setattr(catalog_cache, "_in_transaction", lambda: False)
        kept = catalog_snapshot()
        assert catalog_snapshot() is kept
    # a bulk update sends no signal; inside this (test's) transaction it is seen all the same
    System.objects.filter(slug="dgx-h100").update(price_usd=123)
    assert transaction.get_connection().in_atomic_block
    assert catalog_snapshot().systems["dgx-h100"].price_usd == 123
    assert kept.systems["dgx-h100"].price_usd != 123
    assert catalog_cache._kept[2] is kept  # and what it read is not kept for later requests
