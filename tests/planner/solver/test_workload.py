"""Workload sizing: the 6·N·T arithmetic by hand, Llama 3 405B, and every kind of bad workload input."""

import numpy as np
import pytest

from catalog.solver.parts import SystemSpec
from core.solver.errors import ScenarioError
from planner.solver.scenario import WorkloadSpec, read_scenario
from planner.solver.workload import (
    days_for_gpus,
    gpus_for_days,
    size_workload,
    training_flops,
    workload_gpus_needed,
)

# A round-number GPU system so that the arithmetic can be done by hand.
ROUND_SYSTEM = SystemSpec(
    slug="round-8", name="Round 8-GPU system", price_usd=1, gpus=8, power_kw=10, rack_units=8,
    weight_kg=100, dense_bf16_tflops_per_gpu=1000, dense_fp8_tflops_per_gpu=2000,
)


def test_training_flops_is_six_per_parameter_per_token():
    # 6 × 1e9 parameters × 1e12 tokens = 6e21 FLOP
    assert training_flops(1e9, 1e12) == pytest.approx(6e21)
    # Llama 3 405B on 15.6T tokens: 6 × 405e9 × 15.6e12 = 3.7908e25 FLOP
    assert training_flops(405e9, 15.6e12) == pytest.approx(3.7908e25)


def test_gpus_and_days_by_hand():
    # One GPU: 1,000 TFLOPS × 0.5 MFU = 5e14 FLOP/s; a day is 86,400 s, so 4.32e19 FLOP per GPU-day.
    # 6e21 FLOP in 1 day: 6e21 / 4.32e19 = 138.888... GPUs
    assert gpus_for_days(6e21, 1000, 0.5, 1) == pytest.approx(138.8889, rel=1e-6)
    # 100 GPUs: 6e21 / (100 × 4.32e19) = 1.388... days
    assert days_for_gpus(6e21, 1000, 0.5, 100) == pytest.approx(1.388889, rel=1e-6)


def test_vector_call_matches_a_loop_of_scalar_calls():
    gpus = np.array([8, 100, 1024, 16_384])
    vector = days_for_gpus(3.7908e25, 989.4, 0.4, gpus)
    assert vector == pytest.approx([days_for_gpus(3.7908e25, 989.4, 0.4, int(g)) for g in gpus])


def test_days_given_sizes_the_gpus_rounded_up():
    spec = WorkloadSpec(parameters_billion=1, tokens_trillion=1, days=1, mfu=0.5)
    # 138.9 GPUs → 139
    assert workload_gpus_needed(spec, ROUND_SYSTEM) == 139
    # The plan rounds to whole systems: 18 × 8 = 144 GPUs, which finish in 6e21 / (144 × 4.32e19) = 0.9645 days
    result = size_workload(spec, ROUND_SYSTEM, gpus=144)
    assert (result.gpus_needed, result.gpus) == (139, 144)
    assert result.training_days == pytest.approx(0.964506, rel=1e-6)
    assert result.gpu_hours == pytest.approx(144 * 0.964506 * 24, rel=1e-6)
    assert result.effective_tflops_per_gpu == pytest.approx(500)
    assert any("138.9 → 139 GPUs" in line for line in result.arithmetic)


def test_without_days_the_plan_gives_the_days():
    spec = WorkloadSpec(parameters_billion=1, tokens_trillion=1, mfu=0.5)
    assert workload_gpus_needed(spec, ROUND_SYSTEM) is None
    result = size_workload(spec, ROUND_SYSTEM, gpus=100)
    assert result.gpus_needed is None and result.days_allowed is None
    assert result.training_days == pytest.approx(1.388889, rel=1e-6)


def test_llama3_405b_on_dgx_h100(catalog):
    """Meta, The Llama 3 Herd of Models (2024): 405B parameters, 15.6T tokens, BF16, 38-43 % MFU."""
    system = catalog.systems["dgx-h100"]
    spec = WorkloadSpec(parameters_billion=405, tokens_trillion=15.6, mfu=0.4)
    result = size_workload(spec, system, gpus=16_384)
    # 3.7908e25 / (16,384 × 86,400 s × 989.4e12 × 0.4) = 3.7908e25 / 5.60229e23 = 67.67 days
    assert result.training_flops == pytest.approx(3.7908e25)
    assert result.training_days == pytest.approx(67.665, rel=1e-4)
    in_54_days = WorkloadSpec(parameters_billion=405, tokens_trillion=15.6, mfu=0.4, days=54)
    # 3.7908e25 / (54 × 86,400 × 395.76e12) = 20,530.1 → 20,531 GPUs
    assert workload_gpus_needed(in_54_days, system) == 20_531


def test_fp8_uses_the_dense_fp8_throughput(catalog):
    system = catalog.systems["dgx-h100"]
    spec = WorkloadSpec(parameters_billion=405, tokens_trillion=15.6, mfu=0.4, precision="fp8")
    result = size_workload(spec, system, gpus=16_384)
    assert result.dense_tflops_per_gpu == pytest.approx(1978.9)
    # Twice the throughput (1,978.9 vs 989.4 TFLOPS): about half the days
    assert result.training_days == pytest.approx(67.665 * 989.4 / 1978.9, rel=1e-4)


def test_mixture_of_experts_trains_on_its_active_parameters():
    spec = WorkloadSpec(parameters_billion=8, active_parameters_billion=1, tokens_trillion=1, mfu=0.5)
    result = size_workload(spec, ROUND_SYSTEM, gpus=100)
    # 6 × 1e9 active × 1e12 = 6e21, as for the dense 1B model
    assert result.training_flops == pytest.approx(6e21)
    assert result.parameters_billion == 8


def test_a_system_without_the_precision_throughput_is_named():
    system = SystemSpec(slug="old", name="Old", price_usd=1, gpus=8, power_kw=5, rack_units=4, weight_kg=50,
                        dense_bf16_tflops_per_gpu=312)
    spec = WorkloadSpec(parameters_billion=1, tokens_trillion=1, precision="fp8")
    with pytest.raises(ScenarioError) as caught:
        size_workload(spec, system, gpus=8)
    [message] = caught.value.as_dict()["workload.precision"]
    assert "'old' gives no dense FP8 throughput" in message


BASE = {"name": "n", "compute": {"system": "dgx-h100"}}
WORKLOAD = {"parameters_billion": 70, "tokens_trillion": 15, "days": 30}


def errors_of(document) -> dict[str, list[str]]:
    with pytest.raises(ScenarioError) as caught:
        read_scenario(document)
    return caught.value.as_dict()


@pytest.mark.parametrize(
    ("workload", "expected"),
    [
        ({**WORKLOAD, "mfu": 0}, {"workload.mfu": ["must be a number greater than 0"]}),
        ({**WORKLOAD, "mfu": -0.3}, {"workload.mfu": ["must be a number greater than 0"]}),
        ({**WORKLOAD, "mfu": 1.2}, {"workload.mfu": ["must be at most 1"]}),
        ({**WORKLOAD, "days": 0}, {"workload.days": ["must be a number greater than 0 days"]}),
        ({**WORKLOAD, "days": -5}, {"workload.days": ["must be a number greater than 0 days"]}),
        ({**WORKLOAD, "tokens_trillion": 0}, {"workload.tokens_trillion": ["must be a number greater than 0 trillion"]}),
        ({**WORKLOAD, "parameters_billion": -7}, {"workload.parameters_billion": ["must be a number greater than 0 billion"]}),
        ({**WORKLOAD, "active_parameters_billion": 71}, {"workload.active_parameters_billion": ["must not exceed parameters_billion"]}),
        ({**WORKLOAD, "precision": "fp4"}, {"workload.precision": ["must be one of: bf16, fp8"]}),
        ({"tokens_trillion": 15, "days": 30}, {"workload.parameters_billion": ["is required"]}),
    ],
)
def test_bad_workload_input_is_named_by_its_dotted_path(workload, expected):
    assert errors_of({**BASE, "workload": workload}) == expected


def test_exactly_one_source_of_the_gpu_count():
    assert read_scenario({**BASE, "workload": WORKLOAD}).compute.gpus is None
    with_gpus = {"name": "n", "compute": {"system": "dgx-h100", "gpus": 1024}, "workload": WORKLOAD}
    assert errors_of(with_gpus) == {
        "compute.gpus": ["leave out when workload.days is given: the workload sizes the GPUs"]
    }
    with_nodes = {"name": "n", "compute": {"system": "dgx-h100", "nodes": 8}, "workload": WORKLOAD}
    assert list(errors_of(with_nodes)) == ["compute.nodes"]
    no_days = {**BASE, "workload": {"parameters_billion": 70, "tokens_trillion": 15}}
    assert errors_of(no_days) == {"compute.gpus": ["give either gpus or nodes, or workload.days"]}
