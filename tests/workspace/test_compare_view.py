"""The comparison page: the order given, the reference the user picks, ratios, charts whose
axes show small and large clusters alike, BOM and fabric differences; grouped warnings on the
dashboard."""

from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from django.urls import reverse

from planner.key_figures import compare_groups, compared_figures
from planner.services import plan_document, scenario_create
from workspace.dashboard import sections as dashboard
from workspace.plots.figures import compare_figures as compare_charts

pytestmark = pytest.mark.django_db

EXAMPLES = Path(__file__).parents[2] / "examples"
EXAMPLE = yaml.safe_load((EXAMPLES / "dgx-h100-4su.yaml").read_text())
COMPARE = reverse("workspace:scenario-compare")


def sized(nodes: int, name: str) -> dict:
    return {**EXAMPLE, "name": name, "compute": {"system": "dgx-h100", "nodes": nodes}}


@pytest.fixture
def ada_client(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def pilot_and_cluster(user):
    """A 128-GPU pilot and a cluster of 10,240 GPUs of the same design."""
    pilot = scenario_create(owner=user, document=sized(16, "Pilot"))
    cluster = scenario_create(
        owner=user,
        document={**sized(1280, "Cluster"),
                  "fabrics": {"compute": {**EXAMPLE["fabrics"]["compute"], "tiers": 3}}},
    )
    return pilot, cluster


def rows_of(response) -> dict:
    return {
        (group, label): cells
        for group, rows in response.context["groups"]
        for label, _, cells in rows
    }


def test_the_order_given_is_kept_and_the_first_is_the_reference(ada_client, pilot_and_cluster):
    pilot, cluster = pilot_and_cluster
    response = ada_client.get(COMPARE + f"?ids={cluster.pk}&ids={pilot.pk}")
    assert [scenario.name for scenario in response.context["chosen"]] == ["Cluster", "Pilot"]
    assert response.context["reference_scenario"] == cluster
    gpus = rows_of(response)["Totals", "GPUs"]
    assert [cell.text for cell in gpus] == ["10,240", "128"]
    assert gpus[0].change == "" and gpus[1].change == "-98.8 %"


def test_the_user_picks_the_reference(ada_client, user, pilot_and_cluster):
    pilot, cluster = pilot_and_cluster
    third = scenario_create(owner=user, document=sized(32, "Double pilot"))
    url = COMPARE + f"?ids={cluster.pk}&ids={pilot.pk}&ids={third.pk}&ref={pilot.pk}"
    response = ada_client.get(url)
    assert [s.name for s in response.context["chosen"]] == ["Cluster", "Pilot", "Double pilot"]
    assert response.context["reference"] == 1
    gpus = rows_of(response)["Totals", "GPUs"]
    # The table shows the reference first, then the others in the order chosen.
    assert [cell.change for cell in gpus] == ["", "+7,900.0 %", "+100.0 %"]
    assert [column[0].name for column in response.context["columns"]] == ["Pilot", "Cluster", "Double pilot"]
    html = response.content.decode()
    # The reference is marked; every other column offers to become it, keeping the order.
    assert html.count('<span class="badge">reference</span>') == 1
    assert f"?ids={cluster.pk}&amp;ids={pilot.pk}&amp;ids={third.pk}&amp;ref={cluster.pk}" in html
    assert f"ref={pilot.pk}" in response.context["share_url"]
    # On a phone, one scenario against the reference: the one focused comes second.
    focused = ada_client.get(url + f"&focus={third.pk}")
    assert [column[0].name for column in focused.context["columns"]] == ["Pilot", "Double pilot", "Cluster"]
    assert [(scenario.name, current) for scenario, _, current in focused.context["against"]] == [
        ("Cluster", False), ("Double pilot", True)]
    # A reference that is not among the chosen scenarios (or not a number) is the first.
    for ref in (str(user.pk + 999), "x"):
        response = ada_client.get(COMPARE + f"?ids={cluster.pk}&ids={pilot.pk}&ref={ref}")
        assert response.status_code == 200 and response.context["reference"] == 0


def test_per_gpu_and_per_mw_rows(ada_client, pilot_and_cluster):
    pilot, cluster = pilot_and_cluster
    response = ada_client.get(COMPARE + f"?ids={pilot.pk}&ids={cluster.pk}")
    rows = rows_of(response)
    plans = [plan_document(scenario.document) for scenario in (pilot, cluster)]
    for cell, plan in zip(rows["Per GPU", "Capex per GPU"], plans):
        assert cell.text == f"{plan.cost.capex_usd / plan.compute.gpus:,.0f}"
    for cell, plan in zip(rows["Per MW", "GPUs per facility MW"], plans):
        expected = plan.compute.gpus / (plan.power.facility_kw / 1000)
        assert cell.text == f"{expected:,.0f}"
    # More GPUs in each MW is the better design; a lower capex per GPU too.
    per_mw = rows["Per MW", "GPUs per facility MW"][1]
    assert per_mw.direction == ("better" if per_mw.change.startswith("+") else "worse")
    assert [title for title, _ in response.context["groups"]] == ["Totals", "Per GPU", "Per MW", "Performance"]


def test_bom_and_fabric_differences_to_the_reference(ada_client, pilot_and_cluster):
    pilot, cluster = pilot_and_cluster
    response = ada_client.get(COMPARE + f"?ids={pilot.pk}&ids={cluster.pk}")
    (diff,) = response.context["diffs"]
    assert diff.scenario == cluster
    fabric = {change.item: change for change in diff.fabrics}
    assert (fabric["tiers"].old, fabric["tiers"].new) == (2, 3)
    assert fabric["core switches"].kind == "added"
    compute = next(change for change in diff.bom if change.sku == "dgx-h100")
    assert (compute.old_quantity, compute.new_quantity) == (16, 1280)
    html = response.content.decode()
    assert "tiers 2 → 3" in html and "+1,264" in html


def test_charts_start_on_a_log_axis_when_sizes_differ_a_hundredfold(pilot_and_cluster):
    pilot, cluster = pilot_and_cluster
    figures = [compared_figures(plan_document(s.document)) for s in (pilot, cluster)]
    charts = compare_charts(["Pilot", "Cluster"], figures, reference=1)
    counts = charts[0]
    assert counts["layout"]["yaxis"]["type"] == "log"
    buttons = {button["label"]: button["args"] for button in counts["layout"]["updatemenus"][0]["buttons"]}
    assert set(buttons) == {"Linear", "Log", "% of reference"}
    percent = buttons["% of reference"][0]["y"]
    # The reference is 100 % of itself; the pilot's GPUs are 1.25 % of the cluster's.
    assert percent[1][0] == pytest.approx(100)
    assert percent[0][0] == pytest.approx(128 / 10240 * 100)
    assert counts["data"][1]["name"] == "Cluster (reference)"
    # Per-GPU costs are of one size: a linear axis.
    per_gpu = next(chart for chart in charts if chart["layout"]["title"]["text"] == "Cost per GPU")
    assert per_gpu["layout"]["yaxis"]["type"] == "linear"


def test_compare_groups_of_a_plan_that_failed(pilot_and_cluster):
    plan = plan_document(pilot_and_cluster[0].document)
    groups = dict(compare_groups([None, plan], reference=0))
    gpus = {label: cells for label, _, cells in groups["Totals"]}["GPUs"]
    assert [(cell.text, cell.change) for cell in gpus] == [("—", ""), ("128", "")]


def test_the_dashboard_groups_warnings_and_links_each_to_its_section(ada_client, user):
    document = yaml.safe_load((EXAMPLES / "llama3-405b-54-days.yaml").read_text())
    scenario = scenario_create(owner=user, document=document)
    response = ada_client.get(reverse("workspace:scenario-detail", args=[scenario.pk]))
    lines = response.context["warning_lines"]
    plan = response.context["plan"]
    assert sum(line.group.count for line in lines) == len(plan.warnings) > 0
    html = response.content.decode()
    for line in lines:
        assert line.anchor and f'id="{line.anchor}"' in html
        assert f'href="#{line.anchor}"' in html
    assert [line.group.severity for line in lines] == sorted(
        (line.group.severity for line in lines), key=("critical", "warning", "notice").index
    )


def test_warning_lines_count_near_identical_warnings(catalog):
    plan = plan_document(EXAMPLE, catalog)
    sections = dashboard.plan_sections(plan)
    missing = [
        f"No transceiver in the catalog fits a 800 Gb/s port reaching {metres} m on the node-leaf "
        "links; they are counted without optics."
        for metres in range(3, 18)
    ]
    lines = dashboard.warning_lines(["The job is small.", *missing], sections)
    assert [(line.group.count, line.anchor) for line in lines] == [(15, "plan-fabrics"), (1, "plan-compute")]
    assert lines[0].section_title == "Fabrics"


def test_a_range_in_a_grouped_warning_is_never_broken(catalog):
    sections = dashboard.plan_sections(plan_document(EXAMPLE, catalog))
    (line,) = dashboard.warning_lines([f"The cables run {metres} m." for metres in (3, 17)], sections)
    assert line.text == "The cables run 3–\u206017 m."


def test_the_phases_of_one_scenario_are_compared_side_by_side(ada_client, user):
    phased = scenario_create(owner=user, document=yaml.safe_load((EXAMPLES / "three-phase-expansion.yaml").read_text()))
    url = reverse("workspace:scenario-compare-phases", args=[phased.pk])
    response = ada_client.get(url + "?ref=1")
    assert response.status_code == 200
    # The reference first, then the others in their order in time.
    assert [(column.name, column.start) for column, _, _ in response.context["columns"]] == [
        ("pre-production", "2026-09-01"), ("validation", "2026-03-01"), ("production", "2027-06-01")]
    assert '<span class="date">2026-09-01</span>' in response.content.decode()
    assert response.context["reference"] == 1
    # Each phase is the design of its own size: 25, 100 and 238 DGX H100 of 8 GPUs.
    assert [cell.text for cell in rows_of(response)["Totals", "GPUs"]] == ["800", "200", "1,904"]
    # A phone shows one phase against the reference: the one focused comes second.
    focused = ada_client.get(url + "?ref=1&focus=2")
    assert [column.name for column, _, _ in focused.context["columns"]] == ["pre-production", "production", "validation"]
    assert [(column.name, current) for column, _, current in focused.context["against"]] == [
        ("validation", False), ("production", True)]
    assert len(response.context["diffs"]) == 2
    assert url.encode() in ada_client.get(reverse("workspace:scenario-detail", args=[phased.pk])).content
    # A scenario without phases has none to compare: the scenario comparison, with it chosen.
    single = scenario_create(owner=user, document=sized(16, "Pilot"))
    response = ada_client.get(reverse("workspace:scenario-compare-phases", args=[single.pk]))
    assert response.status_code == 302 and f"ids={single.pk}" in response["Location"]
    assert ada_client.get(url + "?ref=x").status_code == 200


def test_a_performance_row_and_usd_in_the_bom_diff(ada_client, pilot_and_cluster):
    pilot, cluster = pilot_and_cluster
    response = ada_client.get(COMPARE + f"?ids={pilot.pk}&ids={cluster.pk}")
    rows = rows_of(response)
    plan = plan_document(pilot.document)
    pflops = plan.compute.gpus * plan.cost.usd_per_gpu_hour / plan.cost.usd_per_pflop_hour
    assert rows["Performance", "Dense compute"][0].text == f"{pflops:,.0f}"
    assert ("Performance", "Capex per dense PFLOPS") in rows
    assert "Δ USD" in response.content.decode()


@pytest.mark.parametrize("example", ["three-phase-expansion.yaml", "slurm-cluster-128-to-10k.yaml"])
def test_the_phase_comparison_shows_the_racks_and_capex_the_plan_gives_each_phase(ada_client, user, example):
    """One source for a phase's figures (planner.key_figures.phase_figures): the comparison's
    racks, power and capex of each phase are the site plan's phases[k] (as the API returns them),
    not those of the phase planned as a design of its own (under growth: final the floor of the
    last phase filled in; capex what the site has cost by the phase's end)."""
    document = yaml.safe_load((EXAMPLES / example).read_text())
    phased = scenario_create(owner=user, document=document)
    plan = plan_document(document)
    api = ada_client.get(f"/api/v1/scenarios/{phased.pk}/plan/")
    if api.status_code == 200:
        assert [phase["racks"] for phase in api.json()["phases"]] == [phase.racks for phase in plan.phases]
    rows = rows_of(ada_client.get(reverse("workspace:scenario-compare-phases", args=[phased.pk])))
    assert [cell.text for cell in rows["Totals", "Racks"]] == [f"{phase.racks:,}" for phase in plan.phases]
    built_by = [replace(plan, cost=replace(plan.cost, capex_usd=phase.cumulative_capex_usd)) for phase in plan.phases]
    assert [cell.text for cell in rows["Totals", "Capex"]] == [
        compared_figures(phase_plan)["capex_usd"].text for phase_plan in built_by]


def test_a_scenario_without_a_plan_says_why_in_words(ada_client, user, pilot_and_cluster):
    pilot, _ = pilot_and_cluster
    tight = scenario_create(owner=user, document={**sized(16, "Tight"), "racks": {"power_budget_kw": 5}})
    page = ada_client.get(COMPARE + f"?ids={pilot.pk}&ids={tight.pk}").content.decode()
    plan_row = page.split('<th scope="row" class="sticky-col">Plan</th>')[1].split("</tr>")[0]
    assert "no plan: Racks › Power budget" in plan_row
    assert "racks.power_budget_kw" not in plan_row
