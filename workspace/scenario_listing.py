"""The scenario list: its filters, its pages and the key figures of each row, read from what
each revision kept when it was saved (planner.key_figures.revision_figures), never planned here
(unless a revision has not kept them yet)."""

from dataclasses import dataclass

from django import forms
from django.core.paginator import Page, Paginator

from planner.key_figures import format_figure
from planner.models import Scenario, System
from planner.selectors import revisions_for_list, scenario_list_filtered, scenario_systems
from planner.services import revision_key_figures_fill
from workspace.forms import ScenarioListForm
from workspace.words import words_of

SCENARIOS_PER_PAGE = 25

LIST_COLUMNS = [
    # (key in the stored figures, heading, unit, decimals)
    ("gpus", "GPUs", "", 0),
    ("racks", "Racks", "", 0),
    ("facility_mw", "Facility", "MW", 2),
    ("capex_usd", "Capex", "USD", 0),
    ("usd_per_gpu_hour", "Per GPU-hour", "USD", 2),
]


class ScenarioFilterForm(ScenarioListForm):
    """The list's search and sort, and a filter by system (only the systems the owner uses)."""

    q = forms.CharField(required=False, max_length=200, label="Search name or system")
    system = forms.ChoiceField(required=False, label="System")

    def __init__(self, data=None, *, systems: list[tuple[str, str]]):
        super().__init__(data)
        self.fields["system"].choices = [("", "All systems"), *systems]

    def filters(self) -> dict[str, str]:
        if not self.is_valid():
            return {"text": "", "system": ""}
        return {"text": self.cleaned_data["q"].strip(), "system": self.cleaned_data["system"]}


@dataclass(frozen=True)
class ScenarioRow:
    scenario: Scenario
    system: str
    """The systems' catalog names, a site's pools' joined by " + " (a slug the catalog no longer
    has in words)."""
    cells: list[str]
    """One text per LIST_COLUMNS, "—" for a figure the plan lacks."""
    warnings: int | None
    """None when the revision could not be planned."""
    errors: int = 0


def _document_systems(document) -> list[str]:
    """The system slugs a document plans on: its compute's, or each pool's in order."""
    if not isinstance(document, dict):
        return []
    compute = document.get("compute")
    pools = document.get("pools")
    parts = [compute] if isinstance(compute, dict) else pools if isinstance(pools, list) else []
    slugs = [part.get("system") for part in parts if isinstance(part, dict)]
    return list(dict.fromkeys(slug for slug in slugs if isinstance(slug, str) and slug))


def _row(scenario: Scenario, figures: dict, system_names: dict[str, str], slugs: list[str]) -> ScenarioRow:
    cells = [
        format_figure(figures[key], decimals) if isinstance(figures.get(key), (int, float)) else "—"
        for key, _, _, decimals in LIST_COLUMNS
    ]
    planned = figures.get("planned", False)
    return ScenarioRow(
        scenario=scenario,
        system=" + ".join(system_names.get(slug, words_of(slug)) for slug in slugs),
        cells=cells,
        warnings=figures.get("warnings", 0) if planned else None,
        errors=figures.get("errors", 0),
    )


def scenario_list_page(*, owner, data) -> tuple[ScenarioFilterForm, Page, list[ScenarioRow]]:
    """The filter form, the page of scenarios `data` (a query) asks for, and its rows."""
    slugs = scenario_systems(owner=owner)
    system_names = dict(System.objects.filter(slug__in=slugs).values_list("slug", "name"))
    form = ScenarioFilterForm(
        data or None, systems=[(slug, system_names.get(slug, slug)) for slug in slugs]
    )
    scenarios = scenario_list_filtered(owner=owner, **form.filters()).order_by(form.ordering(), "pk")
    page = Paginator(scenarios, SCENARIOS_PER_PAGE).get_page((data or {}).get("page"))
    revisions = revisions_for_list(page.object_list)
    revision_key_figures_fill(revisions.values())
    documents = {pk: revision.document for pk, revision in revisions.items()}
    used = {slug for document in documents.values() for slug in _document_systems(document)}
    system_names.update(System.objects.filter(slug__in=used - set(system_names)).values_list("slug", "name"))
    rows = []
    for scenario in page.object_list:
        revision = revisions.get(scenario.pk)
        figures = revision.key_figures if revision else {}
        rows.append(_row(scenario, figures, system_names, _document_systems(documents.get(scenario.pk))))
    return form, page, rows
