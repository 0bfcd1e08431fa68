"""Backup and restore of scenarios: every scenario with its revisions, their owners and authors,
and the catalog versions the revisions are planned against, as one JSON file.

The file is written record by record and read the same way (ijson), so ten thousand scenarios
cost no more memory than one. Its layout, one record per line, in a fixed order:

    {"format": "gpu-cluster-planner-scenarios", "format_version": 1,
    "users": [ {user}, ... ],
    "catalog_versions": [ {version}, ... ],
    "scenarios": [ {scenario with its revisions}, ... ]}

A name ending in `.gz` is gzip-compressed (without a timestamp, so equal backups are equal
files). Restoring reuses the users that exist by username (never changing them), the catalog
versions that exist by content, and skips a scenario that is already there (same owner, name
and creation time): restoring a file twice adds nothing the second time.
"""

import gzip
import io
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any

import ijson
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Prefetch

from catalog.models import CatalogVersion
from catalog.rows import catalog_digest
from catalog.versions import catalog_version_latest
from core.solver.errors import ScenarioError
from planner.models import Scenario, ScenarioRevision
from planner.solver.documents import check_document_shape

FORMAT = "gpu-cluster-planner-scenarios"
FORMAT_VERSION = 1
USER_FIELDS = (
    "username",
    "email",
    "first_name",
    "last_name",
    "password",
    "is_staff",
    "is_superuser",
    "is_active",
)
EXPORT_CHUNK = 500
"""Scenarios read from the database at a time (with their revisions)."""


class BackupError(Exception):
    """A backup file that cannot be restored: says where in the file, and what is wrong."""

    def __init__(self, path: str, message: str):
        self.path = path
        super().__init__(f"{path}: {message}" if path else message)


# ---------------------------------------------------------------------------------------------
# Files


@contextmanager
def _opened(path: Path, mode: str) -> Iterator[IO]:
    """The file, gzip-compressed when its name ends in `.gz`. Written files are the owner's
    only: they hold password hashes."""
    if mode == "w":
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        raw = os.fdopen(descriptor, "wb")
    else:
        raw = open(path, "rb")  # noqa: SIM115 (closed below)
    try:
        if path.name.endswith(".gz"):
            stream = gzip.GzipFile(filename="", mode=mode + "b", fileobj=raw, mtime=0)
        else:
            stream = raw
        if mode == "w":
            text = io.TextIOWrapper(stream, encoding="utf-8", newline="\n")
            yield text
            text.flush()
            text.detach()
        else:
            yield stream
        if stream is not raw:
            stream.close()
    finally:
        raw.close()


def _dumps(record: Any) -> str:
    return json.dumps(record, sort_keys=True, separators=(",", ":"))


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


# ---------------------------------------------------------------------------------------------
# Export


@dataclass(frozen=True)
class ExportCounts:
    users: int
    catalog_versions: int
    scenarios: int
    revisions: int


def _user_records() -> Iterator[dict]:
    for user in get_user_model().objects.order_by("username").iterator():
        record = {name: getattr(user, name) for name in USER_FIELDS}
        record.update(date_joined=_time(user.date_joined), last_login=_time(user.last_login))
        yield record


def _exported_versions() -> list[CatalogVersion]:
    """The versions revisions are planned against, and the latest (the catalog of the day)."""
    latest = catalog_version_latest()
    pinned = CatalogVersion.objects.filter(revisions__isnull=False).values("pk")
    versions = CatalogVersion.objects.filter(pk__in=pinned)
    if latest is not None:
        versions = versions | CatalogVersion.objects.filter(pk=latest.pk)
    return list(versions.defer("snapshot").order_by("number"))


def _version_record(version: CatalogVersion) -> dict:
    snapshot = CatalogVersion.objects.values_list("snapshot", flat=True).get(pk=version.pk)
    return {
        "number": version.number,
        "created_at": _time(version.created_at),
        "digest": version.digest,
        "reason": version.reason,
        "snapshot": snapshot,
    }


def _scenario_records(version_numbers: dict[int, int]) -> Iterator[dict]:
    revisions = ScenarioRevision.objects.select_related("author").order_by("number")
    scenarios = (
        Scenario.objects.select_related("owner")
        .prefetch_related(Prefetch("revisions", queryset=revisions))
        .order_by("owner__username", "created_at", "name", "pk")
    )
    for scenario in scenarios.iterator(chunk_size=EXPORT_CHUNK):
        yield {
            "owner": scenario.owner.get_username(),
            "name": scenario.name,
            "revision": scenario.revision,
            "created_at": _time(scenario.created_at),
            "updated_at": _time(scenario.updated_at),
            "revisions": [
                {
                    "number": revision.number,
                    "document": revision.document,
                    "author": revision.author.get_username() if revision.author else None,
                    "created_at": _time(revision.created_at),
                    "catalog_version": version_numbers.get(revision.catalog_version_id),
                }
                for revision in scenario.revisions.all()
            ],
        }


def _write_list(out: IO[str], key: str, records, last: bool = False) -> int:
    out.write(f'"{key}": [')
    count = 0
    for record in records:
        out.write(("\n" if count == 0 else ",\n") + _dumps(record))
        count += 1
    out.write("\n]" + ("}\n" if last else ",\n"))
    return count


def scenarios_export(*, path: Path) -> ExportCounts:
    """Write every scenario, user and pinned catalog version to `path` (see the module's doc)."""
    # No transaction: on SQLite it would hold the write lock (every transaction takes it) and
    # keep the team from saving for as long as a large export takes.
    with _opened(path, "w") as out:
        out.write(f'{{"format": "{FORMAT}", "format_version": {FORMAT_VERSION},\n')
        users = _write_list(out, "users", _user_records())
        versions = _exported_versions()
        _write_list(out, "catalog_versions", map(_version_record, versions))
        numbers = {version.pk: version.number for version in versions}
        revisions = 0

        def counted():
            nonlocal revisions
            for record in _scenario_records(numbers):
                revisions += len(record["revisions"])
                yield record

        scenarios = _write_list(out, "scenarios", counted(), last=True)
    return ExportCounts(users, len(versions), scenarios, revisions)


# ---------------------------------------------------------------------------------------------
# Reading a backup file's records, checked


def _items(path: Path, prefix: str) -> Iterator[Any]:
    """The values at `prefix` (`scenarios.item`), read as the file is, one at a time."""
    try:
        with _opened(path, "r") as stream:
            yield from ijson.items(stream, prefix, use_float=True)
    except ijson.JSONError as error:
        raise BackupError("", f"not a valid JSON file ({error})") from None
    except (OSError, EOFError) as error:  # gzip's BadGzipFile is an OSError
        raise BackupError("", f"cannot be read ({error})") from None


def _first(path: Path, prefix: str) -> Any:
    """The first value at `prefix`, reading the file only as far as it."""
    items = _items(path, prefix)
    try:
        return next(items, None)
    finally:
        items.close()


def _check_header(path: Path) -> None:
    found = _first(path, "format")
    if found != FORMAT:
        raise BackupError("format", f"must be '{FORMAT}' (is this a scenario backup?)")
    version = _first(path, "format_version")
    if version != FORMAT_VERSION:
        raise BackupError("format_version", f"must be {FORMAT_VERSION}, not {version!r}")


def _field(record: Any, path: str, name: str, kind: type | tuple, nullable: bool = False) -> Any:
    if not isinstance(record, dict):
        raise BackupError(path, "must be a mapping of keys to values")
    if name not in record:
        raise BackupError(f"{path}.{name}", "is required")
    value = record[name]
    if value is None and nullable:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        kinds = kind if isinstance(kind, tuple) else (kind,)
        expected = " or ".join(KIND_NAMES[item] for item in kinds)
        raise BackupError(
            f"{path}.{name}", f"must be {expected}" + (" or null" if nullable else "")
        )
    if isinstance(value, str):
        try:
            check_document_shape(value)
        except ScenarioError as error:
            raise BackupError(f"{path}.{name}", error.errors[0].message) from None
    return value


KIND_NAMES = {
    str: "text",
    int: "a whole number",
    bool: "true or false",
    dict: "a mapping",
    list: "a list",
}


def _datetime(record: Any, path: str, name: str, nullable: bool = False) -> datetime | None:
    text = _field(record, path, name, str, nullable)
    if text is None:
        return None
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        value = None
    if value is None or value.tzinfo is None:
        raise BackupError(f"{path}.{name}", "must be an ISO 8601 date and time with its time zone")
    return value


def _text(record: Any, path: str, name: str, max_length: int, nullable: bool = False) -> str | None:
    value = _field(record, path, name, str, nullable)
    if value is not None and len(value) > max_length:
        raise BackupError(f"{path}.{name}", f"must be at most {max_length} characters")
    return value


# ---------------------------------------------------------------------------------------------
# Import


@dataclass
class ImportCounts:
    users_added: int = 0
    users_existing: int = 0
    catalog_versions_added: int = 0
    catalog_versions_existing: int = 0
    scenarios_added: int = 0
    scenarios_skipped: int = 0
    revisions_added: int = 0


def _import_users(path: Path, counts: ImportCounts) -> dict[str, Any]:
    User = get_user_model()
    users = {}
    for index, record in enumerate(_items(path, "users.item")):
        where = f"users[{index}]"
        username = _text(record, where, "username", 150)
        if not username:
            raise BackupError(f"{where}.username", "must not be empty")
        values = {
            "email": _text(record, where, "email", 254),
            "first_name": _text(record, where, "first_name", 150),
            "last_name": _text(record, where, "last_name", 150),
            "password": _text(record, where, "password", 128),
            **{
                name: _field(record, where, name, bool)
                for name in ("is_staff", "is_superuser", "is_active")
            },
            "date_joined": _datetime(record, where, "date_joined"),
            "last_login": _datetime(record, where, "last_login", nullable=True),
        }
        existing = User.objects.filter(username=username).first()
        if existing is not None:
            counts.users_existing += 1
            users[username] = existing
        else:
            users[username] = User.objects.create(username=username, **values)
            counts.users_added += 1
    return users


def _import_catalog_versions(path: Path, counts: ImportCounts) -> dict[int, CatalogVersion]:
    versions = {}
    for index, record in enumerate(_items(path, "catalog_versions.item")):
        where = f"catalog_versions[{index}]"
        number = _field(record, where, "number", int)
        if not 0 < number < 2**31:
            raise BackupError(f"{where}.number", "must be a positive whole number")
        snapshot = _field(record, where, "snapshot", dict)
        digest = _field(record, where, "digest", str)
        if catalog_digest(snapshot) != digest:
            raise BackupError(
                f"{where}.digest", "does not match the snapshot (the file was altered)"
            )
        existing = (
            CatalogVersion.objects.defer("snapshot")
            .filter(digest=digest)
            .order_by("number")
            .first()
        )
        if existing is not None:
            versions[number] = existing
            counts.catalog_versions_existing += 1
            continue
        if CatalogVersion.objects.filter(number=number).exists():
            latest = catalog_version_latest()
            number_in_database = latest.number + 1
        else:
            number_in_database = number
        versions[number] = CatalogVersion.objects.create(
            number=number_in_database,
            created_at=_datetime(record, where, "created_at"),
            digest=digest,
            snapshot=snapshot,
            reason=_text(record, where, "reason", 200),
        )
        counts.catalog_versions_added += 1
    return versions


def _user(users: dict, username: str | None, path: str) -> Any:
    if username is None:
        return None
    if username not in users:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise BackupError(path, f"no user '{username}' in the file or the database")
        users[username] = user
    return users[username]


def _revisions(record: dict, where: str, users: dict, versions: dict) -> list[ScenarioRevision]:
    items = _field(record, where, "revisions", list)
    if not items:
        raise BackupError(f"{where}.revisions", "must hold at least one revision")
    revisions, numbers = [], set()
    for index, item in enumerate(items):
        at = f"{where}.revisions[{index}]"
        number = _field(item, at, "number", int)
        if not 0 < number < 2**31 or number in numbers:
            raise BackupError(f"{at}.number", "must be a positive whole number, once per scenario")
        numbers.add(number)
        document = _field(item, at, "document", dict)
        try:
            check_document_shape(document)
        except ScenarioError as error:
            problem = error.errors[0]
            raise BackupError(f"{at}.document.{problem.path}", problem.message) from None
        version_number = _field(item, at, "catalog_version", int, nullable=True)
        if version_number is not None and version_number not in versions:
            raise BackupError(
                f"{at}.catalog_version", f"no catalog version {version_number} in the file"
            )
        revisions.append(
            ScenarioRevision(
                number=number,
                document=document,
                author=_user(users, _text(item, at, "author", 150, nullable=True), f"{at}.author"),
                created_at=_datetime(item, at, "created_at"),
                catalog_version=versions.get(version_number),
            )
        )
    return revisions


def _import_scenarios(path: Path, users: dict, versions: dict, counts: ImportCounts) -> None:
    for index, record in enumerate(_items(path, "scenarios.item")):
        where = f"scenarios[{index}]"
        owner = _user(users, _text(record, where, "owner", 150), f"{where}.owner")
        name = _text(record, where, "name", 200)
        created_at = _datetime(record, where, "created_at")
        updated_at = _datetime(record, where, "updated_at")
        current = _field(record, where, "revision", int)
        revisions = _revisions(record, where, users, versions)
        if current not in {revision.number for revision in revisions}:
            raise BackupError(
                f"{where}.revision", f"must be the number of one of its revisions, not {current}"
            )
        if Scenario.objects.filter(owner=owner, name=name, created_at=created_at).exists():
            counts.scenarios_skipped += 1
            continue
        scenario = Scenario.objects.create(
            owner=owner, name=name, revision=current, created_at=created_at
        )
        Scenario.objects.filter(pk=scenario.pk).update(updated_at=updated_at)
        for revision in revisions:
            revision.scenario = scenario
        ScenarioRevision.objects.bulk_create(revisions)
        counts.scenarios_added += 1
        counts.revisions_added += len(revisions)


def scenarios_import(*, path: Path) -> ImportCounts:
    """Restore a backup written by `scenarios_export` (BackupError names what is wrong; then
    nothing is imported)."""
    counts = ImportCounts()
    _check_header(path)
    with transaction.atomic():
        users = _import_users(path, counts)
        versions = _import_catalog_versions(path, counts)
        _import_scenarios(path, users, versions, counts)
    return counts
