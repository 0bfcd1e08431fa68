"""What each step asks the bill of materials for: so many of one catalog part, in one category."""

from dataclasses import dataclass

BOM_CATEGORIES = (
    "compute", "scale_up", "network", "optics", "cables", "storage", "management", "racks", "power", "cooling",
)
"""management: fabric manager appliances and management servers (head nodes); scale_up: the
modules and cables inside multi-rack systems (`system_part_counts`)."""


@dataclass(frozen=True)
class PartCount:
    """So many of one catalog part, as a pipeline step needs them."""

    category: str
    """One of BOM_CATEGORIES."""
    sku: str
    """Catalog slug."""
    quantity: int
    length_m: float | None = None
    """Stock length of a cable; None for parts bought by the piece."""
