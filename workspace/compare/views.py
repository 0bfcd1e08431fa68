"""The comparison pages: scenarios side by side, and the phases of one scenario side by side."""

from dataclasses import dataclass
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse

from core.solver.errors import ScenarioError
from planner.key_figures import compare_groups, compared_figures, phase_as_plan
from planner.selectors import revision_current, scenario_get
from planner.selectors import scenario_list as scenarios_of
from planner.services import revision_catalog
from planner.solver.phases import phase_document
from planner.solver.plan import Plan
from planner.solver.scenario import read_scenario
from workspace.compare.performance import performance_group
from workspace.compare.plan_diff import bom_changes, fabric_changes
from workspace.dashboard.plan_text import error_path_words
from workspace.forms import MAX_COMPARED, MIN_COMPARED, parse_compared_ids
from workspace.plots import figures as plots
from workspace.views import _saved_plan, plan_or_errors

MAX_BOM_CHANGES_SHOWN = 80
"""BOM changes listed per scenario (cables of every length can make hundreds); the rest are
counted."""


@dataclass(frozen=True)
class ComparedDiff:
    """What one scenario changes in the reference's BOM and fabrics."""

    scenario: object
    bom: list
    bom_hidden: int
    fabrics: list


def _compare_url(ids: list[int], reference: int | None = None) -> str:
    query = [("ids", pk) for pk in ids] + ([("ref", reference)] if reference else [])
    return reverse("workspace:scenario-compare") + "?" + urlencode(query)


def _reference_index(value, ids: list[int]) -> int:
    """The position among `ids` of the scenario the query names as reference (the first one
    when it names none of them)."""
    try:
        return ids.index(int(value))
    except (TypeError, ValueError):
        return 0


@login_required
def scenario_compare(request):
    """Scenarios side by side in the order given; differences are to the reference (`ref`, by
    default the first)."""
    ids = parse_compared_ids(request.GET.getlist("ids"))
    too_many = len(ids) > MAX_COMPARED
    chosen = [scenario_get(owner=request.user, pk=pk) for pk in ids[:MAX_COMPARED]]
    chosen_ids = [scenario.pk for scenario in chosen]
    reference = _reference_index(request.GET.get("ref"), chosen_ids)
    context = {
        "chosen": chosen,
        "choices": scenarios_of(owner=request.user).order_by("name", "pk"),
        "chosen_ids": chosen_ids,
        "too_many": too_many,
        "min_compared": MIN_COMPARED,
        "max_compared": MAX_COMPARED,
        "reference": reference,
        "reference_scenario": chosen[reference] if chosen else None,
    }
    if len(chosen) >= MIN_COMPARED:
        planned = [_saved_plan(scenario) for scenario in chosen]
        context.update(_compared(
            chosen, [plan for plan, _ in planned], [errors for _, errors in planned],
            reference, [_compare_url(chosen_ids, scenario.pk) for scenario in chosen],
            _reference_index(request.GET.get("focus"), chosen_ids) if request.GET.get("focus") else None,
        ))
        others = [scenario for index, scenario in enumerate(chosen) if index != reference]
        focused = next((scenario for scenario in others if str(scenario.pk) == request.GET.get("focus")), others[0])
        context["against"] = [
            (scenario, _compare_url(chosen_ids, chosen_ids[reference]) + f"&focus={scenario.pk}", scenario == focused)
            for scenario in others
        ]
        context["share_url"] = request.build_absolute_uri(
            _compare_url(chosen_ids, chosen_ids[reference] if reference else None)
        )
    return render(request, "planner/scenario_compare.html", context)


def _compared(
    columns: list, plans: list[Plan | None], failures: list, reference: int, reference_urls: list[str],
    focus: int | None = None,
) -> dict:
    """The comparison of plans side by side: figures by group, charts, and what each changes in
    the reference's BOM and fabrics. `columns`: what each plan is of (a `name` and a `pk`)."""
    by_key = [compared_figures(plan) for plan in plans]
    charts = plots.compare_figures([column.name for column in columns], by_key, reference)
    diffs = []
    for index, (column, plan) in enumerate(zip(columns, plans)):
        if index == reference or plan is None or plans[reference] is None:
            continue
        bom = bom_changes(plans[reference], plan)
        diffs.append(ComparedDiff(
            column, bom[:MAX_BOM_CHANGES_SHOWN], max(0, len(bom) - MAX_BOM_CHANGES_SHOWN),
            fabric_changes(plans[reference], plan),
        ))
    groups = compare_groups(plans, reference)
    performance = performance_group(plans, reference)
    if performance:
        groups.append(performance)
    # Scenarios: the reference first, then the one a phone shows against it (`focus`), then
    # the others.
    order = [reference, *(index for index in range(len(plans)) if index != reference)]
    if focus in order[2:]:
        order.remove(focus)
        order.insert(1, focus)
    return {
        "groups": [(title, [(label, unit, [cells[index] for index in order]) for label, unit, cells in rows])
                   for title, rows in groups],
        "columns": [(columns[index], index == reference, reference_urls[index]) for index in order],
        "failures": [{error_path_words(path): texts for path, texts in (failures[index] or {}).items()}
                     for index in order],
        "diffs": diffs,
        "charts": charts,
        "chart_map": {f"chart-compare-{index}": chart for index, chart in enumerate(charts, start=1)},
    }


@dataclass
class PhaseColumn:
    """A phase of one scenario as a column of the comparison (links go to its scenario)."""

    pk: int
    name: str
    start: str


def _phase_index(value, phases: int) -> int | None:
    """The phase a query names by its index, None when it names none of them."""
    try:
        index = int(value)
    except (TypeError, ValueError):
        return None
    return index if 0 <= index < phases else None


@login_required
def scenario_compare_phases(request, pk):
    """The phases of one scenario side by side, each as the design of its own size (the
    scenario at the end of the phase); differences are to the reference phase (`ref`, an index)."""
    scenario = scenario_get(owner=request.user, pk=pk)
    revision = revision_current(scenario=scenario)
    catalog = revision_catalog(revision)
    context = {
        "chosen": [], "choices": scenarios_of(owner=request.user).order_by("name", "pk"), "chosen_ids": [],
        "too_many": False, "min_compared": MIN_COMPARED, "max_compared": MAX_COMPARED, "phases_of": scenario,
    }
    try:
        spec = read_scenario(revision.document)
    except ScenarioError:
        spec = None
    phases = spec.phases[:MAX_COMPARED] if spec else ()
    url = reverse("workspace:scenario-compare-phases", args=[scenario.pk])
    if len(phases) < MIN_COMPARED:
        messages.info(request, f"{scenario.name} is not built in phases: choose scenarios to compare.")
        return redirect(reverse("workspace:scenario-compare") + f"?ids={scenario.pk}")
    tier_names = tuple(tier.name for tier in spec.storage.tiers)
    columns = [PhaseColumn(scenario.pk, phase.name, str(phase.start)) for phase in phases]
    site, _ = plan_or_errors(revision.document, catalog)
    planned = [plan_or_errors(phase_document(revision.document, phase, tier_names), catalog) for phase in phases]
    reference = _phase_index(request.GET.get("ref"), len(phases)) or 0
    focus = _phase_index(request.GET.get("focus"), len(phases))
    context.update(_compared(
        columns,
        [phase_as_plan(plan, site, index) if plan and site else plan for index, (plan, _) in enumerate(planned)],
        [errors for _, errors in planned],
        reference, [f"{url}?ref={index}" for index in range(len(phases))], focus,
    ))
    others = [index for index in range(len(phases)) if index != reference]
    context["against"] = [
        (columns[index], f"{url}?ref={reference}&focus={index}", index == (focus if focus in others else others[0]))
        for index in others
    ]
    context.update(reference=reference, reference_scenario=columns[reference],
                   share_url=request.build_absolute_uri(f"{url}?ref={reference}"))
    return render(request, "planner/scenario_compare.html", context)
