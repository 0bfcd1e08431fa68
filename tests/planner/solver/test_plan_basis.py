"""A plan's basis (`pipeline.PlanBasis`: all of it but the facility's power and the cost) is
kept by the scenario without the facility's power fields and the finance's cost fields
(`basis_key`): the designs of a sweep that differ only in those share it. The basis must not
read them, and a plan priced on another design's basis is the plan made alone."""

from dataclasses import fields, replace
from pathlib import Path

import pytest
import yaml

from planner.solver.cluster import ClusterSizing
from planner.solver.pipeline import (
    PRICED_KEYS,
    basis_key,
    plan_basis,
    plan_scenario,
    validate_scenario,
)
from planner.solver.rounds import CABLES_ENGINE, FULL_PLAN, PlanOptions
from planner.solver.scenario import FinanceSpec
from planner.solver.site import SiteSizing
from planner.solver.tco import FINANCE_COST_FIELDS
from power.solver.facility import FACILITY_POWER_FIELDS
from power.solver.specs import FacilitySpec
from tests.fields_read import FieldsRead

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def example(name: str) -> dict:
    return yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text())


@pytest.mark.parametrize(
    "name",
    ["dgx-h100-4su", "llama3-405b-54-days", "llama-70b-inference", "two-pool-site", "training-and-inference-site"],
)
def test_the_basis_reads_no_power_or_cost_field(catalog, name):
    scenario, full_catalog = validate_scenario(example(name), catalog)
    facility, finance = FieldsRead(scenario.facility), FieldsRead(scenario.finance)
    noted = replace(scenario, facility=facility, finance=finance)
    sizing = (SiteSizing if noted.pools else ClusterSizing)(noted, full_catalog)
    basis = plan_basis(noted, full_catalog, sizing, FULL_PLAN)
    assert basis.bom and facility.read and finance.read  # the cooling plant and the spares read theirs
    assert not facility.read & FACILITY_POWER_FIELDS
    assert not finance.read & FINANCE_COST_FIELDS


def test_the_fields_left_out_of_the_key_are_fields_and_hold_the_priced_keys():
    assert FACILITY_POWER_FIELDS <= {field.name for field in fields(FacilitySpec)}
    assert FINANCE_COST_FIELDS <= {field.name for field in fields(FinanceSpec)}
    # designs priced at once share one basis
    assert PRICED_KEYS <= {f"facility.{name}" for name in FACILITY_POWER_FIELDS} | {
        f"finance.{name}" for name in FINANCE_COST_FIELDS}


def test_designs_that_differ_in_power_and_cost_fields_share_a_basis_and_no_more(catalog):
    scenario, _ = validate_scenario(example("dgx-h100-4su"), catalog)
    key = basis_key(scenario, FULL_PLAN)
    priced = replace(scenario, name="another",
                     facility=replace(scenario.facility, pue=1.7, electricity_usd_per_kwh=0.2),
                     finance=replace(scenario.finance, years=9, discount_rate=0.11))
    assert basis_key(priced, FULL_PLAN) == key
    assert basis_key(scenario, PlanOptions(CABLES_ENGINE)) != key
    assert basis_key(replace(scenario, facility=replace(scenario.facility, climate="hot")), FULL_PLAN) != key
    assert basis_key(replace(scenario, finance=replace(scenario.finance, facility="built")), FULL_PLAN) != key
    assert basis_key(replace(scenario, prices={"dgx-h100": 1.0}), FULL_PLAN) != key


@pytest.mark.parametrize("name", ["llama-70b-inference", "training-and-inference-site"])
def test_a_plan_priced_on_another_designs_basis_is_the_plan_made_alone(catalog, name):
    """Inference's cost per token too: it reads the life and the TCO of the design priced."""
    document = example(name)
    other = {**document, "facility": {**document.get("facility", {}), "pue": 1.45, "electricity_usd_per_kwh": 0.13},
             "finance": {**document.get("finance", {}), "years": 7, "discount_rate": 0.09}}
    cache: dict = {}
    plan_scenario(document, catalog, cache=cache)
    shared = plan_scenario(other, catalog, cache=cache)
    alone = plan_scenario(other, catalog)
    assert shared.to_dict() == alone.to_dict()
    assert shared.cost.usd_per_million_output_tokens == alone.cost.usd_per_million_output_tokens is not None
    assert sum(1 for key in cache if key[0] == "basis") == 1
