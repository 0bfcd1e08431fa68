"""The pipeline with a workload, storage tiers and reliability: GPUs from the job, storage in the BOM."""

import json
from pathlib import Path

import pytest

from core.solver.errors import ScenarioError
from planner.solver.documents import parse_document
from planner.solver.pipeline import plan_scenario
from storage.solver.tiers import storage_endpoint_groups, storage_system_counts

LLAMA3_405B_IN_54_DAYS = {
    "name": "Llama 3 405B in 54 days",
    "compute": {"system": "dgx-h100", "spare_nodes": 30},
    "workload": {"parameters_billion": 405, "tokens_trillion": 15.6, "days": 54, "mfu": 0.4},
    "storage": {
        "checkpoint_write_s": 60,
        "tiers": [
            {"system": "ddn-ai400x2-turbo", "serves": ["training_reads", "checkpoint_writes"]},
            {"system": "object-hdd-4u60", "holds": ["dataset", "checkpoints"], "retained_checkpoints": 20,
             "protection": {"scheme": "erasure_coding", "data_shards": 8, "parity_shards": 3}},
        ],
    },
    "reliability": {"restart_s": 600},
}


def test_the_workload_sizes_the_gpus_and_storage_and_reliability_follow(catalog):
    plan = plan_scenario(LLAMA3_405B_IN_54_DAYS, catalog)
    # 20,530.1 GPUs → 20,531 → ceil(20,531 / 8) = 2,567 DGX H100 = 20,536 GPUs
    assert plan.workload.gpus_needed == 20_531
    assert (plan.compute.nodes, plan.compute.gpus, plan.workload.gpus) == (2567, 20_536, 20_536)
    assert plan.workload.training_days < 54
    # hot tier: reads 20,536 GB/s / 120 = 171.1 → 172 systems; writes 5,670 GB / 60 s = 94.5 GB/s / 80 → 2
    hot, archive = plan.storage.tiers
    assert (hot.systems, hot.bound_by) == (172, "bandwidth")
    # archive: (62.4 + 20 × 5.67) TB × 1.2 × 11/8 = 290.07 TB → 1 system
    assert archive.capacity_needed_tb == pytest.approx((62.4 + 113.4) * 1.2 * 11 / 8)
    assert (archive.systems, archive.bound_by) == (1, "capacity")
    # achieved write: 5,670 GB / (172 × 80 GB/s) = 0.41 s; the interval uses it
    assert plan.storage.checkpoint_write_s == pytest.approx(5670 / (172 * 80))
    assert plan.reliability.checkpoint_write_s == plan.storage.checkpoint_write_s
    # MTBI: 8,766 h / (0.17298 × 20,536) = 2.468 h
    assert plan.reliability.mtbi_h == pytest.approx(2.4677, rel=1e-4)
    assert 0 < plan.reliability.goodput < 1
    assert plan.reliability.expected_job_days == pytest.approx(
        plan.workload.training_days / plan.reliability.goodput)


def test_storage_systems_reach_the_bom_and_the_other_steps(catalog):
    plan = plan_scenario(LLAMA3_405B_IN_54_DAYS, catalog)
    storage_lines = {line.sku: line.quantity for line in plan.bom if line.category == "storage"}
    assert storage_lines == {"ddn-ai400x2-turbo": 172, "object-hdd-4u60": 1}
    assert storage_system_counts(plan.storage) == [("ddn-ai400x2-turbo", 172), ("object-hdd-4u60", 1)]
    assert [(group.name, group.count, group.ports_per_endpoint) for group in storage_endpoint_groups(plan.storage)] == [
        ("ddn-ai400x2-turbo", 172, 4), ("object-hdd-4u60", 1, 2)]


def test_the_plan_carries_the_contract_keys_and_is_json(catalog):
    plan = plan_scenario(LLAMA3_405B_IN_54_DAYS, catalog).to_dict()
    assert {"workload", "storage", "reliability"} <= set(plan)
    assert {"mtbi_h", "checkpoint_interval_s", "goodput"} <= set(plan["reliability"])
    assert {"systems", "capacity_tb", "read_gbytes_per_s", "write_gbytes_per_s"} <= set(plan["storage"]["tiers"][0])
    assert {"checkpoint_write_s", "read_gbytes_per_s_per_gpu"} <= set(plan["storage"])
    json.dumps(plan)
    warnings = " ".join(plan["warnings"])
    assert "most of its capacity sits idle" in warnings
    assert "more than the 54 days allowed" in warnings


def test_gpus_given_the_plan_gives_the_days(catalog):
    document = {
        "name": "70B on 1,024 GPUs",
        "compute": {"system": "dgx-h100", "gpus": 1024},
        "workload": {"parameters_billion": 70, "tokens_trillion": 15},
    }
    plan = plan_scenario(document, catalog)
    # 6 × 70e9 × 15e12 = 6.3e24 FLOP / (1,024 × 86,400 × 395.76e12) = 179.9 days
    assert plan.workload.training_days == pytest.approx(6.3e24 / (1024 * 86_400 * 395.76e12))
    # No tiers: the needs are stated, nothing is bought; the write target is 5 % of Daly's interval
    assert plan.storage.tiers == () and not [line for line in plan.bom if line.category == "storage"]
    assert plan.reliability.checkpoint_write_s == pytest.approx(plan.storage.checkpoint_write_target_s)
    assert plan.reliability.checkpoint_write_s / plan.reliability.checkpoint_interval_s == pytest.approx(0.05)


def test_a_reliability_section_alone_gives_reliability(catalog):
    document = {"name": "r", "compute": {"system": "dgx-h100", "nodes": 128}, "reliability": {}}
    plan = plan_scenario(document, catalog).to_dict()
    assert plan["reliability"]["gpus"] == 1024 and "workload" not in plan


def test_bad_workload_and_storage_input_reaches_the_caller(catalog):
    document = {**LLAMA3_405B_IN_54_DAYS, "workload": {"parameters_billion": 405, "tokens_trillion": 15.6,
                                                       "days": 54, "mfu": 0}}
    with pytest.raises(ScenarioError) as caught:
        plan_scenario(document, catalog)
    assert caught.value.as_dict() == {"workload.mfu": ["must be a number greater than 0"]}
    document = {**LLAMA3_405B_IN_54_DAYS, "storage": {"tiers": [{"system": "no-such", "holds": ["dataset"]}]}}
    with pytest.raises(ScenarioError) as caught:
        plan_scenario(document, catalog)
    assert list(caught.value.as_dict()) == ["storage.tiers[0].system"]


def test_the_example_job_scenario_plans(catalog):
    example = Path(__file__).resolve().parents[3] / "examples" / "llama3-405b-54-days.yaml"
    plan = plan_scenario(parse_document(example.read_text()), catalog)
    assert plan.compute.gpus == 20_536 and plan.reliability.spare_nodes_needed <= plan.compute.spare_nodes
    late = [warning for warning in plan.warnings if "days allowed" in warning]
    # 20,536 GPUs × 58.48 expected days / 54 allowed = 22,239 GPUs
    assert late and "about 22,239 GPUs would finish in time" in late[0]
