"""The sweeps API: `POST /api/v1/sweeps/` queues a sweep as a background job (202, or 400 with
every problem by dotted path); `GET /api/v1/sweeps/<id>/` gives its progress and, once done, its
result: the counts, the refusals by path, the Pareto front, the best design per objective, and the
first feasible designs and designs refused by a constraint with their figures."""

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from jobs.api import TooManyJobsError
from jobs.models import Job
from jobs.selectors import job_get
from jobs.services import TooManyJobs
from sweeps.jobs import SWEEP_JOB, sweep_job_enqueue, sweep_result
from workspace.api.schema import error_responses


class SweepSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField(help_text="This sweep in the API: poll it for progress.")
    result = serializers.SerializerMethodField(
        help_text=("Once done: designs, feasible, refusals (path, designs, example), front, best, "
                   "feasible_designs (the first 1,000 feasible designs) and refused_designs (the "
                   "first 1,000 designs refused by a constraint, each with its values, figures, "
                   "refused_at: the constraint's bound, e.g. constraints.power.facility_kw.max, and "
                   "reason). Designs refused before they were planned have no figures and are only "
                   "counted in refusals."),
    )

    class Meta:
        model = Job
        fields = ["id", "title", "status", "progress", "message", "error", "created_at", "started_at",
                  "finished_at", "url", "result"]
        read_only_fields = fields

    def get_url(self, job) -> str:
        return reverse("api:sweep-detail", args=[job.pk], request=self.context.get("request"))

    def get_result(self, job) -> dict | None:
        return sweep_result(job) if job.status == Job.Status.DONE else None


SWEEP_DOCUMENT = {
    "type": "object",
    "description": "A sweep: its base scenario (base, or base_file on the command line), axes and objectives.",
    "properties": {
        "base": {"type": "object", "description": "The scenario document every design starts from."},
        "axes": {"type": "object", "minProperties": 1,
                 "description": "Dotted scenario key: a list of values, {values: [...]} or {from, to, step}."},
        "constraints": {"type": "object", "description": "Dotted plan key: {min, max}."},
        "objectives": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["key", "goal"],
            "properties": {"key": {"type": "string"}, "goal": {"enum": ["minimise", "maximise"]}},
        }},
    },
    "required": ["base", "axes", "objectives"],
}
"""What the sweep reader needs at least (`sweeps.solver.spec`): a body without base, axes or
objectives is a 400, and the schema says so. What each key and value must be (a dotted key of
the scenario, values its field accepts) is the reader's, by dotted path."""


class SweepListView(APIView):
    """Start a sweep: the body is the sweep document (base, axes, constraints, objectives)."""

    @extend_schema(
        request={"application/json": SWEEP_DOCUMENT}, responses={202: SweepSerializer, **error_responses(400, 429)},
        description=(
            "Body: the sweep document as JSON: base (a scenario document), axes (dotted scenario "
            "key: a list of values, {values: [...]} or {from, to, step}), constraints (dotted plan "
            "key: {min, max}) and objectives ([{key, goal: minimise or maximise}]). 202: the sweep "
            "is queued as a job; poll its url. 400: each problem by its dotted path."
        ),
    )
    def post(self, request):
        try:
            job = sweep_job_enqueue(owner=request.user, document=request.data)
        except TooManyJobs as error:
            raise TooManyJobsError(str(error)) from None
        data = SweepSerializer(job, context={"request": request}).data
        return Response(data, status=status.HTTP_202_ACCEPTED, headers={"Location": data["url"]})


class SweepDetailView(APIView):
    @extend_schema(responses={200: SweepSerializer})
    def get(self, request, pk):
        job = job_get(owner=request.user, pk=pk)
        if job.kind != SWEEP_JOB:
            raise Http404("no such sweep")
        return Response(SweepSerializer(job, context={"request": request}).data)

