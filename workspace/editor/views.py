"""Pages of the scenario editor: the form (new and edit, field by field or as YAML) and its
live preview. The form logic lives in workspace.editor.form, the document's checks in the services."""

import json
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render

from catalog.rows import catalog_snapshot
from core.solver.errors import DOCUMENT_PATH, ScenarioError
from planner.key_figures import KeyFigure, key_figures
from planner.selectors import revision_current, scenario_get
from planner.services import (
    RevisionConflict,
    revision_catalog,
    scenario_create,
    scenario_update,
)
from planner.solver.documents import parse_document
from workspace.dashboard.plan_text import part_names
from workspace.editor.form import ScenarioEditor
from workspace.editor.preview import (
    PREVIEW_CHARTS,
    SLIDERS,
    gpus_per_system,
    preview_charts,
    preview_figures,
    preview_warnings,
    pue_of,
    slider_defaults,
)
from workspace.editor.site import SITE_ACTION, TO_POOLS, site_switched
from workspace.examples import example_document, examples
from workspace.http import require_post
from workspace.views import plan_or_errors, posted_revision

STARTER_SYSTEM = "dgx-h100"
STARTER_SWITCH = "qm9700"
STARTER_GPUS = 1024

PREVIEW_SCENARIO_FIELD = "scenario"
"""The field the preview's script adds to the form's post: the id of the scenario edited, whose
saved revision the figures are compared with."""


@dataclass(frozen=True)
class SavedFigures:
    number: int
    figures: tuple[KeyFigure, ...]


def _unreadable_form(error: ScenarioError) -> HttpResponse:
    """A form post whose hidden fields the page did not write as they are (400)."""
    return HttpResponse(
        f"The form could not be read ({error}); reload the page and edit again.\n",
        status=400, content_type="text/plain; charset=utf-8",
    )


def starter_document(catalog) -> dict:
    """What a new scenario starts from: a thousand GPUs of a common system on its usual fabric."""
    systems = sorted(catalog.systems)
    system = (
        STARTER_SYSTEM if STARTER_SYSTEM in catalog.systems else (systems[0] if systems else "")
    )
    document = {"name": "New scenario", "compute": {"system": system, "gpus": STARTER_GPUS}}
    if STARTER_SWITCH in catalog.switches:
        document["fabrics"] = {"compute": {"switch": STARTER_SWITCH}}
    return document


def _editor_page(
    request,
    editor,
    scenario=None,
    *,
    base_revision=None,
    yaml_text=None,
    yaml_errors=None,
    conflict=None,
    status=200,
    examples=(),
    example_name="",
):
    plan, errors = (
        plan_or_errors(editor.document, editor.catalog) if not editor.has_errors else (None, {})
    )
    base_revision = base_revision if base_revision is not None else getattr(scenario, "revision", 0)
    context = {
        "editor": editor,
        "scenario": scenario,
        "base_revision": base_revision,
        "yaml_text": yaml_text if yaml_text is not None else editor.document_yaml(),
        "yaml_errors": yaml_errors or [],
        "conflict": conflict,
        "refused": status == 400,
        "examples": examples,
        "example_name": example_name,
        **_preview_context(plan, _saved_figures(scenario, base_revision), editor),
    }
    if errors:
        editor.assign_errors(errors)
    return render(request, "planner/scenario_edit.html", context, status=status)


@login_required
def scenario_new(request):
    return _editor(request, None)


@login_required
def scenario_edit(request, pk):
    return _editor(request, scenario_get(owner=request.user, pk=pk))


def _editor(request, scenario):
    catalog = catalog_snapshot()
    if request.method != "POST":
        example = None if scenario else example_document(request.GET.get("example", ""))
        document = scenario.document if scenario else (example or starter_document(catalog))
        return _editor_page(
            request, ScenarioEditor(document, catalog), scenario,
            examples=examples() if scenario is None and example is None else (),
            example_name=example["name"] if example else "",
        )
    yaml_text = None
    if request.POST.get("source") == "yaml":
        yaml_text = request.POST.get("document_yaml", "")
        try:
            document = parse_document(yaml_text, "yaml")
            if not isinstance(document, dict):
                raise ScenarioError.at(DOCUMENT_PATH, "must be a mapping of keys to values")
        except ScenarioError as error:
            editor = ScenarioEditor(
                scenario.document if scenario else starter_document(catalog), catalog
            )
            return _editor_page(
                request,
                editor,
                scenario,
                yaml_text=yaml_text,
                base_revision=posted_revision(request.POST),
                yaml_errors=[str(item) for item in error.errors],
                status=400,
            )
    input_errors: dict[str, list[str]] = {}
    if yaml_text is None:
        try:
            document = ScenarioEditor.document_from_post(request.POST, catalog, input_errors)
        except ScenarioError as error:
            return _unreadable_form(error)
    site_action = request.POST.get(SITE_ACTION, "") if yaml_text is None else ""
    if site_action:
        # One cluster made a site of several pools, or back: the form again, not saved.
        document = site_switched(document, site_action)
        editor = ScenarioEditor(document, catalog, input_errors, focus="pools.0" if site_action == TO_POOLS else "")
        return _editor_page(request, editor, scenario, base_revision=posted_revision(request.POST))
    action = ScenarioEditor.row_action(request.POST) if yaml_text is None else ""
    if action:
        # A row added or removed by a page without script: the form again, not saved.
        editor = ScenarioEditor(document, catalog, input_errors, focus=action)
        return _editor_page(request, editor, scenario, base_revision=posted_revision(request.POST))
    if input_errors:
        _, errors = plan_or_errors(document, catalog)
        return _editor_page(
            request,
            ScenarioEditor(document, catalog, {**errors, **input_errors}),
            scenario,
            base_revision=posted_revision(request.POST),
            status=400,
        )
    try:
        if scenario is None:
            scenario = scenario_create(owner=request.user, document=document)
        else:
            scenario = scenario_update(
                scenario=scenario,
                document=document,
                base_revision=posted_revision(request.POST),
                author=request.user,
            )
    except RevisionConflict as conflict:
        return _editor_page(
            request,
            ScenarioEditor(document, catalog),
            scenario,
            yaml_text=yaml_text,
            base_revision=conflict.current_revision,
            conflict=conflict,
            status=409,
        )
    except ScenarioError as error:
        editor = ScenarioEditor(document, catalog, error.as_dict())
        yaml_errors = [str(item) for item in error.errors] if yaml_text is not None else None
        return _editor_page(
            request,
            editor,
            scenario,
            yaml_text=yaml_text,
            yaml_errors=yaml_errors,
            base_revision=posted_revision(request.POST),
            status=400,
        )
    messages.success(request, f"Saved “{scenario.name}” as revision {scenario.revision}.")
    return redirect("workspace:scenario-detail", pk=scenario.pk)


@login_required
@require_post
def scenario_preview(request):
    """The preview of the posted form: key figures (with their change against the saved
    revision when the post names its scenario), charts, warnings, and every field's errors (out
    of band, so old ones clear)."""
    scenario = None
    if request.POST.get(PREVIEW_SCENARIO_FIELD, ""):
        if not request.POST[PREVIEW_SCENARIO_FIELD].isdigit():
            return HttpResponse(
                f"{PREVIEW_SCENARIO_FIELD}: must be the id of one of your scenarios\n",
                status=400, content_type="text/plain; charset=utf-8",
            )
        scenario = scenario_get(owner=request.user, pk=request.POST[PREVIEW_SCENARIO_FIELD])
    catalog = catalog_snapshot()
    input_errors: dict[str, list[str]] = {}
    try:
        document = ScenarioEditor.document_from_post(request.POST, catalog, input_errors)
    except ScenarioError as error:
        return _unreadable_form(error)
    # Every error the save would give: the fields' that do not read, and the plan's of the rest.
    plan, errors = plan_or_errors(document, catalog)
    if input_errors:
        plan = None
    editor = ScenarioEditor(document, catalog, {**errors, **input_errors})
    saved = _saved_figures(scenario, posted_revision(request.POST)) if plan else None
    context = {**_preview_context(plan, saved, editor), "editor": editor, "oob": True}
    response = render(request, "planner/inc/editor_preview.html", context)
    if plan is None:
        # The figures on the page stay those of the last input that planned; only the status
        # line and the fields' errors (out of band) change.
        response["HX-Reswap"] = "none"
    return response


def _preview_context(plan, saved: SavedFigures | None, editor) -> dict:
    """What the preview panel shows of `plan` (None: the input does not plan)."""
    pue, pue_source = pue_of(plan)
    return {
        "figures": preview_figures(plan, saved.figures if saved else None) if plan else [],
        "saved_revision": saved.number if saved else None,
        "preview_charts": preview_charts(plan) if plan else {},
        "preview_warnings": (
            preview_warnings(plan.warnings, part_names(plan.catalog, plan)) if plan else None
        ),
        "preview_failed": plan is None,
        "plan_pue": pue,
        "pue_source": pue_source,
        "sliders": SLIDERS,
        "preview_chart_slots": [(chart_id, title) for chart_id, title, _ in PREVIEW_CHARTS],
        "gpus_per_system": gpus_per_system(editor.catalog, editor.document),
        "slider_defaults": slider_defaults(editor),
    }


def _saved_figures(scenario, number: int) -> SavedFigures | None:
    """The key figures of the scenario's revision `number` (the one the editor started from;
    the current one when there is no such revision), planned as its dashboard plans it: with
    the catalog version it was saved with. None for a new scenario or a revision that does not
    plan."""
    if scenario is None:
        return None
    revision = (
        scenario.revisions.select_related("catalog_version")
        .defer("catalog_version__snapshot")
        .filter(number=number)
        .first()
    ) or revision_current(scenario=scenario)
    if revision.catalog_version_id is None:
        figures = _revision_figures(revision)
    else:
        figures = _pinned_revision_figures(revision)
    return SavedFigures(revision.number, figures) if figures is not None else None


def _revision_figures(revision) -> tuple[KeyFigure, ...] | None:
    plan, _ = plan_or_errors(revision.document, revision_catalog(revision))
    return tuple(key_figures(plan)) if plan else None


PINNED_FIGURES_KEPT = 256
_pinned_figures: dict[tuple[str, str], tuple[KeyFigure, ...] | None] = {}


def _pinned_revision_figures(revision) -> tuple[KeyFigure, ...] | None:
    """A revision and its catalog version never change: their figures are planned once per
    process, not on every keystroke of the editor."""
    # By content, not by id: an id can be used again once its row is gone.
    key = (json.dumps(revision.document, sort_keys=True), revision.catalog_version.digest)
    if key not in _pinned_figures:
        if len(_pinned_figures) >= PINNED_FIGURES_KEPT:
            _pinned_figures.clear()
        _pinned_figures[key] = _revision_figures(revision)
    return _pinned_figures[key]
