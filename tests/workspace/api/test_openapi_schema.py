"""The OpenAPI schema the API serves: the scenario document and the plan in full, and every
operation's errors with the error body's real shape."""

import json

import pytest
from drf_spectacular.validation import validate_schema
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from planner.scenario_json_schema import document_definitions, plan_definitions
from tests.planner.test_scenario_json_schema import leaf_errors
from workspace.api.schema import COMPONENTS_PREFIX

pytestmark = pytest.mark.django_db

DOCUMENT = {"$ref": "#/components/schemas/ScenarioDocument"}
PLAN = {"$ref": "#/components/schemas/Plan"}
H100 = {"name": "n", "compute": {"system": "dgx-h100", "gpus": 64}}


@pytest.fixture(scope="module")
def openapi(django_db_blocker):
    from rest_framework.test import APIClient

    with django_db_blocker.unblock():
        response = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    return json.loads(response.content)


def operation(openapi, method, path):
    return openapi["paths"][path][method]


def body_schema(openapi, method, path, code, media_type="application/json"):
    return operation(openapi, method, path)["responses"][str(code)]["content"][media_type]["schema"]


def component_validator(openapi, name):
    """A validator of one component, its references resolved in the served schema."""
    resource = Resource.from_contents(openapi, default_specification=DRAFT202012)
    registry = Registry().with_resource("urn:api", resource)
    return Draft202012Validator({"$ref": f"urn:api#/components/schemas/{name}"}, registry=registry)


def test_the_schema_is_valid_openapi_3_1(openapi):
    assert openapi["openapi"].startswith("3.1")
    validate_schema(openapi)


def test_the_document_and_the_plan_are_the_generated_json_schemas(openapi):
    components = openapi["components"]["schemas"]
    for name, definition in {**document_definitions(COMPONENTS_PREFIX), **plan_definitions(COMPONENTS_PREFIX)}.items():
        assert components[name] == definition, name
    assert components["ScenarioDocument"]["oneOf"] == [
        {"$ref": "#/components/schemas/ScenarioDocumentWithCompute"},
        {"$ref": "#/components/schemas/ScenarioDocumentWithPools"},
    ]
    one_pool, site = components["ScenarioDocumentWithCompute"], components["ScenarioDocumentWithPools"]
    assert one_pool["properties"]["compute"] == {"$ref": "#/components/schemas/ComputeSpec"}
    assert "pools" not in one_pool["properties"] and "compute" not in site["properties"]
    assert "compute" in one_pool["required"] and "pools" in site["required"]


def test_the_nic_overrides_are_in_the_document_schema(openapi):
    components = openapi["components"]["schemas"]
    nics = components["ComputeSpec"]["properties"]["nics"]
    assert nics["items"] == {"$ref": "#/components/schemas/NicSpec"}
    assert components["NicSpec"]["properties"]["role"]["enum"] == ["compute", "storage", "inband", "oob"]
    validator = component_validator(openapi, "ScenarioDocument")
    document = {**H100, "compute": {**H100["compute"], "nics": [{"role": "storage", "count": 2, "gbps": 200}]}}
    assert list(validator.iter_errors(document)) == []
    document["compute"]["nics"][0]["role"] = "gpu"
    assert [leaf.json_path for error in validator.iter_errors(document) for leaf in leaf_errors(error)] == [
        "$.compute.nics[0].role"
    ]


def test_planning_takes_a_document_in_each_syntax_and_answers_a_plan(openapi):
    request = operation(openapi, "post", "/api/v1/plan/")["requestBody"]["content"]
    assert {media: content["schema"] for media, content in request.items()} == {
        "application/json": DOCUMENT, "application/yaml": DOCUMENT, "application/x-yaml": DOCUMENT,
    }
    assert body_schema(openapi, "post", "/api/v1/plan/", 200) == PLAN
    assert body_schema(openapi, "get", "/api/v1/scenarios/{id}/plan/", 200) == PLAN
    assert set(request["application/json"]["examples"]) >= {"Dgx-h100-4su"}


def test_saved_scenarios_carry_the_document(openapi):
    components = openapi["components"]["schemas"]
    for name in ("ScenarioCreate", "ScenarioUpdate", "ScenarioDetail", "ScenarioRevision"):
        document = components[name]["properties"]["document"]
        assert DOCUMENT in document.get("allOf", [document]), name


@pytest.mark.parametrize(
    ("method", "path", "codes"),
    [
        ("post", "/api/v1/plan/", {400, 403, 413, 415, 422, 429}),
        ("post", "/api/v1/plan/export.{export_format}", {400, 403, 413, 415, 422, 429}),
        ("get", "/api/v1/scenarios/", {400, 403}),
        ("post", "/api/v1/scenarios/", {400, 403, 413, 415}),
        ("get", "/api/v1/scenarios/{id}/", {403, 404}),
        ("put", "/api/v1/scenarios/{id}/", {400, 403, 404, 409, 413, 415}),
        ("patch", "/api/v1/scenarios/{id}/", {400, 403, 404, 409, 413, 415}),
        ("delete", "/api/v1/scenarios/{id}/", {403, 404}),
        ("get", "/api/v1/scenarios/{id}/plan/", {403, 404, 422}),
        # 429: a user may have only so many export jobs queued
        ("get", "/api/v1/scenarios/{id}/export.{export_format}", {400, 403, 404, 422, 429}),
        ("get", "/api/v1/catalog/systems/{slug}/", {403, 404}),
    ],
)
def test_every_operation_lists_the_errors_it_gives(openapi, method, path, codes):
    responses = operation(openapi, method, path)["responses"]
    assert {int(code) for code in responses if code >= "400"} == codes
    for code in codes:
        expected = "RevisionConflict" if code == 409 else "Errors"
        assert responses[str(code)]["content"]["application/json"]["schema"] == {
            "$ref": f"#/components/schemas/{expected}"
        }
        assert responses[str(code)]["description"]


@pytest.mark.parametrize(
    ("method", "path", "body", "code"),
    [
        ("post", "/api/v1/plan/", {**H100, "colour": "blue"}, 400),
        ("post", "/api/v1/plan/", {"name": "n", "compute": {"system": "dgx-h100", "gpus": 64}, "racks": {"power_budget_kw": 5}}, 422),
        ("post", "/api/v1/plan/", {"name": "n", "compute": [0] * 30}, 400),
        ("get", "/api/v1/scenarios/?limit=0", None, 400),
        ("get", "/api/v1/scenarios/abc/export.json", None, 404),
        ("get", "/api/v1/catalog/systems/dgx-h999/", None, 404),
    ],
)
def test_the_error_bodies_have_the_declared_shape(openapi, user_api, method, path, body, code):
    response = getattr(user_api, method)(path, body, format="json") if body else getattr(user_api, method)(path)
    assert response.status_code == code
    validator = component_validator(openapi, "Errors")
    assert list(validator.iter_errors(response.json())) == []


def test_a_stale_revision_conflict_has_the_declared_shape(openapi, user_api):
    created = user_api.post("/api/v1/scenarios/", {"document": H100}, format="json").json()
    stale = {"document": H100, "revision": 1}
    user_api.put(f"/api/v1/scenarios/{created['id']}/", stale, format="json")
    response = user_api.put(f"/api/v1/scenarios/{created['id']}/", stale, format="json")
    assert response.status_code == 409
    assert list(component_validator(openapi, "RevisionConflict").iter_errors(response.json())) == []
    assert list(component_validator(openapi, "ScenarioDetail").iter_errors(created)) == []


def test_a_path_no_api_view_matches_is_a_json_404_and_pages_keep_theirs(client):
    response = client.get("/api/v1/scenarios/1.5/export.json")
    assert response.status_code == 404
    assert response.json() == {"errors": {"detail": ["nothing at this path"]}}
    page = client.get("/no-such-page/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")
