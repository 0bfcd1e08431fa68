"""Every device type the catalog gives (one per part, whatever the plan) passes the community
device-type library's JSON schema and its YAML lint rules, as a pull request to the library
would (schema and rules: tests/handoff/data/devicetype-library/, with their source)."""

import json
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from yamllint import linter
from yamllint.config import YamlLintConfig

from handoff.formats import device_type_yaml
from handoff.solver.netbox import Part, device_type

LIBRARY = Path(__file__).parent / "data" / "devicetype-library"
KINDS = (("system", "systems"), ("switch", "switches"), ("server", "servers"), ("storage", "storage_systems"),
         ("pdu", "pdus"))


def schema_validator() -> Draft202012Validator:
    resources = []
    for name, uri in (("devicetype.json", None), ("components.json", None), ("generated_schema.json", None),
                      ("reusable.json", "urn:devicetype-library:reusable")):
        contents = json.loads((LIBRARY / name).read_text())
        resources.append((uri or contents["$id"], Resource.from_contents(contents, default_specification=DRAFT202012)))
    registry = Registry().with_resources(resources)
    return Draft202012Validator(json.loads((LIBRARY / "devicetype.json").read_text()), registry=registry)


def catalog_parts(catalog) -> list[Part]:
    return [Part(slug, kind, spec) for kind, table in KINDS for slug, spec in getattr(catalog, table).items()]


@pytest.fixture(scope="module")
def validator():
    return schema_validator()


def test_every_catalog_part_is_a_device_type_the_library_schema_accepts(catalog, validator):
    parts = catalog_parts(catalog)
    assert len(parts) >= 40
    for part in parts:
        data = yaml.safe_load(device_type_yaml(device_type(part)))
        errors = [error.message for error in validator.iter_errors(data)]
        assert errors == [], (part.slug, errors[:3])


def test_the_schema_refuses_what_the_library_refuses(validator):
    assert list(validator.iter_errors({"manufacturer": "Nvidia", "model": "X", "slug": "nvidia-x", "u_height": 1,
                                       "is_full_depth": True})) == []
    bad = {"manufacturer": "Nvidia", "model": "X", "slug": "Nvidia X", "u_height": 1.25, "is_full_depth": True,
           "interfaces": [{"name": "p1", "type": "800g-magic"}], "weight": 3}
    assert len(list(validator.iter_errors(bad))) == 4  # slug, u_height, interface type, weight without unit


def test_every_catalog_device_type_is_lint_clean(catalog):
    config = YamlLintConfig((LIBRARY / "yamllint.yaml").read_text())
    for part in catalog_parts(catalog):
        text = device_type_yaml(device_type(part))
        problems = [f"{problem.line}: {problem.desc}" for problem in linter.run(text, config)]
        assert problems == [], (part.slug, problems[:3])
        assert text.startswith("---\n")


def test_the_lint_rules_refuse_unindented_sequences_and_no_document_start():
    config = YamlLintConfig((LIBRARY / "yamllint.yaml").read_text())
    text = yaml.safe_dump({"manufacturer": "Nvidia", "interfaces": [{"name": "p1", "type": "other"}]}, sort_keys=False)
    rules = {problem.rule for problem in linter.run(text, config)}
    assert rules == {"document-start", "indentation"}


def test_library_names_where_the_library_has_the_part(catalog):
    types = {part.slug: device_type(part) for part in catalog_parts(catalog)}
    q3400 = types["q3400"]
    assert (q3400["manufacturer"], q3400["model"], q3400["part_number"]) == ("Nvidia", "Q3400-RA", "920-9B36F-00RX-8S0")
    names = [item["name"] for item in q3400["interfaces"]]
    assert names[:3] == ["eth0", "sw1p1", "sw1p2"] and names[-1] == "sw72p2"
    assert len(q3400["power-ports"]) == 8
    assert [item["name"] for item in types["sn5600"]["interfaces"]][:2] == ["eth0", "swp1"]
    assert types["dgx-h100"]["model"] == "DGX H100" and len(types["dgx-h100"]["power-ports"]) == 6
    pdu = next(data for slug, data in types.items() if slug.startswith("pdu-"))
    assert pdu["power-ports"][0]["name"] == "inlet" and pdu["power-outlets"]
