"""Schemathesis over every operation of the API's own OpenAPI schema, in process (WSGI).

Every request it generates from the schema (valid ones and invalid ones) must get an answer the
schema describes: never a server error, only the status codes, content types and bodies (the
plan, the scenario document, the error format) the schema gives for the operation.

The requests are signed in with a token (only anonymous planning is throttled), and an even
scenario id stands for the user's own scenario, which the fuzzer cannot guess, so that the
scenario operations are fuzzed past the 404. The plan operations get the documents of
examples/ first (the schema's request examples): random documents rarely name catalog parts,
so those are the requests that plan. Derandomized: every run sends the same requests.
"""

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.config._checks import POSITIVE_DATA_ACCEPTANCE_EXPECTED_STATUSES
from schemathesis.config._operations import OperationConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_schema_conformance,
    status_code_conformance,
)

from planner.services import scenario_create

EXAMPLES = 20
"""Generated requests per operation: the module takes about 35 s on two busy cores."""

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          positive_data_acceptance, negative_data_rejection]
SCENARIO = {"name": "fuzzed", "compute": {"system": "dgx-h100", "gpus": 64}}

schema = schemathesis.openapi.from_dict(SchemaGenerator().get_schema(request=None, public=True))
schema.app = WSGIHandler()
# The coverage phase sends every boundary value of every key of the document: thousands of
# requests per operation, beyond this module's minute.
schema.config.phases.coverage.enabled = False

SCHEMA_CANNOT_SAY = {
    # A document the JSON schema accepts may still name a part the catalog lacks, or break a rule
    # between keys (a size from gpus, nodes, a workload's days or an inference load): 400 by
    # dotted path; or be valid with no design, or more work than a request (422, documented).
    r"^/api/v1/plan/": ["400", "422"],
    r"^/api/v1/scenarios/(\{id\}/)?$": ["400", "422"],
    # A format the saved plan cannot give (ufm without InfiniBand, Slurm without a GPU fabric).
    r"^/api/v1/scenarios/\{id\}/export": ["400", "422"],
    # A sweep's axes are dotted keys of the scenario with values each field accepts: the reader's.
    r"^/api/v1/sweeps/$": ["400"],
    # Well-formed credentials of no user: DRF's token endpoint answers 400.
    r"^/api/v1/token/$": ["400"],
}
"""Statuses besides the defaults that positive_data_acceptance takes from schema-valid requests,
by operation: what validation checks that a JSON schema cannot express. Everywhere else valid
data must be accepted, and invalid data (negative_data_rejection) refused."""
schema.config.operations.operations.extend(
    OperationConfig.from_dict({
        "include-path-regex": path,
        "checks": {"positive_data_acceptance": {
            "expected-statuses": [*POSITIVE_DATA_ACCEPTANCE_EXPECTED_STATUSES, *statuses]}},
    })
    for path, statuses in SCHEMA_CANNOT_SAY.items()
)


@pytest.fixture
def token(db, user):
    return Token.objects.create(user=user).key


@pytest.fixture
def own_scenario_id(user):
    return scenario_create(owner=user, document=SCENARIO).pk


@pytest.fixture(autouse=True)
def _requests_in_the_test_transaction():
    """The requests share the test's database transaction, as with Django's test client:
    closing the connection after each request would end it."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,  # the user, token and scenario serve every request
    ],
)
def test_every_operation_answers_as_its_schema_says(case, token, own_scenario_id):
    scenario_id = (case.path_parameters or {}).get("id")
    if isinstance(scenario_id, int) and scenario_id % 2 == 0:
        case.path_parameters["id"] = own_scenario_id
    case.call_and_validate(headers={"Authorization": f"Token {token}"}, checks=CHECKS)
