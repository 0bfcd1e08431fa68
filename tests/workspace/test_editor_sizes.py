"""A phase's pool and storage sizes as one line of the editor."""

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
    """The editor's inputs as the page posts them."""
    data = QueryDict(mutable=True)
    editor = ScenarioEditor(document, catalog)
    data["name"] = document["name"]
    for row_list in editor.all_row_lists():
        data[row_list.path] = "rows"
        for row in row_list.rows:
            data[f"{row_list.path}.{row.index}.__base"] = row.base
            for field in row.fields:
                data[field.path] = field.value
    return data


@pytest.mark.xfail(strict=True, reason=(
    "phases[].pools.<name> now also takes system, fabric and retire (issue 23): not a section of "
    "numbers only, so the editor shows it as rows, not on one line (the document still round-trips: "
    "tests/planner/test_examples.py); the one-line sizes need the editor to carry the other keys"))
def test_the_phases_pool_sizes_are_edited_in_the_form(catalog):
    document = yaml.safe_load((EXAMPLES / "three-phase-expansion.yaml").read_text())
    data = phase_form(document, catalog)
    assert data["phases.0.pools"] == "compute: 200 GPUs"
    data["phases.1.pools"] = "compute: 1,024 GPUs"
    posted = ScenarioEditor.document_from_post(data, catalog)
    assert [phase["pools"] for phase in posted["phases"]] == [
        {"compute": {"gpus": 200}}, {"compute": {"gpus": 1024}}, {"compute": {"gpus": 1900}}]
