"""The OpenAPI schema says what validation does (issue 27.7, issue 26.7): one pool or several as
a oneOf, the fabric's tiers as a oneOf of "auto" and 2 or 3, empty paging parameters refused as
the schema's bounds say, and the Slurm YAML export declared as the YAML document it is."""

import pytest
import yaml
from drf_spectacular.generators import SchemaGenerator
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

pytestmark = pytest.mark.django_db

ONE_POOL = {"name": "n", "compute": {"system": "dgx-h100", "gpus": 64}, "fabrics": {"compute": {"switch": "qm9700"}}}


@pytest.fixture(scope="module")
def openapi():
    return SchemaGenerator().get_schema(request=None, public=True)


def validator_of(openapi, schema: dict) -> Draft202012Validator:
    registry = Registry().with_resource("urn:api", Resource.from_contents(openapi, default_specification=DRAFT202012))
    text = yaml.safe_dump(schema).replace("#/components/", "urn:api#/components/")
    return Draft202012Validator(yaml.safe_load(text), registry=registry)


def test_a_document_has_one_pool_or_several_never_both(openapi, api):
    document = validator_of(openapi, {"$ref": "#/components/schemas/ScenarioDocument"})
    both = {**ONE_POOL, "pools": [{"name": "a", "system": "dgx-h100", "gpus": 8}]}
    neither = {"name": "n"}
    assert document.is_valid(ONE_POOL)
    assert not document.is_valid(both) and not document.is_valid(neither)
    for body in (both, neither):
        assert api.post("/api/v1/plan/", body, format="json").status_code == 400


@pytest.mark.parametrize(("tiers", "valid"), [("auto", True), (2, True), (3, True), (4, False), ("3", False)])
def test_the_fabrics_tiers_are_auto_or_two_or_three_in_schema_and_api(openapi, api, tiers, valid):
    assert openapi["components"]["schemas"]["FabricSpec"]["properties"]["tiers"]["oneOf"] == [
        {"type": "string", "const": "auto"}, {"type": "integer", "enum": [2, 3]},
    ]
    fabric = validator_of(openapi, {"$ref": "#/components/schemas/FabricSpec"})
    assert fabric.is_valid({"switch": "qm9700", "tiers": tiers}) == valid
    document = {**ONE_POOL, "fabrics": {"compute": {"switch": "qm9700", "tiers": tiers}}}
    assert (api.post("/api/v1/plan/", document, format="json").status_code == 200) == valid


@pytest.mark.parametrize("query", ["limit=", "offset=", "limit=&offset=0", "limit=0", "offset=-1"])
def test_empty_or_out_of_bounds_paging_is_a_400_naming_the_parameter(user_api, query):
    response = user_api.get(f"/api/v1/scenarios/?{query}")
    assert response.status_code == 400
    assert set(response.json()["errors"]) <= {"limit", "offset"}


def test_the_slurm_yaml_export_is_declared_as_the_yaml_list_it_is(openapi, api):
    responses = openapi["paths"]["/api/v1/plan/export.{export_format}"]["post"]["responses"]["200"]["content"]
    declared = responses["application/yaml"]["schema"]
    assert declared["type"] == "array"
    response = api.post("/api/v1/plan/export.slurm-yaml", ONE_POOL, format="json")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/yaml")
    topology = yaml.safe_load(b"".join(response) if response.streaming else response.content)
    assert validator_of(openapi, declared).is_valid(topology) and topology


@pytest.mark.parametrize(("rate", "valid"), [(0, True), (1e-9, True), (0.173, True), (1e-300, False), (-1, False)])
def test_an_interruption_rate_is_zero_or_not_vanishing_in_schema_and_api(openapi, api, rate, valid):
    reliability = validator_of(openapi, {"$ref": "#/components/schemas/ReliabilitySpec"})
    assert reliability.is_valid({"interruptions_per_gpu_year": rate}) == valid
    document = {**ONE_POOL, "reliability": {"interruptions_per_gpu_year": rate}}
    assert api.post("/api/v1/plan/", document, format="json").status_code == (200 if valid else 400)
