"""The document reader: types, bounds, unknown keys and dotted paths, from a small spec."""

from dataclasses import dataclass
from typing import Literal

import pytest

from core.solver.errors import ScenarioError
from core.solver.schema import read_spec, spec_field


@dataclass(frozen=True)
class Port:
    gbps: float = spec_field(unit="Gb/s", minimum=0, exclusive_minimum=True)


@dataclass(frozen=True)
class Box:
    name: str = spec_field(min_length=1)
    count: int = spec_field(1, minimum=1, maximum=100)
    mode: Literal["auto", 2, 3] = spec_field("auto")
    ratio: Literal["auto"] | float = spec_field("auto", minimum=1)
    enabled: bool = spec_field(False)
    ports: tuple[Port, ...] = ()
    prices: dict[str, float] = spec_field(default_factory=dict, minimum=0)
    limit: int | None = spec_field(None, minimum=0)


def errors_of(document) -> dict[str, list[str]]:
    with pytest.raises(ScenarioError) as caught:
        read_spec(Box, document)
    return caught.value.as_dict()


def test_defaults_fill_what_is_left_out():
    box = read_spec(Box, {"name": "a"})
    assert box == Box(name="a", count=1, mode="auto", ratio="auto", enabled=False, ports=(), prices={}, limit=None)


def test_values_are_read_into_their_types():
    box = read_spec(
        Box,
        {"name": " a ", "count": 4.0, "mode": 2, "ratio": 1.5, "enabled": True,
         "ports": [{"gbps": 400}], "prices": {"x": 3}, "limit": 0},
    )
    assert (box.name, box.count, box.mode, box.ratio) == ("a", 4, 2, 1.5)
    assert box.ports == (Port(gbps=400.0),)
    assert box.prices == {"x": 3.0}
    assert box.limit == 0


@pytest.mark.parametrize(
    ("document", "path", "message"),
    [
        ({}, "name", "is required"),
        ({"name": ""}, "name", "must not be empty"),
        ({"name": 5}, "name", "must be text"),
        ({"name": "a", "count": 0}, "count", "must be a positive whole number"),
        ({"name": "a", "count": -3}, "count", "must be a positive whole number"),
        ({"name": "a", "count": 1.5}, "count", "must be a positive whole number"),
        ({"name": "a", "count": "4"}, "count", "must be a positive whole number"),
        ({"name": "a", "count": True}, "count", "must be a positive whole number"),
        ({"name": "a", "count": 10**12}, "count", "must be at most 100"),
        ({"name": "a", "count": 10**400}, "count", "must be a positive whole number"),
        ({"name": "a", "ports": [{"gbps": -(10**400)}]}, "ports[0].gbps", "must be a number greater than 0 Gb/s"),
        ({"name": "a", "prices": {"x": 10**400}}, "prices.x", "must be a number, zero or more"),
        ({"name": "a", "mode": 4}, "mode", "must be one of: auto, 2, 3"),
        ({"name": "a", "mode": "2"}, "mode", "must be one of: auto, 2, 3"),
        ({"name": "a", "ratio": 0.5}, "ratio", "must be auto or a number of at least 1"),
        ({"name": "a", "ratio": float("nan")}, "ratio", "must be auto or a number of at least 1"),
        ({"name": "a", "enabled": "yes"}, "enabled", "must be true or false"),
        ({"name": "a", "ports": {"gbps": 1}}, "ports", "must be a list"),
        ({"name": "a", "ports": [{"gbps": 0}]}, "ports[0].gbps", "must be a number greater than 0 Gb/s"),
        ({"name": "a", "ports": [5]}, "ports[0]", "must be a mapping of keys to values"),
        ({"name": "a", "prices": {"x": -1}}, "prices.x", "must be a number, zero or more"),
        ({"name": "a", "limit": -1}, "limit", "must be a whole number, zero or more"),
    ],
)
def test_each_bad_value_is_named_by_its_path(document, path, message):
    assert errors_of(document) == {path: [message]}


def test_unknown_keys_are_refused_with_a_suggestion():
    errors = errors_of({"name": "a", "cuont": 3})
    assert errors == {"cuont": ["unknown key; did you mean 'count'? expected one of: "
                                "name, count, mode, ratio, enabled, ports, prices, limit"]}


def test_all_problems_are_reported_together():
    errors = errors_of({"count": 0, "ports": [{"gbps": 1}, {"gbps": -1, "x": 1}]})
    assert set(errors) == {"name", "count", "ports[1].gbps", "ports[1].x"}


def test_a_document_that_is_not_a_mapping_is_refused():
    assert errors_of([1, 2]) == {"document": ["must be a mapping of keys to values"]}
