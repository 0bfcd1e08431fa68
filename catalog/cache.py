"""The catalog snapshot kept by each server process, so that a request does not read and check
every catalog row again (8 ms a request, a quarter of the server's time under the load test's
mix: scripts/loadtest.py).

A kept snapshot is used while the catalog's generation is the one it was built at. The
generation is a token in the shared cache (the file cache in var/, which the server's workers
share) that changes when a transaction that saved or deleted a catalog row commits: an edit in
the admin, `loadcatalog`, in any process of the machine. A snapshot is also built again after
MAX_AGE_S, for changes no signal reports (a bulk update, SQL by hand, an edit made on another
machine that shares the PostgreSQL database); and none is kept or used inside a transaction,
which may hold changes to the catalog that are not committed yet (or will be rolled back).
"""

import time
import uuid
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models.signals import post_delete, post_save

GENERATION_KEY = "catalog-generation"
MAX_AGE_S = 60

_kept: tuple[str, float, Any] | None = None
"""(generation, time.monotonic() when built, snapshot)"""


def kept_snapshot(build: Callable[[], Any]) -> Any:
    """The snapshot kept for the catalog's current generation, else a new one from `build`."""
    global _kept
    if _in_transaction():
        return build()
    # Read before building: a change committed during the build then leaves a newer generation.
    generation = cache.get_or_set(GENERATION_KEY, _new_generation, timeout=None)
    if _kept is None or _kept[0] != generation or time.monotonic() - _kept[1] > MAX_AGE_S:
        _kept = (generation, time.monotonic(), build())
    return _kept[2]


def catalog_changed() -> None:
    """Every process builds its snapshot again on its next request."""
    global _kept
    _kept = None
    cache.set(GENERATION_KEY, _new_generation(), timeout=None)


def watch_catalog_rows(models: list[type]) -> None:
    """Saving or deleting a row of these models changes the generation once committed."""
    for model in models:
        post_save.connect(
            _row_changed, sender=model, dispatch_uid=f"catalog-save-{model._meta.label}"
        )
        post_delete.connect(
            _row_changed, sender=model, dispatch_uid=f"catalog-delete-{model._meta.label}"
        )


def _row_changed(sender, **kwargs) -> None:
    transaction.on_commit(catalog_changed)


def _in_transaction() -> bool:
    return connection.in_atomic_block


def _new_generation() -> str:
    return uuid.uuid4().hex
