"""What the cabling rows of one plan add up to, worked out once per scenario for every invariant.

The cabling tests draw the same scenarios (one `@seed`), so the rows of a plan are made and
summed up once and the summary is shared through a cache keyed by the document.
"""

import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

from fabric.solver.cabling import CABLING_COLUMNS
from fabric.solver.media import module_for_port
from fabric.solver.ports import port_split_ways
from tests.properties.strategies import plan_or_refusal, rows_of

DEVICE = re.compile(r"(?:r\d{3,}-)?([a-z]+(?:-[a-z]+)*)-(\d+)")
SWITCH_PORT = re.compile(r"p(\d+)(?:/(\d+))?")
NIC_PORT = re.compile(r"([a-z]+)-p(\d+)(?:/(\d+))?")
SWITCH_ROLES = {"leaf", "spine", "core", "rail", "router"}
MANAGEMENT_PORT = "mgmt"


@dataclass
class CablingSummary:
    rows: int = 0
    by_segment: Counter = field(default_factory=Counter)
    """Rows per (fabric, segment)."""
    twice: list = field(default_factory=list)
    """(device, port, uses) of every port with more than one cable."""
    by_cable: Counter = field(default_factory=Counter)
    """Rows per cable part."""
    by_cable_and_stock_length: Counter | None = None
    """Rows per (cable part, stock length) once the rows carry stock_length_m."""
    native_port_overuse: list = field(default_factory=list)
    """(fabric, device, native port, links, most links it can carry) beyond what a port carries."""
    port_beyond_switch: list = field(default_factory=list)
    """(fabric, device, port, ports of the switch) for a port number the switch does not have."""
    native_ports_used: Counter = field(default_factory=Counter)
    """Distinct native ports with a cable, per (fabric, role)."""
    beyond_reach: list = field(default_factory=list)
    """(fabric, segment, cable, length) of rows whose cable is shorter than the run."""
    without_cable: int = 0
    """Rows with no catalog cable (no cable carries the rate: the plan warns)."""
    module_locations: int = 0
    """Cages and NIC ports with at least one fiber cable and a catalog module that fits them:
    where a transceiver sits."""
    locations_without_module: int = 0
    """Such places where no catalog module fits (the engine warns and counts no optics)."""
    modules_by_part: Counter = field(default_factory=Counter)
    """The transceiver each of those locations needs by the engine's rule (`module_for_port`)."""


def summary_for(document: dict) -> CablingSummary | None:
    """The summary of the document's cabling plan; None when the planner refuses the document."""
    return _summary(json.dumps(document, sort_keys=True))


@lru_cache(maxsize=2048)
def _summary(key: str) -> CablingSummary | None:
    plan, catalog = plan_or_refusal(json.loads(key))
    if plan is None:
        return None
    return summarize(plan, catalog, rows_of(plan, catalog))


def _port_number(port: str) -> tuple[int, int] | None:
    match = SWITCH_PORT.fullmatch(port)
    if not match:
        return None
    return int(match.group(1)), int(match.group(2) or 1)


def summarize(plan, catalog, rows) -> CablingSummary:
    summary = CablingSummary()
    columns = {name: index for index, name in enumerate(CABLING_COLUMNS)}
    has_stock = "stock_length_m" in columns
    if has_stock:
        summary.by_cable_and_stock_length = Counter()
    fabrics = plan.fabrics or {}
    tiers = {(name, tier.role): tier for name, fabric in fabrics.items() for tier in fabric.tiers}
    links = {(name, link.segment): link for name, fabric in fabrics.items() for link in fabric.links}
    # The rate of a fabric's endpoint links (one plane): what its leaves' down ports are split for.
    endpoint_gbps = {
        name: max((link.gbps for link in fabric.links if link.from_ not in SWITCH_ROLES), default=0.0)
        for name, fabric in fabrics.items()
    }
    uses: Counter = Counter()
    links_on_native: Counter = Counter()
    native_limit: dict = {}
    # module location -> (module gbps, links per module, longest length, fabric, fiber preferred by the row's other end)
    locations: dict = {}
    for row in rows:
        record = dict(zip(CABLING_COLUMNS, row))
        summary.rows += 1
        fabric_name, segment = record["fabric"], record["segment"]
        summary.by_segment[(fabric_name, segment)] += 1
        summary.by_cable[record["cable"]] += 1
        cable = catalog.cables.get(record["cable"])
        if cable is None:
            summary.without_cable += 1
        elif not 0 < record["length_m"] <= cable.reach_m + 1e-9:
            summary.beyond_reach.append((record["fabric"], record["segment"], record["cable"], record["length_m"]))
        if has_stock:
            summary.by_cable_and_stock_length[(record["cable"], record["stock_length_m"])] += 1
        link = links[(fabric_name, segment)]
        fabric = fabrics[fabric_name]
        ends = []
        for end in ("from", "to"):
            device, port = record[f"{end}_device"], record[f"{end}_port"]
            uses[(device, port)] += 1
            match = DEVICE.fullmatch(device)
            role = match.group(1) if match else device
            ends.append((end, device, port, role))
        fiber_row = record["media"] == "fiber"
        lower_fiber = None
        for end, device, port, role in ends:
            if port == MANAGEMENT_PORT or port.startswith(f"{MANAGEMENT_PORT}/"):
                location, module_gbps, per_module = None, 0.0, 1
            elif role in SWITCH_ROLES and (fabric_name, role) in tiers:
                tier = tiers[(fabric_name, role)]
                switch = catalog.switches[tier.switch]
                number = _port_number(port)
                if number is None:
                    continue
                native, _ = number
                if native > tier.ports_per_switch:
                    summary.port_beyond_switch.append((fabric_name, device, port, tier.ports_per_switch))
                uplink = end == "from"  # a switch on the from end faces up (leaf-spine, spine-core)
                fixed_uplink = uplink and switch.uplink_ports and native > switch.ports
                if segment in ("local", "global"):
                    split = 1
                elif uplink:
                    split = 1
                else:
                    rate = endpoint_gbps[fabric_name] if link.from_ not in SWITCH_ROLES else link.gbps
                    split = max(port_split_ways(switch.port_gbps, rate, switch.split), 1)
                key = (fabric_name, device, native)
                links_on_native[key] += 1
                # A native port carries as many links as it splits into at the link's rate; up ports
                # and dragonfly router-router ports one.
                native_limit[key] = (
                    1 if uplink or segment in ("local", "global")
                    else max(port_split_ways(switch.port_gbps, link.gbps, switch.split), 1)
                )
                summary.native_ports_used[(fabric_name, role)] += links_on_native[key] == 1
                if fixed_uplink:
                    location = (device, "uplink", native)
                    module_gbps, per_module = switch.uplink_gbps, 1
                else:
                    location = (device, "cage", (native - 1) // switch.ports_per_cage)
                    module_gbps, per_module = switch.port_gbps * switch.ports_per_cage, switch.ports_per_cage * split
            else:
                match = NIC_PORT.fullmatch(port)
                nic = match.group(2) if match else port
                location = (device, f"{fabric_name}-nic", nic)
                module_gbps, per_module = link.gbps * fabric.planes, fabric.planes
            if fiber_row and location is not None:
                longest = max(record["length_m"], locations.get(location, (0, 0, 0.0))[2])
                preferred = lower_fiber if end == "to" else None
                locations[location] = (module_gbps, per_module, longest, preferred)
                if end == "from":
                    lower = module_for_port(catalog.transceivers, module_gbps, per_module, record["length_m"])
                    lower_fiber = lower.fiber if lower else None
    summary.twice = [(device, port, count) for (device, port), count in uses.items() if count > 1]
    summary.native_port_overuse = [
        (key[0], key[1], key[2], count, native_limit[key])
        for key, count in links_on_native.items() if count > native_limit[key]
    ]
    for module_gbps, per_module, length_m, preferred in locations.values():
        module = module_for_port(catalog.transceivers, module_gbps, per_module, length_m, fiber=preferred)
        if module is None:
            summary.locations_without_module += 1
        else:
            summary.module_locations += 1
            summary.modules_by_part[module.slug] += 1
    return summary


def installed(bom, category: str) -> Counter:
    """Installed quantity (without spares) per part of one BOM category."""
    counts: Counter = Counter()
    for line in bom:
        if line.category == category:
            counts[line.sku] += line.quantity - line.spares
    return counts


def installed_by_length(bom, category: str) -> Counter | None:
    """Installed quantity per (part, stock length) once BOM lines carry length_m, else None."""
    if not bom or not any(hasattr(line, "length_m") for line in bom):
        return None
    counts: Counter = Counter()
    for line in bom:
        if line.category == category:
            counts[(line.sku, line.length_m)] += line.quantity - line.spares
    return counts
