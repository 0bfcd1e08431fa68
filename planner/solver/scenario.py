"""The scenario document as frozen dataclasses, with the defaults documented in the format spec.

`read_scenario` turns a parsed document into a `ScenarioSpec` or raises `ScenarioError` naming
every bad field; `check_references` then checks its slugs against a catalog.
"""

from dataclasses import dataclass, field
from typing import Any, Literal

from fabric.solver.dragonfly import DragonflySpec
from fabric.solver.media import LinkLengthsSpec, OpticalMedia
from fabric.solver.parts import SwitchSpec
from planner.solver.parts import SystemSpec
from planner.solver.schema import read_spec, spec_field
from power.solver.parts import Climate, CoolingName, NetworkPlacement, PowerFeeds, Redundancy

MAX_GPUS = 10_000_000
"""Ten times the largest clusters announced; anything beyond is a typo."""


@dataclass(frozen=True)
class ComputeSpec:
    system: str = spec_field(min_length=1, max_length=80, help="Catalog slug of the GPU system.")
    gpus: int | None = spec_field(
        None, minimum=1, maximum=MAX_GPUS, help="GPUs wanted; give either gpus or nodes."
    )
    nodes: int | None = spec_field(
        None, minimum=1, maximum=MAX_GPUS, help="Systems wanted; give either gpus or nodes."
    )
    spare_nodes: int = spec_field(
        0, minimum=0, maximum=MAX_GPUS, help="Extra systems held as spares, cabled and powered."
    )

    def problems(self):
        if self.gpus is not None and self.nodes is not None:
            yield "gpus", "give either gpus or nodes, not both"
        # Neither is fine when workload.days sizes the GPUs: ScenarioSpec checks that.


@dataclass(frozen=True)
class RacksSpec:
    power_budget_kw: float = spec_field(
        41.0, unit="kW", minimum=0, exclusive_minimum=True, maximum=2_000,
        help="IT power one rack may draw.",
    )
    usable_u: int = spec_field(42, unit="U", minimum=1, maximum=60, help="Rack units for equipment.")
    max_nodes_per_rack: int | None = spec_field(
        None, minimum=1, maximum=1_000, help="Optional hard cap on systems per rack."
    )
    cooling: CoolingName = spec_field("air", help="How the racks are cooled.")
    racks_per_row: int = spec_field(16, minimum=1, maximum=200, help="Racks in one row.")
    rack_type: str = spec_field(
        "rack-42u-600", min_length=1, max_length=80,
        help="Catalog slug of the enclosure of compute, storage and management racks.",
    )
    network_rack_type: str = spec_field(
        "rack-52u-800", min_length=1, max_length=80,
        help="Catalog slug of the enclosure of network racks (wider, for cable managers).",
    )
    pdu: str = spec_field("pdu-415v-60a-3ph", min_length=1, max_length=80, help="Catalog slug of the rack PDU.")
    power_feeds: PowerFeeds = spec_field(
        "a_b", help="a_b: two feeds, each with PDUs for the whole rack; single: one feed."
    )
    pdus_per_rack: int | None = spec_field(
        None, minimum=1, maximum=32,
        help="PDUs per rack, all feeds together; by default enough for each feed to carry the rack.",
    )
    max_weight_kg: float | None = spec_field(
        None, unit="kg", minimum=0, exclusive_minimum=True, maximum=20_000,
        help="Equipment one rack may hold; by default the rack type's static load rating.",
    )
    empty_rack_weight_kg: float = spec_field(
        150.0, unit="kg", minimum=0, maximum=2_000,
        help="Enclosure, PDUs and cabling of one rack, added for floor loading (an estimate).",
    )
    support_power_budget_kw: float = spec_field(
        30.0, unit="kW", minimum=0, exclusive_minimum=True, maximum=2_000,
        help="IT power one network, storage or management rack may draw.",
    )
    network_reserved_u: int = spec_field(
        4, unit="U", minimum=0, maximum=60,
        help="Rack units kept free in each network rack for patch panels and cable managers.",
    )
    network_placement: NetworkPlacement = spec_field(
        "middle_of_row",
        help="middle_of_row or end_of_row: network racks shared out over the compute rows; "
        "central_rows: rows of their own in the middle of the hall.",
    )
    management_servers: int = spec_field(
        4, minimum=0, maximum=10_000,
        help="Head nodes, fabric managers and schedulers, racked in management racks.",
    )
    management_server_kw: float = spec_field(
        1.0, unit="kW", minimum=0, exclusive_minimum=True, maximum=100, help="Power of one management server."
    )
    management_server_u: int = spec_field(1, unit="U", minimum=1, maximum=60)
    management_server_weight_kg: float = spec_field(25.0, unit="kg", minimum=0, exclusive_minimum=True, maximum=2_000)
    cold_aisle_m: float = spec_field(
        1.2, unit="m", minimum=0, exclusive_minimum=True, maximum=20,
        help="Width of a cold aisle (TIA-942 recommends 1.2 m, two floor tiles).",
    )
    hot_aisle_m: float = spec_field(
        0.9, unit="m", minimum=0, exclusive_minimum=True, maximum=20, help="Width of a hot aisle."
    )
    end_aisle_m: float = spec_field(
        1.2, unit="m", minimum=0, exclusive_minimum=True, maximum=20,
        help="Circulation aisle at both ends of the rows (at least 1.2 m to move racks).",
    )
    cable_tray_height_m: float = spec_field(
        2.7, unit="m", minimum=0, exclusive_minimum=True, maximum=10,
        help="Height of the overhead cable trays above the floor.",
    )
    cable_slack_m: float = spec_field(
        1.0, unit="m", minimum=0, maximum=100, help="Service loops added to every cable between racks."
    )
    cable_slack_fraction: float = spec_field(
        0.1, minimum=0, maximum=1, help="Share of the routed length added as slack."
    )


def _oversubscription_shorthand(value: Any) -> Any:
    """A bare number is the leaf's ratio, as in the format spec."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {"leaf": value}
    return value


@dataclass(frozen=True)
class OversubscriptionSpec:
    leaf: float = spec_field(1.0, minimum=1, maximum=64, help="Leaf downlink:uplink bandwidth.")
    spine: float = spec_field(1.0, minimum=1, maximum=64, help="Spine downlink:uplink bandwidth.")


@dataclass(frozen=True)
class FabricSpec:
    switch: str = spec_field(min_length=1, max_length=80, help="Catalog slug of the switch.")
    topology: Literal["fat_tree", "rail_only", "dragonfly"] = spec_field("fat_tree")
    leaf_placement: Literal["rail_optimized", "top_of_rack"] = spec_field("rail_optimized")
    tiers: Literal["auto", 2, 3] = spec_field("auto", help="Switch tiers of a fat tree.")
    oversubscription: OversubscriptionSpec = spec_field(
        default_factory=OversubscriptionSpec, before=_oversubscription_shorthand
    )
    planes: int = spec_field(1, minimum=1, maximum=16, help="Independent parallel fabrics.")
    spine_switch: str | None = spec_field(
        None, min_length=1, max_length=80,
        help="Catalog slug of the spine and core switches; the leaf switch when left out.",
    )
    dragonfly: DragonflySpec | None = spec_field(
        None, help="Dragonfly p, a, h; what is left out is balanced (a = 2p = 2h) within the radix."
    )
    fabric_manager_ports: int = spec_field(
        0, minimum=0, maximum=64,
        help="Leaf ports taken by a fabric manager appliance (NVIDIA UFM: 4 in the H100 SuperPOD).",
    )
    optical_media: OpticalMedia = spec_field(
        "transceivers", help="Beyond copper reach: transceivers plus fiber, or active optical cables."
    )
    link_lengths: LinkLengthsSpec = spec_field(
        default_factory=LinkLengthsSpec, help="Assumed cable runs per segment until the floor layout gives them."
    )

    def problems(self):
        if self.dragonfly is not None and self.topology != "dragonfly":
            yield "dragonfly", "applies only to topology: dragonfly"


@dataclass(frozen=True)
class FabricsSpec:
    compute: FabricSpec | None = None
    storage: FabricSpec | None = None
    inband: FabricSpec | None = None
    oob: FabricSpec | None = None


Precision = Literal["bf16", "fp8"]


@dataclass(frozen=True)
class WorkloadSpec:
    """A training job. With `days` it sizes the GPUs; without, the plan gives its days."""

    parameters_billion: float = spec_field(
        unit="billion", minimum=0, exclusive_minimum=True, maximum=1e6,
        help="Model parameters (all experts of a mixture of experts): sizes the checkpoints.",
    )
    tokens_trillion: float = spec_field(
        unit="trillion", minimum=0, exclusive_minimum=True, maximum=1e6, help="Training tokens."
    )
    active_parameters_billion: float | None = spec_field(
        None, unit="billion", minimum=0, exclusive_minimum=True, maximum=1e6,
        help="Parameters each token passes through (mixture of experts); default: all of them.",
    )
    days: float | None = spec_field(
        None, unit="days", minimum=0, exclusive_minimum=True, maximum=36_500,
        help="Days the training may take: sizes the GPUs (then leave compute.gpus and nodes out).",
    )
    mfu: float = spec_field(
        0.4, minimum=0, exclusive_minimum=True, maximum=1,
        help="Model FLOPs utilisation; 0.4 is what Meta reports for Llama 3 405B (38-43 % BF16).",
    )
    precision: Precision = spec_field("bf16", help="Training precision: the GPU's dense throughput at it.")

    def problems(self):
        if self.active_parameters_billion is not None and self.active_parameters_billion > self.parameters_billion:
            yield "active_parameters_billion", "must not exceed parameters_billion"


@dataclass(frozen=True)
class ReliabilitySpec:
    """Interruptions of the job, how often it checkpoints, and the spares that keep it whole."""

    interruptions_per_gpu_year: float | None = spec_field(
        None, unit="per GPU-year", minimum=0, maximum=1_000,
        help="Unexpected job interruptions, all causes, per GPU per year; "
        "default 0.173 from Meta's Llama 3 405B run (419 in 54 days on 16,384 H100).",
    )
    restart_s: float = spec_field(
        600.0, unit="s", minimum=0, maximum=1e6,
        help="From an interruption to training again (detect, swap the node, reload); "
        "default 10 min as in Daly's 2006 example (an estimate).",
    )
    checkpoint_interval_s: Literal["young", "daly", "daly_higher_order"] | float = spec_field(
        "daly", unit="s", minimum=0, exclusive_minimum=True, maximum=1e8,
        help="Compute time between checkpoints: young, daly (first order), daly_higher_order, or seconds.",
    )
    node_repair_h: float = spec_field(
        48.0, unit="h", minimum=0, maximum=10_000,
        help="Time an interrupted node stays out of the job (an estimate): sizes the spares.",
    )
    spare_confidence: float = spec_field(
        0.99, minimum=0, exclusive_minimum=True, maximum=0.9999,
        help="Probability that the spares cover every node out for repair at a given moment.",
    )


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
    protection: ProtectionSpec = spec_field(default_factory=ProtectionSpec, before=_protection_shorthand)

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
    tiers: tuple[StorageTierSpec, ...] = ()

    def problems(self):
        if self.read_gbytes_per_s_per_gpu is not None and self.read_gbytes_per_s is not None:
            yield "read_gbytes_per_s", "give either read_gbytes_per_s_per_gpu or read_gbytes_per_s, not both"
        for duty in ("training_reads", "checkpoint_writes"):
            serving = [index for index, tier in enumerate(self.tiers) if duty in tier.serves]
            for index in serving[1:]:
                yield f"tiers[{index}].serves", (
                    f"only one tier may serve {duty}; tier {serving[0]} already does"
                )


@dataclass(frozen=True)
class FacilitySpec:
    pue: Literal["auto"] | float = spec_field(
        "auto", minimum=1, maximum=5, help="auto, or facility energy / IT energy (at least 1)."
    )
    electricity_usd_per_kwh: float = spec_field(0.08, unit="USD/kWh", minimum=0, maximum=10)
    climate: Climate = spec_field(
        "temperate", help="cool, temperate or hot: how often the chillers must run (free cooling)."
    )
    chiller_share: Literal["auto"] | float = spec_field(
        "auto", minimum=0, maximum=1,
        help="auto (from the climate), or the share of the year the chillers run.",
    )
    air_delta_t_k: float = spec_field(
        12.0, unit="K", minimum=0, exclusive_minimum=True, maximum=50,
        help="Air temperature rise through the racks (12 K = 21.6 °F; servers run 20-30 °F).",
    )
    water_delta_t_k: float = spec_field(
        10.0, unit="K", minimum=0, exclusive_minimum=True, maximum=50,
        help="Coolant temperature rise through the racks (1.43 L/min per kW at 10 K).",
    )
    cdu: str = spec_field("auto", min_length=1, max_length=80, help="auto, or the catalog slug of the CDU.")
    air_handler: str = spec_field(
        "auto", min_length=1, max_length=80, help="auto, or the catalog slug of the air handler (CRAH)."
    )
    heat_rejection: str = spec_field(
        "auto", min_length=1, max_length=80,
        help="auto (chillers for chilled water, dry coolers for warm-water liquid loops), or a "
        "catalog slug of a chiller, dry cooler or cooling tower for all heat.",
    )
    cooling_redundancy: Redundancy = spec_field("N+1", help="N, N+1 or 2N for CDUs, air handlers and heat rejection.")
    ups_redundancy: Redundancy = spec_field("N+1", help="N, N+1 or 2N UPS modules.")
    ups_module_kw: float = spec_field(1_000.0, unit="kW", minimum=0, exclusive_minimum=True, maximum=100_000)
    ups_efficiency: float = spec_field(
        0.95, minimum=0.5, maximum=1, help="Double-conversion UPS: about 0.92-0.97 at its load."
    )
    generator_redundancy: Redundancy = spec_field("N+1", help="N, N+1 or 2N generator sets.")
    generator_kw: float = spec_field(
        2_500.0, unit="kW", minimum=0, exclusive_minimum=True, maximum=100_000, help="Rating of one generator set."
    )
    distribution_loss_fraction: float = spec_field(
        0.02, minimum=0, maximum=0.5, help="Transformer, switchgear, PDU and cable losses, as a share of the load."
    )
    other_loss_fraction: float = spec_field(
        0.02, minimum=0, maximum=0.5, help="Lighting, security, offices: as a share of the IT load."
    )
    floor_load_limit_kg_per_m2: float = spec_field(
        1_224.0, unit="kg/m²", minimum=0, exclusive_minimum=True, maximum=100_000,
        help="What the floor carries under a rack (TIA-942 Rated-3: 12 kPa, 250 lb/ft², 1,224 kg/m²).",
    )
    average_load: float = spec_field(
        0.75, minimum=0, exclusive_minimum=True, maximum=1,
        help="Average IT power over the year as a share of the maximum (DGX H100: ~6.5-8.5 of 10.2 kW).",
    )
    grid_gco2_per_kwh: float = spec_field(
        481.0, unit="gCO2/kWh", minimum=0, maximum=2_000,
        help="Carbon intensity of the grid (world average 2023: 481, Ember).",
    )
    wue_l_per_kwh: Literal["auto"] | float = spec_field(
        "auto", unit="L/kWh", minimum=0, maximum=20,
        help="Water usage effectiveness (site water / IT energy); auto: 1.8 with cooling towers, else 0.2.",
    )


@dataclass(frozen=True)
class SparesSpec:
    """Spare parts bought with the cluster, as a percentage of the quantity installed."""

    network: float = spec_field(2.0, unit="%", minimum=0, maximum=100, help="Spare switches.")
    optics: float = spec_field(3.0, unit="%", minimum=0, maximum=100, help="Spare transceivers.")
    cables: float = spec_field(3.0, unit="%", minimum=0, maximum=100, help="Spare cables.")


@dataclass(frozen=True)
class FinanceSpec:
    years: int = spec_field(5, unit="years", minimum=1, maximum=50, help="Life the TCO covers.")
    discount_rate: float = spec_field(
        0.08, minimum=-1, exclusive_minimum=True, maximum=1, help="Yearly, for net present value."
    )
    facility: Literal["leased", "built"] = spec_field(
        "leased", help="leased: colocation fee per kW-month; built: construction cost per MW of IT."
    )
    colocation_usd_per_kw_month: float = spec_field(
        184.06, unit="USD/kW-month", minimum=0, maximum=10_000,
        help="Per kW of IT capacity; CBRE North America primary markets, H2 2024.",
    )
    build_usd_per_mw: float = spec_field(
        11.7e6, unit="USD/MW", minimum=0, maximum=1e9,
        help="Per MW of IT capacity; Cushman & Wakefield 2025 US average (9.3 to 15.0 M).",
    )
    installation_share: float = spec_field(
        0.05, minimum=0, maximum=1, help="Rack, stack and cabling labour, as a share of hardware (estimate)."
    )
    maintenance_share_per_year: float = spec_field(
        0.10, minimum=0, maximum=1,
        help="Hardware support per year as a share of hardware capex (estimate; DGX support is quoted near 0.20).",
    )
    staff_per_1000_gpus: float = spec_field(
        1.0, minimum=0, maximum=1_000, help="Operations staff per 1,000 GPUs (estimate)."
    )
    staff_usd_per_year_each: float = spec_field(
        200_000.0, unit="USD/year", minimum=0, maximum=1e7, help="Loaded cost of one person (estimate)."
    )
    software_usd_per_gpu_per_year: float = spec_field(
        0.0, unit="USD/GPU-year", minimum=0, maximum=1e6,
        help="Licences per GPU (NVIDIA AI Enterprise lists about 4,500 USD per GPU-year).",
    )
    escalation_per_year: float = spec_field(
        0.03, minimum=-0.5, maximum=1, help="Yearly rise of opex prices (energy, services, staff)."
    )
    spares_percent: SparesSpec = field(default_factory=SparesSpec)


@dataclass(frozen=True)
class ComponentsSpec:
    systems: tuple[SystemSpec, ...] = ()
    switches: tuple[SwitchSpec, ...] = ()


@dataclass(frozen=True)
class ScenarioSpec:
    name: str = spec_field(min_length=1, help="What this scenario is called.")
    compute: ComputeSpec = spec_field()
    workload: WorkloadSpec | None = None
    racks: RacksSpec = field(default_factory=RacksSpec)
    fabrics: FabricsSpec = field(default_factory=FabricsSpec)
    storage: StorageSpec = field(default_factory=StorageSpec)
    reliability: ReliabilitySpec | None = None
    facility: FacilitySpec = field(default_factory=FacilitySpec)
    finance: FinanceSpec = field(default_factory=FinanceSpec)
    components: ComponentsSpec = field(default_factory=ComponentsSpec)
    prices: dict[str, float] = spec_field(
        default_factory=dict, unit="USD", minimum=0, maximum=1e10,
        help="Quoted unit prices by catalog slug; a quote replaces the list price.",
    )

    def problems(self):
        yield from _gpu_source_problems(self.compute, self.workload)
        checkpoint_tier = any("checkpoints" in tier.contents() for tier in self.storage.tiers)
        if checkpoint_tier and self.storage.checkpoint_tb is None and self.workload is None:
            yield "storage.checkpoint_tb", "give the checkpoint size (or a workload) for the tiers that hold checkpoints"


def _gpu_source_problems(compute: ComputeSpec, workload: WorkloadSpec | None):
    """Exactly one source of the GPU count: compute.gpus, compute.nodes, or workload.days."""
    sizes_gpus = workload is not None and workload.days is not None
    given = "gpus" if compute.gpus is not None else "nodes" if compute.nodes is not None else None
    if sizes_gpus and given:
        yield f"compute.{given}", "leave out when workload.days is given: the workload sizes the GPUs"
    elif not sizes_gpus and given is None:
        yield "compute.gpus", "give either gpus or nodes" + (", or workload.days" if workload else "")


def read_scenario(document: Any) -> ScenarioSpec:
    return read_spec(ScenarioSpec, document)
