"""Cable media and optics for a link of a given length and rate.

The media follow from a link's length against each medium's reach in the catalog: passive
copper (DAC) inside a rack, active copper (ACC) to the next racks, then optics: pluggable
transceivers plus fiber, or active optical cables (AOC). NVIDIA, "Cable management FAQ" and
"Interconnect cable requirements" (https://docs.nvidia.com/networking/display/cablemanagfaq,
https://docs.nvidia.com/networking/display/intrcnctcabreqndr400eth).

Each segment of a fabric has an assumed length (`LinkLengthsSpec`); once the racks stand on
the floor, every cable placed there is measured and counted instead (fabric.solver.cabling).
"""

import math
from bisect import bisect_left
from dataclasses import dataclass
from typing import Literal

import numpy as np

from catalog.solver.fabric_parts import CableSpec, TransceiverSpec
from core.solver.interfaces import PortEnd
from core.solver.schema import spec_field

OpticalMedia = Literal["transceivers", "aoc"]
COPPER_MEDIA_ORDER = ("twisted_pair", "dac", "acc")
"""Copper first (cheapest, least power), shortest reach first."""


def _length_field(default_m: float, help: str):
    return spec_field(default_m, unit="m", minimum=0, exclusive_minimum=True, maximum=10_000, help=help)


@dataclass(frozen=True)
class LinkLengthsSpec:
    """Assumed cable run per segment, where the floor layout has no racks to measure it on.

    Defaults, reasoned for 600 mm racks in rows of about 16 with overhead trays:
    - in the rack, node to its top-of-rack leaf: 2 m (within 42 U, with slack);
    - node to a leaf in the row's network rack (rail-optimized): 15 m (up to 8 racks x 0.6 m
      along the row, 2 x 2 m up and down, about 50 % slack);
    - leaf to spine, spines in a network row: 30 m;
    - spine to core, across the hall: 50 m;
    - dragonfly local links within a group of adjacent racks: 5 m; global links: 50 m.
    """

    node_to_top_of_rack_m: float = _length_field(2.0, "Node to its top-of-rack leaf, in the rack.")
    node_to_leaf_m: float = _length_field(15.0, "Node to a leaf in a network rack of its row.")
    leaf_to_spine_m: float = _length_field(30.0, "Leaf to spine.")
    spine_to_core_m: float = _length_field(50.0, "Spine to core, across the hall.")
    router_local_m: float = _length_field(5.0, "Dragonfly link within a group.")
    router_global_m: float = _length_field(50.0, "Dragonfly link between groups.")


ORDER_STEPS_M = ((5.0, 0.5), (20.0, 1.0), (float("inf"), 5.0))
"""Cables made to length are ordered to the half metre up to 5 m (copper), the metre up to 20 m
and in 5 m steps beyond (fiber trunks): (up to this length, step)."""


def order_lengths_m(lengths_m) -> np.ndarray:
    """Each length rounded up to the step a cable of that length is ordered in (ORDER_STEPS_M)."""
    lengths_m = np.asarray(lengths_m, dtype=float)
    steps = np.select([lengths_m <= limit for limit, _ in ORDER_STEPS_M], [step for _, step in ORDER_STEPS_M])
    return np.ceil(lengths_m / steps - 1e-9) * steps


def stock_lengths_m(lengths_m, stocks_m: tuple[float, ...]) -> np.ndarray:
    """For each length, the shortest stock length that covers it; where none does (or the cable
    has none), the length a cable made to length is ordered in (`order_lengths_m`)."""
    lengths_m = np.asarray(lengths_m, dtype=float)
    stocks = np.asarray(sorted(stocks_m), dtype=float)
    if not len(stocks):
        return order_lengths_m(lengths_m)
    at = np.searchsorted(stocks, lengths_m - 1e-9, side="left")
    return np.where(at < len(stocks), stocks[np.minimum(at, len(stocks) - 1)], order_lengths_m(lengths_m))


def stock_length_m(length_m: float, stocks_m: tuple[float, ...]) -> float:
    """`stock_lengths_m` of one length."""
    fitting = [stock for stock in stocks_m if stock >= length_m - 1e-9]
    if fitting:
        return min(fitting)
    step = next(step for limit, step in ORDER_STEPS_M if length_m <= limit)
    return math.ceil(length_m / step - 1e-9) * step


@dataclass(frozen=True)
class CableChoice:
    media: str
    """twisted_pair, dac, acc, aoc or fiber (with a transceiver on each end)."""
    cable: str | None
    """Catalog slug; None when no catalog cable reaches (the plan warns)."""
    cable_length_m: float


def _best_cable(candidates: list[CableSpec], length_m: float, reach_first: bool = False) -> CableSpec | None:
    fitting = [cable for cable in candidates if cable.reach_m >= length_m]

    def key(cable: CableSpec) -> tuple:
        rate_then_reach = (cable.reach_m, cable.gbps) if reach_first else (cable.gbps, cable.reach_m)
        return (*rate_then_reach, cable.price_usd, cable.slug)

    return min(fitting, key=key, default=None)


def cable_for_link(
    length_m: float,
    link_gbps: float,
    cables: dict[str, CableSpec],
    optical_media: OpticalMedia = "transceivers",
    module_reach_m: float | None = None,
) -> CableChoice:
    """The medium and cable for one link: the first of twisted pair, DAC, ACC, then optics
    (transceivers plus fiber, or AOC, as preferred) whose cable carries the rate over the length.

    Within a medium: the slowest cable rated at least `link_gbps`, then the shortest reach that
    covers the length. A fiber is paired with the transceivers by reach: the fiber rated for the
    shortest reach that covers the module's (`module_reach_m`), since a module's reach is set by
    the fiber it is specified for (SR4 50 m on OM4 multimode, DR4 500 m on OS2 single-mode).
    """
    rated = [cable for cable in cables.values() if cable.gbps >= link_gbps]
    optical = ("fiber", "aoc") if optical_media == "transceivers" else ("aoc", "fiber")
    for media in COPPER_MEDIA_ORDER + optical:
        candidates = [cable for cable in rated if cable.media == media]
        paired = media == "fiber" and module_reach_m is not None
        if paired:
            candidates = [cable for cable in candidates if cable.reach_m >= module_reach_m] or candidates
        cable = _best_cable(candidates, length_m, reach_first=paired)
        if cable is not None:
            return CableChoice(media, cable.slug, stock_length_m(length_m, cable.stock_lengths_m))
    return CableChoice("fiber", None, length_m)


def module_for_port(
    transceivers: dict[str, TransceiverSpec],
    module_gbps: float,
    links_per_module: int,
    length_m: float,
    fiber: str | None = None,
) -> TransceiverSpec | None:
    """The transceiver for one cage (switch) or NIC port: rated at the cage's total rate,
    reaching the length; preferring the same fiber as the other end, as many optical connectors
    as the links it serves (a twin-port OSFP serves two), then the shortest reach (multimode
    before single-mode), then the lowest price."""
    fitting = [
        module for module in transceivers.values()
        if module.gbps == module_gbps and module.reach_m >= length_m and module.fiber != "copper"
        and not module.linear_drive
    ]
    return min(
        fitting,
        key=lambda module: (
            fiber is not None and module.fiber != fiber,
            module.ports != links_per_module,
            module.reach_m,
            module.price_usd,
            module.slug,
        ),
        default=None,
    )


@dataclass(frozen=True)
class LinkChoice:
    """What a link of a given length is made of: its medium and cable, and the transceiver at
    each end (fiber only)."""

    media: str
    cable: str | None
    lower_module: str | None = None
    upper_module: str | None = None


def link_choice(
    length_m: float,
    link_gbps: float,
    lower: PortEnd | None,
    upper: PortEnd | None,
    cables: dict[str, CableSpec],
    transceivers: dict[str, TransceiverSpec],
    optical_media: OpticalMedia = "transceivers",
) -> LinkChoice:
    """The medium, cable and modules of one link: `cable_for_link`, and beyond copper reach a
    module for each end (`module_for_port`, the upper end on the lower end's fiber) with the fiber
    paired to the shorter module reach."""
    choice = cable_for_link(length_m, link_gbps, cables, optical_media)
    if choice.media != "fiber" or choice.cable is None or lower is None or upper is None:
        return LinkChoice(choice.media, choice.cable)
    low = module_for_port(transceivers, lower.module_gbps, lower.links_per_module, length_m)
    high = module_for_port(transceivers, upper.module_gbps, upper.links_per_module, length_m,
                           fiber=low.fiber if low else None)
    reaches = [module.reach_m for module in (low, high) if module is not None]
    choice = cable_for_link(length_m, link_gbps, cables, optical_media,
                            module_reach_m=min(reaches) if reaches else None)
    return LinkChoice(choice.media, choice.cable, low.slug if low else None, high.slug if high else None)


_STEPS_CACHE: dict[tuple, tuple] = {}
_STEPS_CACHE_SIZE = 256


def link_choice_steps(
    link_gbps: float,
    lower: PortEnd | None,
    upper: PortEnd | None,
    cables: dict[str, CableSpec],
    transceivers: dict[str, TransceiverSpec],
    optical_media: OpticalMedia = "transceivers",
) -> tuple[tuple[float, ...], tuple[LinkChoice, ...]]:
    """`link_choice` as a step function of length: the choice is the same for every length in
    (t[i - 1], t[i]] of the catalog's reaches t (what fits a length is what reaches at least as
    far), so links are sorted into steps by their length and given the step's choice. Beyond the
    last reach nothing fits: (fiber, no cable)."""
    # The same catalog plans many segments and rounds: keep its steps. The cache holds the
    # catalog's dicts themselves, so their ids stay theirs while cached.
    key = (id(cables), id(transceivers), link_gbps, lower, upper, optical_media)
    if key in _STEPS_CACHE:
        return _STEPS_CACHE[key][2]
    reaches = sorted({cable.reach_m for cable in cables.values()}
                     | {module.reach_m for module in transceivers.values()})
    choices = [link_choice(reach, link_gbps, lower, upper, cables, transceivers, optical_media)
               for reach in reaches]
    steps = (tuple(reaches), (*choices, LinkChoice("fiber", None)))
    if len(_STEPS_CACHE) >= _STEPS_CACHE_SIZE:
        _STEPS_CACHE.pop(next(iter(_STEPS_CACHE)))
    _STEPS_CACHE[key] = (cables, transceivers, steps)
    return steps


def link_choice_at(
    length_m: float,
    link_gbps: float,
    lower: PortEnd | None,
    upper: PortEnd | None,
    cables: dict[str, CableSpec],
    transceivers: dict[str, TransceiverSpec],
    optical_media: OpticalMedia = "transceivers",
) -> LinkChoice:
    """`link_choice` of one length, read from the catalog's kept steps (`link_choice_steps`):
    the fabrics' first estimate chooses each segment's media without searching the catalog."""
    reaches, choices = link_choice_steps(link_gbps, lower, upper, cables, transceivers, optical_media)
    return choices[bisect_left(reaches, length_m)]
