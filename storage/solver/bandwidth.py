"""Storage bandwidth the job needs, and what the GPU systems' own storage ports can carry.

Training reads: DDN gives 1 GB/s per GPU, read and write, as its "usual minimum requirement"
(https://ddn.com/blog/ddns-ai-storage-optimized-for-nvidia-dgx-b200-platform-handling-ai-at-any-scale-with-nvidia-blackwell,
2025); the scenario may ask for more per GPU or give the job's total.

Network rates are in Gb/s and storage rates in GB/s: 8 bits to the byte.
"""

from catalog.solver.parts import NicSpec

DEFAULT_READ_GBYTES_PER_S_PER_GPU = 1.0
"""DDN's usual minimum per GPU (see the module notes)."""
BITS_PER_BYTE = 8


def read_gbytes_per_s_needed(gpus: int, per_gpu: float | None, total: float | None) -> float:
    """Training-data read rate of the job [GB/s]: the total given, else GPUs × rate per GPU.

    The rate per GPU defaults to 1 GB/s.
    """
    if total is not None:
        return total
    return gpus * (DEFAULT_READ_GBYTES_PER_S_PER_GPU if per_gpu is None else per_gpu)


def client_gbytes_per_s(nodes: int, storage_nic: NicSpec | None) -> float | None:
    """What the GPU systems' storage ports carry together [GB/s]: nodes × ports × Gb/s / 8.

    None when the system lists no storage ports (nothing to limit by).
    """
    if storage_nic is None:
        return None
    return nodes * storage_nic.count * storage_nic.gbps / BITS_PER_BYTE


def delivered_gbytes_per_s(storage_gbytes_per_s: float, client_limit: float | None) -> float:
    """The rate the GPUs see [GB/s]: the slower of the storage systems and the systems' storage ports."""
    return storage_gbytes_per_s if client_limit is None else min(storage_gbytes_per_s, client_limit)
