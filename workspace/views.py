"""Pages: the home page and the architect's workspace. Views only translate between requests,
services and templates; the editor's form logic lives in forms.py, figures in plots.py."""

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve, reverse
from django.utils.text import slugify

from core.diff import document_changes
from core.solver.errors import DOCUMENT_PATH, InfeasibleError, ScenarioError
from handoff.export_jobs import export_runs_as_job, plan_cable_count, plan_export_job_enqueue
from handoff.exports import EXPORT_FORMATS as API_EXPORT_FORMATS
from handoff.exports import export_available
from handoff.nautobot_push_views import nautobot_push_available
from jobs.services import TooManyJobs
from planner.key_figures import compare_groups, key_figures
from planner.models import System
from planner.selectors import revision_current, scenario_get
from planner.selectors import scenario_list as scenarios_of
from planner.services import (
    RevisionConflict,
    plan_document,
    revision_catalog,
    scenario_create,
    scenario_delete,
    scenario_update,
)
from planner.solver.documents import parse_document
from planner.solver.limits import TooMuchWork
from planner.solver.plan import Plan
from workspace.dashboard import sections as dashboard
from workspace.dashboard.lead import lead_screen
from workspace.dashboard.phases import PHASE_COLUMNS, phase_views
from workspace.dashboard.plan_text import error_lines, error_path_words, join_indexes
from workspace.dashboard.what_if import what_if_document, what_if_sliders
from workspace.editor.form import document_as_yaml
from workspace.editor.rows import nic_overrides_in_words
from workspace.examples import examples
from workspace.forms import (
    MAX_COMPARED,
    ScenarioImportForm,
    ScenarioRenameForm,
)
from workspace.http import require_post
from workspace.plots.phases import phase_timeline_figure
from workspace.replan import catalog_status, revision_replan
from workspace.scenario_listing import LIST_COLUMNS, scenario_list_page

EXPORT_LABELS = {
    "csv": "BOM (CSV)",
    "xlsx": "Workbook (XLSX)",
    "cabling": "Cabling plan (CSV)",
    "cabling.csv": "Cabling plan (CSV)",
    "cabling-parquet": "Cabling plan (Parquet)",
    "slurm-topology": "Slurm topology.conf (tree)",
    "slurm-block": "Slurm topology.conf (blocks)",
    "slurm-yaml": "Slurm topology.yaml",
    "ufm-p2p": "UFM point-to-point (ZIP)",
    "netbox": "NetBox bundle (ZIP)",
}
"""Exports of the API, linked from the dashboard once the API serves them (the JSON plan has
its own download here)."""

RECENT_SCENARIOS = 8
DOCUMENT_FORMATS = {"yaml": "application/yaml", "json": "application/json"}


def home(request):
    """The catalog's GPU systems and the ways into the planner."""
    systems = System.objects.all()
    recent = []
    if request.user.is_authenticated:
        recent = scenarios_of(owner=request.user).order_by("-updated_at", "pk")[:RECENT_SCENARIOS]
    context = {"systems": systems, "recent": recent, "examples": examples()}
    return render(request, "planner/home.html", context)


# ---------------------------------------------------------------------------------------------
# Scenario list, import, export, clone, rename, delete


@login_required
def scenario_list(request, import_form=None, status=200):
    form, page, rows = scenario_list_page(owner=request.user, data=request.GET)
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "form": form,
        "page": page,
        "scenarios": [row.scenario for row in rows],
        "rows": rows,
        "columns": LIST_COLUMNS,
        "query": query.urlencode(),
        "filtered": any(form.filters().values()),
        "import_form": import_form or ScenarioImportForm(),
        "max_compared": MAX_COMPARED,
    }
    return render(request, "planner/scenario_list.html", context, status=status)


@login_required
@require_post
def scenario_import(request):
    form = ScenarioImportForm(request.POST, request.FILES)
    if form.is_valid():
        upload = form.cleaned_data["file"]
        name = upload.name.lower()
        syntax = (
            "json"
            if name.endswith(".json")
            else "yaml"
            if name.endswith((".yaml", ".yml"))
            else "auto"
        )
        try:
            document = parse_document(upload.read(), syntax)
            if not isinstance(document, dict):
                raise ScenarioError.at(DOCUMENT_PATH, "must be a mapping of keys to values")
            scenario = scenario_create(owner=request.user, document=document)
        except ScenarioError as error:
            for path, problems in error.as_dict().items():
                for problem in problems:
                    form.add_error("file", f"{path}: {problem}")
        else:
            messages.success(request, f"Imported “{scenario.name}”.")
            return redirect("workspace:scenario-detail", pk=scenario.pk)
    return scenario_list(request, import_form=form, status=400)


@login_required
def scenario_document(request, pk, export_format):
    scenario = scenario_get(owner=request.user, pk=pk)
    if export_format == "json":
        content = json.dumps(scenario.document, indent=2) + "\n"
    else:
        content = document_as_yaml(scenario.document)
    response = HttpResponse(
        content, content_type=DOCUMENT_FORMATS[export_format] + "; charset=utf-8"
    )
    filename = f"{slugify(scenario.name) or 'scenario'}.{export_format}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_post
def scenario_clone(request, pk):
    scenario = scenario_get(owner=request.user, pk=pk)
    document = dict(scenario.document)
    document["name"] = f"{scenario.name} (copy)"[:200]
    try:
        copy = scenario_create(owner=request.user, document=document)
    except ScenarioError as error:
        messages.error(request, f"“{scenario.name}” cannot be copied: {error}")
        return redirect("workspace:scenario-list")
    messages.success(request, f"Copied “{scenario.name}” to “{copy.name}”: this is the copy, to change as you like.")
    return redirect("workspace:scenario-edit", pk=copy.pk)


@login_required
def scenario_rename(request, pk):
    scenario = scenario_get(owner=request.user, pk=pk)
    form = ScenarioRenameForm(request.POST or None, initial={"name": scenario.name})
    if request.method == "POST" and form.is_valid():
        document = {**scenario.document, "name": form.cleaned_data["name"]}
        try:
            scenario_update(
                scenario=scenario,
                document=document,
                base_revision=posted_revision(request.POST),
                author=request.user,
            )
        except RevisionConflict as conflict:
            form.add_error(None, str(conflict))
        except ScenarioError as error:
            for path, problems in error.as_dict().items():
                form.add_error("name" if path == "name" else None, "; ".join(problems))
        else:
            messages.success(
                request, f"Renamed to “{scenario.name}” (revision {scenario.revision})."
            )
            return redirect("workspace:scenario-list")
    return render(request, "planner/scenario_rename.html", {"scenario": scenario, "form": form})


@login_required
def scenario_delete_view(request, pk):
    scenario = scenario_get(owner=request.user, pk=pk)
    if request.method == "POST":
        name = scenario.name
        scenario_delete(scenario=scenario)
        messages.success(request, f"Deleted “{name}” and its revisions.")
        return redirect("workspace:scenario-list")
    return render(request, "planner/scenario_delete.html", {"scenario": scenario})


# ---------------------------------------------------------------------------------------------
# Helpers shared with the editor (workspace.editor.views)


MAX_REVISION = 2**31 - 1
"""The largest revision number the database stores (a positive 32-bit integer)."""


def posted_revision(data) -> int:
    """The posted `base_revision`, 0 when it is not a revision number."""
    try:
        revision = int(data.get("base_revision", ""))
    except ValueError:
        return 0
    return revision if 0 < revision <= MAX_REVISION else 0


def plan_or_errors(document, catalog=None):
    """The plan, or the errors by path. `catalog`: a snapshot the view already read."""
    try:
        return plan_document(document, catalog), {}
    except ScenarioError as error:
        return None, error.as_dict()


# ---------------------------------------------------------------------------------------------
# Dashboard, exports, history, comparison


def _api_exports(scenario, plan) -> list[tuple[str, str, bool]]:
    """Links to the API's exports of this scenario's plan, for the formats the API has, each
    with whether it runs as a background job (a button that starts it, not a download)."""
    links = []
    for export_format in API_EXPORT_FORMATS:
        if export_format == "json" or not export_available(plan, export_format):
            continue
        url = f"/api/v1/scenarios/{scenario.pk}/export.{export_format}"
        try:
            resolve(url)
        except Resolver404:
            continue
        label = EXPORT_LABELS.get(export_format, export_format.upper())
        if export_runs_as_job(plan, export_format):
            url = reverse("workspace:scenario-export-job", args=[scenario.pk, export_format])
            label = f"{label}, {plan_cable_count(plan):,} cables: background job"
            links.append((url, label, True))
        else:
            links.append((url, label, False))
    return links


@login_required
@require_post
def scenario_export_job(request, pk, export_format):
    """Start (or find) the background job exporting this scenario's plan; show its progress."""
    scenario = scenario_get(owner=request.user, pk=pk)
    if export_format not in API_EXPORT_FORMATS:
        raise Http404("no such export format")
    try:
        job = plan_export_job_enqueue(owner=request.user, export_format=export_format, scenario=scenario)
    except TooManyJobs as error:
        messages.error(request, str(error).capitalize() + ".")
        return redirect("workspace:scenario-detail", pk=pk)
    return redirect("jobs:job-detail", pk=job.pk)


@login_required
def scenario_detail(request, pk):
    """The plan of the current revision, against the catalog it was saved with."""
    scenario = scenario_get(owner=request.user, pk=pk)
    revision = revision_current(scenario=scenario)
    document = revision.document
    context = {
        "scenario": scenario,
        "revision": revision,
        "errors": {},
        "plan": None,
        "infeasible": False,
    }
    catalog = revision_catalog(revision)
    try:
        plan = plan_document(document, catalog)
    except ScenarioError as error:
        plan = None
        context.update(
            errors=error.as_dict(),
            error_lines=error_lines(error.as_dict(), dashboard.part_names(catalog)),
            infeasible=isinstance(error, InfeasibleError),
            too_much_work=isinstance(error, TooMuchWork),
        )
    if plan is not None:
        context.update(
            plan=plan,
            figures=key_figures(plan),
            exports=_api_exports(scenario, plan),
            nautobot_push=nautobot_push_available(request.user),
        )
        charts = _charts(plan)
        if plan.phases:
            context.update(phases=phase_views(plan), phase_columns=PHASE_COLUMNS)
        sections = dashboard.plan_sections(plan)
        dashboard.attach_charts(sections, charts)
        names = dashboard.part_names(plan.catalog, plan)
        lines = dashboard.warning_lines(plan.warnings, sections, names)
        context.update(
            charts=charts,
            sections=sections,
            warning_lines=lines,
            lead=lead_screen(plan, lines, charts, names),
            nic_overrides=nic_overrides_in_words(document),
            what_if=what_if_sliders(document, plan),
        )
        context["warning_count"] = sum(line.group.count for line in context["warning_lines"])
    context["catalog"] = catalog_status(revision, context["plan"])
    return render(request, "planner/scenario_detail.html", context)


def _charts(plan: Plan) -> dict[str, dict]:
    """The dashboard's figures of a plan, by element id, the build-out timeline among them."""
    charts = dashboard.plan_figures(plan)
    if plan.phases:
        charts["chart-buildout-timeline"] = phase_timeline_figure(plan)
    return charts


WHAT_IF_GROUP = "Totals"
"""The comparison's rows the what-if shows (the others are ratios of these)."""


@login_required
@require_post
def scenario_what_if(request, pk):
    """The saved revision with the dashboard's sliders moved, planned without saving: its key
    figures against the saved plan's, and its charts, which the page draws in place of the
    saved plan's (js/plan.js)."""
    scenario = scenario_get(owner=request.user, pk=pk)
    revision = revision_current(scenario=scenario)
    catalog = revision_catalog(revision)
    context = {"scenario": scenario, "moved": [], "rows": [], "what_if_charts": {}, "problems": []}
    try:
        saved = plan_document(revision.document, catalog)
    except ScenarioError:
        return render(request, "planner/inc/what_if_result.html", context)
    sliders = what_if_sliders(revision.document, saved)
    document, moved = what_if_document(revision.document, request.POST, sliders)
    context["moved"] = moved
    if not moved:
        return render(request, "planner/inc/what_if_result.html", context)
    try:
        plan = plan_document(document, catalog)
    except ScenarioError as error:
        context["problems"] = error_lines(error.as_dict(), dashboard.part_names(catalog))
        return render(request, "planner/inc/what_if_result.html", context)
    groups = dict(compare_groups([saved, plan], 0))
    context.update(rows=groups.get(WHAT_IF_GROUP, []), what_if_charts=_charts(plan))
    return render(request, "planner/inc/what_if_result.html", context)


@login_required
def scenario_replan(request, pk):
    """The current revision planned again with today's catalog: what changed in the catalog and
    how the key figures move (GET); saved as a new revision pinned to today's catalog (POST)."""
    scenario = scenario_get(owner=request.user, pk=pk)
    revision = revision_current(scenario=scenario)
    replan = revision_replan(revision)
    status = 200
    if request.method == "POST" and replan.can_save:
        try:
            scenario = scenario_update(
                scenario=scenario,
                document=revision.document,
                base_revision=posted_revision(request.POST),
                author=request.user,
            )
        except RevisionConflict as conflict:
            messages.error(request, str(conflict))
            status = 409
        except ScenarioError as error:
            messages.error(request, f"Not saved: {error}")
            status = 400
        else:
            messages.success(
                request,
                f"Saved as revision {scenario.revision}, planned with catalog version "
                f"{revision_current(scenario=scenario).catalog_version.number}.",
            )
            return redirect("workspace:scenario-detail", pk=scenario.pk)
    elif request.method == "POST":
        status = 400
        messages.error(request, "Nothing to save: " + (
            "today's catalog cannot plan this scenario." if replan.today_errors
            else "this revision is already planned with today's catalog."
        ))
    context = {"scenario": scenario, "revision": revision, "replan": replan}
    return render(request, "planner/scenario_replan.html", context, status=status)


def _saved_plan(scenario):
    """The plan of the current revision against its own catalog, or the errors by path."""
    revision = revision_current(scenario=scenario)
    return plan_or_errors(revision.document, revision_catalog(revision))


@login_required
def scenario_plan_json(request, pk):
    scenario = scenario_get(owner=request.user, pk=pk)
    plan, errors = _saved_plan(scenario)
    if plan is None:
        return JsonResponse({"errors": errors}, status=422)
    response = JsonResponse(plan.to_dict(), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = (
        f'attachment; filename="{slugify(scenario.name) or "plan"}-plan.json"'
    )
    return response


@login_required
def scenario_history(request, pk):
    scenario = scenario_get(owner=request.user, pk=pk)
    revisions = list(
        scenario.revisions.select_related("author", "catalog_version").defer(
            "catalog_version__snapshot"
        )
    )
    by_number = {revision.number: revision for revision in revisions}
    current = scenario.revision

    def chosen(key, default):
        try:
            number = int(request.GET.get(key, default))
        except (TypeError, ValueError):
            number = default
        return by_number.get(number) or by_number.get(default)

    new = chosen("b", current)
    old = chosen("a", max(1, new.number - 1))
    changes = document_changes(old.document, new.document)
    context = {
        "scenario": scenario,
        "revisions": revisions,
        "old": old,
        "new": new,
        "changes": changes,
        "change_rows": [(error_path_words(join_indexes(change.path)), change) for change in changes],
    }
    return render(request, "planner/scenario_history.html", context)


@login_required
@require_post
def scenario_restore(request, pk, number):
    scenario = scenario_get(owner=request.user, pk=pk)
    revision = scenario.revisions.filter(number=number).first()
    if revision is None:
        raise Http404("no such revision")
    try:
        scenario = scenario_update(
            scenario=scenario,
            document=revision.document,
            base_revision=posted_revision(request.POST),
            author=request.user,
        )
    except (RevisionConflict, ScenarioError) as error:
        messages.error(request, f"Revision {number} was not restored: {error}")
    else:
        messages.success(request, f"Restored revision {number} as revision {scenario.revision}.")
    return redirect("workspace:scenario-history", pk=pk)
