"""The sweep page of a saved scenario: choose the axes, constraints and objectives (GET, and POST
to start the sweep as a background job, or the form again with each error by its input), follow
the job (htmx polls its progress; the page reloads once it is done), see the result, and save
any design as a new scenario."""

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render

from catalog.rows import catalog_snapshot
from core.solver.errors import ScenarioError
from jobs.models import Job
from jobs.selectors import job_get
from jobs.services import TooManyJobs
from planner.selectors import scenario_get
from planner.services import scenario_create
from sweeps.forms import GENERAL, GOAL_LABELS, MAX_PAGE_DESIGNS, PLAN_KEYS, SweepForm, sweep_fields
from sweeps.jobs import SWEEP_JOB, sweep_design_document, sweep_job_enqueue, sweep_result
from sweeps.page import SweepResultView
from workspace.http import require_post

POLL_EVERY_S = 1


def _form_context(scenario, form: SweepForm) -> dict:
    fields = form.fields
    groups: dict[str, list] = {}
    for sweep_field in fields.values():
        groups.setdefault(sweep_field.section, []).append(sweep_field)
    return {
        "scenario": scenario,
        "form": form,
        "field_groups": groups,
        "choices": {key: sweep_field.choices for key, sweep_field in fields.items() if sweep_field.choices},
        "units": {key: sweep_field.unit for key, sweep_field in fields.items()},
        "plan_keys": PLAN_KEYS,
        "goals": GOAL_LABELS,
        "max_designs_text": f"{MAX_PAGE_DESIGNS:,}",
    }


@login_required
def sweep_page(request, pk):
    scenario = scenario_get(owner=request.user, pk=pk)
    base = scenario.document
    fields = sweep_fields(base, catalog_snapshot())
    name = scenario.name
    if request.method != "POST":
        return render(request, "sweeps/sweep_form.html", _form_context(scenario, SweepForm(fields, base, name)))
    form = SweepForm(fields, base, name, request.POST)
    status = 400
    if not form.has_errors:
        try:
            job = sweep_job_enqueue(owner=request.user, document=form.document, max_designs=MAX_PAGE_DESIGNS)
        except ScenarioError as error:
            form.add_sweep_errors(error)
        except TooManyJobs as error:
            form.errors.setdefault(GENERAL, []).append(str(error).capitalize() + ".")
            status = 429
        else:
            return redirect("sweeps:sweep-result", pk=scenario.pk, job=job.pk)
    return render(request, "sweeps/sweep_form.html", _form_context(scenario, form), status=status)


def _sweep_job(request, job_pk) -> Job:
    job = job_get(owner=request.user, pk=job_pk)
    if job.kind != SWEEP_JOB:
        raise Http404("no such sweep")
    return job


@login_required
def sweep_result_page(request, pk, job):
    scenario = scenario_get(owner=request.user, pk=pk)
    job = _sweep_job(request, job)
    context = {"scenario": scenario, "job": job, "poll_every_s": POLL_EVERY_S, "view": None}
    result = sweep_result(job) if job.status == Job.Status.DONE else None
    if result is not None:
        document = json.loads(job.parameters["sweep"])
        view = SweepResultView(result, sweep_fields(document["base"], catalog_snapshot()))
        context.update(view=view, chart=view.scatter(), front_rows=view.front_rows, feasible_rows=view.feasible_rows)
    return render(request, "sweeps/sweep_result.html", context)


@login_required
def sweep_progress(request, pk, job):
    """The progress panel alone; once the job has finished the page reloads to show the result."""
    scenario = scenario_get(owner=request.user, pk=pk)
    job = _sweep_job(request, job)
    response = render(request, "sweeps/inc/sweep_progress.html",
                      {"scenario": scenario, "job": job, "poll_every_s": POLL_EVERY_S})
    if job.is_finished:
        response["HX-Refresh"] = "true"
    return response


@login_required
@require_post
def sweep_save_design(request, pk, job):
    """A new scenario from the sweep's base and one design's axis values; its plan opens."""
    scenario = scenario_get(owner=request.user, pk=pk)
    job = _sweep_job(request, job)
    try:
        number = int(request.POST.get("design", ""))
        document = sweep_design_document(job, number)
    except (ValueError, ScenarioError):
        return HttpResponse("design: give the number of one of the sweep's designs.\n",
                            status=400, content_type="text/plain")
    document["name"] = f"{scenario.name} · sweep design {number}"[:200]
    try:
        saved = scenario_create(owner=request.user, document=document)
    except ScenarioError as error:
        messages.error(request, f"Design {number} cannot be saved: {error}")
        return redirect("sweeps:sweep-result", pk=scenario.pk, job=job.pk)
    messages.success(request, f"Saved design {number} of the sweep as “{saved.name}”.")
    return redirect("workspace:scenario-detail", pk=saved.pk)

