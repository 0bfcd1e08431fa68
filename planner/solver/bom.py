"""Bill of materials: the parts each step asks for, with spares, priced from the catalog or the
scenario's quotes, and totals by category."""

import math
from dataclasses import dataclass

from catalog.solver.parts import SystemSpec
from catalog.solver.snapshot import CatalogSnapshot
from core.solver.part_counts import BOM_CATEGORIES, PartCount
from planner.solver.scenario import SparesSpec

_CATEGORY_ORDER = {category: rank for rank, category in enumerate(BOM_CATEGORIES)}


def system_part_counts(system: SystemSpec, systems: int) -> list[PartCount]:
    """The GPU systems and what a multi-rack system's scale-up network is built of besides
    (SystemSpec.scale_up_links): links = systems x scale_up_links cables of
    scale_up_cable_length_m, modules = 2 x links (one at each end). Their power is inside the
    system's power_kw, so only the bill of materials takes them."""
    counts = [PartCount("compute", system.slug, systems)]
    if system.scale_up_links:
        links = systems * system.scale_up_links
        counts += [
            PartCount("scale_up", system.scale_up_transceiver, 2 * links),
            PartCount("scale_up", system.scale_up_cable, links, system.scale_up_cable_length_m),
        ]
    return counts


@dataclass(frozen=True)
class BomLine:
    category: str
    sku: str
    description: str
    quantity: int
    """Installed plus spares."""
    spares: int
    unit_price_usd: float
    extended_price_usd: float
    price_source: str
    """"quote" when the scenario's prices gave it, else "catalog"."""
    length_m: float | None = None
    """Stock length of a cable (one line per cable part and stock length)."""


def spares_quantity(installed: int, spares_percent: float) -> int:
    """Spares to buy = ceil(installed x percent / 100)."""
    return math.ceil(installed * spares_percent / 100 - 1e-9)


def unit_price_usd(part, length_m: float | None, quote_usd: float | None = None) -> float:
    """A part's unit price: the scenario's quote, else the list price, plus for a cable of a given
    stock length its price per metre x the length (catalog cables price the typical length and
    add per metre where longer ones cost more)."""
    if quote_usd is not None:
        return quote_usd
    per_m = getattr(part, "price_usd_per_m", 0.0) or 0.0
    return part.price_usd + (per_m * length_m if length_m else 0.0)


def bom_lines(
    part_counts: list[PartCount],
    catalog: CatalogSnapshot,
    prices: dict[str, float],
    spares: SparesSpec = SparesSpec(),
) -> tuple[BomLine, ...]:
    """One line per part and, for cables, stock length (counts of the same added up), grouped by
    category in the order of BOM_CATEGORIES.

    quantity = installed + spares, where spares apply to network, optics and cables;
    extended_price_usd = quantity x unit price (`unit_price_usd`); a quoted price replaces the
    list price.
    """
    installed: dict[tuple[str, str, float | None], int] = {}
    for count in part_counts:
        if count.quantity > 0:
            key = (count.category, count.sku, count.length_m)
            installed[key] = installed.get(key, 0) + count.quantity
    ordered = sorted(installed, key=lambda key: (_CATEGORY_ORDER[key[0]], key[1], key[2] or 0.0))
    lines = []
    for category, sku, length_m in ordered:
        part = catalog.part(sku)
        spare_count = spares_quantity(installed[category, sku, length_m], getattr(spares, category, 0.0))
        quantity = installed[category, sku, length_m] + spare_count
        quoted = sku in prices
        price_usd = unit_price_usd(part, length_m, prices.get(sku))
        lines.append(
            BomLine(
                category=category,
                sku=sku,
                description=part.name if length_m is None else f"{part.name}, {length_m:g} m",
                quantity=quantity,
                spares=spare_count,
                unit_price_usd=price_usd,
                extended_price_usd=quantity * price_usd,
                price_source="quote" if quoted else "catalog",
                length_m=length_m,
            )
        )
    return tuple(lines)


@dataclass(frozen=True)
class PartSource:
    sku: str
    name: str
    source_url: str
    source_date: str
    confidence: str


def bom_sources(lines: tuple[BomLine, ...], catalog: CatalogSnapshot) -> tuple[PartSource, ...]:
    """The provenance of every part on the bill of materials."""
    parts = [catalog.part(sku) for sku in dict.fromkeys(line.sku for line in lines)]
    return tuple(
        PartSource(part.slug, part.name, part.source_url, part.source_date, part.confidence)
        for part in parts
    )


def bom_totals_by_category_usd(lines: tuple[BomLine, ...]) -> dict[str, float]:
    totals: dict[str, float] = {}
    for line in lines:
        totals[line.category] = totals.get(line.category, 0.0) + line.extended_price_usd
    return totals
