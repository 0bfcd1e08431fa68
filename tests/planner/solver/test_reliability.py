"""Reliability: Young's and Daly's intervals (published cases), MTBI, goodput and spares by hand."""

import numpy as np
import pytest

from core.solver.errors import ScenarioError
from planner.solver.reliability import (
    DEFAULT_INTERRUPTIONS_PER_GPU_YEAR,
    cluster_mtbi_h,
    daly_higher_order_interval_s,
    daly_interval_s,
    reliability_warnings,
    size_reliability,
    spare_nodes_needed,
    time_lost,
    write_time_for_share_s,
    young_interval_s,
)
from planner.solver.scenario import ReliabilitySpec, read_scenario

DAY_S = 86_400


def test_young_1974_and_daly_2006_published_case():
    """published-cases.md: δ = 60 s, M = 24 h → Young T ≈ 3,220 s, Daly first order ≈ 3,160 s."""
    # √(2 × 60 × 86,400) = √10,368,000 = 3,219.94 s
    assert young_interval_s(60, DAY_S) == pytest.approx(3220, abs=1)
    # 3,219.94 − 60 = 3,159.94 s
    assert daly_interval_s(60, DAY_S) == pytest.approx(3160, abs=1)


@pytest.mark.parametrize(
    ("mtbi_min", "expected_min"),
    [(24 * 60, 117), (6 * 60, 57), (15, 9.1)],
)
def test_daly_2006_higher_order_figures_3_to_5(mtbi_min, expected_min):
    """Daly 2006, figures 3-5: δ = 5 min, M = 24 h, 6 h, 15 min → τ_opt = 117, 57, 9.1 min."""
    # M = 24 h: √(2·5·1440) = 120; ξ = 5/2880; 120 × (1 + √ξ/3 + ξ/9) − 5 = 116.7 min
    interval_min = daly_higher_order_interval_s(5 * 60, mtbi_min * 60) / 60
    assert interval_min == pytest.approx(expected_min, rel=0.01)


def test_daly_interval_is_the_mtbi_when_writing_takes_two_mtbis():
    assert daly_interval_s(7200, 3600) == 3600
    assert daly_higher_order_interval_s(7200, 3600) == 3600


def test_vector_call_matches_a_loop_of_scalar_calls():
    writes = np.array([10.0, 60.0, 600.0, 5000.0])
    vector = daly_interval_s(writes, 3 * 3600)
    assert vector == pytest.approx([daly_interval_s(float(w), 3 * 3600) for w in writes])


def test_llama3_default_rate_gives_an_interruption_every_three_hours():
    """Meta: 419 unexpected interruptions in 54 days on 16,384 GPUs, 'one every ~3 hours'."""
    # 419 / (16,384 × 54 / 365.25) = 0.17298 per GPU-year
    assert DEFAULT_INTERRUPTIONS_PER_GPU_YEAR == pytest.approx(0.17298, rel=1e-4)
    # 54 days × 24 h / 419 = 3.093 h
    assert cluster_mtbi_h(DEFAULT_INTERRUPTIONS_PER_GPU_YEAR, 16_384) == pytest.approx(54 * 24 / 419)


def test_mtbi_by_hand_and_when_nothing_fails():
    # 0.5 per GPU-year × 1,000 GPUs = 500 a year; 8,766 h / 500 = 17.532 h
    assert cluster_mtbi_h(0.5, 1000) == pytest.approx(17.532)
    assert np.isinf(cluster_mtbi_h(0.0, 1000))


@pytest.mark.parametrize("policy", ["young", "daly", "daly_higher_order", 1800.0])
def test_write_time_for_a_share_of_the_interval_round_trips(policy):
    mtbi_s = 3 * 3600
    write_s = write_time_for_share_s(0.05, mtbi_s, policy)
    interval = policy if not isinstance(policy, str) else {
        "young": young_interval_s, "daly": daly_interval_s, "daly_higher_order": daly_higher_order_interval_s,
    }[policy](write_s, mtbi_s)
    assert write_s / interval == pytest.approx(0.05, rel=1e-6)


def test_write_time_for_a_share_by_hand():
    # Young: δ = 2 M s² = 2 × 10,800 × 0.05² = 54 s (and √(2 × 54 × 10,800) = 1,080 s = 54 / 0.05)
    assert write_time_for_share_s(0.05, 10_800, "young") == pytest.approx(54)
    # Daly: δ = 2 M s² / (1 + s)² = 54 / 1.1025 = 48.98 s
    assert write_time_for_share_s(0.05, 10_800, "daly") == pytest.approx(48.9796, rel=1e-5)
    assert write_time_for_share_s(0.05, float("inf"), "daly") is None


def test_time_lost_and_goodput_by_hand():
    lost = time_lost(interval_s=3000, write_s=60, restart_s=600, mtbi_s=DAY_S)
    # f = (600 + (3000 + 60) / 2) / 86,400 = 2,130 / 86,400 = 0.0246528
    # goodput = (1 − f) × 3000 / 3060 = 0.956223; checkpoints (1 − f) × 60 / 3060 = 0.019124
    assert lost.goodput == pytest.approx(0.956223, rel=1e-5)
    assert lost.checkpoint_share == pytest.approx(0.019124, rel=1e-4)
    assert lost.lost_work_share == pytest.approx(1530 / DAY_S)
    assert lost.restart_share == pytest.approx(600 / DAY_S)
    total = lost.goodput + lost.checkpoint_share + lost.lost_work_share + lost.restart_share
    assert total == pytest.approx(1.0)


def test_a_job_that_restarts_longer_than_it_runs_makes_no_progress():
    lost = time_lost(interval_s=600, write_s=60, restart_s=900, mtbi_s=600)
    assert lost.goodput == 0.0
    assert lost.checkpoint_share + lost.lost_work_share + lost.restart_share == pytest.approx(1.0)


def test_a_checkpoint_that_takes_no_time_costs_nothing_and_leaves_the_restarts():
    """Found by schemathesis: a write share of 5e-324 gives δ = τ = 0, which divided by zero."""
    lost = time_lost(interval_s=0.0, write_s=0.0, restart_s=600, mtbi_s=DAY_S)
    assert (lost.checkpoint_share, lost.lost_work_share) == (0.0, 0.0)
    assert lost.restart_share == pytest.approx(600 / DAY_S)
    assert lost.goodput == pytest.approx(1 - 600 / DAY_S)
    # The limit of the model as δ → 0, where τ = √(2δM) ≫ δ:
    nearly = time_lost(interval_s=daly_interval_s(1e-9, DAY_S), write_s=1e-9, restart_s=600, mtbi_s=DAY_S)
    assert nearly.goodput == pytest.approx(lost.goodput, abs=1e-6)


def test_spares_cover_the_nodes_out_for_repair():
    # 0.5 interruptions/h × 2 h = 1 node out on average; Poisson(1): P(≤2) = 0.920, P(≤3) = 0.981, P(≤4) = 0.996
    assert spare_nodes_needed(0.5, 2, 0.9) == 2
    assert spare_nodes_needed(0.5, 2, 0.98) == 3
    assert spare_nodes_needed(0.5, 2, 0.99) == 4
    assert spare_nodes_needed(0.0, 48, 0.99) == 0


def test_size_reliability_reports_the_published_case_and_its_source():
    spec = ReliabilitySpec(interruptions_per_gpu_year=8766 / (24 * 1000), checkpoint_interval_s="young", restart_s=0)
    # λ G = 8,766 / 24 per year → M = 24 h exactly on 1,000 GPUs
    result = size_reliability(spec, gpus=1000, spare_nodes=0, checkpoint_write_s=60)
    assert result.mtbi_h == pytest.approx(24)
    assert result.checkpoint_interval_s == pytest.approx(3219.94, abs=0.01)
    assert result.daly_interval_s == pytest.approx(3159.94, abs=0.01)
    assert result.interruptions_source == "scenario"
    default = size_reliability(ReliabilitySpec(), gpus=1000, spare_nodes=0, checkpoint_write_s=60)
    assert "Llama 3" in default.interruptions_source
    assert default.checkpoint_interval_policy == "daly"


def test_no_interruptions_means_no_checkpoint_interval_and_full_goodput():
    result = size_reliability(ReliabilitySpec(interruptions_per_gpu_year=0), gpus=1000, spare_nodes=0,
                              checkpoint_write_s=60)
    assert (result.mtbi_h, result.checkpoint_interval_s, result.goodput) == (None, None, 1.0)
    assert result.spare_nodes_needed == 0


def test_warnings_for_slow_checkpoints_missing_spares_and_a_late_job():
    spec = ReliabilitySpec(checkpoint_interval_s=300.0)
    result = size_reliability(spec, gpus=16_384, spare_nodes=0, checkpoint_write_s=400, training_days=50)
    warnings = " ".join(reliability_warnings(result, days_allowed=50))
    assert "takes 400 s to write, longer than the 300 s" in warnings
    assert "compute.spare_nodes is 0" in warnings
    assert "more than the 50 days allowed" in warnings


BASE = {"name": "n", "compute": {"system": "dgx-h100", "gpus": 1024}}


@pytest.mark.parametrize(
    ("reliability", "expected"),
    [
        ({"interruptions_per_gpu_year": -0.1}, {"reliability.interruptions_per_gpu_year": ["must be a number, zero or more"]}),
        ({"restart_s": -1}, {"reliability.restart_s": ["must be a number, zero or more"]}),
        ({"checkpoint_interval_s": 0},
         {"reliability.checkpoint_interval_s": ["must be one of: young, daly, daly_higher_order or a number greater than 0 s"]}),
        ({"checkpoint_interval_s": "weekly"},
         {"reliability.checkpoint_interval_s": ["must be one of: young, daly, daly_higher_order or a number greater than 0 s"]}),
        ({"spare_confidence": 1}, {"reliability.spare_confidence": ["must be at most 0.9999"]}),
        ({"mtbf_h": 3}, {"reliability.mtbf_h": [
            "unknown key; expected one of: interruptions_per_gpu_year, restart_s, checkpoint_interval_s, "
            "node_repair_h, spare_confidence"]}),
    ],
)
def test_bad_reliability_input_is_named_by_its_dotted_path(reliability, expected):
    with pytest.raises(ScenarioError) as caught:
        read_scenario({**BASE, "reliability": reliability})
    assert caught.value.as_dict() == expected
