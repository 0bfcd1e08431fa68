"""Tier sizing by hand: capacity-bound, bandwidth-bound, protection, fixed counts, and bad tier input."""

import pytest

from core.solver.errors import ScenarioError
from core.solver.interfaces import EndpointGroup
from planner.solver.references import check_references
from planner.solver.scenario import read_scenario
from storage.solver.specs import ProtectionSpec, StorageSpec, StorageTierSpec
from storage.solver.tiers import (
    protection_overhead,
    size_storage,
    size_tier,
    storage_endpoint_groups,
    storage_system_counts,
    storage_warnings,
)


def sized(catalog, spec, *, system="dgx-h100", nodes=128, parameters_billion=None, tokens_trillion=None,
          target_s=None):
    gpu_system = catalog.systems[system]
    return size_storage(
        spec, catalog.storage_systems, gpus=nodes * gpu_system.gpus, nodes=nodes,
        storage_nic=gpu_system.nic("storage"), parameters_billion=parameters_billion,
        tokens_trillion=tokens_trillion, checkpoint_write_target_s=target_s,
    )


def test_capacity_bound_tier(catalog):
    """5 PB of data on QLC flash (1,150 TB, 25 GB/s read per system) read at 100 GB/s."""
    spec = StorageSpec(read_gbytes_per_s=100, dataset_tb=5000, growth=0.2,
                       tiers=(StorageTierSpec(system="qlc-flash-2u", serves=("training_reads",)),))
    [tier] = sized(catalog, spec).tiers
    # capacity: 5,000 TB × 1.2 = 6,000 TB; 6,000 / 1,150 = 5.2 → 6 systems
    # bandwidth: 100 / 25 = 4 systems
    assert tier.capacity_needed_tb == pytest.approx(6000)
    assert (tier.systems_for_capacity, tier.systems_for_bandwidth, tier.systems) == (6, 4, 6)
    assert tier.bound_by == "capacity"
    # 6 × 1,150 = 6,900 TB; 6 × 25 = 150 GB/s
    assert tier.capacity_tb == pytest.approx(6900)
    assert tier.read_gbytes_per_s == pytest.approx(150)
    assert tier.holds == ("dataset",)


def test_bandwidth_bound_tier_llama3_405b_on_128_dgx_h100(catalog):
    """1,024 GPUs reading 1 GB/s each from DDN AI400X2 (250 TB, 90 GB/s read, 65 GB/s write)."""
    spec = StorageSpec(tiers=(StorageTierSpec(system="ddn-ai400x2", serves=("training_reads", "checkpoint_writes")),))
    storage = sized(catalog, spec, parameters_billion=405, tokens_trillion=15.6, target_s=60)
    [tier] = storage.tiers
    # checkpoint 405e9 × 14 B = 5.67 TB; in 60 s: 5,670 / 60 = 94.5 GB/s
    assert storage.checkpoint_tb == pytest.approx(5.67)
    assert storage.write_gbytes_per_s_needed == pytest.approx(94.5)
    # data: 62.4 TB dataset + 2 × 5.67 TB checkpoints = 73.74 TB; × 1.2 = 88.488 TB → 1 system
    assert tier.capacity_needed_tb == pytest.approx(88.488)
    # reads: 1,024 / 90 = 11.4 → 12; writes: 94.5 / 65 = 1.45 → 2; so 12 systems
    assert (tier.systems_for_capacity, tier.systems_for_bandwidth, tier.systems) == (1, 12, 12)
    assert tier.bound_by == "bandwidth"
    # reads 12 × 90 = 1,080 GB/s (the 12,800 GB/s of DGX storage ports do not limit) → 1.0547 GB/s per GPU
    assert storage.read_gbytes_per_s_per_gpu == pytest.approx(1080 / 1024)
    # writes 12 × 65 = 780 GB/s: 5,670 GB / 780 GB/s = 7.27 s
    assert storage.checkpoint_write_s == pytest.approx(5670 / 780)
    # 88.5 TB of 3,000 TB used: mostly idle
    [warning] = storage_warnings(storage)
    assert "needs 12 ddn-ai400x2 systems for bandwidth but only 1 for capacity" in warning


@pytest.mark.parametrize(
    ("protection", "overhead"),
    [(ProtectionSpec(), 1.0), (ProtectionSpec(scheme="replication", copies=3), 3.0),
     (ProtectionSpec(scheme="erasure_coding", data_shards=8, parity_shards=2), 1.25),
     (ProtectionSpec(scheme="erasure_coding", data_shards=8, parity_shards=3), 1.375)],
)
def test_protection_overhead(protection, overhead):
    assert protection_overhead(protection) == pytest.approx(overhead)


def test_protection_multiplies_capacity_and_writes(catalog):
    system = catalog.storage_systems["object-hdd-4u60"]  # 1,000 TB, 5 GB/s write
    tier = StorageTierSpec(system="object-hdd-4u60", serves=("checkpoint_writes",), retained_checkpoints=100,
                           protection=ProtectionSpec(scheme="replication", copies=3))
    result = size_tier(tier, system, data_tb=567, growth=0, read_gbytes_per_s=0, write_gbytes_per_s=10)
    # capacity: 567 TB × 3 = 1,701 TB → 2 systems; writes: 10 GB/s × 3 = 30 GB/s / 5 = 6 systems
    assert result.capacity_needed_tb == pytest.approx(1701)
    assert (result.systems_for_capacity, result.systems_for_bandwidth, result.systems) == (2, 6, 6)
    # user data is written at 6 × 5 / 3 = 10 GB/s
    assert result.write_gbytes_per_s == pytest.approx(10)
    erasure = StorageTierSpec(system="object-hdd-4u60", holds=("checkpoints",),
                              protection=ProtectionSpec(scheme="erasure_coding"))
    # 567 TB × 10/8 = 708.75 TB → 1 system
    assert size_tier(erasure, system, data_tb=567, growth=0, read_gbytes_per_s=0,
                     write_gbytes_per_s=0).systems == 1


def test_a_fixed_count_below_the_need_is_warned_about(catalog):
    spec = StorageSpec(tiers=(StorageTierSpec(system="ddn-ai400x2", serves=("training_reads",), systems=2),))
    storage = sized(catalog, spec)
    [tier] = storage.tiers
    assert (tier.systems, tier.bound_by, tier.systems_for_bandwidth) == (2, "fixed", 12)
    # 2 × 90 = 180 GB/s over 1,024 GPUs = 0.176 GB/s each
    assert storage.read_gbytes_per_s_per_gpu == pytest.approx(180 / 1024)
    assert any("below the 1.00 GB/s target: the storage systems limit it" in w for w in storage_warnings(storage))


def test_the_gpu_systems_storage_ports_can_be_the_limit(catalog):
    """4 HGX H100 with 2 x 200G storage ports each carry 4 × 2 × 200 / 8 = 200 GB/s."""
    spec = StorageSpec(read_gbytes_per_s_per_gpu=10,
                       tiers=(StorageTierSpec(system="ddn-ai400x2", serves=("training_reads",)),))
    storage = sized(catalog, spec, system="hgx-h100", nodes=4)
    # 32 GPUs × 10 = 320 GB/s → 4 systems (360 GB/s), but the ports carry 200: 6.25 GB/s per GPU
    assert storage.tiers[0].systems == 4
    assert storage.client_gbytes_per_s == pytest.approx(200)
    assert storage.read_gbytes_per_s_per_gpu == pytest.approx(6.25)
    assert any("the GPU systems' storage ports limit it" in w for w in storage_warnings(storage))


def test_counts_and_endpoint_groups_for_racks_power_and_the_storage_fabric(catalog):
    spec = StorageSpec(dataset_tb=3000, tiers=(
        StorageTierSpec(system="ddn-ai400x2", serves=("training_reads",)),
        StorageTierSpec(system="object-hdd-4u60", holds=("dataset",)),
        StorageTierSpec(system="ddn-ai400x2", name="scratch", holds=(), other_tb=1000, serves=()),
    ))
    storage = sized(catalog, spec)
    # 3,000 × 1.2 = 3,600 TB: hot tier 15 systems by capacity (3,600 / 250 = 14.4), object 4 (3.6);
    # scratch 1,000 × 1.2 / 250 = 4.8 → 5
    assert [tier.systems for tier in storage.tiers] == [15, 4, 5]
    assert storage_system_counts(storage) == [("ddn-ai400x2", 20), ("object-hdd-4u60", 4)]
    assert storage_endpoint_groups(storage) == [
        EndpointGroup(name="ddn-ai400x2", count=20, ports_per_endpoint=8, port_gbps=200),
        EndpointGroup(name="object-hdd-4u60", count=4, ports_per_endpoint=2, port_gbps=100),
    ]
    # power 20 × 2.2 + 4 × 1.0 = 48 kW; 20 × 2 + 4 × 4 = 56 U
    assert (storage.systems, storage.power_kw, storage.rack_units) == (24, pytest.approx(48), 56)
    assert storage_system_counts(None) == [] and storage_endpoint_groups(None) == []


def test_no_tiers_states_the_needs_and_buys_nothing(catalog):
    storage = sized(catalog, StorageSpec(), parameters_billion=70, target_s=100)
    # 70e9 × 14 B = 0.98 TB in 100 s = 9.8 GB/s
    assert storage.write_gbytes_per_s_needed == pytest.approx(9.8)
    assert storage.systems == 0 and storage.checkpoint_write_s is None
    assert storage_warnings(storage)[0].startswith("No storage tiers are given")


BASE = {"name": "n", "compute": {"system": "dgx-h100", "gpus": 1024}}
READS = {"system": "ddn-ai400x2", "serves": ["training_reads"]}


def errors_of(storage, catalog=None) -> dict[str, list[str]]:
    with pytest.raises(ScenarioError) as caught:
        scenario = read_scenario({**BASE, "storage": storage})
        if catalog is not None:
            check_references(scenario, catalog)
    return caught.value.as_dict()


@pytest.mark.parametrize(
    ("storage", "expected"),
    [
        ({"tiers": [{"serves": ["training_reads"]}]}, {"storage.tiers[0].system": ["is required"]}),
        ({"tiers": [{**READS, "systems": 0}]}, {"storage.tiers[0].systems": ["must be a positive whole number"]}),
        ({"tiers": [{"system": "ddn-ai400x2"}]}, {"storage.tiers[0].serves": [
            "give what the tier serves or holds (training_reads, checkpoint_writes, dataset, checkpoints), "
            "or other_tb"]}),
        ({"checkpoint_write_s": 0}, {"storage.checkpoint_write_s": ["must be a number greater than 0 s"]}),
        ({"checkpoint_write_share": 0}, {"storage.checkpoint_write_share": ["must be a number greater than 0"]}),
        ({"tiers": [READS, READS]}, {"storage.tiers[1].serves": [
            "only one tier may serve training_reads; tier 0 already does"]}),
        ({"read_gbytes_per_s_per_gpu": 1, "read_gbytes_per_s": 100}, {"storage.read_gbytes_per_s": [
            "give either read_gbytes_per_s_per_gpu or read_gbytes_per_s, not both"]}),
        ({"tiers": [{**READS, "serves": ["training_reads", "training_reads"]}]},
         {"storage.tiers[0].serves": ["lists 'training_reads' more than once"]}),
        ({"tiers": [{**READS, "serves": ["reads"]}]},
         {"storage.tiers[0].serves[0]": ["must be one of: training_reads, checkpoint_writes"]}),
        ({"tiers": [{**READS, "protection": "raid5"}]},
         {"storage.tiers[0].protection.scheme": ["must be one of: none, replication, erasure_coding"]}),
        ({"tiers": [{**READS, "protection": {"scheme": "erasure_coding", "data_shards": 0}}]},
         {"storage.tiers[0].protection.data_shards": ["must be a positive whole number"]}),
        ({"tiers": [{**READS, "retained_checkpoints": 0}]},
         {"storage.tiers[0].retained_checkpoints": ["must be a positive whole number"]}),
        ({"tiers": [{"system": "ddn-ai400x2", "serves": ["checkpoint_writes"]}]}, {"storage.checkpoint_tb": [
            "give the checkpoint size (or a workload) for the tiers that hold checkpoints"]}),
        ({"dataset_tb": -1}, {"storage.dataset_tb": ["must be a number, zero or more"]}),
        ({"tiers": READS}, {"storage.tiers": ["must be a list"]}),
    ],
)
def test_bad_storage_input_is_named_by_its_dotted_path(storage, expected):
    assert errors_of(storage) == expected


def test_a_tier_of_other_data_only_is_accepted():
    scenario = read_scenario({**BASE, "storage": {"tiers": [
        {"system": "object-hdd-4u60", "holds": [], "other_tb": 500}]}})
    assert scenario.storage.tiers[0].contents() == ()


def test_protection_shorthand_and_unknown_systems(catalog):
    scenario = read_scenario({**BASE, "storage": {"tiers": [{**READS, "protection": "replication"}]}})
    assert scenario.storage.tiers[0].protection == ProtectionSpec(scheme="replication", copies=2)
    errors = errors_of({"tiers": [{**READS, "system": "ddn-ai400"}]}, catalog)
    [message] = errors["storage.tiers[0].system"]
    assert message.startswith("no storage system 'ddn-ai400' in the catalog") and "ddn-ai400x2" in message
