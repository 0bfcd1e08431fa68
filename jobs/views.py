"""Pages of a job: its progress (polled by htmx until it finishes) and its result."""

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from jobs.models import Job
from jobs.selectors import job_get, job_list
from jobs.services import job_cancel, job_result_file

RECENT_JOBS = 50
POLL_EVERY_S = 1


@login_required
def job_list_page(request):
    context = {"jobs": job_list(owner=request.user)[:RECENT_JOBS],
               "heavy_export_cables": settings.HEAVY_EXPORT_CABLES}
    return render(request, "jobs/job_list.html", context)


@login_required
def job_detail(request, pk):
    job = job_get(owner=request.user, pk=pk)
    return render(request, "jobs/job_detail.html", {"job": job, "poll_every_s": POLL_EVERY_S})


@login_required
def job_progress(request, pk):
    """The progress panel alone; once the job has finished it no longer asks to be polled."""
    job = job_get(owner=request.user, pk=pk)
    return render(request, "jobs/inc/job_progress.html", {"job": job, "poll_every_s": POLL_EVERY_S})


@login_required
@require_POST
def job_cancel_page(request, pk):
    """The page's Cancel button: the job stops (or never starts), and its page says so."""
    job_cancel(job=job_get(owner=request.user, pk=pk))
    following = request.POST.get("next", "")
    if following and url_has_allowed_host_and_scheme(following, allowed_hosts={request.get_host()}):
        return redirect(following)
    return redirect("jobs:job-detail", pk=pk)


@login_required
def job_download(request, pk):
    job = job_get(owner=request.user, pk=pk)
    if job.status != Job.Status.DONE:
        return HttpResponse(f"The job is {job.status}, not done.\n", status=409, content_type="text/plain")
    path = job_result_file(job)
    if path is None:
        raise Http404("the job's result was deleted after a day")
    return result_file_response(job, path)


def result_file_response(job: Job, path) -> FileResponse:
    """The result as an attachment. Sent with the server's sendfile, not through Python: a large
    file goes out at the speed of the link, not of a worker."""
    return FileResponse(path.open("rb"), as_attachment=True, filename=job.result_name,
                        content_type=job.result_content_type or "application/octet-stream")
