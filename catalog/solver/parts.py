"""Catalog parts as the solver sees them: the common fields of every part, and GPU systems.

The same dataclasses read catalog data files, catalog rows and the inline `components` of a
scenario, so a custom part is checked exactly like a catalog one.
"""

import re
from dataclasses import dataclass
from typing import Literal

from core.solver.schema import spec_field

SLUG_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
Confidence = Literal["datasheet", "analysis", "estimate"]
NicRole = Literal["compute", "storage", "inband", "oob"]


@dataclass(frozen=True, kw_only=True)
class PartSpec:
    """What every catalog part carries: its identity, price and where its figures come from."""

    slug: str = spec_field(min_length=1, max_length=80, help="Short lowercase name used in scenarios.")
    name: str = spec_field(min_length=1, help="Full name of the part.")
    price_usd: float = spec_field(unit="USD", minimum=0, maximum=1e9, help="Unit list price.")
    vendor: str = spec_field("")
    source_url: str = spec_field("", max_length=500, help="Where the figures come from.")
    source_date: str = spec_field("", max_length=20, help="Date of the source (YYYY-MM-DD).")
    confidence: Confidence = spec_field(
        "estimate", help="datasheet (vendor figure), analysis (derived or third party), estimate."
    )
    notes: str = spec_field("", max_length=2000)

    def problems(self):
        if not SLUG_PATTERN.match(self.slug):
            yield "slug", "must use lowercase letters, digits, hyphens and underscores only"


@dataclass(frozen=True)
class NicSpec:
    """The network ports of one role on a system."""

    role: NicRole = spec_field(help="compute (GPU back-end), storage, inband (front-end) or oob.")
    count: int = spec_field(minimum=1, maximum=1024, help="Ports of this role per system.")
    gbps: float = spec_field(unit="Gb/s", minimum=0, exclusive_minimum=True, maximum=10_000)
    ports_per_cage: int = spec_field(
        1,
        minimum=1,
        maximum=8,
        help="NIC ports that share one cage and one module: 2 for a DGX H100's twin-port OSFP "
        "compute cages (8 ports, 4 modules).",
    )

    def problems(self):
        if self.count % self.ports_per_cage:
            yield "ports_per_cage", f"must divide the {self.count} {self.role} ports evenly"


@dataclass(frozen=True, kw_only=True)
class SystemSpec(PartSpec):
    """A GPU server, a rack-scale system that is one rack (GB200 NVL72), or one that spans
    several compute racks and racks of its own scale-up switching (CloudMatrix 384)."""

    gpus: int = spec_field(minimum=1, maximum=1024, help="GPUs in one system.")
    power_kw: float = spec_field(
        unit="kW", minimum=0, exclusive_minimum=True, maximum=2_000, help="Maximum input power."
    )
    rack_units: int = spec_field(unit="U", minimum=1, maximum=60)
    weight_kg: float = spec_field(unit="kg", minimum=0, exclusive_minimum=True, maximum=100_000)
    nics: tuple[NicSpec, ...] = ()
    gpu_model: str = spec_field("")
    gpu_memory_gb: float | None = spec_field(None, unit="GB", minimum=0, maximum=100_000)
    gpu_tdp_w: float | None = spec_field(None, unit="W", minimum=0, maximum=100_000)
    dense_bf16_tflops_per_gpu: float | None = spec_field(None, unit="TFLOPS", minimum=0, maximum=1e6)
    dense_fp8_tflops_per_gpu: float | None = spec_field(None, unit="TFLOPS", minimum=0, maximum=1e6)
    hbm_tb_per_s: float | None = spec_field(
        None, unit="TB/s", minimum=0, exclusive_minimum=True, maximum=1_000,
        help="Memory bandwidth of one GPU: bounds the time per output token of inference.",
    )
    rack_scale: bool = spec_field(False, help="The system is a whole rack (e.g. GB200 NVL72).")
    liquid_cooling_required: bool = spec_field(False)
    compute_trays: int = spec_field(
        1,
        minimum=1,
        maximum=1024,
        help="Trays the system divides into whose compute NICs are rail-aligned "
        "(GB200/GB300 NVL72: 18 trays of 4 NICs); 1 for a server.",
    )
    nic_optics_in_power: bool = spec_field(
        True,
        help="The system's maximum power already includes the modules plugged into its NIC cages "
        "(so the plan does not charge them again).",
    )
    compute_racks: int = spec_field(
        1,
        minimum=1,
        maximum=64,
        help="Racks the system's compute fills (a rack-scale system): 1 for GB200 NVL72, 12 for a "
        "CloudMatrix 384 supernode. Its trays and NIC ports are spread evenly over them.",
    )
    switch_racks: int = spec_field(
        0, minimum=0, maximum=64,
        help="Racks of the system's own scale-up switching, beside its compute racks (CloudMatrix "
        "384: 4). They stand with the network racks.",
    )
    switch_rack_kw: float = spec_field(
        0.0, unit="kW", minimum=0, maximum=2_000,
        help="The part of power_kw one switch rack draws; the compute racks share the rest evenly.",
    )
    switch_rack_weight_kg: float = spec_field(
        0.0, unit="kg", minimum=0, maximum=10_000,
        help="The part of weight_kg in one switch rack; the compute racks share the rest evenly.",
    )
    scale_up_links: int = spec_field(
        0, minimum=0, maximum=1_000_000,
        help="Optical links inside one system between its racks, each a cable with a module at "
        "both ends (CloudMatrix 384: 3,456 links, 6,912 modules). Their power is in power_kw.",
    )
    scale_up_transceiver: str = spec_field(
        "", max_length=80, help="Catalog slug of the module at each end of a scale-up link."
    )
    scale_up_cable: str = spec_field("", max_length=80, help="Catalog slug of a scale-up link's cable.")
    scale_up_cable_length_m: float = spec_field(
        0.0, unit="m", minimum=0, maximum=1_000,
        help="Length of a scale-up link's cable: the run between a compute rack and a switch rack.",
    )

    def problems(self):
        yield from super().problems()
        roles = [nic.role for nic in self.nics]
        for role in sorted({role for role in roles if roles.count(role) > 1}):
            yield "nics", f"lists the role '{role}' more than once"
        compute = self.nic("compute")
        if compute is not None and compute.count % self.compute_trays:
            yield "compute_trays", (
                f"must divide the {compute.count} compute NIC ports evenly "
                f"({self.compute_trays} trays)"
            )
        yield from self._multi_rack_problems()

    def _multi_rack_problems(self):
        if not self.spans_racks:
            return
        if not self.rack_scale:
            yield "rack_scale", "must be true for a system that spans several racks"
        if self.compute_trays % self.compute_racks:
            yield "compute_trays", f"must divide evenly over the {self.compute_racks} compute racks"
        for nic in self.nics:
            if nic.count % self.compute_racks:
                yield "nics", (
                    f"the {nic.count} {nic.role} ports must divide evenly over the "
                    f"{self.compute_racks} compute racks"
                )
        if self.switch_racks * self.switch_rack_kw >= self.power_kw:
            yield "switch_rack_kw", f"leaves nothing of the {self.power_kw:g} kW for the compute racks"
        if self.switch_racks * self.switch_rack_weight_kg >= self.weight_kg:
            yield "switch_rack_weight_kg", f"leaves nothing of the {self.weight_kg:g} kg for the compute racks"
        if self.scale_up_links and not (self.scale_up_transceiver and self.scale_up_cable):
            yield "scale_up_links", "need a scale_up_transceiver and a scale_up_cable"
        if self.scale_up_links and not self.scale_up_cable_length_m:
            yield "scale_up_cable_length_m", "must be more than 0 for scale-up links"

    @property
    def spans_racks(self) -> bool:
        """The system fills more than one rack (compute racks, switch racks)."""
        return self.compute_racks > 1 or self.switch_racks > 0

    @property
    def compute_rack_kw(self) -> float:
        """Power of one of its compute racks [kW]: (power_kw - switch racks x switch_rack_kw) /
        compute racks; power_kw for a server or a one-rack system."""
        return (self.power_kw - self.switch_racks * self.switch_rack_kw) / self.compute_racks

    @property
    def compute_rack_weight_kg(self) -> float:
        """Weight of one of its compute racks [kg], split like compute_rack_kw."""
        return (self.weight_kg - self.switch_racks * self.switch_rack_weight_kg) / self.compute_racks

    def nic(self, role: str) -> NicSpec | None:
        return next((nic for nic in self.nics if nic.role == role), None)


ServerRole = Literal["management_server", "fabric_manager"]


@dataclass(frozen=True, kw_only=True)
class ServerSpec(PartSpec):
    """A server or appliance that runs the cluster rather than its jobs: a head node or
    management server, or a fabric manager appliance (NVIDIA UFM). Racked in management racks."""

    role: ServerRole = spec_field(
        "management_server",
        help="management_server (head node, scheduler, monitoring) or fabric_manager (an appliance "
        "whose fabric NIC ports take leaf ports of the fabric it manages).",
    )
    power_kw: float = spec_field(
        unit="kW", minimum=0, exclusive_minimum=True, maximum=100, help="Maximum input power."
    )
    rack_units: int = spec_field(unit="U", minimum=1, maximum=60)
    weight_kg: float = spec_field(unit="kg", minimum=0, exclusive_minimum=True, maximum=2_000)
    nics: tuple[NicSpec, ...] = spec_field(
        (), help="Network ports by role; a fabric manager's fabric ports are its compute NICs, and "
        "its oob NIC is its BMC."
    )

    def problems(self):
        yield from super().problems()
        roles = [nic.role for nic in self.nics]
        for role in sorted({role for role in roles if roles.count(role) > 1}):
            yield "nics", f"lists the role '{role}' more than once"

    def nic(self, role: str) -> NicSpec | None:
        return next((nic for nic in self.nics if nic.role == role), None)
