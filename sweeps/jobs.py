"""Sweeps run as background jobs (jobs/): `POST /api/v1/sweeps/` checks the sweep and queues it,
the worker (`manage.py runworker`) plans its designs with progress, and keeps the summary (the
counts, the refusals, the front and the best designs, and the first MAX_FEASIBLE_KEPT feasible
designs and MAX_REFUSED_KEPT designs refused by a constraint for the sweep page) as the job's
result file, JSON.

The worker plans in its own process, or on the Dask cluster named by DASK_SCHEDULER_ADDRESS;
settings.SWEEP_JOB_WORKERS processes of this machine otherwise.

Ceilings: the designs of one user's queued and running sweeps together
(settings.SWEEP_MAX_DESIGNS_PER_USER), and the CPU time of one sweep job
(settings.SWEEP_MAX_CPU_S): a sweep that reaches it is stopped, saying how far it got. A job
keeps what it has planned in its folder (a checkpoint of its summary and the batches done, at
most every CHECKPOINT_EVERY_S): when its worker stops or dies, the next worker resumes it there.
"""

import json
import os
import pickle
import time
from dataclasses import dataclass, field

from django.conf import settings

from catalog.rows import catalog_snapshot
from core.solver.errors import InfeasibleError, ScenarioError
from jobs.models import Job
from jobs.services import JobOutput, job_enqueue, job_result_file
from jobs.worker import JobContext, JobError, JobInterrupted
from planner.solver.documents import check_document_shape
from planner.solver.rounds import CABLES_ENGINE
from sweeps.report import design_dict, refused_by_constraint, refused_design_dict, summary_dict
from sweeps.runner import MAX_BATCH, batch_size_for, run_sweep, scheduler_address
from sweeps.solver.spec import SweepSpec, check_sweep_size, read_sweep
from sweeps.solver.summary import SweepSummary

SWEEP_JOB = "sweep"
RESULT_NAME = "sweep.json"
MAX_FEASIBLE_KEPT = 1_000
"""Feasible designs a job keeps with their figures (the lowest numbers), for the sweep page's
table and scatter; the front and the best are kept whatever their number."""
MAX_REFUSED_KEPT = 1_000
"""Designs refused by a constraint a job keeps with their figures (the lowest numbers), drawn
faintly on the sweep page's scatter. Designs refused before they were planned have no figures
and are not kept."""
CHECKPOINT_NAME = "progress.pickle"
CHECKPOINT_EVERY_S = 10.0
"""How often a running sweep saves what it has planned: at most this much work is redone when
its worker dies."""


class SweepTooLarge(InfeasibleError):
    """A sweep past a user's ceiling of designs."""


@dataclass
class SweepProgress:
    """What a sweep job has planned so far, kept in its folder for a worker that resumes it."""

    summary: SweepSummary
    batch_size: int
    feasible: list = field(default_factory=list)
    refused: list = field(default_factory=list)
    """The designs refused by a constraint kept (`MAX_REFUSED_KEPT`)."""
    done: set[int] = field(default_factory=set)
    """The first design number of each batch planned."""
    cpu_s: float = 0.0

    def save(self, folder) -> None:
        temporary = folder / (CHECKPOINT_NAME + ".tmp")
        temporary.write_bytes(pickle.dumps(self, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(temporary, folder / CHECKPOINT_NAME)

    @classmethod
    def resumed(cls, folder, spec: SweepSpec) -> "SweepProgress | None":
        """The progress a stopped run of this job left, when it is of this very sweep."""
        try:
            # The job's own folder, written only by this module: not input from a user.
            progress = pickle.loads((folder / CHECKPOINT_NAME).read_bytes())  # noqa: S301
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
            return None
        if not isinstance(progress, cls) or progress.summary.spec != spec:
            return None
        vars(progress).setdefault("refused", [])  # a checkpoint saved before designs refused were kept
        return progress


def sweep_check(document, catalog=None) -> SweepSpec:
    """The posted sweep document read and checked against the catalog (`catalog`; None: today's),
    or ScenarioError. The API reads no files: the base scenario is given inline. With
    catalog=False, only the axes and the size are checked: no design is planned."""
    check_document_shape(document)
    if isinstance(document, dict) and "base_file" in document:
        raise ScenarioError.at("base_file", "give the scenario inline as base: the API reads no files")
    spec = read_sweep(document, None if catalog is False else catalog or catalog_snapshot())
    # A job keeps only the front and the best: no file of every design is needed.
    check_sweep_size(spec, scheduler=bool(scheduler_address(None)), output=True)
    return spec


def sweep_job_enqueue(*, owner, document: dict, max_designs: int | None = None) -> Job:
    """The job sweeping `document` (the owner's job of the same sweep when one is queued,
    running or done). `max_designs`: a smaller limit than a job's (the sweep page's)."""
    # The ceiling before the catalog: counting the designs reads the axes only, where checking
    # the sweep against the catalog plans a sample of its designs.
    sweep = json.dumps(document)
    _check_designs_of_owner(owner, sweep, sweep_check(document, catalog=False).design_count)
    spec = sweep_check(document)
    if max_designs is not None and spec.design_count > max_designs:
        raise ScenarioError.at(
            "axes", f"give {spec.design_count:,} designs; the page sweeps at most {max_designs:,} "
            "(fewer values, or manage.py sweep for more)",
        )
    # As text (`sweep`): PostgreSQL's jsonb orders a mapping's keys its own way, and the order
    # of the axes numbers the designs.
    title = f"Sweep “{spec.name}”: {spec.design_count:,} designs"
    return job_enqueue(owner=owner, kind=SWEEP_JOB, parameters={"sweep": sweep, "designs": spec.design_count},
                       title=title)


def _check_designs_of_owner(owner, sweep: str, designs: int) -> None:
    """SweepTooLarge when this sweep and the owner's other queued and running ones pass the
    ceiling (the same sweep asked again is the job it already has, not more work)."""
    ceiling = settings.SWEEP_MAX_DESIGNS_PER_USER
    active = Job.objects.filter(owner=owner, kind=SWEEP_JOB, status__in=[Job.Status.QUEUED, Job.Status.RUNNING])
    others = sum(int(job.parameters.get("designs", 0)) for job in active if job.parameters.get("sweep") != sweep)
    if others + designs > ceiling:
        raise SweepTooLarge.at(
            "axes",
            f"give {designs:,} designs, and your queued and running sweeps {others:,}: more than the "
            f"{ceiling:,} one user may sweep at once (fewer values, or wait for a sweep to finish)",
        )


def sweep_job(context: JobContext) -> JobOutput:
    """The job kind: plan every design, reporting the share done, then write the summary."""
    context.progress(0.0, "checking the sweep", force=True)
    catalog = catalog_snapshot()
    try:
        spec = read_sweep(json.loads(context.parameters["sweep"]), catalog)
    except ScenarioError as error:
        raise JobError(f"the sweep cannot run with the catalog as it is now: {error}") from None
    total = spec.design_count
    scheduler = scheduler_address(None)
    workers = settings.SWEEP_JOB_WORKERS
    in_process = workers <= 1 and not scheduler
    progress = SweepProgress.resumed(context.folder, spec) or SweepProgress(
        summary=SweepSummary(spec), batch_size=MAX_BATCH if in_process else batch_size_for(total, workers),
    )
    summary = progress.summary
    cpu_started, wall_started, cpu_before = time.process_time(), time.monotonic(), progress.cpu_s
    saved_at = time.monotonic()
    batches = run_sweep(spec, catalog, workers=workers, scheduler=scheduler, cables=CABLES_ENGINE,
                        batch_size=progress.batch_size, done=frozenset(progress.done))
    for results in batches:
        summary.add(results)
        progress.feasible = _lowest(progress.feasible, [result for result in results if result.feasible],
                                    MAX_FEASIBLE_KEPT)
        progress.refused = _lowest(progress.refused, [result for result in results if refused_by_constraint(result)],
                                   MAX_REFUSED_KEPT)
        if results:
            progress.done.add(min(result.index for result in results))
        # The worker's own CPU when it plans in process; processes and Dask, their wall time each.
        used_s = time.process_time() - cpu_started if in_process else (time.monotonic() - wall_started) * workers
        progress.cpu_s = cpu_before + used_s
        if time.monotonic() - saved_at >= CHECKPOINT_EVERY_S:
            progress.save(context.folder)
            saved_at = time.monotonic()
        if progress.cpu_s > settings.SWEEP_MAX_CPU_S and summary.designs < total:
            batches.close()
            raise JobError(
                f"stopped after {progress.cpu_s:,.0f} s of CPU, the most a sweep may take "
                f"(settings.SWEEP_MAX_CPU_S), with {summary.designs:,} of {total:,} designs planned: "
                "sweep fewer designs"
            )
        try:
            context.progress(summary.designs / total, f"{summary.designs:,} of {total:,} designs planned")
        except JobInterrupted:
            progress.save(context.folder)  # the next worker resumes from here
            raise
    result = summary_dict(summary, CABLES_ENGINE)
    result["feasible_designs"] = [design_dict(summary, design) for design in progress.feasible]
    result["refused_designs"] = [refused_design_dict(summary, design) for design in progress.refused]
    (context.folder / CHECKPOINT_NAME).unlink(missing_ok=True)
    (context.folder / RESULT_NAME).write_text(json.dumps(result), encoding="utf-8")
    context.progress(1.0, f"{total:,} designs planned, {summary.feasible:,} feasible", force=True)
    return JobOutput(RESULT_NAME, "application/json")


def _lowest(kept: list, designs: list, most: int) -> list:
    """The `most` designs of the lowest numbers among those kept and a batch's (batches finish
    in any order)."""
    merged = kept + designs
    merged.sort(key=lambda design: design.index)
    return merged[:most]


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

