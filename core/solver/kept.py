"""One way to keep a step's result for the plans after it (`plan_scenario`'s `cache`: a
sweep's designs, a request's estimate and plan)."""

from collections.abc import Callable, Hashable, MutableMapping
from typing import TypeVar

Result = TypeVar("Result")


def kept(cache: MutableMapping | None, key: Callable[[], Hashable], make: Callable[[], Result]) -> Result:
    """What `make()` gave before for the same key, else `make()`, kept. `key()` names everything
    the result reads (the catalog aside: one cache serves one catalog); it is built only when
    there is a cache, and without one `make()` is called every time."""
    if cache is None:
        return make()
    name = key()
    found = cache.get(name)
    if found is None:
        found = cache[name] = make()
    return found
