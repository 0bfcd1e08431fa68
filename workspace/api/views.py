"""Thin API views: validate the request, call a service, render the result."""

from dataclasses import replace

from django.conf import settings
from django.http import HttpResponse, StreamingHttpResponse
from django.utils.text import slugify
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status, viewsets
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog.api import catalog_viewset
from catalog.rows import catalog_snapshot
from core.solver.errors import InfeasibleError, ScenarioError
from handoff.export_jobs import export_runs_as_job, plan_cable_count, plan_export_job_enqueue
from handoff.exports import (
    BINARY_EXPORTS,
    EXPORT_FORMATS,
    EXPORTS,
    HANDOFF_EXPORTS,
    STREAMED_EXPORTS,
    check_export,
    check_export_format,
    in_blocks,
    plan_export_lines,
    plan_export_of,
)
from jobs.api import JobSerializer, TooManyJobsError, job_accepted_response
from jobs.services import TooManyJobs
from planner.models import Scenario, Server, System
from planner.selectors import revision_current, revisions_for_list, scenario_get, scenario_list
from planner.services import (
    IN_A_JOB,
    INTERACTIVE,
    budget_cpu_s,
    document_work,
    plan_document,
    revision_catalog,
    revision_key_figures_fill,
    scenario_create,
    scenario_delete,
    scenario_plan,
    scenario_update,
    scenario_validate,
)
from planner.solver.limits import check_work_budget, workbook_cpu_s
from workspace.api.parsers import ScenarioJSONParser, ScenarioLegacyYAMLParser, ScenarioYAMLParser
from workspace.api.schema import (
    PLAN,
    component_ref,
    document_body,
    document_examples,
    error_responses,
)
from workspace.api.serializers import (
    ScenarioCreateSerializer,
    ScenarioDetailSerializer,
    ScenarioRevisionSerializer,
    ScenarioSerializer,
    ScenarioUpdateSerializer,
)
from workspace.security import AnonymousPlanThrottle

ERRORS_EXAMPLE = OpenApiExample(
    "Field errors",
    value={"errors": {"compute.gpus": ["must be a positive whole number"]}},
    response_only=True,
    status_codes=[400],
)


class TokenView(ObtainAuthToken):
    """An API token for a user name and password (the sign-in limits apply)."""

    # Form bodies are still read; the schema names JSON only, the body a client should send:
    # three media types of one optional-looking body made openapi-python-client write a module
    # that does not import.
    @extend_schema(request={"application/json": AuthTokenSerializer}, responses={200: AuthTokenSerializer})
    def post(self, request, *args, **kwargs):
        return super().post(request, *args, **kwargs)


class PlanView(APIView):
    """Plan a scenario document without saving it."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonymousPlanThrottle]
    parser_classes = [ScenarioJSONParser, ScenarioYAMLParser, ScenarioLegacyYAMLParser]

    @extend_schema(
        request=document_body(parser_classes),
        responses={200: PLAN, **error_responses(422)},
        examples=[*document_examples(), ERRORS_EXAMPLE],
        description=(
            "Body: the scenario document as JSON (or YAML with Content-Type application/yaml). "
            "200: the plan. 400: the document is invalid; 422: it is valid but no design "
            "satisfies it. Errors name each field by its dotted path."
        ),
    )
    def post(self, request):
        return Response(plan_document(request.data).to_dict())


EXPORT_DESCRIPTION = (
    f"Formats: {', '.join(EXPORT_FORMATS)} (json: the plan; csv: the bill of materials; xlsx: a "
    "workbook with the summary, BOM, every plan section and the inputs; cabling: the "
    "point-to-point cabling plan as CSV, one row per cable, streamed; cabling-parquet: the same rows "
    "as a Parquet file, typed, streamed a row group at a time; slurm: Slurm's topology.conf "
    "for topology/tree; slurm-block: topology.conf for topology/block, one block per NVLink domain "
    "of a rack-scale system; slurm-yaml: Slurm's topology.yaml; ufm: the UFM Cable Validation "
    "Tool's point-to-point workbook, a sheet per InfiniBand fabric; netbox: a zip of device types "
    "and bulk-import CSVs). Query `node_pattern` names the Slurm nodes: one run of # for the "
    "number, e.g. gpu#### (the default; in a URL, # is written %23). An unknown format, a bad "
    "node_pattern or a format the plan cannot give (ufm without an InfiniBand fabric) is 400, "
    "naming the field. A cabling plan or netbox bundle of more cables than the server streams "
    "in a few seconds (ufm: a fifth of them) "
    f"(settings.HEAVY_EXPORT_CABLES, {settings.HEAVY_EXPORT_CABLES:,} by default) is made by a "
    "background job instead: 202 with the job, whose `url` (also the Location header) gives its "
    "progress and, once done, a `download_url` (the CSV zipped, or the Parquet file). So is an xlsx workbook of more "
    "rows of racks than it writes in a request, and any export of a plan that is more work than "
    "a request (about 2 CPU seconds, estimated before planning). Heavy exports of posted "
    "documents need a signed-in user (422 otherwise, naming the input that made it heavy)."
)
EXPORT_FORMAT = OpenApiParameter(
    "export_format", str, OpenApiParameter.PATH, enum=EXPORT_FORMATS, description="The file format."
)
NODE_PATTERN = OpenApiParameter(
    "node_pattern", str, OpenApiParameter.QUERY, required=False,
    description="Slurm node names: one run of # for the zero-padded number (default gpu####; "
    "written gpu%23%23%23%23 in a URL).",
)
SLURM_TOPOLOGY_YAML = {
    "type": "array",
    "description": "Slurm's topology.yaml (25.05 and later): a list of topologies, each a mapping.",
    "items": {"type": "object"},
}
"""The YAML export as what it is, a YAML document: a client (and a fuzzer) that reads YAML gets
the list it declares, where a binary string was declared before."""
YAML_MEDIA_TYPE = "application/yaml"


def _export_body(content_type: str):
    media_type = content_type.split(";")[0]
    if media_type == "application/json":
        return PLAN
    return SLURM_TOPOLOGY_YAML if media_type == YAML_MEDIA_TYPE else OpenApiTypes.BINARY


DEVICE_PREFIX = OpenApiParameter(
    "device_prefix", str, OpenApiParameter.QUERY, required=False,
    description="netbox: the start of every device name, so that several plans share one NetBox "
    "(default: the site's slug; empty for none; up to 24 letters, digits, '.', '_' or '-').",
)
EXPORT_RESPONSES = {
    **{
        (200, content_type.split(";")[0]): _export_body(content_type)
        for _, content_type, _ in (*EXPORTS.values(), *STREAMED_EXPORTS.values(), *HANDOFF_EXPORTS.values())
    },
    202: JobSerializer,
    **error_responses(400, 422, 429),
}


def export_response(request, plan, export_format: str, *, scenario=None, document=None):
    """The export, streamed or whole; or, for a heavy one, the job that makes it (202)."""
    node_pattern = request.query_params.get("node_pattern")
    device_prefix = request.query_params.get("device_prefix")
    check_export(plan, export_format, node_pattern=node_pattern, device_prefix=device_prefix)
    if export_runs_as_job(plan, export_format):
        return _export_job(request, plan, export_format, scenario=scenario, document=document,
                           node_pattern=node_pattern, device_prefix=device_prefix)
    if export_format in STREAMED_EXPORTS:
        lines, content_type, suffix = plan_export_lines(plan, export_format)
        # A binary format's blocks are row groups already; lines of text are sent in blocks.
        blocks = lines if export_format in BINARY_EXPORTS else in_blocks(lines)
        response = StreamingHttpResponse(blocks, content_type=content_type)
    else:
        content, content_type, suffix = plan_export_of(plan, export_format, node_pattern=node_pattern,
                                                       device_prefix=device_prefix)
        response = HttpResponse(content, content_type=content_type)
    filename = f"{slugify(plan.name) or 'plan'}.{suffix}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _export_job(request, plan, export_format, *, scenario, document, node_pattern=None, device_prefix=None):
    if not request.user.is_authenticated:
        heavy = (f"{plan.racks.rows:,} rows of racks, more than a workbook made while you wait has"
                 if export_format == "xlsx" else
                 f"{plan_cable_count(plan):,} cables, more than the {settings.HEAVY_EXPORT_CABLES:,} "
                 "exported while you wait")
        raise InfeasibleError.at(
            "format",
            f"this {export_format} export has {heavy}: sign in (or send an API token) and it runs as "
            "a background job",
        )
    try:
        job = plan_export_job_enqueue(
            owner=request.user, export_format=export_format, scenario=scenario, document=document,
            node_pattern=node_pattern, device_prefix=device_prefix,
        )
    except TooManyJobs as error:
        raise TooManyJobsError(str(error)) from None
    return job_accepted_response(job, request)


HEAVY_PLAN_REMEDY = ": sign in (or send an API token) and the export runs as a background job"


def _plan_or_export_job(request, export_format: str, *, scenario=None, document=None):
    """The plan to export, or (as a second value) the job's response (202) when planning it is
    more than a request's work (`planner.solver.limits`' estimate, before anything is planned):
    the job plans and exports it. An anonymous user has no jobs: 422 on the input that drove it."""
    if scenario is not None:
        revision = revision_current(scenario=scenario)
        document, catalog = revision.document, revision_catalog(revision)
    else:
        catalog = catalog_snapshot()
    check_export_format(export_format)
    spec = scenario_validate(document, catalog)
    estimate = document_work(spec, catalog, budget=IN_A_JOB)
    interactive_cpu_s = budget_cpu_s(INTERACTIVE)
    if export_format == "xlsx":
        estimate = replace(estimate, extra_cpu_s=workbook_cpu_s(estimate.rows))
    if estimate.cpu_s <= interactive_cpu_s:
        return plan_document(spec, catalog), None
    check_work_budget(estimate, budget_cpu_s(IN_A_JOB))
    if not request.user.is_authenticated:
        check_work_budget(estimate, interactive_cpu_s, remedy=HEAVY_PLAN_REMEDY)
    try:
        job = plan_export_job_enqueue(
            owner=request.user, export_format=export_format, scenario=scenario,
            document=None if scenario is not None else document,
            node_pattern=request.query_params.get("node_pattern"),
            device_prefix=request.query_params.get("device_prefix"),
        )
    except TooManyJobs as error:
        raise TooManyJobsError(str(error)) from None
    return None, job_accepted_response(job, request)


class PlanExportView(APIView):
    """Plan a posted scenario document and download the plan in one format."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonymousPlanThrottle]
    parser_classes = PlanView.parser_classes

    @extend_schema(request=document_body(parser_classes), parameters=[EXPORT_FORMAT, NODE_PATTERN, DEVICE_PREFIX],
                   responses=EXPORT_RESPONSES, examples=document_examples(), description=EXPORT_DESCRIPTION)
    def post(self, request, export_format):
        plan, job = _plan_or_export_job(request, export_format, document=request.data)
        return job or export_response(request, plan, export_format, document=request.data)


class ScenarioExportView(APIView):
    """Download the plan of a saved scenario's current revision in one format."""

    @extend_schema(parameters=[EXPORT_FORMAT, NODE_PATTERN, DEVICE_PREFIX], responses=EXPORT_RESPONSES, description=EXPORT_DESCRIPTION)
    def get(self, request, pk, export_format):
        scenario = scenario_get(owner=request.user, pk=pk)
        plan, job = _plan_or_export_job(request, export_format, scenario=scenario)
        return job or export_response(request, plan, export_format, scenario=scenario)


class ScenarioViewSet(viewsets.GenericViewSet):
    """Saved scenarios of the signed-in user. Every save keeps a new revision."""

    serializer_class = ScenarioSerializer
    queryset = Scenario.objects.none()
    """Only for the schema (the id's type); the requests see the user's own, from get_queryset."""

    def get_queryset(self):
        return scenario_list(owner=self.request.user)

    def get_scenario(self, pk):
        return scenario_get(owner=self.request.user, pk=pk)

    def list(self, request):
        page = self.paginate_queryset(self.get_queryset())
        revisions = revisions_for_list(page)
        revision_key_figures_fill(revisions.values())
        key_figures = {pk: revision.key_figures for pk, revision in revisions.items()}
        serializer = ScenarioSerializer(page, many=True, context={"request": request, "key_figures": key_figures})
        return self.get_paginated_response(serializer.data)

    @extend_schema(request=ScenarioCreateSerializer, responses={201: ScenarioDetailSerializer})
    def create(self, request):
        serializer = ScenarioCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        document = serializer.validated_data["document"]
        scenario = _in_document(scenario_create, owner=request.user, document=document)
        return self._detail(scenario, status.HTTP_201_CREATED)

    @extend_schema(responses=ScenarioDetailSerializer)
    def retrieve(self, request, pk=None):
        return self._detail(self.get_scenario(pk))

    @extend_schema(request=ScenarioUpdateSerializer, responses={200: ScenarioDetailSerializer, **error_responses(409)})
    def update(self, request, pk=None):
        scenario = self.get_scenario(pk)
        serializer = ScenarioUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        scenario = _in_document(
            scenario_update,
            scenario=scenario,
            document=serializer.validated_data["document"],
            base_revision=serializer.validated_data["revision"],
            author=request.user,
        )
        return self._detail(scenario)

    @extend_schema(
        # The PUT body's own component: PATCH needs the whole document and its revision too (a
        # "Patched" component with both optional said that `{}` was a valid PATCH).
        request={"application/json": component_ref("ScenarioUpdate")},
        responses={200: ScenarioDetailSerializer, **error_responses(409)},
        description="The same as PUT: the whole document and the revision it is based on.",
    )
    def partial_update(self, request, pk=None):
        return self.update(request, pk)

    def destroy(self, request, pk=None):
        scenario_delete(scenario=self.get_scenario(pk))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(responses={200: PLAN, **error_responses(422)})
    @action(detail=True, methods=["get"])
    def plan(self, request, pk=None):
        """The plan of the scenario's current revision."""
        return Response(scenario_plan(scenario=self.get_scenario(pk)).to_dict())

    @extend_schema(responses=ScenarioRevisionSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def revisions(self, request, pk=None):
        """Every revision of the scenario, newest first."""
        revisions = self.get_scenario(pk).revisions.select_related("author")
        return Response(ScenarioRevisionSerializer(revisions, many=True).data)

    def _detail(self, scenario, code=status.HTTP_200_OK):
        serializer = ScenarioDetailSerializer(scenario, context={"request": self.request})
        return Response(serializer.data, status=code)


def _in_document(service, **arguments):
    """Run a service whose field errors are paths inside the request's `document`."""
    try:
        return service(**arguments)
    except ScenarioError as error:
        raise error.under("document") from None


SystemViewSet = catalog_viewset(System)
ServerViewSet = catalog_viewset(Server)
