"""Bill of materials: the parts each step asks for, priced from the catalog or the scenario's quotes."""

from dataclasses import dataclass

from planner.solver.catalog import CatalogSnapshot

BomCategory = str
"""compute, network, optics, cables, racks, power, cooling, storage."""


@dataclass(frozen=True)
class PartCount:
    """So many of one catalog part, as a pipeline step needs them."""

    category: BomCategory
    sku: str
    """Catalog slug."""
    quantity: int


@dataclass(frozen=True)
class BomLine:
    category: BomCategory
    sku: str
    description: str
    quantity: int
    unit_price_usd: float
    extended_price_usd: float
    price_source: str
    """"quote" when the scenario's prices gave it, else "catalog"."""


def bom_lines(
    part_counts: list[PartCount], catalog: CatalogSnapshot, prices: dict[str, float]
) -> tuple[BomLine, ...]:
    """One line per part (counts of the same part added up), in order of first appearance.

    extended_price_usd = quantity x unit_price_usd; a quoted price replaces the list price.
    """
    quantities: dict[tuple[str, str], int] = {}
    for count in part_counts:
        if count.quantity > 0:
            key = (count.category, count.sku)
            quantities[key] = quantities.get(key, 0) + count.quantity
    lines = []
    for (category, sku), quantity in quantities.items():
        part = catalog.part(sku)
        quoted = sku in prices
        unit_price_usd = prices[sku] if quoted else part.price_usd
        lines.append(
            BomLine(
                category=category,
                sku=sku,
                description=part.name,
                quantity=quantity,
                unit_price_usd=unit_price_usd,
                extended_price_usd=quantity * unit_price_usd,
                price_source="quote" if quoted else "catalog",
            )
        )
    return tuple(lines)
