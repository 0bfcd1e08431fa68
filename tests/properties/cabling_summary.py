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
from handoff.solver.devices import plan_devices
from tests.properties.strategies import plan_or_refusal, rows_of

DEVICE = re.compile(r"(?:r\d{3,}-)?([a-z]+(?:-[a-z]+)*)-(\d+)")
SWITCH_PORT = re.compile(r"p(\d+)(?:/(\d+))?")
NIC_PORT = re.compile(r"([a-z0-9-]+?)-p(\d+)(?:/(\d+))?")
"""`compute-p3`, `storage-p1/2`, or a site pool's own fabric: `compute-training-p3`."""
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
    """Cages (switch cages, fixed uplink ports, NIC cages) whose rows name a transceiver: where
    a module sits."""
    fiber_rows_without_module: int = 0
    """Fiber rows with an end that names no transceiver (no catalog module fits: the plan warns)."""
    cages_with_two_modules: list = field(default_factory=list)
    """(location, modules) where the rows of one cage name different modules."""
    modules_by_part: Counter = field(default_factory=Counter)
    """The transceiver the rows name at each location."""


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
    uses: Counter = Counter()
    links_on_native: Counter = Counter()
    native_limit: dict = {}
    locations: dict = defaultdict(set)
    # Each system's part, pool by pool (a site's pools have systems of their own).
    node_system = {device.name: catalog.systems.get(device.slug)
                   for device in plan_devices(plan, catalog) if device.role == "node"}
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
        for end in ("from", "to"):
            device, port = record[f"{end}_device"], record[f"{end}_port"]
            module = record.get(f"{end}_transceiver", "")
            uses[(device, port)] += 1
            match = DEVICE.fullmatch(device)
            role = match.group(1) if match else device
            if module and catalog.transceivers[module].reach_m < record["length_m"] - 1e-9:
                summary.beyond_reach.append((fabric_name, segment, module, record["length_m"]))
            if record["media"] == "fiber" and record["cable"] and not module:
                summary.fiber_rows_without_module += 1
            location = None
            if role in SWITCH_ROLES and (fabric_name, role) in tiers:
                tier = tiers[(fabric_name, role)]
                switch = catalog.switches[tier.switch]
                number = _port_number(port)
                if number is None:
                    continue
                native, _ = number
                if native > tier.ports_per_switch:
                    summary.port_beyond_switch.append((fabric_name, device, port, tier.ports_per_switch))
                key = (fabric_name, device, native)
                links_on_native[key] += 1
                # A native port carries as many links as the tier splits it into: down ports
                # tier.split, up ports tier.up_split (a switch on the from end faces up), router
                # links one.
                if segment in ("local", "global"):
                    native_limit[key] = 1
                elif end == "from":
                    native_limit[key] = tier.up_split
                else:
                    native_limit[key] = tier.split
                summary.native_ports_used[(fabric_name, role)] += links_on_native[key] == 1
                if switch.uplink_ports and native > switch.ports:
                    location = (device, "uplink", native)
                else:
                    location = (device, "cage", (native - 1) // switch.ports_per_cage)
            elif port != MANAGEMENT_PORT and not port.startswith(f"{MANAGEMENT_PORT}"):
                match = NIC_PORT.fullmatch(port)
                if match:
                    nic_fabric, native = match.group(1), int(match.group(2))
                    system = node_system.get(device) if role == "node" else None
                    nic_role = "compute" if nic_fabric.startswith("compute-") else nic_fabric
                    nic = system.nic(nic_role) if system is not None else None
                    per_cage = nic.ports_per_cage if nic is not None else 1
                    location = (device, nic_fabric, (native - 1) // per_cage)
            if location is not None and module:
                locations[location].add(module)
    summary.twice = [(device, port, count) for (device, port), count in uses.items() if count > 1]
    summary.native_port_overuse = [
        (key[0], key[1], key[2], count, native_limit[key])
        for key, count in links_on_native.items() if count > native_limit[key]
    ]
    for location, modules in locations.items():
        if len(modules) > 1:
            summary.cages_with_two_modules.append((location, sorted(modules)))
        summary.module_locations += 1
        summary.modules_by_part[min(modules)] += 1
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


def assert_rows_are_the_links_and_bill_of_materials(plan, summary: CablingSummary) -> None:
    """The rows are the engine's links segment by segment, and the BOM's installed cables and
    optics are the rows added up (one module a cage)."""
    expected = Counter()
    for name, fabric in (plan.fabrics or {}).items():
        for link in fabric.links:
            expected[(name, link.segment)] += link.count
    assert summary.by_segment == +expected
    assert installed(plan.bom, "cables") == Counter({cable: count for cable, count in summary.by_cable.items() if cable})
    assert installed(plan.bom, "optics") == +summary.modules_by_part
