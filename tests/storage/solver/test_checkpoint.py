"""Checkpoint and dataset sizes for stated byte counts, and the write rate for a target time."""

import pytest

from storage.solver.checkpoint import (
    CHECKPOINT_BYTES_PER_PARAMETER,
    checkpoint_size_tb,
    dataset_size_tb,
    write_gbytes_per_s_for,
    write_time_s,
)


def test_default_bytes_per_parameter_are_weights_master_weights_and_adam_moments():
    # 2 (BF16 weights) + 4 (FP32 master weights) + 4 + 4 (FP32 Adam moments) = 14
    assert CHECKPOINT_BYTES_PER_PARAMETER == 14


@pytest.mark.parametrize(
    ("parameters_billion", "bytes_per_parameter", "expected_tb"),
    [
        (405, 14, 5.67),   # 405e9 × 14 B = 5.67e12 B
        (70, 14, 0.98),    # 70e9 × 14 B = 0.98e12 B
        (7, 16, 0.112),    # with FP32 gradients saved too: 7e9 × 16 B
        (405, 2, 0.81),    # BF16 weights only (an inference export)
        (1000, 12, 12.0),  # ZeRO's K = 12 optimizer bytes alone
    ],
)
def test_checkpoint_size_for_stated_byte_counts(parameters_billion, bytes_per_parameter, expected_tb):
    assert checkpoint_size_tb(parameters_billion, bytes_per_parameter) == pytest.approx(expected_tb)


def test_dataset_size():
    # Llama 3: 15.6e12 tokens × 4 B = 62.4e12 B = 62.4 TB
    assert dataset_size_tb(15.6, 4) == pytest.approx(62.4)
    assert dataset_size_tb(1, 2) == pytest.approx(2.0)


def test_write_rate_and_time_are_inverse():
    # 5.67 TB in 60 s: 5,670 GB / 60 s = 94.5 GB/s
    assert write_gbytes_per_s_for(5.67, 60) == pytest.approx(94.5)
    assert write_time_s(5.67, 94.5) == pytest.approx(60)
    # 0.98 TB at 65 GB/s: 980 / 65 = 15.08 s
    assert write_time_s(0.98, 65) == pytest.approx(15.0769, rel=1e-4)
