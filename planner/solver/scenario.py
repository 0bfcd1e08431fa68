"""The scenario document as frozen dataclasses, with the defaults documented in the format spec.

Each app owns the sections of its domain (fabric/solver/specs.py, power/solver/specs.py,
storage/solver/specs.py); here are the compute, workload, reliability and finance sections and
the scenario as a whole.

`read_scenario` turns a parsed document into a `ScenarioSpec` or raises `ScenarioError` naming
every bad field; `check_references` then checks its slugs against a catalog.
"""

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from catalog.solver.fabric_parts import SwitchSpec
from catalog.solver.parts import NicSpec, SystemSpec
from core.solver.schema import read_spec, spec_field
from fabric.solver.specs import FabricSpec, FabricsSpec
from planner.solver.inference_spec import InferenceSpec
from planner.solver.phase_spec import Growth, PhaseSpec, final_growth_problems, phase_problems
from power.solver.specs import FacilitySpec, RacksSpec
from storage.solver.specs import StorageSpec

MAX_GPUS = 10_000_000
"""Ten times the largest clusters announced; anything beyond is a typo."""


@dataclass(frozen=True)
class ComputeSpec:
    """The GPU systems: which, and how many (GPUs or systems, plus spares)."""

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
    nics: tuple[NicSpec, ...] = spec_field(
        (),
        help="NICs that replace the system's own, role by role, for this scenario (e.g. two 200 Gb/s "
        "storage HCAs); a role the system lacks is added, the roles not listed stay as the system has them.",
    )

    def problems(self):
        if self.gpus is not None and self.nodes is not None:
            yield "gpus", "give either gpus or nodes, not both"
        roles = [nic.role for nic in self.nics]
        for role in sorted({role for role in roles if roles.count(role) > 1}):
            yield "nics", f"lists the role '{role}' more than once"
        # Neither is fine when workload.days sizes the GPUs: ScenarioSpec checks that.


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


MIN_INTERRUPTIONS_PER_GPU_YEAR = 1e-9
"""The least rate of interruptions that is not 0: one interruption in a billion GPU-years, eight
orders of magnitude below any fleet's. Below it, the mean time between interruptions (1e300 h
at 1e-300) times a write time overflows the checkpoint interval √(2δM), and the higher-order
interval cannot be solved for a write share."""


@dataclass(frozen=True)
class ReliabilitySpec:
    """Interruptions of the job, how often it checkpoints, and the spares that keep it whole."""

    interruptions_per_gpu_year: float | None = spec_field(
        None, unit="per GPU-year", minimum=0, maximum=1_000, least_nonzero=MIN_INTERRUPTIONS_PER_GPU_YEAR,
        help="Unexpected job interruptions, all causes, per GPU per year (0: never interrupted); "
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


@dataclass(frozen=True)
class SparesSpec:
    """Spare parts bought with the cluster, as a percentage of the quantity installed."""

    network: float = spec_field(2.0, unit="%", minimum=0, maximum=100, help="Spare switches.")
    optics: float = spec_field(3.0, unit="%", minimum=0, maximum=100, help="Spare transceivers.")
    cables: float = spec_field(3.0, unit="%", minimum=0, maximum=100, help="Spare cables.")


@dataclass(frozen=True)
class FinanceSpec:
    """Cost assumptions: life, discount rate, facility leased or built, opex shares."""

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

MAX_POOLS = 100
"""Pools of one site: each is sized, fabric-planned and packed on its own."""
SHORTHAND_POOL = "compute"
"""The name of the one pool that the `compute:` shorthand stands for (phases refer to it)."""
POOL_NAME = re.compile(r"[a-z0-9]+(?:[-_][a-z0-9]+)*")


@dataclass(frozen=True)
class PoolSpec:
    """One compute pool of a site: its systems, their size and its own compute fabric."""

    name: str = spec_field(
        min_length=1, max_length=40,
        help="The pool's name: lowercase letters, digits, - and _ (e.g. training); unique in the site.",
    )
    system: str = spec_field(min_length=1, max_length=80, help="Catalog slug of the pool's GPU system.")
    gpus: int | None = spec_field(
        None, minimum=1, maximum=MAX_GPUS, help="GPUs wanted; give gpus, nodes or workload.days."
    )
    nodes: int | None = spec_field(
        None, minimum=1, maximum=MAX_GPUS, help="Systems wanted; give gpus, nodes or workload.days."
    )
    workload: WorkloadSpec | None = spec_field(
        None, help="The pool's training job; with days it sizes the pool's GPUs, as for compute."
    )
    inference: InferenceSpec | None = spec_field(
        None, help="The pool's inference load and latency targets; they size the pool's GPUs, as for compute."
    )
    spare_nodes: int = spec_field(
        0, minimum=0, maximum=MAX_GPUS, help="Extra systems held as spares, cabled and powered."
    )
    nics: tuple[NicSpec, ...] = spec_field(
        (), help="NICs that replace the system's own, role by role, as compute.nics does."
    )
    fabric: FabricSpec | None = spec_field(
        None, help="The pool's own compute fabric, the shape of fabrics.compute; left out, the pool joins "
        "the site's fabrics.compute when there is one (pools of several generations under one fabric), "
        "else it has none."
    )

    def problems(self):
        if not POOL_NAME.fullmatch(self.name):
            yield "name", "use lowercase letters, digits, - and _ (e.g. training or zone-a)"
        yield from self.compute().problems()
        given = "gpus" if self.gpus is not None else "nodes" if self.nodes is not None else None
        sized_by = self.sized_by()
        if sized_by == "inference" and self.workload is not None and self.workload.days is not None:
            yield "inference", "leave out when workload.days is given: either the training job or the inference load sizes the GPUs"
        elif sized_by and given:
            yield given, f"leave out when {sized_by} is given: it sizes the pool's GPUs"
        elif not sized_by and not given:
            yield "gpus", "give gpus, nodes, workload.days or inference"

    def sized_by(self) -> str | None:
        """The key of the pool's section that sizes its GPUs, or None when gpus or nodes do."""
        if self.inference is not None:
            return "inference"
        if self.workload is not None and self.workload.days is not None:
            return "workload.days"
        return None

    def compute(self) -> ComputeSpec:
        """The pool as a compute section."""
        return ComputeSpec(self.system, self.gpus, self.nodes, self.spare_nodes, self.nics)


@dataclass(frozen=True)
class ComponentsSpec:
    """Parts that are not in the catalog (or replace catalog parts) for this scenario."""

    systems: tuple[SystemSpec, ...] = spec_field((), help="GPU systems, with the keys of the catalog's systems.")
    switches: tuple[SwitchSpec, ...] = spec_field((), help="Switches, with the keys of the catalog's switches.")


@dataclass(frozen=True)
class ScenarioSpec:
    """A cluster to plan."""

    name: str = spec_field(min_length=1, help="What this scenario is called.")
    compute: ComputeSpec = spec_field(None, required_unless="pools")
    """The one-pool shorthand: a pools list of one pool named `compute` (None with pools)."""
    pools: tuple[PoolSpec, ...] = spec_field(
        (), help="A site of several compute pools, each with its system, size and compute fabric; "
        "give either compute (one pool) or pools.",
    )
    workload: WorkloadSpec | None = None
    inference: InferenceSpec | None = None
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
    phases: tuple[PhaseSpec, ...] = spec_field(
        (), help="The build-out in order: each phase's start and every pool's size at its end; the last is the site."
    )
    growth: Growth = spec_field(
        "final", help="final: floor, power and spine/core laid out for the last phase and filled in; "
        "per_phase: each phase designed on its own, with what changes to reach the next.",
    )
    salvage_share: float = spec_field(
        0.0, minimum=0, maximum=1,
        help="Share of a retired part's price credited to the phase that retires it (resale or trade-in).",
    )

    def problems(self):
        if self.compute is not None and self.pools:
            yield "pools", "give either compute (one pool) or pools, not both"
        elif self.compute is None and not self.pools:
            yield "pools", "give at least one pool (or compute in its place)"
        if self.compute is not None:
            yield from _gpu_source_problems(self.compute, self.workload, self.inference)
        names = [pool.name for pool in self.pools]
        for index, name in enumerate(names):
            if name in names[:index]:
                yield f"pools[{index}].name", f"'{name}' names pools[{names.index(name)}] already: give each pool its own name"
        if len(self.pools) > MAX_POOLS:
            yield "pools", f"must have at most {MAX_POOLS} pools"
        if self.pools and self.workload is not None:
            yield "workload", "with pools, give each pool its own workload (pools[i].workload)"
        if self.pools and self.inference is not None:
            yield "inference", "with pools, give each pool its own inference section (pools[i].inference)"
        if self.pools and self.fabrics.compute is not None and all(pool.fabric for pool in self.pools):
            yield "fabrics.compute", (
                "every pool has its own compute fabric: leave this out, or leave out the fabric of the "
                "pools that should share it"
            )
        pools = {pool.name: pool for pool in scenario_pools(self)} if (self.compute or self.pools) else {}
        yield from phase_problems(self.phases, pools, tuple(tier.name for tier in self.storage.tiers))
        yield from final_growth_problems(self.phases, self.growth)
        checkpoint_tier = any("checkpoints" in tier.contents() for tier in self.storage.tiers)
        has_workload = self.workload is not None or any(pool.workload is not None for pool in self.pools)
        if checkpoint_tier and self.storage.checkpoint_tb is None and not has_workload:
            yield "storage.checkpoint_tb", "give the checkpoint size (or a workload) for the tiers that hold checkpoints"


def _gpu_source_problems(compute: ComputeSpec, workload: WorkloadSpec | None, inference: InferenceSpec | None):
    """Exactly one source of the GPU count: compute.gpus, compute.nodes, workload.days or inference."""
    sizes_gpus = workload is not None and workload.days is not None
    given = "gpus" if compute.gpus is not None else "nodes" if compute.nodes is not None else None
    if sizes_gpus and inference is not None:
        yield "inference", "leave out when workload.days is given: either the training job or the inference load sizes the GPUs"
    elif inference is not None and given:
        yield f"compute.{given}", "leave out when inference is given: the inference load sizes the GPUs"
    elif sizes_gpus and given:
        yield f"compute.{given}", "leave out when workload.days is given: the workload sizes the GPUs"
    elif not sizes_gpus and inference is None and given is None:
        yield "compute.gpus", "give either gpus or nodes" + (", or workload.days" if workload else "")


def scenario_pools(scenario: ScenarioSpec) -> tuple[PoolSpec, ...]:
    """Every pool of the scenario; the `compute:` shorthand is one pool named `compute`, with
    the scenario's workload and compute fabric (for the steps that refer to pools by name)."""
    if scenario.pools:
        return scenario.pools
    compute = scenario.compute
    return (PoolSpec(
        name=SHORTHAND_POOL, system=compute.system, gpus=compute.gpus, nodes=compute.nodes,
        workload=scenario.workload, inference=scenario.inference, spare_nodes=compute.spare_nodes,
        nics=compute.nics, fabric=scenario.fabrics.compute,
    ),)


def read_scenario(document: Any) -> ScenarioSpec:
    return read_spec(ScenarioSpec, document)
