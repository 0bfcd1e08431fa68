"""The editor's preview panel: key figures with their change against the saved revision, the
small charts, the grouped warnings and the sliders' data."""

import copy
import json
import re
from pathlib import Path

import pytest
import yaml
from django.contrib.auth import get_user_model
from django.urls import reverse

from catalog.rows import catalog_snapshot
from planner.key_figures import KeyFigure, format_figure, key_figures
from planner.services import plan_document, scenario_create
from power.plots import power_flow_figure
from workspace.editor.form import ScenarioEditor
from workspace.editor.preview import (
    MAX_WARNING_LINES,
    MINUS,
    FigureChange,
    figure_change,
    preview_figures,
    preview_warnings,
)
from workspace.plots import figures as plots

pytestmark = pytest.mark.django_db

EXAMPLE = yaml.safe_load((Path(__file__).parents[2] / "examples" / "dgx-h100-4su.yaml").read_text())
PREVIEW = reverse("workspace:scenario-preview")


@pytest.fixture
def ada_client(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def saved(user):
    return scenario_create(owner=user, document=copy.deepcopy(EXAMPLE))


def editor_post(document, **fields):
    """What the editor's form posts: the hidden document and every field as the page fills it,
    with `fields` typed over them."""
    editor = ScenarioEditor(document, catalog_snapshot())
    data = {"document": json.dumps(document), "base_revision": "1"}
    for section in editor.sections:
        if section.optional and section.included:
            data[section.include_name] = "on"
        for field in section.fields:
            if field.widget == "checkbox":
                data[field.path] = "true" if field.checked else "false"
            elif field.widget != "rows":
                data[field.path] = field.value
    data.update(fields)
    return data


def figures_of(document) -> dict[str, KeyFigure]:
    return {figure.key: figure for figure in key_figures(plan_document(document))}


def with_budget(document, kw):
    changed = copy.deepcopy(document)
    changed["racks"]["power_budget_kw"] = kw
    return changed


# ---------------------------------------------------------------------------------------------
# Changes of the figures


def test_changes_are_computed_from_the_two_plans():
    before = figures_of(EXAMPLE)
    after = figures_of(with_budget(EXAMPLE, 20))
    by_key = {item.figure.key: item for item in preview_figures(
        plan_document(with_budget(EXAMPLE, 20)), list(before.values())
    )}
    more_racks = after["racks"].value - before["racks"].value
    assert more_racks > 0, "half the rack budget takes more racks"
    assert by_key["racks"].change == FigureChange(f"+{more_racks:,.0f}", "up")
    capex_share = (after["capex_usd"].value - before["capex_usd"].value) / before["capex_usd"].value
    assert by_key["capex_usd"].change.text == f"{capex_share:+.1%}".replace("%", " %").replace("-", MINUS)
    assert by_key["gpus"].change is None, "the GPUs did not change"


def test_a_smaller_figure_is_signed_with_a_minus_and_its_unit():
    saved = KeyFigure("it_mw", "IT power", 1.75, "MW", 2)
    change = figure_change(KeyFigure("it_mw", "IT power", 1.35, "MW", 2), saved)
    assert change.text == f"{MINUS}{format_figure(0.40, 2)} MW"
    assert change.direction == "down" and change.words == "less"


def test_a_figure_where_less_is_better_says_better_or_worse_in_words():
    saved = KeyFigure("pue", "PUE", 1.30, "", 2, lower_is_better=True)
    better = figure_change(KeyFigure("pue", "PUE", 1.20, "", 2, lower_is_better=True), saved)
    worse = figure_change(KeyFigure("pue", "PUE", 1.45, "", 2, lower_is_better=True), saved)
    assert (better.direction, better.words) == ("better", "better")
    assert (worse.direction, worse.words) == ("worse", "worse")


def test_a_change_that_rounds_away_is_not_shown():
    saved = KeyFigure("pue", "PUE", 1.3000, "", 2, lower_is_better=True)
    assert figure_change(KeyFigure("pue", "PUE", 1.3004, "", 2, lower_is_better=True), saved) is None


# ---------------------------------------------------------------------------------------------
# The preview view


def test_the_preview_of_an_edited_scenario_shows_each_change_against_its_saved_revision(
    ada_client, saved
):
    data = editor_post(saved.document, **{"racks.power_budget_kw": "20", "scenario": str(saved.pk)})
    response = ada_client.post(PREVIEW, data)
    assert response.status_code == 200
    before, after = figures_of(EXAMPLE), figures_of(with_budget(EXAMPLE, 20))
    by_key = {item.figure.key: item for item in response.context["figures"]}
    assert by_key["racks"].figure.value == after["racks"].value > before["racks"].value
    assert by_key["racks"].change.text == f"+{after['racks'].value - before['racks'].value:,.0f}"
    assert response.context["saved_revision"] == 1
    html = response.content.decode()
    assert "Changes against revision 1 as saved" in html
    racks_tile = re.search(r'<div class="key-figure" data-key="racks">.*?</div>', html, re.S).group(0)
    assert 'class="change change-up"' in racks_tile and "more" in racks_tile


def test_the_unchanged_form_shows_no_changes(ada_client, saved):
    response = ada_client.post(PREVIEW, editor_post(saved.document, scenario=str(saved.pk)))
    assert [item.change for item in response.context["figures"]] == [None] * len(
        response.context["figures"]
    )
    assert 'class="change ' not in response.content.decode()


def test_a_new_scenario_has_no_changes(ada_client):
    response = ada_client.post(PREVIEW, editor_post(EXAMPLE, **{"racks.power_budget_kw": "20"}))
    assert response.status_code == 200
    assert response.context["saved_revision"] is None
    assert all(item.change is None for item in response.context["figures"])
    assert "Changes against revision" not in response.content.decode()


def test_a_scenario_that_is_not_a_number_is_refused_by_name(ada_client, saved):
    response = ada_client.post(PREVIEW, editor_post(saved.document, scenario="4 OR 1=1"))
    assert response.status_code == 400
    assert response.content.decode().startswith("scenario:")


def test_another_users_scenario_is_not_found(client, saved):
    grace = get_user_model().objects.create_user("grace", password="cobol-compiler")
    client.force_login(grace)
    response = client.post(PREVIEW, editor_post(saved.document, scenario=str(saved.pk)))
    assert response.status_code == 404


def test_the_preview_carries_its_charts_as_json_built_from_the_plan(ada_client):
    response = ada_client.post(PREVIEW, editor_post(EXAMPLE))
    html = response.content.decode()
    charts = json.loads(re.search(r'<script id="preview-charts" type="application/json">(.*?)</script>', html, re.S).group(1))
    assert set(charts) == {"preview-chart-capex", "preview-chart-years", "preview-chart-power"}
    plan = plan_document(EXAMPLE)
    assert charts["preview-chart-years"]["data"] == plots.cost_over_years_figure(plan)["data"]
    assert charts["preview-chart-power"]["data"] == power_flow_figure(plan.power)["data"]
    treemap = charts["preview-chart-capex"]["data"][0]
    assert treemap["maxdepth"] == 2 and treemap["values"][0] == pytest.approx(plan.cost.capex_usd, rel=0.2)


def test_the_years_chart_follows_the_years_field(ada_client):
    response = ada_client.post(PREVIEW, editor_post(EXAMPLE, **{"finance.years": "8"}))
    chart = response.context["preview_charts"]["preview-chart-years"]
    assert max(len(trace["x"]) for trace in chart["data"]) == 9, "year 0 and eight years of operation"


def test_the_edit_page_has_the_sliders_bound_to_their_fields(ada_client, saved):
    response = ada_client.get(reverse("workspace:scenario-edit", args=[saved.pk]))
    html = response.content.decode()
    for path in ("compute.gpus", "racks.power_budget_kw", "facility.pue",
                 "facility.electricity_usd_per_kwh", "finance.years"):
        assert f'data-path="{path}"' in html
        assert f'name="{path}"' in html, "the form has the field the slider is bound to"
    assert 'data-scenario="%d"' % saved.pk in html
    per_system = json.loads(re.search(r'<script id="gpus-per-system" type="application/json">(.*?)</script>', html).group(1))
    assert per_system["dgx-h100"] == catalog_snapshot().systems["dgx-h100"].gpus
    assert 'type="range" id="slide-rack-kw" min="5" max="150"' in html


# ---------------------------------------------------------------------------------------------
# Warnings


def test_warnings_are_grouped_most_serious_first_with_the_rest_counted():
    warnings = [f"Link of {length} m has no cable of that length in the catalog." for length in range(3, 18)]
    warnings += [f"Kind {word} sits idle: 4 ports left free." for word in "abcdef"]
    warnings += ["The facility cannot cool 140 kW racks with air."]
    shown = preview_warnings(warnings)
    assert len(shown.lines) == MAX_WARNING_LINES
    assert shown.lines[0].severity == "critical"
    cables = next(group for group in shown.lines if "cable" in group.message)
    assert cables.count == 15 and "3–17 m" in cables.message
    assert shown.total == len(warnings)
    assert shown.hidden_kinds == 1 + 6 + 1 - MAX_WARNING_LINES
    assert shown.hidden_count == len(warnings) - sum(group.count for group in shown.lines)


def test_the_preview_lists_the_plans_warnings_grouped(ada_client):
    document = copy.deepcopy(EXAMPLE)
    document["compute"] = {"system": "dgx-h100", "gpus": 1020}
    plan = plan_document(document)
    assert plan.warnings, "1,020 GPUs do not fill whole systems: the plan warns"
    response = ada_client.post(PREVIEW, editor_post(document))
    html = response.content.decode()
    grouped = response.context["preview_warnings"]
    assert sum(group.count for group in grouped.lines) + grouped.hidden_count == len(plan.warnings)
    assert '<div class="preview-warnings">' in html
    assert html.count('<li class="severity-') == len(grouped.lines)
