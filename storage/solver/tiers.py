"""Storage tiers: how many storage systems each tier needs, and what the tiers deliver.

For each tier of one catalog system:

    capacity needed [TB]   C = data held × (1 + growth) × protection overhead
    systems for capacity   n_C = ceil(C / usable TB per system)
    systems for bandwidth  n_B = max(ceil(read GB/s needed / read GB/s per system),
                                     ceil(write GB/s needed × overhead / write GB/s per system))
    systems                n = max(n_C, n_B)   (or the fixed count the scenario gives)

The data held is the dataset (when the tier holds it), `retained_checkpoints` checkpoints (when
it holds checkpoints) and `other_tb`. The write rate needed saves one checkpoint within its
target time. Protection overhead is for protection across systems on top of what each system's
usable capacity already has (the catalog's usable figures are after the system's own RAID or
erasure coding): `copies` for replication, (data + parity) / data for erasure coding (8+2 →
1.25). Every byte is stored, and written, that many times.

The rates the GPUs see are the smaller of the tier's and what the GPU systems' storage ports
carry (`bandwidth.client_gbytes_per_s`).
"""

import math
from dataclasses import dataclass

from catalog.solver.parts import NicSpec
from catalog.solver.storage_parts import StorageSystemSpec
from core.solver.interfaces import EndpointGroup
from storage.solver.bandwidth import (
    client_gbytes_per_s,
    delivered_gbytes_per_s,
    read_gbytes_per_s_needed,
)
from storage.solver.checkpoint import (
    checkpoint_size_tb,
    dataset_size_tb,
    write_gbytes_per_s_for,
    write_time_s,
)
from storage.solver.specs import ProtectionSpec, StorageSpec, StorageTierSpec
from storage.solver.storage_limits import check_storage_limit, unbounded_writes

IDLE_CAPACITY_WARNING_SHARE = 0.5
"""A bandwidth-bound tier using less than this share of its capacity is mostly idle capacity."""
_TOLERANCE = 1e-9


@dataclass(frozen=True)
class TierResult:
    name: str
    system: str
    """Catalog slug."""
    catalog_tier: str
    serves: tuple[str, ...]
    holds: tuple[str, ...]
    protection: str
    protection_overhead: float
    data_tb: float
    """Data the tier holds, before growth and protection."""
    capacity_needed_tb: float
    read_gbytes_per_s_needed: float
    write_gbytes_per_s_needed: float
    """Checkpoint write rate, protection copies included."""
    systems_for_capacity: int
    systems_for_bandwidth: int
    systems: int
    bound_by: str
    """capacity, bandwidth, or fixed (the scenario gives the count)."""
    capacity_tb: float
    """Usable capacity of the tier's systems."""
    capacity_used: float
    """capacity_needed_tb / capacity_tb."""
    read_gbytes_per_s: float
    write_gbytes_per_s: float
    """Rate at which the tier stores user data: systems × write GB/s / protection overhead."""
    ports_per_system: int
    port_gbps: float
    power_kw: float
    rack_units: int
    weight_kg: float


@dataclass(frozen=True)
class StorageResult:
    read_gbytes_per_s_per_gpu_target: float
    read_gbytes_per_s_needed: float
    dataset_tb: float
    checkpoint_tb: float | None
    checkpoint_write_target_s: float | None
    write_gbytes_per_s_needed: float
    """Checkpoint write rate that meets the target time (user data, before protection)."""
    client_gbytes_per_s: float | None
    """What the GPU systems' storage ports carry together; None when the system lists none."""
    tiers: tuple[TierResult, ...]
    read_gbytes_per_s: float | None
    """Read rate the GPUs see from the tier that serves training reads."""
    read_gbytes_per_s_per_gpu: float | None
    checkpoint_write_s: float | None
    """Achieved time to write one checkpoint to the tier that serves checkpoint writes."""
    systems: int
    power_kw: float
    rack_units: int
    weight_kg: float


def protection_overhead(protection: ProtectionSpec) -> float:
    """Bytes stored per byte of data: 1 (none), copies (replication), (d + p) / d (erasure coding)."""
    if protection.scheme == "replication":
        return float(protection.copies)
    if protection.scheme == "erasure_coding":
        return (protection.data_shards + protection.parity_shards) / protection.data_shards
    return 1.0


def protection_label(protection: ProtectionSpec) -> str:
    if protection.scheme == "replication":
        return f"replication x{protection.copies}"
    if protection.scheme == "erasure_coding":
        return f"erasure coding {protection.data_shards}+{protection.parity_shards}"
    return "none"


def systems_for(need: float, per_system: float) -> int:
    """Whole systems that provide `need`: ceil(need / per_system), 0 for no need."""
    if need <= 0:
        return 0
    return math.ceil(need / per_system - _TOLERANCE)


def tier_data_tb(tier: StorageTierSpec, dataset_tb: float, checkpoint_tb: float | None) -> float:
    """Data a tier holds [TB]: dataset + retained checkpoints + other data, as it holds them."""
    contents = tier.contents()
    data = tier.other_tb
    if "dataset" in contents:
        data += dataset_tb
    if "checkpoints" in contents and checkpoint_tb:
        data += tier.retained_checkpoints * checkpoint_tb
    return data


def size_tier(
    tier: StorageTierSpec,
    system: StorageSystemSpec,
    *,
    data_tb: float,
    growth: float,
    read_gbytes_per_s: float,
    write_gbytes_per_s: float,
) -> TierResult:
    """Systems for one tier: the larger of what its capacity and its bandwidth need (module notes).

    `read_gbytes_per_s` and `write_gbytes_per_s` are the rates this tier must serve (0 for a duty
    it does not have), the write rate as user data before protection.
    """
    overhead = protection_overhead(tier.protection)
    capacity_needed_tb = data_tb * (1 + growth) * overhead
    raw_write = write_gbytes_per_s * overhead
    by_capacity = systems_for(capacity_needed_tb, system.usable_capacity_tb)
    by_bandwidth = max(systems_for(read_gbytes_per_s, system.read_gbytes_per_s),
                       systems_for(raw_write, system.write_gbytes_per_s))
    if tier.systems is not None:
        systems, bound_by = tier.systems, "fixed"
    else:
        systems = max(1, by_capacity, by_bandwidth)
        bound_by = "bandwidth" if by_bandwidth > by_capacity else "capacity"
    capacity_tb = systems * system.usable_capacity_tb
    return TierResult(
        name=tier.name or system.tier,
        system=system.slug,
        catalog_tier=system.tier,
        serves=tier.serves,
        holds=tier.contents(),
        protection=protection_label(tier.protection),
        protection_overhead=overhead,
        data_tb=data_tb,
        capacity_needed_tb=capacity_needed_tb,
        read_gbytes_per_s_needed=read_gbytes_per_s,
        write_gbytes_per_s_needed=raw_write,
        systems_for_capacity=by_capacity,
        systems_for_bandwidth=by_bandwidth,
        systems=systems,
        bound_by=bound_by,
        capacity_tb=capacity_tb,
        capacity_used=capacity_needed_tb / capacity_tb,
        read_gbytes_per_s=systems * system.read_gbytes_per_s,
        write_gbytes_per_s=systems * system.write_gbytes_per_s / overhead,
        ports_per_system=system.ports,
        port_gbps=system.port_gbps,
        power_kw=systems * system.power_kw,
        rack_units=systems * system.rack_units,
        weight_kg=systems * system.weight_kg,
    )


def size_storage(
    spec: StorageSpec,
    storage_systems: dict[str, StorageSystemSpec],
    *,
    gpus: int,
    nodes: int,
    storage_nic: NicSpec | None,
    parameters_billion: float | None,
    tokens_trillion: float | None,
    checkpoint_write_target_s: float | None,
) -> StorageResult:
    """What storage must deliver to the job, each tier sized for it, and what the tiers deliver;
    PlanLimitError past the storage systems a plan may have (`storage_limits`).

    The checkpoint and dataset sizes default to the workload's (parameters × bytes per parameter,
    tokens × bytes per token); the write rate needed saves one checkpoint in the target time.
    """
    checkpoint_tb = spec.checkpoint_tb
    if checkpoint_tb is None and parameters_billion is not None:
        checkpoint_tb = float(checkpoint_size_tb(parameters_billion, spec.checkpoint_bytes_per_parameter))
    dataset_tb = spec.dataset_tb
    if dataset_tb is None:
        dataset_tb = float(dataset_size_tb(tokens_trillion, spec.dataset_bytes_per_token)) if tokens_trillion else 0.0
    read_needed = read_gbytes_per_s_needed(gpus, spec.read_gbytes_per_s_per_gpu, spec.read_gbytes_per_s)
    client = client_gbytes_per_s(nodes, storage_nic)
    try:
        write_needed = (
            float(write_gbytes_per_s_for(checkpoint_tb, checkpoint_write_target_s))
            if checkpoint_tb and checkpoint_write_target_s else 0.0
        )
        tiers = tuple(
            size_tier(
                tier,
                storage_systems[tier.system],
                data_tb=tier_data_tb(tier, dataset_tb, checkpoint_tb),
                growth=spec.growth,
                read_gbytes_per_s=read_needed if "training_reads" in tier.serves else 0.0,
                write_gbytes_per_s=write_needed if "checkpoint_writes" in tier.serves else 0.0,
            )
            for tier in spec.tiers
        )
    except (OverflowError, ZeroDivisionError):
        raise unbounded_writes(spec) from None
    check_storage_limit(spec, tiers)
    reads = next((tier for tier in tiers if "training_reads" in tier.serves), None)
    writes = next((tier for tier in tiers if "checkpoint_writes" in tier.serves), None)
    read_delivered = delivered_gbytes_per_s(reads.read_gbytes_per_s, client) if reads else None
    write_s = (
        float(write_time_s(checkpoint_tb, delivered_gbytes_per_s(writes.write_gbytes_per_s, client)))
        if writes and checkpoint_tb else None
    )
    return StorageResult(
        read_gbytes_per_s_per_gpu_target=read_needed / gpus,
        read_gbytes_per_s_needed=read_needed,
        dataset_tb=dataset_tb,
        checkpoint_tb=checkpoint_tb,
        checkpoint_write_target_s=checkpoint_write_target_s,
        write_gbytes_per_s_needed=write_needed,
        client_gbytes_per_s=client,
        tiers=tiers,
        read_gbytes_per_s=read_delivered,
        read_gbytes_per_s_per_gpu=read_delivered / gpus if read_delivered is not None else None,
        checkpoint_write_s=write_s,
        systems=sum(tier.systems for tier in tiers),
        power_kw=sum(tier.power_kw for tier in tiers),
        rack_units=sum(tier.rack_units for tier in tiers),
        weight_kg=sum(tier.weight_kg for tier in tiers),
    )


def storage_system_counts(storage: StorageResult | None) -> list[tuple[str, int]]:
    """(catalog slug, systems) of every storage system to buy, rack and power, tiers of one slug added."""
    counts: dict[str, int] = {}
    for tier in storage.tiers if storage else ():
        counts[tier.system] = counts.get(tier.system, 0) + tier.systems
    return list(counts.items())


def storage_endpoint_groups(storage: StorageResult | None) -> list[EndpointGroup]:
    """The storage systems' client ports, as the storage fabric attaches them."""
    groups: dict[str, EndpointGroup] = {}
    for tier in storage.tiers if storage else ():
        known = groups.get(tier.system)
        groups[tier.system] = EndpointGroup(
            name=tier.system,
            count=tier.systems + (known.count if known else 0),
            ports_per_endpoint=tier.ports_per_system,
            port_gbps=tier.port_gbps,
        )
    return list(groups.values())


def storage_warnings(storage: StorageResult) -> list[str]:
    """Plain sentences: reads below target, slow checkpoints, idle capacity, nothing bought."""
    warnings = []
    if not storage.tiers:
        warnings.append(
            f"No storage tiers are given: the job needs {storage.read_gbytes_per_s_needed:,.0f} GB/s of reads"
            + (f" and {storage.write_gbytes_per_s_needed:,.0f} GB/s of checkpoint writes"
               if storage.write_gbytes_per_s_needed else "")
            + ", but the plan buys no storage systems."
        )
    target = storage.read_gbytes_per_s_per_gpu_target
    achieved = storage.read_gbytes_per_s_per_gpu
    if achieved is not None and achieved < target * (1 - _TOLERANCE):
        limited_by_ports = (
            storage.client_gbytes_per_s is not None and storage.read_gbytes_per_s == storage.client_gbytes_per_s
        )
        cause = "the GPU systems' storage ports" if limited_by_ports else "the storage systems"
        warnings.append(
            f"Each GPU reads training data at {achieved:,.2f} GB/s, below the {target:,.2f} GB/s target: "
            f"{cause} limit it."
        )
    write_s, write_target_s = storage.checkpoint_write_s, storage.checkpoint_write_target_s
    if write_s is not None and write_target_s is not None and write_s > write_target_s * (1 + _TOLERANCE):
        warnings.append(
            f"A {storage.checkpoint_tb:,.1f} TB checkpoint takes {write_s:,.0f} s to write, above the "
            f"{write_target_s:,.0f} s target."
        )
    for tier in storage.tiers:
        if tier.bound_by == "bandwidth" and tier.capacity_used < IDLE_CAPACITY_WARNING_SHARE:
            warnings.append(
                f"The {tier.name} tier needs {tier.systems:,} {tier.system} systems for bandwidth but only "
                f"{tier.systems_for_capacity:,} for capacity: it holds {tier.capacity_needed_tb:,.0f} TB of "
                f"its {tier.capacity_tb:,.0f} TB, so most of its capacity sits idle; a faster, smaller system "
                f"may cost less."
            )
    return warnings
