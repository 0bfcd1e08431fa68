"""Read-only queries for jobs: an owner sees only their own."""

from django.http import Http404
from django.shortcuts import get_object_or_404

from jobs.models import Job

MAX_ID = 2**63 - 1
"""The largest primary key (a 64-bit signed integer, as both databases store it)."""


def job_list(*, owner):
    return Job.objects.filter(owner=owner)


def job_get(*, owner, pk) -> Job:
    """The owner's job, or 404 (also for an id that is not a number or too large)."""
    try:
        pk = int(str(pk))
    except ValueError:
        raise Http404("no such job") from None
    if not 0 < pk <= MAX_ID:
        raise Http404("no such job")
    return get_object_or_404(job_list(owner=owner), pk=pk)
