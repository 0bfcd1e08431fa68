"""The scenario editor built from the spec dataclasses: fields, typed values, errors by path."""

import dataclasses
import json
from pathlib import Path
from typing import Literal

import pytest
import yaml
from django.http import QueryDict

from catalog.solver.snapshot import CatalogSnapshot
from core.solver.schema import spec_field
from planner.solver.scenario import ScenarioSpec
from workspace.editor.fields import walk_spec
from workspace.editor.form import ScenarioEditor
from workspace.editor.labels import field_label
from workspace.editor.values import convert_text

KINDS = {field.name for field in dataclasses.fields(CatalogSnapshot)}


def post(document, **fields) -> QueryDict:
    data = QueryDict(mutable=True)
    data["document"] = json.dumps(document)
    for key, value in fields.items():
        if isinstance(value, list):
            data.setlist(key, value)
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(
    "text, annotation, expected",
    [
        ("256", int | None, 256),
        ("41.5", float, 41.5),
        ("4.0", int, 4.0),
        ("auto", Literal["auto"] | float, "auto"),
        ("1.3", Literal["auto"] | float, 1.3),
        ("2", Literal["auto", 2, 3], 2),
        ("123", str, "123"),
        (" padded ", str, "padded"),
        ("false", bool, False),
    ],
)
def test_posted_text_becomes_the_typed_value_when_it_parses(text, annotation, expected):
    value = convert_text(text, annotation)
    assert value == expected and type(value) is type(expected)


def test_labels_leave_out_the_words_their_unit_says():
    assert field_label("power_budget_kw", "kW") == "Power budget"
    assert field_label("electricity_usd_per_kwh", "USD/kWh") == "Electricity"
    assert field_label("usable_u", "U") == "Usable U"
    assert field_label("racks_per_row", "") == "Racks per row"


def test_every_scalar_field_of_the_spec_has_an_input(catalog):
    """Walk the spec independently: every int, float, str, bool and Literal field is in the form."""
    paths = {field.path for section in walk_spec(KINDS) for field in section.fields}
    assert {
        "name",
        "compute.system",
        "compute.gpus",
        "racks.power_budget_kw",
        "racks.cooling",
        "fabrics.compute.switch",
        "fabrics.compute.oversubscription.leaf",
        "prices",
    } <= paths
    assert not any(path.startswith("components") for path in paths)


def test_a_new_spec_field_appears_in_the_form_without_changes_to_it():
    @dataclasses.dataclass(frozen=True)
    class CoolantSpec:
        inlet_c: float = spec_field(30.0, unit="°C", help="Coolant inlet temperature.")

    @dataclasses.dataclass(frozen=True)
    class ExtendedSpec:
        name: str = spec_field(min_length=1)
        coolant: CoolantSpec | None = None
        storage_system: str = spec_field("vast-ceres", help="Storage appliance.")

    sections = walk_spec(KINDS, ExtendedSpec)
    by_path = {field.path: field for section in sections for field in section.fields}
    assert by_path["coolant.inlet_c"].unit == "°C"
    assert by_path["coolant.inlet_c"].help == "Coolant inlet temperature."
    assert by_path["storage_system"].widget == "select"
    assert by_path["storage_system"].catalog_kind == "storage_systems"
    assert [section.optional for section in sections if section.path == "coolant"] == [True]


def test_the_form_shows_defaults_and_catalog_choices_for_a_new_scenario(catalog):
    editor = ScenarioEditor({"name": "", "compute": {"system": "dgx-h100", "gpus": 8}}, catalog)
    fields = {field.path: field for field in editor.all_fields()}
    assert fields["racks.power_budget_kw"].value == "41"
    assert fields["compute.system"].value == "dgx-h100"
    assert ("dgx-h100", "NVIDIA DGX H100 — 8 GPUs, 10.2 kW, 8U") in fields["compute.system"].choices
    assert fields["racks.cooling"].choices[0][0] == "air"
    assert not {section.path: section.included for section in editor.sections}["fabrics.compute"]


def test_an_unknown_slug_in_a_document_stays_selected(catalog):
    editor = ScenarioEditor({"name": "x", "compute": {"system": "my-own", "gpus": 8}}, catalog)
    system = next(field for field in editor.all_fields() if field.path == "compute.system")
    assert system.value == "my-own" and ("my-own", "my-own (not in the catalog)") in system.choices


def test_the_posted_form_over_the_base_document(catalog):
    base = {
        "name": "x",
        "compute": {"system": "dgx-h100", "gpus": 8},
        "fabrics": {"compute": {"switch": "qm9700", "oversubscription": 2}},
        "components": {"systems": []},
    }
    data = post(
        base,
        **{
            "name": "y",
            "compute.system": "dgx-h100",
            "compute.gpus": "",
            "compute.nodes": "4",
            "include:fabrics.compute": "on",
            "fabrics.compute.switch": "qm9700",
            "fabrics.compute.oversubscription.leaf": "3",
            "fabrics.compute.oversubscription.spine": "1",
            "prices.key": ["qm9700", "", ""],
            "prices.value": ["20000", "", ""],
        },
    )
    document = ScenarioEditor.document_from_post(data, catalog)
    assert document["name"] == "y"
    assert document["compute"] == {"system": "dgx-h100", "nodes": 4}
    assert document["fabrics"]["compute"]["oversubscription"] == {"leaf": 3}
    assert document["components"] == {"systems": []}
    assert document["prices"] == {"qm9700": 20000}


def test_errors_go_to_the_field_the_section_or_the_form(catalog):
    errors = {
        "compute.gpus": ["must be a positive whole number"],
        "fabrics.compute.oversubscription.leaf": ["must be at most 64"],
        "prices.qm9700": ["must be a number, zero or more"],
        "components.systems[0].gpus": ["is required"],
        "document": ["is not valid JSON"],
    }
    document = {"name": "x", "compute": {"system": "dgx-h100"}, "prices": {"qm9700": -1}}
    editor = ScenarioEditor(document, catalog, errors)
    fields = {field.path: field for field in editor.all_fields()}
    assert fields["compute.gpus"].errors == ["must be a positive whole number"]
    assert fields["fabrics.compute.oversubscription.leaf"].errors == ["must be at most 64"]
    assert fields["prices"].rows[0].errors == ["must be a number, zero or more"]
    systems = next(item for item in editor.all_row_lists() if item.path == "components.systems")
    assert systems.errors == ["components.systems[0].gpus: is required"], "no row 0: on its list"
    assert "The document is not valid JSON" in editor.errors
    assert {section.path for section in editor.sections if section.open} >= {"compute", "prices"}


def posted_back(document, catalog):
    """The document as the form shows it, posted back unchanged."""
    editor = ScenarioEditor(document, catalog)
    data = post(document)
    for section in editor.sections:
        if section.optional and section.included:
            data[section.include_name] = "on"
        for field in section.fields:
            if field.widget == "rows":
                data.setlist("prices.key", [row.key for row in field.rows])
                data.setlist("prices.value", [row.value for row in field.rows])
            elif field.widget == "checkbox":
                data.setlist(field.path, ["false"] + (["true"] if field.checked else []))
            else:
                data[field.path] = field.value
    return ScenarioEditor.document_from_post(data, catalog)


def test_the_whole_spec_round_trips_through_the_form(catalog):
    """A document shown in the form and posted back unchanged reads to the same spec."""
    from planner.solver.scenario import read_scenario

    document = {
        "name": "x",
        "compute": {"system": "dgx-h100", "gpus": 64},
        "racks": {"power_budget_kw": 41, "cooling": "rear_door"},
        "fabrics": {"compute": {"switch": "qm9700", "tiers": 2}},
        "facility": {"pue": 1.3},
        "prices": {"dgx-h100": 250000},
    }
    posted = posted_back(document, catalog)
    assert read_scenario(posted) == read_scenario(document)
    assert isinstance(read_scenario(posted), ScenarioSpec)


def test_a_choice_left_out_stays_out_when_the_form_is_saved(catalog):
    """An optional choice with no default (the KV cache's precision follows the weights') shows
    '— none —', not its first choice, and the unchanged form posts the document back."""
    from planner.solver.scenario import read_scenario

    document = yaml.safe_load((Path(__file__).parents[2] / "examples" / "llama-70b-inference.yaml").read_text())
    fields = {field.path: field for field in ScenarioEditor(document, catalog).all_fields()}
    assert fields["inference.kv_cache_precision"].choices[0] == ("", "— none —")
    assert fields["inference.kv_cache_precision"].value == ""
    posted = posted_back(document, catalog)
    assert "kv_cache_precision" not in posted["inference"]
    assert read_scenario(posted) == read_scenario(document)


def test_every_share_in_the_form_is_in_percent(catalog):
    """A share that may pass 100 % (memory overhead, storage growth) is one all the same."""
    from workspace.words import is_share

    document = {"name": "x", "compute": {"system": "dgx-h100", "gpus": 8}, "workload": {}, "inference": {},
                "storage": {}, "pools": [{"name": "a", "system": "dgx-h100", "gpus": 8, "inference": {}}]}
    fields = ScenarioEditor(document, catalog).all_fields()
    assert [field.path for field in fields if field.widget == "number" and is_share(field.key) and not field.percent] == []


def test_the_memory_overhead_is_shown_in_percent_and_kept_as_a_fraction(catalog):
    document = {"name": "x", "compute": {"system": "dgx-h100", "gpus": 8},
                "inference": {"memory_overhead_fraction": 0.15}, "storage": {"growth": 1.5}}
    fields = {field.path: field for field in ScenarioEditor(document, catalog).all_fields()}
    overhead = fields["inference.memory_overhead_fraction"]
    assert (overhead.value, overhead.unit, overhead.default_text) == ("15", "%", "10")
    assert fields["storage.growth"].value == "150"
    posted = posted_back(document, catalog)
    assert posted["inference"]["memory_overhead_fraction"] == pytest.approx(0.15)
    assert posted["storage"]["growth"] == pytest.approx(1.5)
    errors: dict[str, list[str]] = {}
    ScenarioEditor.document_from_post(post(document, **{"inference.memory_overhead_fraction": "1200 %",
                                                        "include:inference": "on"}), catalog, errors)
    assert errors == {"inference.memory_overhead_fraction": ["must be between 0 % and 1000 %"]}
