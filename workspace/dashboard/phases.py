"""A phased plan on the dashboard: each phase's figures (the ones the phase comparison and the
timeline read, planner.key_figures.phase_figures) and the parts it adds, removes and re-cables,
as tables with quantities and USD.

Read from the typed plan (`Plan.phases`, planner.solver.phase_results.PhaseResult). A removed
line carries a negative quantity and price in the plan; the page shows what leaves the site as
positive numbers, under "Removed", with the salvage the phase is credited.
"""

from dataclasses import dataclass, field

from planner.key_figures import KW_PER_MW, format_figure, phase_figures
from planner.solver.phase_results import BomChange
from planner.solver.plan import Plan
from workspace.plots.phases import life_end
from workspace.words import words_of


@dataclass(frozen=True)
class PartLine:
    """One BOM line a phase adds or removes."""

    category: str
    description: str
    quantity: int
    unit_price_usd: float
    extended_price_usd: float

    @property
    def unit_price_text(self) -> str:
        return format_figure(self.unit_price_usd, 0)

    @property
    def extended_price_text(self) -> str:
        return format_figure(self.extended_price_usd, 0)


@dataclass
class PhaseView:
    number: int
    name: str
    start: str
    end: str
    """The next phase's start, or the end of the life the TCO covers for the last phase."""
    figures: dict[str, float]
    added: list[PartLine] = field(default_factory=list)
    removed: list[PartLine] = field(default_factory=list)
    recabled_links: int = 0
    salvage_usd: float = 0.0

    @property
    def added_usd(self) -> float:
        return sum(line.extended_price_usd for line in self.added)

    @property
    def removed_usd(self) -> float:
        return sum(line.extended_price_usd for line in self.removed)

    @property
    def salvage_text(self) -> str:
        return format_figure(self.salvage_usd, 0)

    @property
    def anchor(self) -> str:
        return f"phase-{self.number}"

    @property
    def summary(self) -> str:
        """The phase in one line: "27 part lines added (USD 8.0 M) · 10 removed (USD 5.9 M) ·
        12 links re-cabled"."""
        lines = "part line" if len(self.added) == 1 else "part lines"
        parts = [f"{len(self.added)} {lines} added (USD {format_figure(self.added_usd, 0)})"]
        if self.removed:
            parts.append(f"{len(self.removed)} removed (USD {format_figure(self.removed_usd, 0)})")
        if self.recabled_links:
            parts.append(f"{self.recabled_links:,} links re-cabled")
        return " · ".join(parts)

    @property
    def figure_cells(self) -> list[str]:
        """The cells of the phases table, in the order of PHASE_COLUMNS."""
        figures = self.figures
        return [
            f"{figures['gpus']:,}",
            f"{figures['racks']:,}",
            format_figure(figures["it_kw"] / KW_PER_MW, 2),
            format_figure(figures["facility_kw"] / KW_PER_MW, 2),
            format_figure(figures["capex_usd"], 0),
            format_figure(figures["cumulative_capex_usd"], 0),
        ]


PHASE_COLUMNS = [("GPUs", ""), ("Racks", ""), ("IT power", "MW"), ("Facility power", "MW"),
                 ("Capex of the phase", "USD"), ("Capex to date", "USD")]
"""Headers (label, unit) of the phases table: the figures of planner.key_figures.phase_figures."""


def _lines(changes: tuple[BomChange, ...], sign: int) -> list[PartLine]:
    """The BOM changes as the page shows them: `sign` -1 turns a removed line's negative
    quantity and price into positive ones."""
    return [
        PartLine(
            words_of(change.category).capitalize(),
            change.description or change.sku,
            sign * change.quantity,
            change.unit_price_usd,
            sign * change.extended_price_usd,
        )
        for change in changes
    ]


def phase_views(plan: Plan) -> list[PhaseView]:
    """Each phase of the plan for the dashboard ([] for a plan without phases)."""
    phases = plan.phases
    if not phases:
        return []
    ends = [phase.start for phase in phases[1:]] + [life_end(plan)]
    return [
        PhaseView(
            number=index + 1,
            name=phase.name,
            start=phase.start,
            end=ends[index],
            figures=phase_figures(plan, index),
            added=_lines(phase.added, 1),
            removed=_lines(phase.removed, -1),
            recabled_links=phase.recabled_links,
            salvage_usd=phase.salvage_usd,
        )
        for index, phase in enumerate(phases)
    ]
