"""The plan page's lead screen: what an architect asks first, on one screen.

GPUs and the system, racks and floor, each fabric's tiers, IT and facility power with the PUE,
capex, TCO and the price of a GPU-hour, the few warnings that matter most, and small copies of
the figures that say it best. Read from the typed plan (planner.solver.plan.Plan) by attribute;
a part the plan lacks (no fabric, no cost) is left out.
"""

from dataclasses import dataclass, field

from fabric.solver.results import FabricResult, TierResult
from planner.key_figures import KeyFigure, format_figure, key_figures, ratio_figures
from planner.solver.plan import Plan
from workspace.dashboard.plan_text import Shown, fabric_title, short_name
from workspace.dashboard.sections import CHART_TITLES, WarningLine
from workspace.words import choice_label, words_of

NBSP, NB_HYPHEN = "\u00a0", "\u2011"
"""A number stays on the line of its unit ("1.30" after "PUE", "MW" after "1.77")."""
LEAD_WARNINGS = 3
"""Warnings the lead shows; the rest are one link away."""
LEAD_PICTURES = [
    # (the figures to choose from, the first the plan has; the section it opens)
    (("chart-racks-floor", "chart-racks-elevation"), "racks"),
    (("chart-bom-cost", "chart-cost-years"), "bom"),
]
TILE_FIGURES = {
    "gpus": "compute",
    "racks": "racks",
    "it_mw": "power",
    "capex_usd": "cost",
    "tco_usd": "cost",
    "usd_per_gpu_hour": "cost",
    "usd_per_million_output_tokens": "cost",
    "switches": "fabrics",
}
"""The key figure each tile of the lead leads with, and the section its tile opens."""


@dataclass(frozen=True)
class Tile:
    figure: KeyFigure
    lines: tuple[str, ...]
    """What the number is made of, in a few short lines."""
    section: str
    """The key of the plan section with the details."""
    title: str = ""
    """The slug of the part a tile names, for its tooltip."""


@dataclass(frozen=True)
class Picture:
    chart_id: str
    title: str
    section: str


@dataclass
class Lead:
    tiles: list[Tile] = field(default_factory=list)
    warnings: list[WarningLine] = field(default_factory=list)
    more_warnings: int = 0
    """Kinds of warnings beyond those shown."""
    pictures: list[Picture] = field(default_factory=list)


def system_line(plan: Plan, names: dict[str, str]) -> Shown | str:
    """ "128 × NVIDIA DGX H100", the system by its name (its slug kept for a tooltip)."""
    compute = plan.compute
    slug = compute.system
    name = short_name(names.get(slug, slug))
    nodes = compute.total_nodes or compute.nodes
    text = f"{nodes:,} × {name}" if nodes else name
    if slug not in names:
        return text
    shown = Shown(text)
    shown.slug = f"{names[slug]} · {slug}"
    return shown


def pool_lines(plan: Plan, names: dict[str, str]) -> tuple[str, ...]:
    """A site of several pools: "128 × NVIDIA DGX H100 (training)", one line a pool."""
    return tuple(
        f"{pool.compute.total_nodes:,} × {short_name(names.get(pool.system, pool.system))} ({name})"
        for name, pool in (plan.pools or {}).items()
    )


def _plural(count: int, word: str) -> str:
    return f"{count:,}{NBSP}{word}" + ("" if count == 1 else "s")


def racks_lines(plan: Plan) -> tuple[str, ...]:
    """Rows and floor area (when the racks were laid out), then the racks by kind ("4 rows ·
    124 m²", "32 compute · 2 network")."""
    racks = plan.racks
    where = []
    if racks.rows:
        where.append(_plural(racks.rows, "row"))
    if racks.floor is not None and racks.floor.area_m2:
        where.append(f"{racks.floor.area_m2:,.0f}{NBSP}m²")
    kinds: dict[str, int] = {}
    for rack in racks.per_rack:
        kinds[rack.kind] = kinds.get(rack.kind, 0) + rack.count
    made_of = " · ".join(
        f"{count:,}{NBSP}{choice_label(kind).lower()}" for kind, count in kinds.items()
    )
    return tuple(line for line in (" · ".join(where), made_of) if line)


def fabric_line(name: str, fabric: FabricResult, names: dict[str, str]) -> str:
    """One fabric in words: "Compute: Fat tree, 2 tiers: 32 leaf + 16 spine NVIDIA Quantum-2
    QM9700 (8 rails)", the switch after each tier when the tiers use different switches."""
    tiers = fabric.tiers
    switch_names = [short_name(names.get(tier.switch, tier.switch)) for tier in tiers]
    one_switch = len(set(switch_names)) == 1
    counts = " + ".join(
        f"{tier.switches:,}{NBSP}{words_of(tier.role).lower()}"
        + ("" if one_switch else f" {switch}")
        for tier, switch in zip(tiers, switch_names, strict=True)
    )
    if one_switch and tiers:
        counts += f" {switch_names[0]}"
    extras = []
    if fabric.planes > 1:
        extras.append(_plural(fabric.planes, "plane"))
    if fabric.pods > 1:
        extras.append(_plural(fabric.pods, "pod"))
    if fabric.leaf_placement == "rail_optimized" and fabric.rails > 1:
        extras.append(_plural(fabric.rails, "rail"))
    extras += [_ratio_words(tier) for tier in tiers if tier.oversubscription is not None]
    shape = choice_label(fabric.topology)
    tier_words = _plural(fabric.tier_count or len(tiers), "tier")
    tail = f" ({', '.join(extras)})" if extras else ""
    return f"{fabric_title(name)}: {shape}, {tier_words}: {counts}{tail}"


def _ratio_words(tier: TierResult) -> str:
    """"leaf 2.05:1 (2:1 asked)": the ratio a tier delivers, and the asked one where they differ.
    For a tier below the top (one with a delivered ratio)."""
    delivered, asked = tier.oversubscription, tier.oversubscription_asked
    words = f"{words_of(tier.role).lower()} {delivered:.3g}:1"
    if asked and abs(delivered / asked - 1) > 0.005:
        words += f" ({asked:.3g}:1 asked)"
    return words


def _tile_lines(
    key: str, plan: Plan, figures: dict[str, KeyFigure], names: dict[str, str]
) -> tuple[str, ...]:
    if key == "gpus":
        return pool_lines(plan, names) if len(plan.pools or ()) > 1 else (system_line(plan, names),)
    if key == "racks":
        return racks_lines(plan)
    if key == "switches":
        lines = [
            fabric_line(name, fabric, names) for name, fabric in (plan.fabrics or {}).items()
        ]
        parts = [
            f"{figures[item].text} {figures[item].label.lower()}"
            for item in ("links", "optics")
            if item in figures
        ]
        return (*lines, " · ".join(parts)) if parts else tuple(lines)
    if key == "it_mw":
        lines = []
        if "facility_mw" in figures:
            lines.append(f"{figures['facility_mw'].text}{NBSP}MW facility")
        if "pue" in figures:
            lines.append(f"PUE{NBSP}{figures['pue'].text}")
        return (" · ".join(lines),) if lines else ()
    if key == "capex_usd" and "capex_per_gpu_usd" in figures:
        return (f"{figures['capex_per_gpu_usd'].text}{NBSP}USD per GPU",)
    cost = plan.cost
    if cost is None:
        return ()
    years = cost.assumptions.years
    if key == "tco_usd" and years:
        return (f"Over {years} years, capex and opex",)
    if key == "usd_per_gpu_hour" and cost.gpu_hours:
        return (
            f"TCO over {format_figure(cost.gpu_hours, 0)}{NBSP}GPU{NB_HYPHEN}hours".replace(
                " M", f"{NBSP}M"
            ),
        )
    if key == "usd_per_million_output_tokens" and years:
        return (f"The inference pools' share of the TCO over the output tokens they serve in {years}"
                " years",)
    return ()


def lead_screen(
    plan: Plan,
    warning_lines: list[WarningLine],
    charts: dict,
    names: dict[str, str],
) -> Lead:
    """The lead of a plan's page from the plan, its grouped warnings and its figures' ids."""
    figures = {figure.key: figure for figure in key_figures(plan)}
    figures.update({figure.key: figure for figure in ratio_figures(list(figures.values()))})
    lead = Lead()
    for key, section in TILE_FIGURES.items():
        if key not in figures:
            continue
        lines = _tile_lines(key, plan, figures, names)
        slug = getattr(lines[0], "slug", "") if lines else ""
        lead.tiles.append(Tile(figures[key], lines, section, slug))
    lead.warnings = warning_lines[:LEAD_WARNINGS]
    lead.more_warnings = max(0, len(warning_lines) - LEAD_WARNINGS)
    for choices, section in LEAD_PICTURES:
        chart_id = next((chart for chart in choices if chart in charts), None)
        if chart_id:
            lead.pictures.append(Picture(chart_id, CHART_TITLES.get(chart_id, ""), section))
    return lead
