"""A reference of every scenario key, generated from the spec dataclasses (docs/scenario-reference.md)."""

import dataclasses
import types
import typing
from typing import Any, Literal, get_args, get_origin

from core.solver.schema import spec_fields
from planner.solver.scenario import ScenarioSpec

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
has its own `workload` or `inference` (then `workload` and `inference` at the top are refused)
and its own compute fabric in `fabric`. A pool without a `fabric` joins the site's
`fabrics.compute` when there is one: pools of several generations under one set of spines (A100
nodes with 200 Gb/s HCAs beside H100 nodes with 400 Gb/s ones), each pool's nodes an endpoint
group of that fabric. `fabrics.storage`, `fabrics.inband` and `fabrics.oob` are the site's and
serve the nodes of every pool.

The plan carries `pools: {<name>: {system, gpus, compute, fabric, racks, power, workload, inference}}`
(left out for `compute`) beside the site's totals at the usual keys (`compute.gpus` and
`compute.nodes` are the sums; `compute.system` joins the pools' systems with `+`). A pool's
compute fabric is `compute` in `plan.fabrics` when there is one pool or when it shares
`fabrics.compute`, and `compute-<pool name>` when it has its own among several. A pool's
`power.it_kw` is its systems, its own compute fabric's switches and the modules in their ports;
the shared fabrics (a shared `fabrics.compute` too), storage and management are the site's.

The cabling plan places each pool's systems in its own compute racks (the pools' racks in pool
order) and cables them to their own fabric and to the shared ones; the BOM's cables and optics
are its rows, as for one pool, and the hand-off files (NetBox, Nautobot, UFM, Slurm) list every
pool's systems. Not yet in a site of several pools: a pool's own top-of-rack leaves in the
cabling plan and the hand-offs (the cabled exports refuse them on
`pools[i].fabric.leaf_placement`; the BOM then takes the fabric engine's counts, one length a
segment), and one Slurm node per tray of a rack-scale pool (each system is one node);
top-of-rack leaves of a shared fabric stand in network racks; `racks.nodes_per_rack` and the
other per-rack compute figures of the site are the first pool's (each pool's are in
`pools.<name>.racks`).
"""

PHASES_NOTE = """
## Phases

`phases` lists the build-out in order; each phase gives its `start` date and the size of each
pool at its end (`phases[i].pools.compute.gpus` for the `compute` shorthand; a pool of `pools`
by its name; a pool left out is not built yet), in the unit the pool itself is given in, and
may resize storage tiers (`phases[i].storage.<tier name or index>`). Dates are strictly
increasing, names unique, and no pool shrinks. The scenario's own size is the site: the last
phase must give every pool exactly the scenario's size, so that the document still plans as the
finished site where phases are ignored, and a mismatch is an error rather than one of two sizes
silently winning.

The plan's sections are the site's (the last phase); `phases` gives each phase's `gpus`,
`nodes`, `racks`, `racks_added`, `it_kw`, `facility_kw`, `fabric_tiers` (the compute fabric's
switches by tier), `capex_usd` with `capex_by_category_usd` and `cumulative_capex_usd`, its
yearly opex, `added` and `removed` (BOM lines with the change in quantity) and
`recabled_links`.

- `growth: final` designs the site for the last phase and fills it in. The first phase buys what
  the final design shares: the compute fabric's spines and cores, the storage, in-band and oob
  fabrics, storage and management systems, every rack, PDU and cooling unit of the final floor
  (and a built hall for the final IT power). Each phase buys its added systems and the leaves
  its own design counts, and the final design's cables and optics in proportion to its nodes
  (ceil(final quantity × nodes / final nodes)). Its racks are the final floor filled in. No
  link is re-cabled. Over all phases it buys exactly the one-shot design's parts.
- `growth: per_phase` designs each phase as the smallest design for its size. A phase buys the
  BOM lines that grow (`added`); lines that fall (`removed`) are parts the new design no longer
  uses (shorter cables, a one-tier fabric's switch). `recabled_links`: when a fabric's number of
  tiers changes, every link of the phase before moves (leaf ports are split anew between nodes
  and uplinks); when only a tier above the leaves changes its switch count, every
  switch-to-switch link of the phase before moves (uplinks striped anew); otherwise none.

Cost: each phase's capex is paid on its start date and discounted from the first phase's start
by (1 + discount_rate)^t, t in years of 365.25 days. Opex (energy, colocation, staff, software
of the phase's own design; maintenance on the hardware bought so far) runs from each phase's
start until the next, over `finance.years` from the first start, escalated yearly and paid at
each year's end. `cost` is this phased TCO: unlike the one-shot TCO (everything bought at t = 0
and run in full from year 1) later capex is discounted, early years cost the smaller site's
opex, and the GPU-hours count each phase's GPUs for the time it runs.

Phases cannot yet express: a phase that removes or replaces a pool's systems (pools only grow),
a change of system, fabric switch or topology from one phase to the next (each phase is the
scenario at another size), dates finer than a day, or a phase's own power and floor under
`growth: final` (its IT power is its own design's; the spines bought early are left out).
"""


SYSTEMS_NOTE = """
## Systems that span racks

A rack-scale system (`rack_scale: true`) is one rack (GB200 NVL72), or several: `compute_racks`
racks of compute and `switch_racks` racks of its own scale-up switching (CloudMatrix 384: 12 and
4). Each switch rack draws `switch_rack_kw` and weighs `switch_rack_weight_kg`; the compute racks
share the rest of `power_kw` and `weight_kg` evenly, and each must fit `racks.power_budget_kw`,
the cooling and `racks.max_weight_kg` (the message names the field that refuses it). The switch
racks are network racks (`fabric: scale-up` in `racks.per_rack`) under
`racks.support_power_budget_kw`; the floor sets them among the network racks of the compute
rows. The system's NIC ports of every role are spread evenly over its compute racks, so the
cabling plan measures each cable from the rack its port is in; the system is one device named
after its first rack. Its `scale_up_links` (a cable of `scale_up_cable_length_m` and a
`scale_up_transceiver` at each end) are bought under the BOM category `scale_up`, their power
inside `power_kw`; the cabling plan leaves these vendor-made links out.

Not yet: a switch rack tied to its own supernode on the floor (the floor spreads the switch
racks over the compute rows in order), scale-up links in the cabling plan and the hand-offs
(the NetBox bundle has a device per server in its own rack and the scale-up switching in the
system's switch racks, one virtual chassis, but no cable between them), and a system's own rack footprint (it takes
GB200 NVL72's 600 x 1,068 mm).
"""

INFERENCE_NOTE = """
## Inference

`inference` (or a pool's) sizes the GPUs from memory (weights plus the KV cache of the sequences
in flight), from throughput and from latency (time per output token on the HBM roofline, time
to first token); the plan says which binds. The tokens/s per GPU is the published operating
point (`planner/catalog/inference_operating_points.yaml`: MLPerf Inference closed results, each
with its TTFT and TPOT limits and its source) that the targets meet: the loosest point met,
interpolated on log TPOT between two points, or, tighter than every point, the tightest point
scaled down along the HBM roofline (an extrapolation, which the plan warns of). A model with no
published point on the GPU is scaled from the nearest published model of its class (dense or
mixture of experts, context window within 2x when `context_window_tokens` is given) by active
parameters and bytes, with a warning that says how much the nearest models disagree; a GPU
with none of its class gets a dense-TFLOPS estimate; `tokens_per_s_per_gpu` gives a measured
figure instead. `inference.models` serves several models in one pool (each with its own `name`,
load and targets; the pool's GPUs are their sum), `inference.disaggregated` adds prefill GPUs
(input tokens/s over `prefill_tokens_per_s_per_gpu`, or a dense-TFLOPS estimate), and
`inference.utilisation` (default 0.6) spreads the pool's share of the TCO over the output tokens
it serves: the plan's `inference.usd_per_million_output_tokens` (a site's pools:
`pools.<name>.inference.usd_per_million_output_tokens`, together `cost.usd_per_million_output_tokens`).
It cannot yet express speculative decoding or prefix caching.
"""


def scenario_reference_markdown() -> str:
    return HEADER + "".join(_rows(ScenarioSpec, "")) + POOLS_NOTE + PHASES_NOTE + SYSTEMS_NOTE + INFERENCE_NOTE


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
            # A mapping of sections (phases[].pools) is keyed by a name the user chooses.
            yield from _rows(nested, f"{path}.<name>." if get_origin(info.annotation) is dict else f"{path}.")
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
