"""Job kinds for the tests of the jobs app (settings.JOB_KINDS points at them in tests/jobs)."""

from jobs.services import JobOutput
from jobs.worker import JobContext, JobError


def write_text(context: JobContext) -> JobOutput:
    """Writes parameters["text"] in parameters["steps"] steps, reporting each."""
    steps = context.parameters.get("steps", 1)
    with (context.folder / "out.txt").open("w") as handle:
        for step in range(steps):
            handle.write(context.parameters["text"])
            context.progress((step + 1) / steps, f"step {step + 1} of {steps}", force=True)
    return JobOutput("out.txt", "text/plain")


def refuse(context: JobContext) -> JobOutput:
    raise JobError("the scenario was deleted")


def crash(context: JobContext) -> JobOutput:
    return {}["missing"]


def stop_worker_midway(context: JobContext) -> JobOutput:
    """Reports progress, then the worker is asked to stop (as SIGTERM does), then reports again."""
    context.progress(0.5, "half way", force=True)
    context.stop.set()
    context.progress(0.6, "never recorded")
    return JobOutput("never.txt", "text/plain")
