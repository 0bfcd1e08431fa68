"""Saved work survives the move of CatalogVersion from planner to catalog (a state-only
migration on the same table): scenarios, their revisions and the catalog versions they are
pinned to, written as the schema before the move had them, read back through today's models."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from catalog.models import CatalogVersion
from planner.models import Scenario

BEFORE_THE_MOVE = ("planner", "0008_system_spans_racks")


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor


def _before_the_move(graph):
    return [node for node in graph.leaf_nodes() if node[0] not in ("planner", "catalog")] + [BEFORE_THE_MOVE]


@pytest.mark.django_db(transaction=True)
def test_scenarios_revisions_and_catalog_versions_survive_the_move():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        executor = _migrate(_before_the_move(MigrationExecutor(connection).loader.graph))
        old = executor.loader.project_state(_before_the_move(executor.loader.graph)).apps
        owner = old.get_model("auth", "User").objects.create(username="ada")
        version = old.get_model("planner", "CatalogVersion").objects.create(
            number=7, digest="d" * 64, snapshot={"systems": {"dgx-h100": {"gpus": 8}}}, reason="loadcatalog"
        )
        scenario = old.get_model("planner", "Scenario").objects.create(owner=owner, name="pilot", revision=2)
        revisions = old.get_model("planner", "ScenarioRevision").objects
        revisions.create(scenario=scenario, number=1, document={"name": "pilot"}, catalog_version=version)
        revisions.create(scenario=scenario, number=2, document={"name": "pilot", "compute": {"gpus": 128}},
                         catalog_version=version, key_figures={"gpus": 128})
    finally:
        _migrate(latest)

    saved = Scenario.objects.get(name="pilot")
    assert saved.owner.username == "ada"
    assert saved.document == {"name": "pilot", "compute": {"gpus": 128}}
    assert [revision.number for revision in saved.revisions.order_by("number")] == [1, 2]
    assert saved.current_revision.key_figures == {"gpus": 128}
    pinned = saved.current_revision.catalog_version
    assert isinstance(pinned, CatalogVersion)
    assert (pinned.number, pinned.digest, pinned.reason) == (7, "d" * 64, "loadcatalog")
    assert pinned.snapshot == {"systems": {"dgx-h100": {"gpus": 8}}}
    assert pinned.revisions.count() == 2
    assert CatalogVersion._meta.db_table == "planner_catalogversion"
