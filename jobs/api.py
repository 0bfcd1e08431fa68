"""The jobs API: a signed-in user's jobs, their progress, and the result to download."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException, NotFound
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.reverse import reverse

from jobs.models import Job
from jobs.selectors import job_get, job_list
from jobs.services import job_cancel, job_result_file
from jobs.views import result_file_response

ERRORS = OpenApiResponse(OpenApiTypes.OBJECT, description='{"errors": {"dotted.path": ["message"]}}')


class AnyMediaRenderer(JSONRenderer):
    """Lets a download be asked for with any Accept header (the file answers for itself); an
    error is still JSON."""

    media_type = "*/*"
    format = "download"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        response = (renderer_context or {}).get("response")
        if response is not None:
            response["Content-Type"] = "application/json"
        return super().render(data, "application/json", renderer_context)


class TooManyJobsError(APIException):
    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = "too_many_jobs"


class JobNotDoneError(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "job_not_done"


class JobSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField(help_text="This job in the API: poll it for progress.")
    page_url = serializers.SerializerMethodField(help_text="This job's page, with its progress.")
    download_url = serializers.SerializerMethodField(help_text="The result, once the job is done.")

    class Meta:
        model = Job
        fields = ["id", "kind", "status", "progress", "message", "error", "created_at", "started_at",
                  "finished_at", "result_name", "result_bytes", "url", "page_url", "download_url"]
        read_only_fields = fields

    def get_url(self, job) -> str:
        return reverse("api:job-detail", args=[job.pk], request=self.context.get("request"))

    def get_page_url(self, job) -> str:
        return reverse("jobs:job-detail", args=[job.pk], request=self.context.get("request"))

    def get_download_url(self, job) -> str | None:
        if job.status != Job.Status.DONE:
            return None
        return reverse("api:job-download", args=[job.pk], request=self.context.get("request"))


def job_accepted_response(job: Job, request) -> Response:
    """202: the work runs as a job; poll the Location for its progress and download."""
    data = JobSerializer(job, context={"request": request}).data
    return Response(data, status=status.HTTP_202_ACCEPTED, headers={"Location": data["url"]})


def job_download_response(job: Job):
    """The job's result file as an attachment; 409 while the job is not done, 404 once its
    result has been cleared away."""
    if job.status != Job.Status.DONE:
        raise JobNotDoneError(f"the job is {job.status}, not done")
    path = job_result_file(job)
    if path is None:
        raise NotFound("the job's result was deleted after a day: run the export again")
    return result_file_response(job, path)


class JobViewSet(viewsets.GenericViewSet):
    """Background jobs of the signed-in user (heavy exports, sweeps), newest first. Results are
    kept a day. DELETE cancels a queued or running job."""

    serializer_class = JobSerializer
    queryset = Job.objects.none()
    """Only for the schema; requests see the user's own jobs (get_queryset)."""

    def get_queryset(self):
        return job_list(owner=self.request.user)

    def list(self, request):
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(JobSerializer(page, many=True, context={"request": request}).data)

    @extend_schema(responses={200: JobSerializer, 404: ERRORS})
    def retrieve(self, request, pk=None):
        return Response(JobSerializer(job_get(owner=request.user, pk=pk), context={"request": request}).data)

    @extend_schema(responses={200: JobSerializer, 404: ERRORS, 409: ERRORS})
    def destroy(self, request, pk=None):
        """Cancel the job: a queued one never runs, a running one stops at its next progress
        report. 409 when it has already finished."""
        job = job_get(owner=request.user, pk=pk)
        if not job_cancel(job=job):
            raise JobNotDoneError(f"the job has already finished ({job.status}): there is nothing to cancel")
        return Response(JobSerializer(job, context={"request": request}).data)

    @extend_schema(responses={(200, "application/octet-stream"): OpenApiTypes.BINARY, 404: ERRORS, 409: ERRORS})
    @action(detail=True, methods=["get"], renderer_classes=[JSONRenderer, AnyMediaRenderer])
    def download(self, request, pk=None):
        """The job's result file, once it is done."""
        return job_download_response(job_get(owner=request.user, pk=pk))
