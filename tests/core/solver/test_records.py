"""copy_with: a frozen result with some fields changed, as dataclasses.replace gives it."""

from dataclasses import dataclass, replace

import pytest

from core.solver.records import copy_with


@dataclass(frozen=True)
class Tier:
    role: str
    switches: int
    ports_used: int
    by_rack: tuple[int, ...] = ()


def test_a_copy_with_changes_equals_replace_and_leaves_the_original():
    original = Tier("leaf", 4, 200, (2, 2))
    copied = copy_with(original, ports_used=256, switches=5)
    assert copied == replace(original, ports_used=256, switches=5)
    assert hash(copied) == hash(replace(original, ports_used=256, switches=5))
    assert original == Tier("leaf", 4, 200, (2, 2))


def test_an_unknown_field_is_refused_as_replace_refuses_it():
    with pytest.raises(TypeError, match="no field colour"):
        copy_with(Tier("leaf", 4, 200), colour="blue")
