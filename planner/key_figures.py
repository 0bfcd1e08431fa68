"""The headline figures of a plan, as the dashboard, the editor and the comparison show them.

They are read from the typed plan (`planner.solver.plan.Plan`) by attribute: a figure whose
section the pipeline did not compute (None) is left out, so the page grows as the pipeline does.
"""

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from fabric.solver.results import FabricResult
from planner.solver.plan import PLAN_DECIMALS, Plan

KW_PER_MW = 1000


@dataclass(frozen=True)
class KeyFigure:
    key: str
    label: str
    value: float
    unit: str
    decimals: int
    lower_is_better: bool | None = None
    """For a comparison: whether less of it is the better design. None for the figures that
    grow with the cluster (racks, power, capex): more of them is neither better nor worse."""

    @property
    def text(self) -> str:
        return format_figure(self.value, self.decimals)


def format_figure(value: float, decimals: int) -> str:
    if abs(value) >= 1e9 and decimals == 0:
        return f"{value / 1e9:,.2f} bn"
    if abs(value) >= 1e6 and decimals == 0:
        return f"{value / 1e6:,.1f} M"
    return f"{value:,.{decimals}f}"


def _fabric_total(read: Callable[[FabricResult], float]) -> Callable[[Plan], float | None]:
    """A figure summed over the plan's fabrics; None when it has none."""
    return lambda plan: sum(map(read, plan.fabrics.values())) if plan.fabrics else None


FIGURES: list[tuple[str, str, str, int, bool | None, Callable[[Plan], float | None]]] = [
    ("gpus", "GPUs", "", 0, None, lambda plan: plan.compute.gpus),
    ("nodes", "Nodes", "", 0, None, lambda plan: plan.compute.total_nodes),
    ("racks", "Racks", "", 0, None, lambda plan: plan.racks.total),
    ("switches", "Switches", "", 0, None,
     _fabric_total(lambda fabric: sum(tier.switches for tier in fabric.tiers))),
    ("links", "Links", "", 0, None, _fabric_total(lambda fabric: sum(link.count for link in fabric.links))),
    ("optics", "Optics", "", 0, None, _fabric_total(lambda fabric: fabric.transceivers)),
    ("it_mw", "IT power", "MW", 2, None, lambda plan: plan.power.it_kw / KW_PER_MW if plan.power else None),
    ("facility_mw", "Facility power", "MW", 2, None,
     lambda plan: plan.power.facility_kw / KW_PER_MW if plan.power else None),
    ("pue", "PUE", "", 2, True, lambda plan: plan.power.pue if plan.power else None),
    ("capex_usd", "Capex", "USD", 0, None, lambda plan: plan.cost.capex_usd if plan.cost else None),
    ("tco_usd", "TCO", "USD", 0, None, lambda plan: plan.cost.tco_usd if plan.cost else None),
    ("usd_per_gpu_hour", "Per GPU-hour", "USD", 2, True,
     lambda plan: plan.cost.usd_per_gpu_hour if plan.cost else None),
    ("usd_per_million_output_tokens", "Per million output tokens", "USD", 2, True,
     lambda plan: plan.cost.usd_per_million_output_tokens if plan.cost else None),
]


def key_figures(plan: Plan) -> list[KeyFigure]:
    """The headline figures the plan has, in a fixed order."""
    figures = []
    for key, label, unit, decimals, lower_is_better, read in FIGURES:
        value = read(plan)
        if value is not None:
            figures.append(KeyFigure(key, label, value, unit, decimals, lower_is_better))
    return figures


RATIOS: list[tuple[str, str, str, int, bool | None, str, str, float]] = [
    # (key, label, unit, decimals, lower_is_better, numerator, denominator, scale): figures that
    # put a 128-GPU pilot and a 10,000-GPU cluster on the same footing.
    ("capex_per_gpu_usd", "Capex per GPU", "USD", 0, True, "capex_usd", "gpus", 1),
    ("tco_per_gpu_usd", "TCO per GPU", "USD", 0, True, "tco_usd", "gpus", 1),
    ("it_kw_per_gpu", "IT power per GPU", "kW", 2, None, "it_mw", "gpus", KW_PER_MW),
    ("racks_per_1000_gpus", "Racks per 1,000 GPUs", "", 1, True, "racks", "gpus", 1000),
    ("switches_per_1000_gpus", "Switches per 1,000 GPUs", "", 1, True, "switches", "gpus", 1000),
    ("optics_per_gpu", "Optics per GPU", "", 2, True, "optics", "gpus", 1),
    ("gpus_per_facility_mw", "GPUs per facility MW", "", 0, False, "gpus", "facility_mw", 1),
    ("capex_per_it_mw_usd", "Capex per IT MW", "USD", 0, True, "capex_usd", "it_mw", 1),
    ("tco_per_it_mw_usd", "TCO per IT MW", "USD", 0, True, "tco_usd", "it_mw", 1),
]
PER_GPU_RATIOS = [key for key, *_, denominator, _ in RATIOS if denominator == "gpus"]


def ratio_figures(figures: list[KeyFigure]) -> list[KeyFigure]:
    """The RATIOS of a plan's key figures (those whose numerator and denominator it has, the
    denominator not zero)."""
    values = {figure.key: figure.value for figure in figures}
    ratios = []
    for key, label, unit, decimals, lower_is_better, numerator, denominator, scale in RATIOS:
        if values.get(numerator) is None or not values.get(denominator):
            continue
        value = values[numerator] / values[denominator] * scale
        ratios.append(KeyFigure(key, label, value, unit, decimals, lower_is_better))
    return ratios


def compared_figures(plan: Plan | None) -> dict[str, KeyFigure]:
    """A plan's key figures and their ratios by key ({} for no plan)."""
    if plan is None:
        return {}
    figures = key_figures(plan)
    return {figure.key: figure for figure in [*figures, *ratio_figures(figures)]}


@dataclass(frozen=True)
class ComparedCell:
    text: str
    change: str = ""
    """The difference to the reference scenario, e.g. "+12.5 %"; empty for the reference or no
    change."""
    direction: str = ""
    """"better", "worse" or "changed" (for figures that are neither)."""


def _same(value: float, reference: float) -> bool:
    """Whether two figures agree to the plan's precision (PLAN_DECIMALS, as its JSON gives them):
    two PUEs of 1.3 worked out along two paths differ in the last bits, and that is no change."""
    return round(value, PLAN_DECIMALS) == round(reference, PLAN_DECIMALS)


def _compared_cell(figure: KeyFigure | None, reference: KeyFigure | None, is_reference: bool) -> ComparedCell:
    if figure is None:
        return ComparedCell("—")
    if is_reference or reference is None or _same(figure.value, reference.value):
        return ComparedCell(figure.text)
    delta = figure.value - reference.value
    change = f"{delta / reference.value:+,.1%}" if reference.value else f"{delta:+,g}"
    if figure.lower_is_better is None:
        direction = "changed"
    else:
        direction = "better" if (delta < 0) == figure.lower_is_better else "worse"
    return ComparedCell(figure.text, change.replace("%", " %"), direction)


COMPARE_GROUPS = [
    ("Totals", [key for key, *_ in FIGURES]),
    ("Per GPU", PER_GPU_RATIOS),
    ("Per MW", [key for key, *_ in RATIOS if key not in PER_GPU_RATIOS]),
]
"""The comparison's rows, in groups: the figures that grow with the cluster, then per GPU and
per MW, which do not."""


def compare_groups(
    plans: list[Plan | None], reference: int = 0
) -> list[tuple[str, list[tuple[str, str, list[ComparedCell]]]]]:
    """(group title, rows) of the comparison, each row (label, unit, one cell per plan), with
    the change of each plan's figure to that of plan number `reference`. A figure no plan has is
    left out, and so is a group without figures."""
    figures = [compared_figures(plan) for plan in plans]
    groups = []
    for title, keys in COMPARE_GROUPS:
        rows = []
        for key in keys:
            if not any(key in by_key for by_key in figures):
                continue
            any_figure = next(by_key[key] for by_key in figures if key in by_key)
            reference_figure = figures[reference].get(key) if figures else None
            cells = [
                _compared_cell(by_key.get(key), reference_figure, index == reference)
                for index, by_key in enumerate(figures)
            ]
            rows.append((any_figure.label, any_figure.unit, cells))
        if rows:
            groups.append((title, rows))
    return groups


def compare_figures(
    plans: list[Plan | None], reference: int = 0
) -> list[tuple[str, str, list[ComparedCell]]]:
    """Every row of `compare_groups`, one list."""
    return [row for _, rows in compare_groups(plans, reference) for row in rows]


PHASE_FIGURES: dict[str, tuple[str, str]] = {
    "gpus": ("compute", "gpus"),
    "nodes": ("compute", "total_nodes"),
    "racks": ("racks", "total"),
    "it_kw": ("power", "it_kw"),
    "facility_kw": ("power", "facility_kw"),
    "cumulative_capex_usd": ("cost", "capex_usd"),
}
"""A phase's figures (planner.solver.phase_results.PhaseResult fields) and the plan figure each
stands for, as (Plan section, field of that section), when a phase is shown as a plan of its
own: the site as built by the end of the phase (its capex: everything paid up to and with the
phase)."""


def phase_figures(plan: Plan, index: int) -> dict[str, float]:
    """Phase `index`'s figures as the site's plan gives them: GPUs, nodes, racks, IT and
    facility kW, what it buys (`capex_usd`) and what the site has cost by its end
    (`cumulative_capex_usd`). The dashboard's timeline, the phase comparison and the API's
    `phases[]` all read a phase here, so they cannot disagree (a phase planned on its own would
    count the racks and capex of a design built at once, not of the site filled in)."""
    phase = (plan.phases or ())[index]
    return {key: getattr(phase, key) for key in [*PHASE_FIGURES, "capex_usd"]}


def phase_as_plan(own: Plan, site: Plan, index: int) -> Plan:
    """The plan of phase `index` on its own (`own`, for its fabrics, BOM and ratios) with the
    figures the site's plan gives the phase (`phase_figures`) in the sections they stand for
    (PHASE_FIGURES). A section `own` does not have (None) stays out: the pipeline plans power
    and cost for every plan."""
    figures = phase_figures(site, index)
    changes: dict[str, dict[str, float]] = {}
    for key, (section, name) in PHASE_FIGURES.items():
        changes.setdefault(section, {})[name] = figures[key]
    sections = {
        section: dataclasses.replace(getattr(own, section), **values)
        for section, values in changes.items()
        if getattr(own, section) is not None
    }
    return dataclasses.replace(own, **sections)


STORED_FIGURES = ["gpus", "racks", "it_mw", "facility_mw", "capex_usd", "usd_per_gpu_hour"]
"""The figures kept with each saved revision, for the scenario list (which never plans)."""


def revision_figures(plan: Plan | None, errors: int = 0) -> dict:
    """What a revision keeps of its plan for the list: the system, the STORED_FIGURES the plan
    has and its number of warnings; `{"planned": False, "errors": n}` for a revision that could
    not be planned. Plain JSON, so that it can be stored as it is."""
    if plan is None:
        return {"planned": False, "errors": errors}
    figures = {figure.key: figure.value for figure in key_figures(plan)}
    stored = {key: figures[key] for key in STORED_FIGURES if key in figures}
    stored.update(planned=True, system=plan.compute.system or "", warnings=len(plan.warnings))
    return stored
