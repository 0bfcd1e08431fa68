"""The racks and facility sections of a scenario: how racks are filled, laid out, fed and
cooled, and the facility's power, cooling and energy assumptions."""

from dataclasses import dataclass
from typing import Literal

from catalog.solver.power_parts import (
    Climate,
    CoolingName,
    NetworkPlacement,
    PowerFeeds,
    Redundancy,
)
from core.solver.schema import spec_field


@dataclass(frozen=True)
class RacksSpec:
    """How racks are filled, powered, laid out in rows and cabled overhead."""

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
        help="Head nodes, schedulers and monitoring servers, racked in management racks (fabric "
        "manager appliances are counted per fabric: fabrics.<name>.fabric_manager).",
    )
    management_server: str = spec_field(
        "head-node-1u", min_length=1, max_length=80,
        help="Catalog slug of the management server (a server part, /api/v1/catalog/servers/).",
    )
    management_server_kw: float | None = spec_field(
        None, unit="kW", minimum=0, exclusive_minimum=True, maximum=100,
        help="Power of one management server; by default the part's.",
    )
    management_server_u: int | None = spec_field(
        None, unit="U", minimum=1, maximum=60, help="Rack units of one management server; by default the part's."
    )
    management_server_weight_kg: float | None = spec_field(
        None, unit="kg", minimum=0, exclusive_minimum=True, maximum=2_000,
        help="Weight of one management server; by default the part's.",
    )
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


@dataclass(frozen=True)
class FacilitySpec:
    """The facility: PUE, cooling plant, UPS and generators, energy price, carbon and water."""

    pue: Literal["auto"] | float = spec_field(
        "auto", minimum=1, maximum=5, help="auto, or facility energy / IT energy (at least 1)."
    )
    electricity_usd_per_kwh: float = spec_field(
        0.08, unit="USD/kWh", minimum=0, maximum=10,
        help="Energy price at the meter; US industrial average 8.06 c/kWh in 2023 (EIA).",
    )
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
    # At least 1 kW, as every unit size that divides a load: a tiny one made the count infinite.
    ups_module_kw: float = spec_field(1_000.0, unit="kW", minimum=1, maximum=100_000)
    ups_efficiency: float = spec_field(
        0.95, minimum=0.5, maximum=1, help="Double-conversion UPS: about 0.92-0.97 at its load."
    )
    generator_redundancy: Redundancy = spec_field("N+1", help="N, N+1 or 2N generator sets.")
    generator_kw: float = spec_field(
        2_500.0, unit="kW", minimum=1, maximum=100_000, help="Rating of one generator set."
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
