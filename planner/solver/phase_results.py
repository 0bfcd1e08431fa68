"""What each phase of a site comes to (planner.solver.phases computes them; the plan carries them)."""

from dataclasses import dataclass


@dataclass(frozen=True)
class BomChange:
    """A BOM line's change from one phase to the next: positive bought, negative no longer used."""

    category: str
    sku: str
    description: str
    quantity: int
    unit_price_usd: float
    extended_price_usd: float
    length_m: float | None = None


@dataclass(frozen=True)
class PhaseResult:
    name: str
    start: str
    years_from_first: float
    """From the first phase's start to this one's [years of 365.25 days]."""
    gpus: int
    nodes: int
    racks: int
    racks_added: int
    it_kw: float
    facility_kw: float
    fabric_tiers: dict[str, int]
    """The compute fabric's switches by tier role in this phase's design."""
    capex_usd: float
    """What this phase buys, installation (and a built hall's share) included."""
    capex_by_category_usd: dict[str, float]
    cumulative_capex_usd: float
    opex_usd_per_year: float
    """Yearly opex rate while this phase is the site's latest (before escalation)."""
    opex_by_category_usd_per_year: dict[str, float]
    added: tuple[BomChange, ...]
    removed: tuple[BomChange, ...]
    """Parts retired in this phase (negative quantities): a retired pool, a pool's old system or
    fabric, a storage tier's old system, lines a smaller design used."""
    recabled_links: int
    salvage_usd: float = 0.0
    """Credit for the removed parts (salvage_share x their price), taken off `capex_usd`."""
