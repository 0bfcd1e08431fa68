"""Read bandwidth the job needs, and what the GPU systems' storage ports carry."""

import pytest

from catalog.solver.parts import NicSpec
from storage.solver.bandwidth import (
    client_gbytes_per_s,
    delivered_gbytes_per_s,
    read_gbytes_per_s_needed,
)


def test_read_need_per_gpu_total_and_default():
    # DDN's usual minimum, 1 GB/s per GPU: 1,024 GPUs → 1,024 GB/s
    assert read_gbytes_per_s_needed(1024, None, None) == 1024
    assert read_gbytes_per_s_needed(1024, 2.5, None) == 2560
    assert read_gbytes_per_s_needed(1024, None, 300) == 300


def test_client_ports_of_dgx_h100(catalog):
    nic = catalog.systems["dgx-h100"].nic("storage")
    # 128 systems × 2 ports × 400 Gb/s / 8 = 12,800 GB/s
    assert client_gbytes_per_s(128, nic) == pytest.approx(12_800)
    assert client_gbytes_per_s(128, None) is None


def test_delivered_rate_is_the_slower_side():
    assert delivered_gbytes_per_s(500, 200) == 200
    assert delivered_gbytes_per_s(150, 200) == 150
    assert delivered_gbytes_per_s(150, None) == 150
    assert client_gbytes_per_s(4, NicSpec(role="storage", count=2, gbps=200)) == pytest.approx(200)
