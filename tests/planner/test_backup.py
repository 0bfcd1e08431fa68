"""Backup and restore (issue 11, point 9): `export_scenarios` and `import_scenarios` carry every
scenario with its revisions, owners, authors and catalog versions; a round trip loses nothing
(on SQLite and PostgreSQL alike: the suite runs on both); a bad file is a CommandError naming
what is wrong, and nothing of it is imported."""

import gzip
import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection

from catalog.models import CatalogVersion
from fabric.models import Switch
from planner.models import Scenario, ScenarioRevision
from planner.selectors import revision_current
from planner.services import scenario_create, scenario_plan, scenario_update

pytestmark = pytest.mark.django_db
User = get_user_model()

POD = {
    "name": "H100 pod",
    "compute": {"system": "dgx-h100", "gpus": 256},
    "fabrics": {"compute": {"switch": "qm9700"}},
}


@pytest.fixture
def team():
    """Three users, four scenarios, revisions by their owner and by a colleague, planned against
    two catalog versions; one user owns nothing."""
    alice = User.objects.create_user(
        "alice", "alice@example.org", "analytical-engine", first_name="Ada", last_name="Lovelace"
    )
    bob = User.objects.create_user("bob", "bob@example.org", "difference-engine", is_staff=True)
    User.objects.create_user("carol", "", "jacquard-loom", is_active=False)
    pod = scenario_create(owner=alice, document=POD)
    scenario_update(
        scenario=pod,
        document={**POD, "compute": {"system": "dgx-h100", "gpus": 512}},
        base_revision=1,
        author=alice,
    )
    Switch.objects.filter(slug="qm9700").update(price_usd=45000)
    scenario_update(
        scenario=pod, document={**POD, "name": "H100 pod ☃"}, base_revision=2, author=bob
    )
    scenario_create(
        owner=alice, document={"name": "B200", "compute": {"system": "dgx-b200", "nodes": 4}}
    )
    scenario_create(
        owner=bob, document={"name": "GB200", "compute": {"system": "gb200-nvl72", "gpus": 144}}
    )
    scenario_create(
        owner=bob, document={"name": "=1+1", "compute": {"system": "dgx-h100", "gpus": 8}}
    )
    return pod


def export(path) -> str:
    out = StringIO()
    call_command("export_scenarios", str(path), stdout=out)
    return out.getvalue()


def import_(path) -> str:
    out = StringIO()
    call_command("import_scenarios", str(path), stdout=out)
    return out.getvalue()


def empty_database():
    """Every table emptied (`flush`), inside the test's transaction: PostgreSQL truncates a table
    only once the pending foreign key checks of the transaction are done."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("flush", interactive=False, verbosity=0)
    assert (
        not Scenario.objects.exists()
        and not User.objects.exists()
        and not CatalogVersion.objects.exists()
    )


@pytest.mark.parametrize("name", ["backup.json", "backup.json.gz"])
def test_a_round_trip_through_an_empty_database_loses_nothing(team, tmp_path, name):
    first, second = tmp_path / name, tmp_path / f"again-{name}"
    tco = scenario_plan(scenario=team).to_dict()["cost"]["tco_usd"]
    assert "Wrote 4 scenarios (6 revisions), 3 users and 2 catalog versions" in export(first)
    assert first.stat().st_mode & 0o777 == 0o600

    empty_database()
    assert "Imported 4 scenarios (6 revisions)" in import_(first)
    export(second)
    assert first.read_bytes() == second.read_bytes()

    alice = User.objects.get(username="alice")
    assert alice.check_password("analytical-engine") and alice.first_name == "Ada"
    assert (
        not User.objects.get(username="carol").is_active
        and User.objects.get(username="bob").is_staff
    )
    pod = Scenario.objects.get(name="H100 pod ☃")
    assert (pod.owner, pod.revision) == (alice, 3)
    assert [r.author.username for r in pod.revisions.order_by("number")] == [
        "alice",
        "alice",
        "bob",
    ]
    assert scenario_plan(scenario=pod).to_dict()["cost"]["tco_usd"] == tco, (
        "planned against its own catalog"
    )


def test_the_file_is_one_json_document_in_a_fixed_order(team, tmp_path):
    path = tmp_path / "backup.json"
    export(path)
    data = json.loads(path.read_text())
    assert list(data) == ["format", "format_version", "users", "catalog_versions", "scenarios"]
    assert [user["username"] for user in data["users"]] == ["alice", "bob", "carol"]
    assert data["users"][0]["password"].startswith(("pbkdf2_", "argon2", "md5"))
    pod = next(s for s in data["scenarios"] if s["name"] == "H100 pod ☃")
    numbers = {v["number"] for v in data["catalog_versions"]}
    assert [r["catalog_version"] for r in pod["revisions"]][-1] == max(numbers)
    assert [r["number"] for r in pod["revisions"]] == [1, 2, 3]


def test_importing_twice_is_harmless_and_users_are_reused_unchanged(team, tmp_path):
    path = tmp_path / "backup.json"
    export(path)
    User.objects.filter(username="alice").update(email="new@example.org")
    output = import_(path)
    assert "Imported 0 scenarios (0 revisions); skipped 4 already present" in output
    assert "Users: 0 added, 3 existing reused" in output
    assert "Catalog versions: 0 added, 2 existing reused" in output
    assert User.objects.get(username="alice").email == "new@example.org"
    assert Scenario.objects.count() == 4


def test_an_import_into_a_database_in_use_adds_the_missing_scenarios(team, tmp_path):
    path = tmp_path / "backup.json"
    export(path)
    Scenario.objects.filter(name="B200").delete()
    Scenario.objects.filter(name="=1+1").delete()
    assert "Imported 2 scenarios (2 revisions); skipped 2 already present" in import_(path)
    restored = Scenario.objects.get(name="B200")
    assert revision_current(scenario=restored).catalog_version is not None


def good_file(tmp_path, team) -> dict:
    path = tmp_path / "good.json"
    export(path)
    return json.loads(path.read_text())


def _set(data, dotted: str, value):
    *keys, last = [int(key) if key.isdigit() else key for key in dotted.split(".")]
    target = data
    for key in keys:
        target = target[key]
    target[last] = value


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("format", "something else"), "format: must be 'gpu-cluster-planner-scenarios'"),
        (("format_version", 99), "format_version: must be 1, not 99"),
        (("users.0.username", 7), "users[0].username: must be text"),
        (("users.1.date_joined", "yesterday"), "users[1].date_joined: must be an ISO 8601 date"),
        (
            ("catalog_versions.0.digest", "0" * 64),
            "catalog_versions[0].digest: does not match the snapshot",
        ),
        (("scenarios.0.revisions", []), "scenarios[0].revisions: must hold at least one revision"),
        (
            ("scenarios.0.revision", 9),
            "scenarios[0].revision: must be the number of one of its revisions",
        ),
        (
            ("scenarios.1.owner", "nobody"),
            "scenarios[1].owner: no user 'nobody' in the file or the database",
        ),
        (
            ("scenarios.0.revisions.0.document", [1]),
            "scenarios[0].revisions[0].document: must be a mapping",
        ),
        (
            ("scenarios.0.revisions.0.catalog_version", 42),
            "scenarios[0].revisions[0].catalog_version: no catalog version 42",
        ),
        (("scenarios.2.name", "a\u0000b"), "scenarios[2].name: must not contain a NUL character"),
        (("scenarios.3.created_at", None), "scenarios[3].created_at: must be text"),
    ],
)
def test_a_bad_record_is_named_and_nothing_is_imported(team, tmp_path, change, message):
    data = good_file(tmp_path, team)
    _set(data, *change)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    empty_database()
    with pytest.raises(CommandError) as caught:
        import_(path)
    assert message in str(caught.value)
    assert "nothing was imported" in str(caught.value)
    assert not Scenario.objects.exists() and not User.objects.exists()


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("not.json", b"scenarios: []", "not a valid JSON file"),
        (
            "cut.json",
            b'{"format": "gpu-cluster-planner-scenarios", "format_version": 1, "users": [{"username',
            "not a valid JSON file",
        ),
        ("bad.json.gz", b"not gzip at all", "cannot be read"),
        ("list.json", b"[]", "format: must be"),
    ],
)
def test_a_file_that_is_not_a_backup_is_a_command_error(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(CommandError, match=message):
        import_(path)


def test_a_missing_file_is_a_command_error(tmp_path):
    with pytest.raises(CommandError, match="no such file"):
        import_(tmp_path / "missing.json")


def test_a_compressed_backup_is_gzip_without_a_timestamp(team, tmp_path):
    path = tmp_path / "backup.json.gz"
    export(path)
    assert path.read_bytes()[4:8] == b"\0\0\0\0"
    assert json.loads(gzip.decompress(path.read_bytes()))["format_version"] == 1
    assert ScenarioRevision.objects.count() == 6
