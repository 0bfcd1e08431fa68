"""Dotted keys of a sweep, checked against the dataclasses they name: a scenario key
(`fabrics.compute.switch`) against the scenario spec, a plan key (`power.facility_kw`) against
the plan's results. Both are checked before any design is planned, so a typo is one error, not
a million refusals.
"""

import dataclasses
import types
import typing
from typing import Any, Literal, get_args, get_origin

from planner.solver.plan import Plan
from planner.solver.scenario import ScenarioSpec

NOT_SWEPT = frozenset({"name"})
"""Scenario fields that are not design choices."""

_SCALARS = (int, float, str, bool)


def _without_none(annotation: Any) -> tuple[Any, ...]:
    if get_origin(annotation) in (typing.Union, types.UnionType):
        return tuple(arg for arg in get_args(annotation) if arg is not type(None))
    return (annotation,)


def _is_scalar(annotation: Any) -> bool:
    """int, float, text, true/false or a choice among them (a union of such, with None)."""
    for alternative in _without_none(annotation):
        if get_origin(alternative) is Literal:
            continue
        if alternative not in _SCALARS:
            return False
    return True


def _dataclass_in(annotation: Any) -> type | None:
    alternatives = [alternative for alternative in _without_none(annotation) if dataclasses.is_dataclass(alternative)]
    return alternatives[0] if len(alternatives) == 1 else None


def scenario_key_problem(key: str) -> str | None:
    """Why `key` cannot be an axis of a sweep, or None when it can.

    An axis is a scalar field of the scenario (a number, text or choice), or a section written
    as a bare value (`fabrics.compute.oversubscription: 2` is the leaf ratio). Lists (storage
    tiers, inline components), price mappings and the name are not swept.
    """
    parts = key.split(".")
    if key in NOT_SWEPT:
        return "is not a design choice"
    cls: type = ScenarioSpec
    for depth, part in enumerate(parts):
        fields = {field.name: field for field in dataclasses.fields(cls) if field.init}
        if part not in fields:
            where = ".".join(parts[:depth]) or "the scenario"
            return f"unknown key '{part}' in {where}; expected one of: {', '.join(fields)}"
        annotation = typing.get_type_hints(cls)[part]
        last = depth == len(parts) - 1
        section = _dataclass_in(annotation)
        if last:
            if _is_scalar(annotation) or (section and fields[part].metadata.get("shorthand")):
                return None
            if section:
                return f"is a section; sweep one of its keys: {', '.join(f.name for f in dataclasses.fields(section))}"
            return "is a list or a mapping, which a sweep does not vary"
        if section is None:
            return f"'{part}' has no keys below it"
        cls = section
    return None


def plan_key_problem(key: str) -> str | None:
    """Why `key` names no number of a plan, or None when it does. A mapping of the plan (its
    fabrics by name, the capex by category) takes any key at its level."""
    annotation: Any = Plan
    parts = key.split(".")
    for depth, part in enumerate(parts):
        alternatives = _without_none(annotation)
        section = _dataclass_in(annotation)
        mapping = next((alt for alt in alternatives if get_origin(alt) is dict), None)
        if section is not None:
            fields = {field.name for field in dataclasses.fields(section)}
            if part not in fields:
                where = ".".join(parts[:depth]) or "the plan"
                return f"unknown key '{part}' in {where}; expected one of: {', '.join(sorted(fields))}"
            annotation = typing.get_type_hints(section)[part]
        elif mapping is not None:
            annotation = get_args(mapping)[1]
        else:
            return f"'{parts[depth - 1]}' has no keys below it"
    if all(alternative in (int, float) for alternative in _without_none(annotation)):
        return None
    return "is not a number of the plan"


def plan_value(plan: Plan, key: str) -> float | None:
    """The plan's number at `key` (checked by `plan_key_problem`); None when its section was not
    computed (no workload, say) or a mapping lacks the key."""
    value: Any = plan
    for part in key.split("."):
        if value is None:
            return None
        value = value.get(part) if isinstance(value, dict) else getattr(value, part)
    return value


def with_values(document: dict, values: dict[str, Any]) -> dict:
    """A copy of the scenario document with each dotted key set to its value. Only the
    mappings on the keys' paths are copied (the rest is shared with `document`); a missing
    mapping is created, and a bare value where a mapping is needed (a section's shorthand) is
    replaced."""
    result = dict(document)
    for key, value in values.items():
        parts = key.split(".")
        target = result
        for part in parts[:-1]:
            inner = target.get(part)
            inner = dict(inner) if isinstance(inner, dict) else {}
            target[part] = inner
            target = inner
        target[parts[-1]] = value
    return result
