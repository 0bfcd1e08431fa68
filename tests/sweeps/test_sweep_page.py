"""The sweep page of a scenario: the form read into a sweep document, its errors next to the
inputs they are about (never a 500), the job's result as the page shows it, and a design saved
as a scenario."""

import json

import pytest
from django.test import Client

from jobs.models import Job
from jobs.worker import Worker
from planner.models import Scenario
from planner.services import scenario_create
from sweeps.forms import PLAN_KEYS, split_values
from sweeps.jobs import MAX_FEASIBLE_KEPT, sweep_result
from sweeps.solver.keys import plan_key_problem
from sweeps.solver.spec import read_sweep

pytestmark = pytest.mark.django_db

BASE = {
    "name": "Pod",
    "compute": {"system": "dgx-h100", "gpus": 256},
    "racks": {"power_budget_kw": 41},
    "fabrics": {"compute": {"switch": "qm9700"}},
}


@pytest.fixture(autouse=True)
def jobs_dir(settings, tmp_path):
    settings.JOBS_DIR = tmp_path / "jobs"


@pytest.fixture
def client(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def scenario(user):
    return scenario_create(owner=user, document=json.loads(json.dumps(BASE)))


def url(scenario, rest=""):
    return f"/scenarios/{scenario.pk}/sweep/{rest}"


def form_data(**extra):
    data = {
        "axis-0-key": "compute.gpus", "axis-0-values": "256, 1,024",
        "axis-1-key": "fabrics.compute.topology", "axis-1-choices": ["fat_tree", "rail_only"],
        "objective-0-key": "cost.tco_usd", "objective-0-goal": "minimise",
        "objective-1-key": "power.facility_kw", "objective-1-goal": "minimise",
    }
    data.update(extra)
    return data


def sweep_document(job: Job) -> dict:
    return json.loads(job.parameters["sweep"])


def test_every_offered_plan_figure_is_a_number_of_the_plan():
    assert {key: plan_key_problem(key) for key in PLAN_KEYS} == dict.fromkeys(PLAN_KEYS)


def test_values_split_at_commas_but_not_inside_grouped_numbers():
    assert split_values("256, 1,024; 16,384") == ["256", "1,024", "16,384"]
    assert split_values("1,2,3") == ["1", "2", "3"]
    assert split_values("fat_tree,rail_only") == ["fat_tree", "rail_only"]


def test_the_page_offers_the_scenarios_fields_in_words_with_defaults(client, scenario):
    response = client.get(url(scenario))
    assert response.status_code == 200
    page = response.content.decode()
    assert '<optgroup label="Compute fabric (GPU back-end)">' in page
    assert '<option value="racks.power_budget_kw">Power budget (kW)</option>' in page
    # A catalog field chooses among parts by name; the scenario's own system is chosen.
    assert 'value="dgx-h100" checked> NVIDIA DGX H100' in page, "ticked in a list of checkboxes"
    assert '<option value="cost.tco_usd" selected>TCO (USD)</option>' in page
    assert '<option value="power.facility_kw" selected>Facility power (kW)</option>' in page
    assert f'href="/scenarios/{scenario.pk}/sweep/"' in client.get(f"/scenarios/{scenario.pk}/").content.decode()


def test_the_form_makes_the_sweep_document_and_starts_a_job(client, scenario, user):
    data = form_data(**{"axis-2-key": "racks.power_budget_kw", "axis-2-from": "40", "axis-2-to": "60",
                        "axis-2-step": "10", "constraint-0-key": "power.facility_kw", "constraint-0-max": "1,500"})
    response = client.post(url(scenario), data)
    job = Job.objects.get(owner=user)
    assert response.status_code == 302 and response["Location"] == url(scenario, f"{job.pk}/")
    document = sweep_document(job)
    assert document["base"] == BASE
    assert document["axes"] == {
        "compute.gpus": [256, 1024],
        "fabrics.compute.topology": ["fat_tree", "rail_only"],
        "racks.power_budget_kw": {"from": 40, "to": 60, "step": 10},
    }
    assert document["constraints"] == {"power.facility_kw": {"max": 1500}}
    assert document["objectives"] == [{"key": "cost.tco_usd", "goal": "minimise"},
                                      {"key": "power.facility_kw", "goal": "minimise"}]
    assert read_sweep(document).design_count == 12
    assert "12 designs" in job.title


def test_a_percent_field_is_typed_in_percent_and_kept_as_a_fraction(client, scenario, user):
    client.post(url(scenario), form_data(**{"axis-1-key": "", "axis-1-choices": [],
                                            "axis-0-key": "racks.cable_slack_fraction", "axis-0-values": "5 %, 10"}))
    assert sweep_document(Job.objects.get(owner=user))["axes"] == {"racks.cable_slack_fraction": [0.05, 0.1]}


def test_choices_left_from_another_field_are_ignored_and_slugs_may_be_typed(client, scenario, user):
    client.post(url(scenario), form_data(**{
        "axis-0-choices": ["dgx-h100"], "axis-1-key": "compute.system", "axis-1-choices": [],
        "axis-1-values": "dgx-h100, l40s-8",
    }))
    axes = sweep_document(Job.objects.get(owner=user))["axes"]
    assert axes == {"compute.gpus": [256, 1024], "compute.system": ["dgx-h100", "l40s-8"]}


def test_a_problem_of_the_scenario_itself_is_said_above_the_form(client, scenario):
    # The pod has no workload: varying its MFU leaves the workload's required fields out.
    response = client.post(url(scenario), form_data(**{"axis-0-key": "workload.mfu", "axis-0-values": "35 %, 40"}))
    assert response.status_code == 400
    assert "The scenario itself (workload.parameters_billion): is required" in response.content.decode()


@pytest.mark.parametrize(
    ("changes", "input_id", "message"),
    [
        ({"axis-0-key": "compute.nonsense"}, "id-axis-0-key", "unknown key"),
        ({"axis-0-values": "256, lots"}, "id-axis-0-values", "“lots” is not a number"),
        ({"axis-0-values": "", "axis-0-from": "256", "axis-0-to": "128", "axis-0-step": "128"},
         "id-axis-0-from", "must not exceed to"),
        ({"axis-0-values": "", "axis-0-from": "256"}, "id-axis-0-to", "is needed for a range"),
        ({"axis-1-choices": ["fat_tree", "no_such_topology"]}, "id-axis-1-choices", "“no_such_topology”"),
        ({"axis-1-key": "compute.gpus"}, "id-axis-1-key", "is already varied above"),
        ({"constraint-0-key": "power.facility_kw", "constraint-0-min": "2,000", "constraint-0-max": "1,000"},
         "id-constraint-0-min", "must not exceed max"),
        ({"constraint-0-key": "power.facility_kw"}, "id-constraint-0-min", "give a minimum, a maximum or both"),
        ({"constraint-1-key": "power.facility_kw", "constraint-1-max": "ten"}, "id-constraint-1-max", "is not a number"),
        ({"objective-1-key": "cost.tco_usd"}, "id-objective-1-key", "is already an objective"),
        ({"objective-0-goal": "whatever"}, "id-objective-0-goal", "must be one of"),
        ({"objective-0-key": "cost.nonsense"}, "id-objective-0-key", "unknown key"),
    ],
)
def test_bad_input_is_shown_next_to_its_input(client, scenario, changes, input_id, message):
    response = client.post(url(scenario), form_data(**changes))
    assert response.status_code == 400
    page = response.content.decode()
    error_id = input_id.replace("id-", "err-", 1)
    errors_at = page.index(f'id="{error_id}"')
    assert message in page[errors_at:page.index("</div>", errors_at)], page[errors_at:errors_at + 400]
    assert f'<a href="#{input_id}">' in page
    assert page.count(message) >= 2  # by the input and in the summary
    assert not Job.objects.exists()


def test_no_axes_no_objectives_and_too_many_designs_are_refused_by_group(client, scenario):
    empty = client.post(url(scenario), {"objective-0-key": ""})
    assert empty.status_code == 400
    page = empty.content.decode()
    assert "give at least one axis" in page and "give at least one: " in page

    huge = client.post(url(scenario), form_data(**{"axis-0-values": "", "axis-0-from": "8", "axis-0-to": "800,000",
                                                   "axis-0-step": "8"}))
    assert huge.status_code == 400
    assert "give 200,000 designs; the page sweeps at most 100,000" in huge.content.decode()


def run_sweep_page(client, scenario, user, **changes):
    client.post(url(scenario), form_data(**changes))
    job = Job.objects.get(owner=user)
    assert Worker().run_once().pk == job.pk
    job.refresh_from_db()
    return job


def test_the_result_shows_counts_refusals_scatter_tables_and_best(client, scenario, user):
    job = run_sweep_page(client, scenario, user, **{
        "axis-2-key": "fabrics.compute.switch", "axis-2-choices": ["qm9700", "sn2201"],
        "constraint-0-key": "power.facility_kw", "constraint-0-max": "1,000",
    })
    result = sweep_result(job)
    feasible = [design["design"] for design in result["feasible_designs"]]
    assert len(feasible) == result["feasible"] == 2
    assert {design["design"] for design in result["front"]} <= set(feasible)

    progress = client.get(url(scenario, f"{job.pk}/progress/"))
    assert progress["HX-Refresh"] == "true"
    page = client.get(url(scenario, f"{job.pk}/")).content.decode()
    assert "<strong>2</strong> of 8 designs are feasible" in page
    # The refusals, grouped, in words, with their counts and an example.
    assert "<strong>4</strong> designs: Compute fabric (GPU back-end) › Switch" in page
    assert "<strong>2</strong> designs: Facility power (kW): above the maximum" in page
    assert "constraints.power" not in page.split('<script id="sweep-chart"')[0]  # the dotted path is the API's
    chart = json.loads(page.split('<script id="sweep-chart" type="application/json">')[1].split("</script>")[0])
    traces = {trace["name"]: trace for trace in chart["data"]}
    assert [trace["name"] for trace in chart["data"]] == ["Refused by a limit", "Other feasible designs", "Pareto front"]
    front_trace = traces["Pareto front"]
    assert sorted(front_trace["customdata"]) == sorted(design["design"] for design in result["front"])
    assert chart["layout"]["xaxis"]["title"]["text"] == "TCO (USD)"
    # The constraint on the plotted facility power is a line across the chart at its maximum.
    assert [(shape["y0"], shape["y1"]) for shape in chart["layout"]["shapes"]] == [(1000, 1000)]
    assert chart["layout"]["annotations"][0]["text"] == "max 1,000"
    assert "Compute fabric (GPU back-end) › Topology: Fat tree" in "".join(front_trace["text"]) + "".join(
        traces["Other feasible designs"]["text"])
    # The two designs the facility power refused, planned, faint beneath the others.
    refused = [(design["design"], design["refused_at"]) for design in result["refused_designs"]]
    assert [path for _, path in refused] == ["constraints.power.facility_kw.max"] * 2
    faint = traces["Refused by a limit"]
    # Designs 4 and 6 differ only in a topology that changes no figure: one point, with its count.
    assert (faint["customdata"], [number for number, _ in refused]) == ([4], [4, 6])
    assert "2 designs with these figures: 4, 6" in faint["text"][0]
    assert "Refused by a limit: Facility power (kW): above the maximum" in faint["text"][0]
    assert "in faint grey, designs a limit refused." in page
    assert '<button type="button" class="sort" data-column="1" data-numeric="1">Compute › GPUs</button>' in page
    assert "Lowest TCO (USD)" in page and "Lowest facility power (kW)" in page


def test_the_job_keeps_the_feasible_designs_of_the_lowest_numbers_up_to_a_cap(client, scenario, user, monkeypatch):
    monkeypatch.setattr("sweeps.jobs.MAX_FEASIBLE_KEPT", 3)
    job = run_sweep_page(client, scenario, user, **{"axis-0-values": "256, 512, 768, 1,024"})
    result = sweep_result(job)
    assert result["feasible"] == 8
    assert [design["design"] for design in result["feasible_designs"]] == [0, 1, 2]
    assert MAX_FEASIBLE_KEPT == 1_000
    page = client.get(url(scenario, f"{job.pk}/")).content.decode()
    assert "the first 3 of 8" in page


def test_saving_a_design_creates_the_scenario_of_its_values(client, scenario, user):
    job = run_sweep_page(client, scenario, user)
    response = client.post(url(scenario, f"{job.pk}/save/"), {"design": "3"})
    saved = Scenario.objects.exclude(pk=scenario.pk).get(owner=user)
    assert response.status_code == 302 and response["Location"] == f"/scenarios/{saved.pk}/"
    # Design 3 of gpus [256, 1024] x topology [fat_tree, rail_only]: the last axis varies fastest.
    assert saved.document == {**BASE, "name": "Pod · sweep design 3", "compute": {"system": "dgx-h100", "gpus": 1024},
                              "fabrics": {"compute": {"switch": "qm9700", "topology": "rail_only"}}}


@pytest.mark.parametrize("design", ["4", "-1", "three", ""])
def test_saving_a_design_out_of_the_sweep_is_a_400(client, scenario, user, design):
    job = run_sweep_page(client, scenario, user)
    response = client.post(url(scenario, f"{job.pk}/save/"), {"design": design})
    assert response.status_code == 400
    assert b"design: give the number of one of the sweep's designs" in response.content
    assert Scenario.objects.filter(owner=user).count() == 1


def test_another_owners_scenario_or_job_is_not_found(client, scenario, user, django_user_model):
    job = run_sweep_page(client, scenario, user)
    other = Client()
    other.force_login(django_user_model.objects.create_user("grace", password="compiler-compiler"))
    assert other.get(url(scenario)).status_code == 404
    assert other.get(url(scenario, f"{job.pk}/")).status_code == 404
    assert other.post(url(scenario, f"{job.pk}/save/"), {"design": "0"}).status_code == 404


@pytest.mark.parametrize(
    "junk",
    [
        {"axis-0-key": "racks", "axis-0-values": "{}"},
        {"axis-0-key": "name", "axis-0-values": "a, b"},
        {"axis-0-values": "", "axis-0-from": "nan", "axis-0-to": "1e999", "axis-0-step": "0"},
        {"axis-0-values": "256, 256"},
        {"axis-1-choices": ["fat_tree"] * 3},
        {"constraint-0-key": "compute", "constraint-0-min": "1e999"},
        {"constraint-0-min": "5"},
        {"objective-0-key": "racks.total", "objective-0-goal": "", "objective-1-key": "fabrics"},
        {"axis-0-key": "x" * 5000, "axis-0-values": "," * 5000},
    ],
)
def test_junk_is_a_400_by_field_never_a_500(client, scenario, junk):
    response = client.post(url(scenario), form_data(**junk))
    assert response.status_code == 400
    assert 'id="error-summary"' in response.content.decode()


def test_equal_designs_are_one_point_with_their_count():
    from sweeps.page import SweepResultView

    figures = {"cost.tco_usd": 10.0, "power.facility_kw": 5.0}
    front = [{"design": number, "values": {}, "figures": dict(figures)} for number in (3, 7)]
    result = {"axes": {}, "objectives": [{"key": "cost.tco_usd", "goal": "minimise"},
                                         {"key": "power.facility_kw", "goal": "minimise"}],
              "front": front, "feasible_designs": front, "designs": 2, "feasible": 2, "refusals": [], "best": []}
    trace = SweepResultView(result, {}).scatter()["data"][1]
    assert trace["x"] == [10.0] and trace["customdata"] == [3]
    assert "2 designs with these figures: 3, 7" in trace["text"][0]


def _two_objective_result(**extra):
    objectives = [{"key": "cost.tco_usd", "goal": "minimise"}, {"key": "power.facility_kw", "goal": "minimise"}]
    front = [{"design": 0, "values": {"compute.gpus": 256}, "figures": {"cost.tco_usd": 10.0, "power.facility_kw": 5.0}}]
    return {"axes": {"compute.gpus": [256, 1024]}, "objectives": objectives, "front": front,
            "feasible_designs": front, "designs": 3, "feasible": 1, "best": [],
            "constraints": [{"key": "power.facility_kw", "min": None, "max": 8.0}], **extra}


def test_designs_refused_by_a_limit_are_a_faint_trace_beneath_with_the_limit_in_words():
    from sweeps.page import SweepResultView

    refused = [{"design": 1, "values": {"compute.gpus": 1024},
                "figures": {"cost.tco_usd": 30.0, "power.facility_kw": 19.0},
                "refused_at": "constraints.power.facility_kw.max", "reason": "19 is above the maximum 8"}]
    refusals = [{"path": "constraints.power.facility_kw.max", "designs": 1, "example": "19 is above the maximum 8"},
                {"path": "compute.system", "designs": 1, "example": "no such system"}]
    view = SweepResultView(_two_objective_result(refused_designs=refused, refusals=refusals), {})
    data = view.scatter()["data"]
    assert [trace["name"] for trace in data] == ["Refused by a limit", "Other feasible designs", "Pareto front"]
    faint = data[0]
    assert (faint["x"], faint["y"], faint["customdata"]) == ([30.0], [19.0], [1])
    assert faint["marker"]["opacity"] == pytest.approx(0.35) and faint["marker"]["size"] == [6]
    assert faint["marker"]["color"] not in {data[1]["marker"]["color"], data[2]["marker"]["color"]}
    assert {trace["marker"]["opacity"] for trace in data[1:]} == {1.0}
    hover = faint["text"][0]
    assert "Refused by a limit: Facility power (kW): above the maximum (19 is above the maximum 8)" in hover
    assert "constraints." not in hover and "facility_kw" not in hover
    # The design refused before it was planned (compute.system) is counted, not drawn.
    assert view.refused_capped is False


def test_a_sweep_without_refused_designs_has_no_refused_trace():
    from sweeps.page import SweepResultView

    data = SweepResultView(_two_objective_result(refusals=[]), {}).scatter()["data"]
    assert [trace["name"] for trace in data] == ["Other feasible designs", "Pareto front"]


def test_the_job_keeps_the_designs_a_limit_refused_with_their_figures_not_those_never_planned(
    client, scenario, user, monkeypatch,
):
    monkeypatch.setattr("sweeps.jobs.MAX_REFUSED_KEPT", 2)
    # 256 and 1,024 GPUs, two topologies, two switches (sn2201 refused by the planner), and a
    # facility power that refuses the 1,024-GPU designs.
    job = run_sweep_page(client, scenario, user, **{
        "axis-2-key": "fabrics.compute.switch", "axis-2-choices": ["qm9700", "sn2201"],
        "constraint-0-key": "power.facility_kw", "constraint-0-max": "1,000",
    })
    result = sweep_result(job)
    by_limit = next(item["designs"] for item in result["refusals"] if item["path"].startswith("constraints."))
    assert by_limit == 2
    kept = result["refused_designs"]
    assert [design["design"] for design in kept] == sorted(design["design"] for design in kept)
    for design in kept:
        assert design["refused_at"] == "constraints.power.facility_kw.max"
        assert design["values"]["compute.gpus"] == 1024
        assert design["figures"]["power.facility_kw"] > 1000 and design["figures"]["cost.tco_usd"] > 0
        assert design["reason"].endswith("is above the maximum 1,000")
    assert {design["design"] for design in kept}.isdisjoint(design["design"] for design in result["feasible_designs"])


def test_the_job_keeps_the_refused_designs_of_the_lowest_numbers_up_to_a_cap(client, scenario, user, monkeypatch):
    from sweeps.jobs import MAX_REFUSED_KEPT

    assert MAX_REFUSED_KEPT == 1_000
    monkeypatch.setattr("sweeps.jobs.MAX_REFUSED_KEPT", 1)
    job = run_sweep_page(client, scenario, user, **{
        "axis-0-values": "768, 1,024", "constraint-0-key": "power.facility_kw", "constraint-0-max": "1",
    })
    result = sweep_result(job)
    assert [design["design"] for design in result["refused_designs"]] == [0]
    # No design is feasible: the chart shows the refused alone, how far over the limit they are.
    page = client.get(url(scenario, f"{job.pk}/")).content.decode()
    assert "<strong>0</strong> of 4 designs are feasible" in page
    assert "No design is feasible; in faint grey, designs a limit refused (the first 1)." in page
    chart = json.loads(page.split('<script id="sweep-chart" type="application/json">')[1].split("</script>")[0])
    assert [trace["name"] for trace in chart["data"]] == ["Refused by a limit"]
