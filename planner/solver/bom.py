"""Bill of materials: the parts each step asks for, with spares, priced from the catalog or the
scenario's quotes, and totals by category."""

import math
from dataclasses import dataclass

from planner.solver.catalog import CatalogSnapshot
from planner.solver.scenario import SparesSpec

BOM_CATEGORIES = (
    "compute", "network", "optics", "cables", "storage", "management", "racks", "power", "cooling",
)
"""management: fabric manager appliances and management servers (head nodes)."""


@dataclass(frozen=True)
class PartCount:
    """So many of one catalog part, as a pipeline step needs them."""

    category: str
    """One of BOM_CATEGORIES."""
    sku: str
    """Catalog slug."""
    quantity: int


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


def spares_quantity(installed: int, spares_percent: float) -> int:
    """Spares to buy = ceil(installed x percent / 100)."""
    return math.ceil(installed * spares_percent / 100 - 1e-9)


def bom_lines(
    part_counts: list[PartCount],
    catalog: CatalogSnapshot,
    prices: dict[str, float],
    spares: SparesSpec = SparesSpec(),
) -> tuple[BomLine, ...]:
    """One line per part (counts of the same part added up), grouped by category in the order of
    BOM_CATEGORIES.

    quantity = installed + spares, where spares apply to network, optics and cables;
    extended_price_usd = quantity x unit_price_usd; a quoted price replaces the list price.
    """
    installed: dict[tuple[str, str], int] = {}
    for count in part_counts:
        if count.quantity > 0:
            key = (count.category, count.sku)
            installed[key] = installed.get(key, 0) + count.quantity
    ordered = sorted(installed, key=lambda key: BOM_CATEGORIES.index(key[0]))
    lines = []
    for category, sku in ordered:
        part = catalog.part(sku)
        spare_count = spares_quantity(installed[category, sku], getattr(spares, category, 0.0))
        quantity = installed[category, sku] + spare_count
        quoted = sku in prices
        unit_price_usd = prices[sku] if quoted else part.price_usd
        lines.append(
            BomLine(
                category=category,
                sku=sku,
                description=part.name,
                quantity=quantity,
                spares=spare_count,
                unit_price_usd=unit_price_usd,
                extended_price_usd=quantity * unit_price_usd,
                price_source="quote" if quoted else "catalog",
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
    parts = [catalog.part(line.sku) for line in lines]
    return tuple(
        PartSource(part.slug, part.name, part.source_url, part.source_date, part.confidence)
        for part in parts
    )


def bom_totals_by_category_usd(lines: tuple[BomLine, ...]) -> dict[str, float]:
    totals: dict[str, float] = {}
    for line in lines:
        totals[line.category] = totals.get(line.category, 0.0) + line.extended_price_usd
    return totals
