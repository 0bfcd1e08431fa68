"""The small forms of the workspace: the scenario list, import, rename and compare.

The scenario editor, built from the spec dataclasses, is in workspace/editor/form.py.
"""

from django import forms

from planner.solver.documents import MAX_DOCUMENT_BYTES

MIN_COMPARED = 2
MAX_COMPARED = 6


SCENARIO_SORTS = {
    "name": "name",
    "-name": "-name",
    "updated": "updated_at",
    "-updated": "-updated_at",
}
"""The list's sort choices and the ordering of each."""


class ScenarioListForm(forms.Form):
    q = forms.CharField(required=False, max_length=200, label="Search by name")
    sort = forms.ChoiceField(
        required=False,
        choices=[
            ("-updated", "Last updated first"),
            ("updated", "Oldest update first"),
            ("name", "Name A–Z"),
            ("-name", "Name Z–A"),
        ],
        label="Sort by",
    )

    def ordering(self) -> str:
        sort = self.cleaned_data.get("sort") if self.is_valid() else ""
        return SCENARIO_SORTS.get(sort or "-updated", "-updated_at")


class ScenarioImportForm(forms.Form):
    file = forms.FileField(label="Scenario file (JSON or YAML)")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_DOCUMENT_BYTES:
            raise forms.ValidationError(
                f"is larger than the {MAX_DOCUMENT_BYTES // 1024:,} KiB a scenario may be"
            )
        return upload


class ScenarioRenameForm(forms.Form):
    name = forms.CharField(max_length=200, label="New name")


def parse_compared_ids(values: list[str]) -> list[int]:
    """The distinct scenario ids of a comparison, in the order given."""
    ids: list[int] = []
    for value in values:
        try:
            number = int(value)
        except ValueError:
            continue
        if number > 0 and number not in ids:
            ids.append(number)
    return ids
