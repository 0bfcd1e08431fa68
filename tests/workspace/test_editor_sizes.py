"""A phase's pool and storage sizes as one line of the editor."""

import json
from pathlib import Path

import pytest
import yaml
from django.http import QueryDict

from planner.solver.phase_spec import PhasePoolSpec, PhaseStorageSpec
from workspace.editor.form import ScenarioEditor
from workspace.editor.form_input import InputError
from workspace.editor.sizes import read_sizes, sizes_text

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_sizes_read_back_as_they_are_shown():
    pools = {"training": {"gpus": 1900}, "serving": {"nodes": 4}}
    assert sizes_text(pools, PhasePoolSpec) == "training: 1,900 GPUs; serving: 4 systems"
    assert read_sizes("training: 1,900 GPUs; serving: 4 systems", PhasePoolSpec) == pools
    assert read_sizes(" training : 256 gpus ;", PhasePoolSpec) == {"training": {"gpus": 256}}
    assert read_sizes("datasets: 800 TB; archive: 2 systems", PhaseStorageSpec) == {
        "datasets": {"other_tb": 800}, "archive": {"systems": 2}}


@pytest.mark.parametrize("text", ["training 256 GPUs", "training: 256 racks", "training: lots GPUs", ": 4 GPUs"])
def test_an_entry_that_cannot_be_read_says_how_to_write_it(text):
    with pytest.raises(InputError):
        read_sizes(text, PhasePoolSpec)


def phase_form(document, catalog) -> QueryDict:
    """The editor's inputs as the page posts them: every section's and row's input, and the
    hidden document the page carries."""
    data = QueryDict(mutable=True)
    editor = ScenarioEditor(document, catalog)
    data["document"] = json.dumps(document)
    for section in editor.sections:
        if section.optional and section.included:
            data[section.include_name] = "on"
    fields = [field for section in editor.sections for field in section.fields if field.widget != "rows"]
    for row_list in editor.all_row_lists():
        data[row_list.path] = "rows"
        for row in row_list.rows:
            data[f"{row_list.path}.{row.index}.__base"] = row.base
            fields += [*row.fields, *row.line_fields, *row.source_fields]
    for field in fields:
        if field.widget == "checkbox":
            data.setlist(field.path, ["false"] + (["true"] if field.checked else []))
        elif field.widget == "checkboxes":
            data.setlist(field.path, ["", *field.selected])
        else:
            data[field.path] = field.value
    return data


def test_the_phases_pool_sizes_are_edited_in_the_form(catalog):
    document = yaml.safe_load((EXAMPLES / "three-phase-expansion.yaml").read_text())
    data = phase_form(document, catalog)
    assert data["phases.0.pools.compute.size"] == "200"
    assert data["phases.0.pools.compute.unit"] == "gpus"
    data["phases.1.pools.compute.size"] = "1,024"
    posted = ScenarioEditor.document_from_post(data, catalog)
    assert [phase["pools"] for phase in posted["phases"]] == [
        {"compute": {"gpus": 200}}, {"compute": {"gpus": 1024}}, {"compute": {"gpus": 1900}}]


PHASED_EXAMPLES = sorted(
    path.name for path in EXAMPLES.glob("*.yaml") if "phases" in yaml.safe_load(path.read_text())
)


@pytest.mark.parametrize("name", PHASED_EXAMPLES)
def test_a_phased_example_round_trips_through_the_form_unchanged(name, catalog):
    """Shown in the form and posted back untouched, the document is the same, keys in their order."""
    document = yaml.safe_load((EXAMPLES / name).read_text())
    posted = ScenarioEditor.document_from_post(phase_form(document, catalog), catalog)
    assert posted["phases"] == document["phases"]
    assert yaml.safe_dump(posted["phases"], sort_keys=False) == yaml.safe_dump(document["phases"], sort_keys=False)
    assert posted.get("salvage_share") == document.get("salvage_share")


def mixed_generation():
    return yaml.safe_load((EXAMPLES / "mixed-generation-expansion.yaml").read_text())


def test_a_phase_row_has_a_line_per_pool_with_its_size_system_switch_and_retire(catalog):
    editor = ScenarioEditor(mixed_generation(), catalog)
    [phases] = [item for item in editor.all_row_lists() if item.path == "phases"]
    first, last = phases.rows[0], phases.rows[-1]
    assert [line.pool for line in first.pool_lines] == ["a100", "h100"]
    assert [line.in_phase for line in first.pool_lines] == [True, False]
    assert first.pool_lines.lines[1].size.value == ""
    assert [line.retire.checked for line in last.pool_lines] == [True, False]
    assert last.pool_lines.lines[1].size.value == "1,700"
    assert ("", "— the pool's own —") == first.pool_lines.lines[0].system.choices[0]
    assert "dgx-h100" in dict(first.pool_lines.lines[0].system.choices)
    assert "qm9700" in dict(first.pool_lines.lines[0].switch.choices)
    # the blank row the page copies has the pools too
    assert [line.pool for line in phases.template.pool_lines] == ["a100", "h100"]


def test_a_phase_changes_a_pools_system_and_switch_and_retires_another_in_the_form(catalog):
    document = mixed_generation()
    document["phases"][2]["pools"]["h100"]["fabric"] = {"switch": "qm9700", "topology": "fat_tree"}
    data = phase_form(document, catalog)
    data["phases.1.pools.h100.system"] = "dgx-b200"
    data["phases.1.pools.h100.switch"] = "qm9790"
    data["phases.1.pools.h100.unit"] = "nodes"
    data["phases.1.pools.h100.size"] = "75"
    data.setlist("phases.2.pools.a100.retire", ["false", "true"])
    data["phases.2.pools.h100.switch"] = ""
    data["phases.0.pools.a100.size"] = ""
    posted = ScenarioEditor.document_from_post(data, catalog)
    assert posted["phases"][0]["pools"] == {}
    assert posted["phases"][1]["pools"]["h100"] == {"nodes": 75, "system": "dgx-b200", "fabric": {"switch": "qm9790"}}
    assert posted["phases"][2]["pools"] == {"a100": {"retire": True}, "h100": {"gpus": 1700, "fabric": {"topology": "fat_tree"}}}


def test_a_size_that_cannot_be_read_is_kept_with_its_message(catalog):
    data = phase_form(mixed_generation(), catalog)
    data["phases.1.pools.h100.size"] = "lots"
    errors = {}
    posted = ScenarioEditor.document_from_post(data, catalog, errors)
    assert posted["phases"][1]["pools"]["h100"] == {"gpus": "lots"}
    assert list(errors) == ["phases[1].pools.h100.gpus"]


def test_a_phase_pools_errors_show_beside_its_line(catalog):
    editor = ScenarioEditor(mixed_generation(), catalog, errors={
        "phases[1].pools.h100.gpus": ["must be at least 1"],
        "phases[1].pools.h100.fabric.switch": ["unknown switch"],
    })
    [phases] = [item for item in editor.all_row_lists() if item.path == "phases"]
    line = phases.rows[1].pool_lines.lines[1]
    assert line.size.errors == ["must be at least 1"]
    assert line.switch.errors == ["unknown switch"]
    assert [link.anchor for link in editor.error_summary()] == [line.size.input_id, line.switch.input_id]


def slurm_cluster():
    return yaml.safe_load((EXAMPLES / "slurm-cluster-128-to-10k.yaml").read_text())


def test_a_phase_row_has_a_line_per_storage_tier(catalog):
    editor = ScenarioEditor(slurm_cluster(), catalog)
    [phases] = [item for item in editor.all_row_lists() if item.path == "phases"]
    first, last = phases.rows[0], phases.rows[-1]
    assert [line.tier for line in first.tier_lines] == ["burst-buffer", "datasets", "archive"]
    assert [line.built.checked for line in first.tier_lines] == [False, True, False]
    datasets = first.tier_lines[1]
    assert (datasets.system.value, datasets.systems.value, datasets.other_tb.value) == ("vast-cbox-dbox", "1", "100")
    assert [line.in_phase for line in last.tier_lines] == [False, False, False]
    assert all(line.built.checked for line in last.tier_lines)


def test_a_phase_resizes_builds_and_leaves_out_storage_tiers_in_the_form(catalog):
    data = phase_form(slurm_cluster(), catalog)
    data.setlist("phases.0.storage.burst-buffer.built", ["false", "true"])
    data["phases.0.storage.burst-buffer.systems"] = "2"
    data["phases.0.storage.datasets.system"] = ""
    data["phases.1.storage.archive.other_tb"] = ""
    data.setlist("phases.2.storage.archive.built", ["false"])
    posted = ScenarioEditor.document_from_post(data, catalog)
    assert posted["phases"][0]["storage"] == {
        "burst-buffer": {"systems": 2}, "datasets": {"systems": 1, "other_tb": 100}, "archive": {"built": False}}
    assert posted["phases"][1]["storage"] == {"burst-buffer": {"built": False}, "datasets": {"other_tb": 800}}
    assert posted["phases"][2]["storage"] == {"archive": {"built": False}}
