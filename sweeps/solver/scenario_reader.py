"""Read a sweep's design documents section by section: each top-level section of the scenario
(compute, racks, fabrics, facility...) is read once for each combination of the axis values
under it, not once a design. Reading a scenario was a third of a screened design's time.

The result is the one `read_scenario` gives the whole document (the same spec, or the same
errors in the same order): each section is read by `read_spec` as the scenario's own field
would be, then the scenario's checks across sections run on the assembled spec.
"""

import dataclasses
import functools
import typing
from typing import Any

from core.solver.errors import FieldError, ScenarioError
from core.solver.schema import read_spec
from planner.solver.scenario import ScenarioSpec, read_scenario

MEMO_SIZE = 65_536
"""Sections kept (each a small frozen spec); emptied when full."""

_FIELDS = tuple(field for field in dataclasses.fields(ScenarioSpec) if field.init)
_NAMES = frozenset(field.name for field in _FIELDS)


@functools.cache
def _holder(name: str) -> type:
    """A dataclass of the scenario's one field `name`, with its type and checks (the same
    metadata): read alone, its errors carry the path the whole scenario's reading gives them."""
    field = next(field for field in _FIELDS if field.name == name)
    hint = typing.get_type_hints(ScenarioSpec)[name]
    return dataclasses.make_dataclass(
        f"Scenario_{name}", [(name, hint, dataclasses.field(default=None, metadata=field.metadata))]
    )


class ScenarioReader:
    """Reads the design documents of one sweep: its base with values at the axes `axis_keys`.
    A section is known by its axis values alone, so one reader serves one base."""

    def __init__(self, axis_keys: tuple[str, ...]):
        self._axes_by_section: dict[str, tuple[str, ...]] = {}
        for key in axis_keys:
            section = key.split(".", 1)[0]
            self._axes_by_section[section] = (*self._axes_by_section.get(section, ()), key)
        self._memo: dict[tuple, tuple[Any, list[FieldError]]] = {}

    def read(self, document: Any, values: dict[str, Any]) -> ScenarioSpec:
        """The design document (base with `values` at the axis keys) as a spec, or ScenarioError."""
        if not isinstance(document, dict) or not _NAMES.issuperset(document):
            return read_scenario(document)  # not a mapping, or an unknown key: its errors as they come
        arguments, errors = {}, []
        for field in _FIELDS:
            name = field.name
            if name not in document:
                if field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
                    errors.append(FieldError(name, "is required"))
                continue
            value, found = self._section(name, document, values)
            errors += found
            if not found:
                arguments[name] = value
        if errors:
            raise ScenarioError(errors)
        scenario = ScenarioSpec(**arguments)
        problems = [FieldError(path, message) for path, message in scenario.problems()]
        if problems:
            raise ScenarioError(problems)
        return scenario

    def check_section(self, document: dict, values: dict[str, Any], name: str) -> None:
        """ScenarioError with the errors `read` finds in the section `name` of the design document
        (base with `values` at the axis keys), if any. The checks across sections
        (`ScenarioSpec.problems`) are left out: a design that differs from one `read` took only
        in this section needs no more when those checks do not read it (the facility and the
        finance, which a sweep prices over arrays, `engine.evaluate_priced`)."""
        errors = self._section(name, document, values)[1] if name in document else []
        if errors:
            raise ScenarioError(errors)

    def _section(self, name: str, document: dict, values: dict[str, Any]) -> tuple[Any, list[FieldError]]:
        """The section `name` of the document, read once for its axis values."""
        if name == "name":  # no axis sets it: known by itself (a sweep's screen gives one name)
            key = (name, document[name]) if isinstance(document[name], str) else None
        else:
            key = (name, *(values[axis] for axis in self._axes_by_section.get(name, ())))
        if key is None:
            return self._read_section(name, document[name])
        found = self._memo.get(key)
        if found is None:
            if len(self._memo) >= MEMO_SIZE:
                self._memo.clear()
            found = self._memo[key] = self._read_section(name, document[name])
        return found

    @staticmethod
    def _read_section(name: str, value: Any) -> tuple[Any, list[FieldError]]:
        try:
            return getattr(read_spec(_holder(name), {name: value}), name), []
        except ScenarioError as error:
            return None, list(error.errors)
