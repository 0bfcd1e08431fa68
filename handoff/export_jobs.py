"""Exports that run as background jobs (jobs/): the cabling plan of a plan with more cables than
a request streams in a few seconds, `settings.HEAVY_EXPORT_CABLES`.

The cabling plan streams at about 80,000 rows a CPU second (40,000 to 50,000 a second on a busy
2-core machine): the 5 million cables a plan may have (`fabric.solver.cable_limit.MAX_PLAN_CABLES`)
take 65 CPU seconds and make 700 MB of CSV (scripts/benchmark_limits.py), more than a web
worker's request timeout. Below the threshold an export streams as before, in a few seconds.
The job's file is the same CSV, zipped (a tenth of its size: 64 MB, a download a slow link can
finish), and its progress is the cables written so far. The other formats are made from the
plan's sections, whose size does not grow with the cables: they stay synchronous (a workbook
of a million GPUs takes about a second), but for the workbook of a plan whose rows of racks
take more than a request's CPU seconds to write (`planner.solver.limits.workbook_cpu_s`: 10 M
GPUs took 9.5 s), and any export of a plan that is itself more than a request's work (the API
decides that from the estimate, before planning): those run here, planned under a job's budget.
"""

import zipfile

from django.conf import settings
from django.utils.text import slugify

from core.solver.errors import ScenarioError
from handoff.cabling_parquet import ROWS_PER_GROUP
from handoff.exports import (
    BINARY_EXPORTS,
    CABLE_SIZED_EXPORTS,
    STREAMED_EXPORTS,
    check_export_format,
    plan_export_lines,
    plan_export_of,
)
from jobs.models import Job
from jobs.services import JobOutput, job_enqueue
from jobs.worker import JobContext, JobError
from planner.models import Scenario
from planner.services import IN_A_JOB, plan_document, scenario_plan
from planner.solver.limits import workbook_cpu_s
from planner.solver.plan import Plan

PLAN_EXPORT_JOB = "plan_export"
EXPORT_TITLES = {"cabling": "Cabling plan", "cabling-parquet": "Cabling plan (Parquet)", "xlsx": "Workbook", "csv": "Bill of materials", "json": "Plan",
                 "ufm-p2p": "UFM point-to-point bundle", "netbox": "NetBox bundle"}
ZIP_CONTENT_TYPE = "application/zip"


def plan_cable_count(plan: Plan) -> int:
    """The cables of every fabric: the cabling plan's rows."""
    return sum(link.count for fabric in (plan.fabrics or {}).values() for link in fabric.links)


EXPORT_SLOWDOWN = {"ufm-p2p": 5, "netbox": 2}
"""How many times longer than the streamed cabling plan a format takes per cable: the UFM
workbook (XlsxWriter, about 7,000 rows a second against 35,000 on a busy 2-core machine;
scripts/benchmark_handoff.py) runs as a job past a fifth of the threshold; the NetBox bundle
(a device and an interface pair a cable: 331,532 cables in 19.5 s on a busy machine, twice the
cabling plan's time) past half of it."""


def export_runs_as_job(plan: Plan, export_format: str) -> bool:
    """Whether the export takes more than a request's work: the cable-sized formats past
    `settings.HEAVY_EXPORT_CABLES`, the workbook past the request's CPU seconds (its sheet of rows)."""
    if export_format == "xlsx":
        return workbook_cpu_s(plan.racks.rows) > settings.PLAN_INTERACTIVE_CPU_S
    cables = plan_cable_count(plan) * EXPORT_SLOWDOWN.get(export_format, 1)
    return export_format in CABLE_SIZED_EXPORTS and cables > settings.HEAVY_EXPORT_CABLES


def plan_export_job_enqueue(*, owner, export_format: str, scenario: Scenario | None = None,
                            document: dict | None = None, node_pattern: str | None = None,
                            device_prefix: str | None = None) -> Job:
    """The job exporting the plan of `scenario` (its current revision) or of a posted `document`
    (the owner's job of the same export when one is queued, running or done)."""
    check_export_format(export_format)
    parameters: dict = {"format": export_format}
    if node_pattern:
        parameters["node_pattern"] = node_pattern
    if device_prefix is not None:
        parameters["device_prefix"] = device_prefix
    if scenario is not None:
        parameters.update(scenario=scenario.pk, revision=scenario.revision)
        name = scenario.name
    else:
        parameters["document"] = document
        name = str(document.get("name", "")) if isinstance(document, dict) else ""
    title = f"{EXPORT_TITLES.get(export_format, export_format)} of “{name or 'a posted scenario'}”"
    return job_enqueue(owner=owner, kind=PLAN_EXPORT_JOB, parameters=parameters, title=title)


def plan_export_job(context: JobContext) -> JobOutput:
    """The job kind: plan the scenario, then write the export to a file in the job's folder."""
    export_format = context.parameters["format"]
    context.progress(0.0, "planning", force=True)
    try:
        plan = _plan(context)
    except ScenarioError as error:
        raise JobError(f"the scenario cannot be planned: {error}") from None
    stem = slugify(plan.name) or "plan"
    if export_format in BINARY_EXPORTS and export_format in STREAMED_EXPORTS:
        return _streamed_file(context, plan, export_format, stem)
    if export_format in STREAMED_EXPORTS:
        return _zipped_lines(context, plan, export_format, stem)
    content, content_type, suffix = plan_export_of(plan, export_format, node_pattern=context.parameters.get("node_pattern"),
                                                   device_prefix=context.parameters.get("device_prefix"))
    name = f"{stem}.{suffix}"
    (context.folder / name).write_bytes(content)
    return JobOutput(name, content_type)


def _plan(context: JobContext) -> Plan:
    parameters = context.parameters
    if "document" in parameters:
        return plan_document(parameters["document"], budget=IN_A_JOB)
    scenario = Scenario.objects.filter(pk=parameters["scenario"], owner=context.job.owner).first()
    if scenario is None:
        raise JobError("the scenario was deleted")
    if scenario.revision != parameters["revision"]:
        raise JobError(
            f"the scenario was saved again (revision {scenario.revision}) after this export of "
            f"revision {parameters['revision']} was asked for: export it again"
        )
    return scenario_plan(scenario=scenario, budget=IN_A_JOB)


def _streamed_file(context: JobContext, plan: Plan, export_format: str, stem: str) -> JobOutput:
    """A binary streamed export (Parquet, compressed already) written a row group at a time."""
    blocks, content_type, suffix = plan_export_lines(plan, export_format)
    rows = plan_cable_count(plan)
    name = f"{stem}.{suffix}"
    with (context.folder / name).open("wb") as handle:
        for written, block in enumerate(blocks, start=1):
            handle.write(block)
            done = min(written * ROWS_PER_GROUP, rows)
            context.progress(done / max(rows, 1), f"{done:,} of {rows:,} cables written")
    context.progress(1.0, f"{rows:,} cables written", force=True)
    return JobOutput(name, content_type)


def _zipped_lines(context: JobContext, plan: Plan, export_format: str, stem: str) -> JobOutput:
    lines, _, suffix = plan_export_lines(plan, export_format)
    rows = plan_cable_count(plan)
    name = f"{stem}.{suffix}"
    archive_name = f"{name.rsplit('.', 1)[0]}.zip"
    written = -1  # the header is not a cable
    with (
        zipfile.ZipFile(context.folder / archive_name, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive,
        archive.open(name, "w", force_zip64=True) as member,
    ):
        for block in lines:  # the lines of a chunk of links (`exports.plan_export_cabling_lines`)
            member.write(block.encode("utf-8"))
            written += block.count("\n")
            context.progress(written / max(rows, 1), f"{written:,} of {rows:,} cables written")
    context.progress(1.0, f"{written:,} cables written", force=True)
    return JobOutput(archive_name, ZIP_CONTENT_TYPE)
