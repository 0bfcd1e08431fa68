"""What differs between two plans where a table of figures says too little: the lines of the
bill of materials, and each fabric's tiers, switches and links. Read from the typed plans
(`planner.solver.plan.Plan`), the first plan being the reference."""

from dataclasses import dataclass
from typing import Any

from fabric.solver.results import FabricResult
from planner.solver.bom import BomLine
from planner.solver.plan import Plan

ADDED, REMOVED, CHANGED = "added", "removed", "changed"


@dataclass(frozen=True)
class BomChange:
    kind: str
    """added, removed or changed (its quantity)."""
    category: str
    sku: str
    description: str
    length_m: float | None
    old_quantity: int
    new_quantity: int
    old_usd: float = 0.0
    new_usd: float = 0.0
    """The lines' extended prices (spares included), in the reference and in this plan."""

    @property
    def delta(self) -> int:
        return self.new_quantity - self.old_quantity

    @property
    def delta_usd_text(self) -> str:
        """The difference in USD as the page prints it ("+1,234,500")."""
        return f"{self.new_usd - self.old_usd:+,.0f}"

    @property
    def texts(self) -> tuple[str, str, str]:
        """The reference's quantity, this one's and the difference, as the page prints them."""
        return f"{self.old_quantity:,}", f"{self.new_quantity:,}", f"{self.delta:+,}"


@dataclass(frozen=True)
class FabricChange:
    kind: str
    """added, removed or changed."""
    fabric: str
    item: str
    """What changed: "tiers", "leaf switches", "node-leaf links", "optics", the whole fabric."""
    old: Any = None
    new: Any = None

    @property
    def texts(self) -> tuple[str, str]:
        """The old and new value as the page prints them (counts with thousands separators)."""
        return tuple(  # type: ignore[return-value]
            f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)
            for value in (self.old, self.new)
        )


def _bom_key(line: BomLine) -> tuple:
    return line.category, line.sku, line.length_m


def _bom_quantities(plan: Plan) -> dict[tuple, tuple[int, BomLine, float]]:
    """Each BOM line's ordered quantity (spares included), the line and its extended price
    [USD], by category, part and length (a cable of another length is another line)."""
    lines: dict[tuple, tuple[int, BomLine, float]] = {}
    for line in plan.bom:
        key = _bom_key(line)
        previous, _, usd = lines.get(key, (0, line, 0.0))
        # BomLine.quantity is installed plus spares already.
        lines[key] = (previous + line.quantity, line, usd + line.extended_price_usd)
    return lines


def bom_changes(reference: Plan, other: Plan) -> list[BomChange]:
    """The BOM lines `other` adds, removes or orders in another quantity than `reference`, in
    the order of the reference's BOM (the added lines where `other` has them)."""
    before, after = _bom_quantities(reference), _bom_quantities(other)
    changes = []
    for key in [*before, *(key for key in after if key not in before)]:
        old_quantity, old_line, old_usd = before.get(key, (0, None, 0.0))
        new_quantity, new_line, new_usd = after.get(key, (0, None, 0.0))
        if old_quantity == new_quantity and (old_line is None) == (new_line is None):
            continue
        kind = ADDED if old_line is None else REMOVED if new_line is None else CHANGED
        line = new_line or old_line
        changes.append(
            BomChange(kind, key[0], key[1], line.description, key[2], old_quantity, new_quantity,
                      old_usd, new_usd)
        )
    return changes


def _fabric_facts(fabric: FabricResult) -> dict[str, Any]:
    """What the comparison shows of one fabric, by the item's name."""
    facts: dict[str, Any] = {
        "topology": fabric.topology,
        "switch": fabric.switch,
        "tiers": fabric.tier_count,
        "planes": fabric.planes,
    }
    for tier in fabric.tiers:
        facts[f"{tier.role} switches"] = tier.switches
    for link in fabric.links:
        name = link.segment or f"{link.from_}-{link.to}"
        facts[f"{name} links"] = link.count
    facts["optics"] = fabric.transceivers
    return {item: value for item, value in facts.items() if value is not None}


def fabric_changes(reference: Plan, other: Plan) -> list[FabricChange]:
    """Fabrics `other` adds or drops, and for the fabrics both have, each of topology, switch,
    tiers, planes, switches per tier, links per segment and optics that differs."""
    before, after = reference.fabrics or {}, other.fabrics or {}
    changes = []
    for name in [*before, *(name for name in after if name not in before)]:
        if name not in after:
            changes.append(FabricChange(REMOVED, name, "fabric"))
            continue
        if name not in before:
            changes.append(FabricChange(ADDED, name, "fabric"))
            continue
        old, new = _fabric_facts(before[name]), _fabric_facts(after[name])
        for item in [*old, *(item for item in new if item not in old)]:
            if item not in new:
                changes.append(FabricChange(REMOVED, name, item, old=old[item]))
            elif item not in old:
                changes.append(FabricChange(ADDED, name, item, new=new[item]))
            elif old[item] != new[item]:
                changes.append(FabricChange(CHANGED, name, item, old[item], new[item]))
    return changes
