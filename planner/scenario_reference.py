"""A reference of every scenario key, generated from the spec dataclasses (docs/scenario-reference.md)."""

import dataclasses
import types
import typing
from typing import Any, Literal, get_args, get_origin

from planner.solver.scenario import ScenarioSpec
from planner.solver.schema import spec_fields

HEADER = """# Scenario keys

Every key of a scenario document, with its default, unit and meaning. Generated from the spec
dataclasses by `python manage.py scenarioreference > docs/scenario-reference.md`; a test keeps
it current. Keys left out take the default; unknown keys are refused.

| key | accepts | default | unit | meaning |
|---|---|---|---|---|
"""


POOLS_NOTE = """
## Pools

A scenario gives exactly one of `compute` (one pool) or `pools` (a site of several). `compute`
is the shorthand of a `pools` list of one pool named `compute`, with the scenario's `workload`
and `fabrics.compute`: phases refer to it as `phases[i].pools.compute`. With `pools`, each pool
has its own `workload` or `inference` and its compute fabric in `fabric` (then `workload`,
`inference` and `fabrics.compute` at the top are refused); `fabrics.storage`, `fabrics.inband` and
`fabrics.oob` are the site's and serve the nodes of every pool.

The plan carries `pools: {<name>: {system, gpus, compute, fabric, racks, power, workload, inference}}`
(left out for `compute`) beside the site's totals at the usual keys (`compute.gpus` and
`compute.nodes` are the sums; `compute.system` joins the pools' systems with `+`). A pool's
compute fabric is `compute` in `plan.fabrics` when there is one pool and `compute-<pool name>`
when there are several. A pool's `power.it_kw` is its systems, its compute fabric's switches and
the modules in their ports; the shared fabrics, storage and management are the site's.

Not yet in a site of several pools: the cabling plan and the hand-off files (NetBox, UFM,
Slurm), which place every cable (the BOM's cables and optics are the fabric engine's counts,
one length a segment); top-of-rack leaves of a shared fabric (they stand in network racks);
`racks.nodes_per_rack` and the other per-rack compute figures of the site are the first pool's
(each pool's are in `pools.<name>.racks`).
"""


def scenario_reference_markdown() -> str:
    return HEADER + "".join(_rows(ScenarioSpec, "")) + POOLS_NOTE


def _rows(cls: type, prefix: str):
    infos = list(spec_fields(cls))
    shapes = {_nested_dataclass(info.annotation) for info in infos}
    if len(infos) > 1 and len(shapes) == 1 and None not in shapes:
        # Several keys of one shape (the fabrics): document the shape once.
        [shape] = shapes
        names = ", ".join(info.name for info in infos)
        yield f"| `{prefix}<name>` | section or null | null | | {_cell(_summary(shape))} <name>: {names}. |\n"
        yield from _rows(shape, f"{prefix}<name>.")
        return
    for info in infos:
        path = f"{prefix}{info.name}"
        nested = _nested_dataclass(info.annotation)
        if nested is not None and get_origin(info.annotation) is not tuple:
            yield f"| `{path}` | section | | | {_cell(info.help or _summary(nested))} |\n"
            yield from _rows(nested, f"{path}.")
            continue
        default = "required" if info.required else f"`{_format(info.default)}`"
        if info.required_unless:
            default = f"required unless `{info.required_unless}`"
        yield f"| `{path}` | {_accepts(info)} | {default} | {info.unit} | {_cell(info.help)} |\n"
        if nested is not None:
            yield from _rows(nested, f"{path}[].")


def _summary(cls: type) -> str:
    """The first line of a class's own docstring (not the signature dataclasses write)."""
    doc = (cls.__doc__ or "").strip()
    return "" if doc.startswith(f"{cls.__name__}(") else doc.split("\n")[0]


def _nested_dataclass(annotation: Any) -> type | None:
    for candidate in (annotation, *get_args(annotation)):
        if dataclasses.is_dataclass(candidate):
            return candidate
    return None


def _accepts(info) -> str:
    annotation = info.annotation
    parts = []
    for option in get_args(annotation) if get_origin(annotation) in (typing.Union, types.UnionType) else (annotation,):
        if option is type(None):
            parts.append("null")
        elif get_origin(option) is Literal:
            parts.append(" \\| ".join(f"`{choice}`" for choice in get_args(option)))
        elif get_origin(option) is tuple:
            parts.append("list")
        elif get_origin(option) is dict:
            parts.append("mapping of slug to number")
        elif dataclasses.is_dataclass(option):
            parts.append("mapping")
        else:
            parts.append(_bounded(option.__name__, info))
    return " or ".join(parts)


def _bounded(type_name: str, info) -> str:
    name = {"int": "whole number", "float": "number", "str": "text", "bool": "true/false"}[type_name]
    if info.minimum is not None and info.maximum is not None:
        return f"{name} {_number(info.minimum)} to {_number(info.maximum)}"
    if info.minimum is not None:
        return f"{name} ≥ {_number(info.minimum)}"
    return name


def _number(value: float) -> str:
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,}"


def _format(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, tuple):
        return "[]" if not value else str(list(value))
    if dataclasses.is_dataclass(value):
        return "{}"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
