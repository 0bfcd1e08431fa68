"""Concurrent saves on the default SQLite database: one save of a revision wins and the others are
409 conflicts, never "database is locked"; concurrent creates all succeed (issue 11).

The threads share a real database file (migrated as `scripts/setup` does), each with its own
connection made with the project's database settings, as the threads of a server have.
"""

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connections

from planner.models import Scenario
from planner.services import RevisionConflict, scenario_create, scenario_update

pytestmark = pytest.mark.django_db

THREADS = 20
DOCUMENT = {"name": "B200 pod", "compute": {"system": "dgx-b200", "nodes": 4}}


ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def migrated_file(tmp_path_factory):
    """A database file migrated and holding the catalog, as `scripts/setup` leaves it."""
    if connections["default"].vendor != "sqlite":
        pytest.skip("the SQLite settings are what is tested")
    var = tmp_path_factory.mktemp("var")
    environment = {**os.environ, "PLANNER_VAR_DIR": str(var)}
    environment.pop("DATABASE_URL", None)
    for command in (["migrate"], ["loadcatalog"]):
        subprocess.run([sys.executable, "manage.py", *command, "-v0"], cwd=ROOT, env=environment, check=True)
    return var / "planner.sqlite3"


@pytest.fixture
def file_database(migrated_file, tmp_path):
    """A function that runs its argument in THREADS threads at once against a copy of that
    file, each with its own connection, and returns what each returned or raised."""
    path = tmp_path / "planner.sqlite3"
    shutil.copy(migrated_file, path)
    default = connections["default"]
    wrapper_class = type(default)
    settings = {**default.settings_dict, "NAME": str(path)}

    def in_threads(function, count=THREADS):
        results = [None] * count
        barrier = threading.Barrier(count)

        def run(index):
            connections["default"] = wrapper_class(dict(settings), alias="default")
            try:
                barrier.wait()
                results[index] = function(index)
            except Exception as error:  # noqa: BLE001 (what each thread met is the result)
                results[index] = error
            finally:
                connections["default"].close()

        threads = [threading.Thread(target=run, args=(index,)) for index in range(count)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        return results

    return in_threads


def test_the_sqlite_database_uses_a_write_ahead_log_and_immediate_transactions(file_database):
    [mode] = file_database(lambda _: connections["default"].cursor().execute("PRAGMA journal_mode").fetchone()[0], 1)
    assert mode == "wal"
    assert connections["default"].settings_dict["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


def test_twenty_saves_of_one_revision_give_one_success_and_conflicts(file_database):
    def setup(_):
        owner = get_user_model().objects.create_user("ada")
        return scenario_create(owner=owner, document=DOCUMENT).pk

    [pk] = file_database(setup, 1)

    def save(index):
        scenario = Scenario.objects.get(pk=pk)
        return scenario_update(
            scenario=scenario, document={**DOCUMENT, "name": f"edit {index}"}, base_revision=1,
            author=scenario.owner,
        ).revision

    results = file_database(save)
    assert sum(result == 2 for result in results) == 1, results
    assert sum(isinstance(result, RevisionConflict) for result in results) == THREADS - 1, results

    [revisions] = file_database(lambda _: Scenario.objects.get(pk=pk).revisions.count(), 1)
    assert revisions == 2


def test_twenty_creates_at_once_all_succeed(file_database):
    [owner_pk] = file_database(lambda _: get_user_model().objects.create_user("grace").pk, 1)

    def create(index):
        owner = get_user_model().objects.get(pk=owner_pk)
        return scenario_create(owner=owner, document={**DOCUMENT, "name": f"pod {index}"}).pk

    results = file_database(create)
    assert all(isinstance(result, int) for result in results), results
    assert len(set(results)) == THREADS


def test_a_save_plans_before_its_write_transaction_begins(user, monkeypatch):
    """Issue 27.4: planning inside the transaction held SQLite's write lock for a heavy plan."""
    from django.db import connection
    from django.db.models.signals import post_save

    from planner import services
    from planner.models import ScenarioRevision

    depths = {}
    plan_scenario = services.plan_scenario

    def planned(*args, **kwargs):
        depths["planned"] = len(connection.atomic_blocks)
        return plan_scenario(*args, **kwargs)

    def written(sender, instance, **kwargs):
        depths["written"] = len(connection.atomic_blocks)

    monkeypatch.setattr(services, "plan_scenario", planned)
    post_save.connect(written, sender=ScenarioRevision)
    try:
        scenario = services.scenario_create(owner=user, document={"name": "a", "compute": {"system": "dgx-h100", "gpus": 8}})
        assert depths["planned"] < depths["written"]
        depths.clear()
        services.scenario_update(scenario=scenario, document={"name": "b", "compute": {"system": "dgx-h100", "gpus": 16}},
                                 base_revision=1, author=user)
        assert depths["planned"] < depths["written"]
    finally:
        post_save.disconnect(written, sender=ScenarioRevision)


def test_a_save_that_finds_the_database_locked_tries_again(user, monkeypatch):
    from django.db import OperationalError

    from planner import services
    from planner.models import ScenarioRevision

    monkeypatch.setattr(services, "SAVE_RETRY_PAUSE_S", 0.0)
    create = ScenarioRevision.objects.create
    tries = []

    def locked_once(**fields):
        tries.append(1)
        if len(tries) == 1:
            raise OperationalError("database is locked")
        return create(**fields)

    monkeypatch.setattr(ScenarioRevision.objects, "create", locked_once)
    scenario = services.scenario_create(owner=user, document={"name": "a", "compute": {"system": "dgx-h100", "gpus": 8}})
    assert len(tries) == 2
    assert Scenario.objects.filter(pk=scenario.pk).count() == 1  # the first try's row rolled back
    assert Scenario.objects.count() == 1
