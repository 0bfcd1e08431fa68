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


@pytest.mark.parametrize("example", ["three-phase-expansion", "slurm-cluster-128-to-10k", "mixed-generation-expansion"])
def test_a_phased_scenario_plans_alike_from_its_spec_and_its_document(catalog, example):
    """A phase's document is made from the spec when that is what the pipeline is given (a
    request reads its document once; a sweep reads each design's sections once): sections the
    document leaves out stay out, so that each phase reads as its document would."""
    document = yaml.safe_load((EXAMPLES / f"{example}.yaml").read_text())
    assert plan_scenario(read_scenario(document), catalog) == plan_scenario(document, catalog)
