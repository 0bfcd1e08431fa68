"""Checkpoint and dataset sizes, and the write rate that saves a checkpoint in a given time.

A checkpoint of mixed-precision training with Adam holds, per parameter:

- 2 bytes: the BF16 weights the model computes with;
- 4 bytes: the FP32 master copy of the weights the optimizer updates;
- 8 bytes: Adam's two FP32 moments (momentum and variance).

That is 14 bytes per parameter. Gradients are not saved (they are recomputed). ZeRO counts the
same optimizer state, K = 12 bytes (FP32 weights and two moments), plus 2 bytes of FP16 weights
and 2 of gradients in GPU memory (Rajbhandari et al., *ZeRO: Memory Optimizations Toward
Training Trillion Parameter Models*, SC20, section 3.1, https://arxiv.org/abs/1910.02054).

Sizes are in decimal units, as storage vendors state them: 1 TB = 10¹² B, 1 GB = 10⁹ B.
"""

import numpy as np

BYTES_PER_TB = 1e12
GBYTES_PER_TB = 1_000.0
PARAMETERS_PER_BILLION = 1e9
TOKENS_PER_TRILLION = 1e12

WEIGHT_BYTES_PER_PARAMETER = 2
"""BF16 weights."""
MASTER_WEIGHT_BYTES_PER_PARAMETER = 4
"""FP32 master weights."""
OPTIMIZER_BYTES_PER_PARAMETER = 8
"""Adam's first and second moments, FP32 each."""
CHECKPOINT_BYTES_PER_PARAMETER = (
    WEIGHT_BYTES_PER_PARAMETER + MASTER_WEIGHT_BYTES_PER_PARAMETER + OPTIMIZER_BYTES_PER_PARAMETER
)


def checkpoint_size_tb(parameters_billion, bytes_per_parameter=CHECKPOINT_BYTES_PER_PARAMETER):
    """One checkpoint [TB]: parameters × bytes of state per parameter / 10¹².

    Parameters
    ----------
    parameters_billion : all parameters of the model [10⁹]
    bytes_per_parameter : bytes of saved state per parameter [B]; default 14 (see module notes)
    """
    return (np.asarray(parameters_billion) * PARAMETERS_PER_BILLION * bytes_per_parameter / BYTES_PER_TB)[()]


def dataset_size_tb(tokens_trillion, bytes_per_token):
    """Stored training data [TB]: tokens × bytes per token / 10¹²."""
    return (np.asarray(tokens_trillion) * TOKENS_PER_TRILLION * bytes_per_token / BYTES_PER_TB)[()]


def write_gbytes_per_s_for(checkpoint_tb, write_s):
    """Write rate [GB/s] that saves `checkpoint_tb` in `write_s` seconds: 1,000 · TB / s."""
    return (np.asarray(checkpoint_tb) * GBYTES_PER_TB / np.asarray(write_s))[()]


def write_time_s(checkpoint_tb, write_gbytes_per_s):
    """Time [s] to write `checkpoint_tb` at `write_gbytes_per_s`: 1,000 · TB / (GB/s)."""
    return (np.asarray(checkpoint_tb) * GBYTES_PER_TB / np.asarray(write_gbytes_per_s))[()]
