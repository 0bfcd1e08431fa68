"""axe-core (from the npm registry, installed by scripts/test) on the pages an architect works
in: no serious or critical accessibility violation on the list, the editor (new and with a
refused value), the plan and the comparison, on a desktop and on a phone."""

from pathlib import Path

import pytest
from django.conf import settings

from planner.services import scenario_create
from tests.browser.conftest import WIDTHS

pytestmark = pytest.mark.django_db(transaction=True)

AXE = Path(settings.BASE_DIR) / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = {"serious", "critical"}


def axe_violations(page) -> list[str]:
    """Each serious or critical violation, with the elements it was found on."""
    assert AXE.exists(), f"{AXE} is missing: scripts/test installs it with npm ci"
    # Evaluated through the DevTools protocol: the pages' Content-Security-Policy forbids inline scripts.
    page.evaluate(AXE.read_text())
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']} at "
        + ", ".join(" ".join(node["target"]) for node in violation["nodes"][:5])
        for violation in result["violations"]
        if violation["impact"] in BLOCKING
    ]


@pytest.fixture
def two_scenarios(architect):
    design = {"racks": {"power_budget_kw": 41}, "fabrics": {"compute": {"switch": "qm9700"}}}
    return [
        scenario_create(owner=architect, document={"name": name, "compute": {"system": "dgx-h100", "gpus": gpus}, **design})
        for name, gpus in (("Pilot", 128), ("Cluster", 1024))
    ]


def pages(scenarios) -> dict[str, str]:
    first, second = scenarios
    return {
        "list": "/scenarios/",
        "new scenario": "/scenarios/new/",
        "editor": f"/scenarios/{first.pk}/edit/",
        "plan": f"/scenarios/{second.pk}/",
        "compare": f"/compare/?ids={second.pk}&ids={first.pk}&ref={first.pk}",
        "sweep": f"/scenarios/{second.pk}/sweep/",
    }


@pytest.mark.parametrize("device", WIDTHS)
def test_no_serious_or_critical_violations(signed_in, live_server, two_scenarios, device):
    page = signed_in
    page.set_viewport_size({"width": WIDTHS[device], "height": 900})
    found = {}
    for name, path in pages(two_scenarios).items():
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        found[name] = axe_violations(page)
    assert not any(found.values()), "\n".join(f"{name}: {line}" for name, lines in found.items() for line in lines)


def test_no_serious_or_critical_violations_with_a_refused_value(signed_in, live_server, two_scenarios):
    page = signed_in
    page.goto(f"{live_server.url}/scenarios/{two_scenarios[0].pk}/edit/")
    page.fill('[name="compute.gpus"]', "-8")
    page.click("button[type=submit]:has-text('Save revision 2')")
    page.wait_for_selector("#err-compute-gpus:has-text('must be a positive whole number')")
    violations = axe_violations(page)
    assert not violations, "\n".join(violations)


@pytest.mark.parametrize("device", WIDTHS)
def test_no_serious_or_critical_violations_on_a_sweeps_errors_and_result(
    signed_in, live_server, two_scenarios, device, settings, tmp_path
):
    from jobs.worker import Worker

    settings.JOBS_DIR = tmp_path / "jobs"
    page = signed_in
    page.set_viewport_size({"width": WIDTHS[device], "height": 900})
    page.goto(f"{live_server.url}/scenarios/{two_scenarios[0].pk}/sweep/")
    page.select_option("#id-axis-0-key", "compute.gpus")
    page.fill("#id-axis-0-values", "128, lots")
    page.click("button[type=submit]:has-text('Run the sweep')")
    page.wait_for_selector("#err-axis-0-values:has-text('is not a number')")
    found = {"sweep errors": axe_violations(page)}
    page.fill("#id-axis-0-values", "128, 256")
    page.click("button[type=submit]:has-text('Run the sweep')")
    page.wait_for_selector("#job-progress")
    Worker().run_once()
    page.wait_for_selector("#sweep-scatter .main-svg", timeout=10_000)
    page.click("#feasible-designs > summary")
    found["sweep result"] = axe_violations(page)
    assert not any(found.values()), "\n".join(f"{name}: {line}" for name, lines in found.items() for line in lines)
