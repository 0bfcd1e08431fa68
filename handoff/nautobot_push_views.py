"""The dashboard's "Push to Nautobot" button, for staff: a POST that queues the push as a
background job (jobs/; a push of thousands of interfaces and cables takes seconds to minutes),
to the Nautobot of settings NAUTOBOT_URL and NAUTOBOT_TOKEN. The job's file is the push's
summary, one line per kind."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from core.solver.errors import ScenarioError
from handoff.nautobot_push import PushError, push_plan
from handoff.solver.nautobot import KINDS
from jobs.services import JobOutput, TooManyJobs, job_enqueue
from jobs.worker import JobContext, JobError
from planner.models import Scenario
from planner.selectors import revision_current, scenario_get
from planner.services import plan_document, revision_catalog

NAUTOBOT_PUSH_JOB = "nautobot_push"


def nautobot_push_available(user) -> bool:
    return bool(getattr(user, "is_staff", False) and settings.NAUTOBOT_URL and settings.NAUTOBOT_TOKEN)


@login_required
@require_POST
def scenario_push_nautobot(request, pk):
    scenario = scenario_get(owner=request.user, pk=pk)
    if not nautobot_push_available(request.user):
        raise PermissionDenied("pushing to Nautobot is for staff, with NAUTOBOT_URL and NAUTOBOT_TOKEN set")
    try:
        job = job_enqueue(owner=request.user, kind=NAUTOBOT_PUSH_JOB, reuse=False,
                          parameters={"scenario": scenario.pk, "revision": scenario.revision},
                          title=f"Push of “{scenario.name}” to Nautobot")
    except TooManyJobs as error:
        messages.error(request, str(error).capitalize() + ".")
        return redirect("workspace:scenario-detail", pk=pk)
    return redirect("jobs:job-detail", pk=job.pk)


def nautobot_push_job(context: JobContext) -> JobOutput:
    """The job kind: plan the scenario's revision, push it, write the summary."""
    parameters = context.parameters
    scenario = Scenario.objects.filter(pk=parameters["scenario"], owner=context.job.owner).first()
    if scenario is None:
        raise JobError("the scenario was deleted")
    revision = revision_current(scenario=scenario)
    if revision.number != parameters["revision"]:
        raise JobError(f"the scenario was saved again (revision {revision.number}): push it again")
    catalog = revision_catalog(revision)
    context.progress(0.0, "planning", force=True)
    try:
        plan = plan_document(revision.document, catalog)
    except ScenarioError as error:
        raise JobError(f"the scenario cannot be planned: {error}") from None
    done = iter(range(1, len(KINDS) + 1))

    def progress(kind: str) -> None:
        context.progress(next(done) / len(KINDS), f"pushing {kind}")
    try:
        summary = push_plan(plan, catalog, settings.NAUTOBOT_URL, settings.NAUTOBOT_TOKEN, progress=progress)
    except PushError as error:
        raise JobError(str(error)) from None
    name = "nautobot-push.txt"
    (context.folder / name).write_text("\n".join(summary.lines()) + "\n", encoding="utf-8")
    context.progress(1.0, f"{summary.total('created')} created, {summary.total('updated')} updated", force=True)
    return JobOutput(name, "text/plain; charset=utf-8")
