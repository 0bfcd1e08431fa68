"""The services read a request's document once: the checks, the work estimate and the plan
share the spec read from it (`planner.services`)."""

from pathlib import Path
from unittest import mock

import pytest
import yaml

from planner import services
from planner.solver import pipeline
from planner.solver.pipeline import plan_scenario
from planner.solver.scenario import read_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def reads_while(call) -> int:
    """How many times `call` reads a scenario document into its spec."""
    with mock.patch.object(pipeline, "read_scenario", side_effect=read_scenario) as read:
        call()
    return read.call_count


def test_a_plan_reads_its_document_once(catalog):
    document = yaml.safe_load((EXAMPLES / "dgx-h100-4su.yaml").read_text())
    assert reads_while(lambda: services.plan_document(document, catalog)) == 1


@pytest.mark.django_db
def test_a_save_reads_its_document_once(user):
    document = yaml.safe_load((EXAMPLES / "two-pool-site.yaml").read_text())
    assert reads_while(lambda: services.scenario_create(owner=user, document=document)) == 1


@pytest.mark.django_db
def test_a_save_estimates_its_work_once(user):
    """The check for a save and the key figures it keeps share one estimate of the work."""
    document = yaml.safe_load((EXAMPLES / "two-pool-site.yaml").read_text())
    with mock.patch.object(services, "work_estimate", side_effect=services.work_estimate) as estimated:
        scenario = services.scenario_create(owner=user, document=document)
    assert estimated.call_count == 1
    figures = scenario.revisions.get().key_figures
    assert figures == services.document_key_figures(document, services.catalog_snapshot())


@pytest.mark.parametrize("example", ["three-phase-expansion", "slurm-cluster-128-to-10k", "mixed-generation-expansion"])
def test_a_phased_scenario_plans_alike_from_its_spec_and_its_document(catalog, example):
    """A phase's document is made from the spec when that is what the pipeline is given (a
    request reads its document once; a sweep reads each design's sections once): sections the
    document leaves out stay out, so that each phase reads as its document would."""
    document = yaml.safe_load((EXAMPLES / f"{example}.yaml").read_text())
    assert plan_scenario(read_scenario(document), catalog) == plan_scenario(document, catalog)


def test_a_plan_does_not_plan_again_the_fabrics_its_work_estimate_planned(catalog):
    """The estimate plans every fabric as the pipeline's first round does (no PDUs on oob yet):
    the plan takes those four from it and plans only what the rounds change (oob with the PDUs)."""
    from fabric.solver import fabric
    from planner.solver.limits import work_estimate

    document = {
        "name": "B300, 1k GPUs", "compute": {"system": "dgx-b300", "gpus": 1024},
        "racks": {"power_budget_kw": 130, "cooling": "direct_liquid"},
        "fabrics": {"compute": {"switch": "q3400"}, "storage": {"switch": "q3400"},
                    "inband": {"switch": "q3400"}, "oob": {"switch": "sn2201", "spine_switch": "sn5600"}},
    }

    def fabrics_planned(call) -> int:
        with mock.patch.object(fabric, "plan_fabric", side_effect=fabric.plan_fabric) as planned:
            call()
        return planned.call_count

    spec = services.scenario_validate(document, catalog)
    apart = fabrics_planned(lambda: (work_estimate(spec, catalog), plan_scenario(spec, catalog)))
    assert fabrics_planned(lambda: services.plan_document(document, catalog)) == apart - 4
