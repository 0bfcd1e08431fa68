"""Sweeps run as background jobs (jobs/): `POST /api/v1/sweeps/` checks the sweep and queues it,
the worker (`manage.py runworker`) plans its designs with progress, and keeps the summary (the
counts, the refusals, the front and the best designs, and the first MAX_FEASIBLE_KEPT feasible
designs for the sweep page) as the job's result file, JSON.

The worker plans in its own process, or on the Dask cluster named by DASK_SCHEDULER_ADDRESS;
settings.SWEEP_JOB_WORKERS processes of this machine otherwise.
"""

import json

from django.conf import settings

from jobs.models import Job
from jobs.services import JobOutput, job_enqueue, job_result_file
from jobs.worker import JobContext, JobError
from planner.catalog import catalog_snapshot
from planner.solver.documents import check_document_shape
from planner.solver.errors import ScenarioError
from planner.solver.pipeline import CABLES_ENGINE
from sweeps.report import design_dict, summary_dict
from sweeps.runner import run_sweep, scheduler_address
from sweeps.solver.spec import SweepSpec, check_sweep_size, read_sweep
from sweeps.solver.summary import SweepSummary

SWEEP_JOB = "sweep"
RESULT_NAME = "sweep.json"
MAX_FEASIBLE_KEPT = 1_000
"""Feasible designs a job keeps with their figures (the lowest numbers), for the sweep page's
table and scatter; the front and the best are kept whatever their number."""


def sweep_check(document) -> SweepSpec:
    """The posted sweep document read and checked against the catalog, or ScenarioError. The
    API reads no files: the base scenario is given inline."""
    check_document_shape(document)
    if isinstance(document, dict) and "base_file" in document:
        raise ScenarioError.at("base_file", "give the scenario inline as base: the API reads no files")
    spec = read_sweep(document, catalog_snapshot())
    # A job keeps only the front and the best: no file of every design is needed.
    check_sweep_size(spec, scheduler=bool(scheduler_address(None)), output=True)
    return spec


def sweep_job_enqueue(*, owner, document: dict, max_designs: int | None = None) -> Job:
    """The job sweeping `document` (the owner's job of the same sweep when one is queued,
    running or done). `max_designs`: a smaller limit than a job's (the sweep page's)."""
    spec = sweep_check(document)
    if max_designs is not None and spec.design_count > max_designs:
        raise ScenarioError.at(
            "axes", f"give {spec.design_count:,} designs; the page sweeps at most {max_designs:,} "
            "(fewer values, or manage.py sweep for more)",
        )
    title = f"Sweep “{spec.name}”: {spec.design_count:,} designs"
    # As text: PostgreSQL's jsonb orders a mapping's keys its own way, and the order of the axes
    # numbers the designs.
    return job_enqueue(owner=owner, kind=SWEEP_JOB, parameters={"sweep": json.dumps(document)}, title=title)


def sweep_job(context: JobContext) -> JobOutput:
    """The job kind: plan every design, reporting the share done, then write the summary."""
    context.progress(0.0, "checking the sweep", force=True)
    catalog = catalog_snapshot()
    try:
        spec = read_sweep(json.loads(context.parameters["sweep"]), catalog)
    except ScenarioError as error:
        raise JobError(f"the sweep cannot run with the catalog as it is now: {error}") from None
    summary = SweepSummary(spec)
    feasible: list = []
    total = spec.design_count
    scheduler = scheduler_address(None)
    workers = settings.SWEEP_JOB_WORKERS
    for results in run_sweep(spec, catalog, workers=workers, scheduler=scheduler, cables=CABLES_ENGINE):
        summary.add(results)
        feasible = _lowest_feasible(feasible, results)
        context.progress(summary.designs / total, f"{summary.designs:,} of {total:,} designs planned")
    result = summary_dict(summary, CABLES_ENGINE)
    result["feasible_designs"] = [design_dict(summary, design) for design in feasible]
    (context.folder / RESULT_NAME).write_text(json.dumps(result), encoding="utf-8")
    context.progress(1.0, f"{total:,} designs planned, {summary.feasible:,} feasible", force=True)
    return JobOutput(RESULT_NAME, "application/json")


def _lowest_feasible(kept: list, results: list) -> list:
    """The MAX_FEASIBLE_KEPT feasible designs of the lowest numbers among those kept and a batch
    (batches finish in any order)."""
    merged = kept + [result for result in results if result.feasible]
    merged.sort(key=lambda design: design.index)
    return merged[:MAX_FEASIBLE_KEPT]


def sweep_design_document(job: Job, number: int) -> dict:
    """The scenario document of design `number` of a sweep job: its base with the design's axis
    values; ScenarioError at `design` when the sweep has no such design."""
    spec = read_sweep(json.loads(job.parameters["sweep"]))
    if not 0 <= number < spec.design_count:
        raise ScenarioError.at("design", f"give a design number from 0 to {spec.design_count - 1}")
    return spec.design_document(number)


def sweep_result(job: Job) -> dict | None:
    """The summary a done sweep job wrote; None before (or once its result was cleared)."""
    path = job_result_file(job)
    return json.loads(path.read_text(encoding="utf-8")) if path else None

