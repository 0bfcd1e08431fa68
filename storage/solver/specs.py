"""The storage section of a scenario: bandwidth, capacity, checkpoints and the storage tiers."""

from dataclasses import dataclass
from typing import Any, Literal

from core.solver.schema import spec_field

StorageDuty = Literal["training_reads", "checkpoint_writes"]
StorageContent = Literal["dataset", "checkpoints"]


def _protection_shorthand(value: Any) -> Any:
    """A bare scheme name stands for the scheme with its default parameters."""
    return {"scheme": value} if isinstance(value, str) else value


@dataclass(frozen=True)
class ProtectionSpec:
    """Data protection across storage systems, on top of what each system's usable capacity has."""

    scheme: Literal["none", "replication", "erasure_coding"] = spec_field("none")
    copies: int = spec_field(2, minimum=1, maximum=10, help="Copies of each byte (replication).")
    data_shards: int = spec_field(8, minimum=1, maximum=64, help="Data shards (erasure coding).")
    parity_shards: int = spec_field(2, minimum=0, maximum=64, help="Parity shards (erasure coding).")


@dataclass(frozen=True)
class StorageTierSpec:
    """Storage systems of one kind and what they do for the job."""

    system: str = spec_field(min_length=1, max_length=80, help="Catalog slug of the storage system.")
    name: str = spec_field("", max_length=80, help="Label; default: the system's catalog tier.")
    serves: tuple[StorageDuty, ...] = spec_field(
        (), help="Bandwidth duties: training_reads (the GPUs' read rate), checkpoint_writes."
    )
    holds: tuple[StorageContent, ...] | None = spec_field(
        None, help="Capacity duties: dataset, checkpoints; default: what the duties it serves need."
    )
    retained_checkpoints: int = spec_field(
        2, minimum=1, maximum=100_000,
        help="Checkpoints kept; 2 = the one being written and the last complete one.",
    )
    other_tb: float = spec_field(0.0, unit="TB", minimum=0, maximum=1e9, help="Further data held.")
    systems: int | None = spec_field(
        None, minimum=1, maximum=100_000, help="Fixed number of systems; default: as many as needed."
    )
    protection: ProtectionSpec = spec_field(
        default_factory=ProtectionSpec, before=_protection_shorthand, shorthand="scheme"
    )

    def problems(self):
        for duties, key in ((self.serves, "serves"), (self.holds or (), "holds")):
            for duty in sorted({duty for duty in duties if duties.count(duty) > 1}):
                yield key, f"lists '{duty}' more than once"
        if not self.serves and not self.holds and not self.other_tb:
            yield "serves", (
                "give what the tier serves or holds (training_reads, checkpoint_writes, dataset, "
                "checkpoints), or other_tb"
            )

    def contents(self) -> tuple[str, ...]:
        """What the tier holds: as given, else the data behind the duties it serves."""
        if self.holds is not None:
            return self.holds
        implied = {"training_reads": "dataset", "checkpoint_writes": "checkpoints"}
        return tuple(implied[duty] for duty in self.serves)


@dataclass(frozen=True)
class StorageSpec:
    """What storage must deliver to the job, and the tiers of storage systems that deliver it."""

    read_gbytes_per_s_per_gpu: float | None = spec_field(
        None, unit="GB/s", minimum=0, maximum=1_000,
        help="Training-data read rate per GPU; default 1 GB/s (DDN's usual minimum). Or give the total.",
    )
    read_gbytes_per_s: float | None = spec_field(
        None, unit="GB/s", minimum=0, maximum=1e7, help="Training-data read rate of the whole job."
    )
    dataset_tb: float | None = spec_field(
        None, unit="TB", minimum=0, maximum=1e9,
        help="Training data stored; default: workload tokens × dataset_bytes_per_token.",
    )
    dataset_bytes_per_token: float = spec_field(
        4.0, unit="B", minimum=0, exclusive_minimum=True, maximum=1e6,
        help="Bytes per stored token; 4 = a 32-bit token id (vocabularies above 65,536 need more than 16 bits).",
    )
    checkpoint_tb: float | None = spec_field(
        None, unit="TB", minimum=0, exclusive_minimum=True, maximum=1e7,
        help="One checkpoint; default: workload parameters × checkpoint_bytes_per_parameter.",
    )
    checkpoint_bytes_per_parameter: float = spec_field(
        14.0, unit="B", minimum=0, exclusive_minimum=True, maximum=1_000,
        help="14 = 2 (BF16 weights) + 4 (FP32 master weights) + 8 (two FP32 Adam moments).",
    )
    checkpoint_write_s: float | None = spec_field(
        None, unit="s", minimum=0, exclusive_minimum=True, maximum=1e6,
        help="Target time to write one checkpoint; default: checkpoint_write_share of the interval.",
    )
    checkpoint_write_share: float = spec_field(
        0.05, minimum=0, exclusive_minimum=True, maximum=1,
        help="Checkpoint write time as a share of the checkpoint interval, when no target time is given.",
    )
    growth: float = spec_field(
        0.2, minimum=0, maximum=100,
        help="Extra capacity for growth and free space, as a share of the data held (an estimate).",
    )
    tiers: tuple[StorageTierSpec, ...] = spec_field((), help="Storage tiers, each of systems of one catalog kind.")

    def problems(self):
        if self.read_gbytes_per_s_per_gpu is not None and self.read_gbytes_per_s is not None:
            yield "read_gbytes_per_s", "give either read_gbytes_per_s_per_gpu or read_gbytes_per_s, not both"
        for duty in ("training_reads", "checkpoint_writes"):
            serving = [index for index, tier in enumerate(self.tiers) if duty in tier.serves]
            for index in serving[1:]:
                yield f"tiers[{index}].serves", (
                    f"only one tier may serve {duty}; tier {serving[0]} already does"
                )
