"""The JSON Schemas of the scenario document and of the plan, generated from the dataclasses."""

import copy
import dataclasses
import typing
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from planner.scenario_json_schema import plan_json_schema, scenario_json_schema
from planner.services import plan_document
from planner.solver.documents import parse_document
from planner.solver.scenario import ScenarioSpec, read_scenario

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.yaml"))
H100 = {"name": "n", "compute": {"system": "dgx-h100", "gpus": 1024}}


@pytest.fixture(scope="module")
def document_validator():
    schema = scenario_json_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@pytest.fixture(scope="module")
def plan_validator():
    schema = plan_json_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def leaf_errors(error):
    """The errors under `error` that name a key: the document is a oneOf of one object per
    alternative (compute or pools), and an editor shows the errors of the alternative the
    document takes (the one whose required key it has), as jsonschema's best_match does."""
    if error.validator != "oneOf" or not error.context:
        return [error]
    branches: dict[int, list] = {}
    for child in error.context:
        branches.setdefault(child.relative_schema_path[0], []).append(child)
    taken = [errors for errors in branches.values()
             if not any(child.validator == "required" and not child.relative_path for child in errors)]
    chosen = taken[0] if len(taken) == 1 else min(branches.values(), key=len)
    return [leaf for child in chosen for leaf in leaf_errors(child)]


def errors_at(validator, document) -> dict[str, str]:
    return {leaf.json_path: leaf.message for error in validator.iter_errors(document) for leaf in leaf_errors(error)}


def test_there_are_examples_to_check():
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_every_example_is_a_valid_document(document_validator, path):
    document = parse_document(path.read_bytes(), "yaml")
    assert errors_at(document_validator, document) == {}


@pytest.mark.django_db
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_the_plan_of_every_example_has_the_plans_shape(plan_validator, document_validator, path):
    plan = plan_document(parse_document(path.read_bytes(), "yaml")).to_dict()
    assert errors_at(plan_validator, plan) == {}
    # The inputs as planned, every default filled in, are a document too.
    assert errors_at(document_validator, plan["inputs"]) == {}


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d.update(colour="blue"), "$"),
        (lambda d: d["compute"].update(gpu=8), "$.compute"),
        (lambda d: d.update(fabrics={"compute": {"switch": "qm9700", "topolgy": "fat_tree"}}), "$.fabrics.compute"),
        (lambda d: d["compute"].update(gpus=-8), "$.compute.gpus"),
        (lambda d: d["compute"].update(gpus=0), "$.compute.gpus"),
        (lambda d: d["compute"].update(gpus=2.5), "$.compute.gpus"),
        (lambda d: d["compute"].update(gpus="1024"), "$.compute.gpus"),
        (lambda d: d["compute"].update(gpus=10**12), "$.compute.gpus"),
        (lambda d: d.update(racks={"power_budget_kw": 0}), "$.racks.power_budget_kw"),
        (lambda d: d.update(racks={"cooling": "water"}), "$.racks.cooling"),
        (lambda d: d.update(storage={"tiers": [{"system": "x", "retained_checkpoints": 0}]}),
         "$.storage.tiers[0].retained_checkpoints"),
        (lambda d: d.update(prices={"dgx-h100": -1}), "$.prices['dgx-h100']"),
        (lambda d: d["compute"].update(nics=[{"role": "gpu", "count": 2, "gbps": 200}]), "$.compute.nics[0].role"),
        (lambda d: d["compute"].update(nics=[{"role": "storage", "count": 2}]), "$.compute.nics[0]"),
        (lambda d: d.pop("name"), "$"),
        (lambda d: d.update(name=""), "$.name"),
    ],
)
def test_refuses_what_the_reader_refuses_at_the_same_key(document_validator, change, path):
    document = copy.deepcopy(H100)
    change(document)
    errors = errors_at(document_validator, document)
    assert path in errors, errors
    with pytest.raises(Exception, match="must|unknown|required"):
        read_scenario(document)


@pytest.mark.parametrize(
    "sections",
    [
        {"fabrics": {"compute": {"switch": "qm9700", "oversubscription": 2}}},
        {"fabrics": {"compute": {"switch": "qm9700", "oversubscription": {"leaf": 2, "spine": 1.5}}}},
        {"storage": {"tiers": [{"system": "ddn-ai400x2", "serves": ["training_reads"], "protection": "replication"}]}},
        {"facility": {"pue": "auto", "chiller_share": 0.3}},
        {"facility": {"pue": 1.3}},
        {"reliability": {"checkpoint_interval_s": "young"}},
        {"reliability": {"checkpoint_interval_s": 1800}},
        {"fabrics": {"compute": {"switch": "qm9700", "tiers": 3, "dragonfly": None}, "oob": None}},
        {"workload": None, "compute": {"system": "dgx-h100", "gpus": 8.0}},
        {"compute": {"system": "dgx-h100", "gpus": 8, "nics": [{"role": "storage", "count": 2, "gbps": 200}]}},
    ],
)
def test_accepts_the_shorthands_choices_and_nulls_the_reader_accepts(document_validator, sections):
    document = {**H100, **sections}
    read_scenario(document)
    assert errors_at(document_validator, document) == {}


def test_keys_carry_their_bounds_default_unit_and_help():
    racks = scenario_json_schema()["$defs"]["RacksSpec"]
    assert racks["additionalProperties"] is False
    assert racks["properties"]["power_budget_kw"] == {
        "type": "number",
        "exclusiveMinimum": 0,
        "maximum": 2000,
        "description": "IT power one rack may draw. [kW]",
        "default": 41.0,
    }
    assert racks["properties"]["max_nodes_per_rack"]["type"] == ["integer", "null"]
    compute = scenario_json_schema()["$defs"]["ComputeSpec"]
    assert compute["required"] == ["system"]
    assert compute["properties"]["system"]["maxLength"] == 80


def test_every_shorthand_a_field_reads_is_declared_for_the_schema():
    """A `before` without `shorthand` would make the schema refuse a document the reader takes."""
    sections = _sections_of(ScenarioSpec)
    assert len(sections) > 10
    for cls in sections:
        for field in dataclasses.fields(cls):
            if field.metadata.get("before"):
                assert field.metadata.get("shorthand"), f"{cls.__name__}.{field.name}"


def _sections_of(root: type) -> list[type]:
    sections, pending = [], [root]
    while pending:
        cls = pending.pop()
        if cls in sections:
            continue
        sections.append(cls)
        hints = list(typing.get_type_hints(cls).values())
        while hints:
            hint = hints.pop()
            if dataclasses.is_dataclass(hint):
                pending.append(hint)
            hints.extend(typing.get_args(hint))
    return sections


@pytest.mark.django_db
def test_the_plans_inputs_are_given_back_exactly_so_that_they_plan_again(plan_validator, document_validator):
    """Found by schemathesis: rounded to 6 decimals, 1e-7 bytes per token came back as 0,
    below the bound the document schema states (and the reader refuses)."""
    document = {**H100, "storage": {"dataset_bytes_per_token": 1e-7}, "finance": {"discount_rate": -0.9999999}}
    plan = plan_document(document).to_dict()
    assert plan["inputs"]["storage"]["dataset_bytes_per_token"] == 1e-7
    assert plan["cost"]["assumptions"]["discount_rate"] == -0.9999999
    assert errors_at(plan_validator, plan) == {}
    assert plan_document(plan["inputs"]).to_dict()["inputs"] == plan["inputs"]
