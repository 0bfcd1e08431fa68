"""The hand-off files as bytes: Slurm topology (tree, blocks, YAML), the UFM point-to-point
workbook and the NetBox bundle (a zip). Made from the `Plan` and the catalog it was made with;
no Django here (handoff/exports.py registers these and the views serve them).
"""

import csv
import io
import re
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import xlsxwriter
import yaml

from catalog.solver.snapshot import plan_catalog
from core.solver.cells import spreadsheet_text
from core.solver.errors import ScenarioError
from fabric.solver.cabling import cabling_rows
from handoff.solver.devices import MultiRackSystems, plan_cabling, plan_devices, plan_system_shares
from handoff.solver.fabrics import fabric_technologies, infiniband_fabrics
from handoff.solver.netbox import (
    CABLE_COLUMNS,
    DEVICE_COLUMNS,
    DEVICE_PREFIX_LENGTH,
    DEVICE_ROLE_COLORS,
    INTERFACE_COLUMNS,
    MANUFACTURER_COLUMNS,
    POWER_CABLE_COLUMNS,
    POWER_FEED_COLUMNS,
    POWER_PANEL_COLUMNS,
    RACK_COLUMNS,
    ROLE_COLORS,
    ROLE_COLUMNS,
    SITE_COLUMNS,
    STATUS,
    VIRTUAL_CHASSIS_COLUMNS,
    Interface,
    cable_end,
    cable_row,
    device_rows,
    device_type,
    interface_row,
    plan_parts,
    power_cable_rows,
    power_feed_rows,
    rack_rows,
    slug,
    type_interfaces,
    virtual_chassis,
)
from handoff.solver.netbox import device_prefix as default_device_prefix
from handoff.solver.slurm import (
    blocks,
    has_compute_fabric,
    slurm_nodes,
    slurm_pattern,
    topology_conf_blocks,
    topology_conf_tree,
    topology_yaml_entries,
    tree_switches,
)
from handoff.solver.ufm import (
    HCA_MAPPING_COLUMNS,
    UFM_COLUMNS,
    HostPorts,
    hca_mapping_rows,
    require_infiniband,
    ufm_rows,
)

if TYPE_CHECKING:
    from catalog.solver.snapshot import CatalogSnapshot

DEVICE_PREFIX_FIELD = "device_prefix"
DEVICE_PREFIX_PATTERN = re.compile(rf"^[A-Za-z0-9][A-Za-z0-9._-]{{0,{DEVICE_PREFIX_LENGTH - 1}}}$")
NETBOX_FILES = {
    "sites": "sites.csv",
    "manufacturers": "manufacturers.csv",
    "rack-roles": "rack-roles.csv",
    "device-roles": "device-roles.csv",
    "device-types": "device-types",
    "racks": "racks.csv",
    "power-panels": "power-panels.csv",
    "power-feeds": "power-feeds.csv",
    "virtual-chassis": "virtual-chassis.csv",
    "devices": "devices.csv",
    "interfaces": "interfaces.csv",
    "cables": "cables.csv",
    "power-cables": "power-cables.csv",
}
"""The bundle's files in NetBox's import order (an object after every object it names), each
numbered by its place in this order (`01-sites.csv`) whether or not the plan has every file."""
NETBOX_OPTIONAL_FILES = frozenset({"virtual-chassis", "interfaces"})
"""Files left out of a plan's bundle when it has no row for them."""
NETBOX_PATHS = {name: f"{number:02d}-{path}" for number, (name, path) in enumerate(NETBOX_FILES.items(), start=1)}
NETBOX_STEPS = {
    "sites": "Organization > Sites > Import.",
    "manufacturers": "Devices > Manufacturers > Import.",
    "rack-roles": "Racks > Rack Roles > Import.",
    "device-roles": "Devices > Device Roles > Import.",
    "device-types": "Devices > Device Types > Import, one YAML file at a time (Format YAML), or the\n"
                    "   device-type library's import script pointed at this folder.",
    "racks": "Racks > Racks > Import.",
    "power-panels": "Power > Power Panels > Import.",
    "power-feeds": "Power > Power Feeds > Import.",
    "virtual-chassis": "Devices > Virtual Chassis > Import (a multi-rack system's devices, grouped).",
    "devices": "Devices > Devices > Import.",
    "interfaces": "Devices > Interfaces > Import (split lanes and planes, each beside the type's port its\n"
                  "   description names).",
    "cables": "Connections > Cables > Import (each end by its site, device and interface).",
    "power-cables": "Connections > Cables > Import (feed to PDU inlet, PDU outlets to the devices' PSUs);\n"
                    "   a feed's end names its panel in side_a_power_panel (NetBox's cable import since #21783).",
}


def _slurm_header(plan: Any, catalog: "CatalogSnapshot", pattern) -> str:
    nodes = slurm_nodes(plan, catalog)
    cabling = plan_cabling(plan, catalog)
    if len(nodes.pools) > 1:
        lines = [(f"Slurm topology of the site \u201c{plan.name}\u201d: {nodes.count:,} nodes in "
                  f"{len(nodes.pools)} pools, each under its own name, in the cabling plan's order:")]
        for pool in nodes.pools:
            if not pool.node_count:
                continue
            system = cabling._node(_first_system(nodes, pool)).device
            what = f"compute tray 1 of {system}" if pool.per_system > 1 else system
            lines.append(f"pool {pool.name}: {pool.node_count:,} nodes of {pool.system}, "
                         f"{pattern.name(pool.first_node)} ... {pattern.name(pool.first_node + pool.node_count - 1)}"
                         f" ({pattern.name(pool.first_node)} is {what}).")
        return "\n".join(lines)
    first = cabling._node(0).device if nodes.count else ""
    what = "compute tray" if nodes.per_system > 1 else "system"
    return (
        f"Slurm topology of the plan \u201c{plan.name}\u201d: {nodes.count:,} nodes, one per {what} of "
        f"{nodes.system}.\n"
        f"Node names {pattern.name(0)} ... {pattern.name(max(nodes.count - 1, 0))}, in the cabling plan's order: "
        + (f"{pattern.name(0)} is compute tray 1 of {first} ({nodes.per_system} trays to a system)."
           if nodes.per_system > 1 else f"{pattern.name(0)} is {first}.")
    )


def _first_system(nodes: Any, pool: Any) -> int:
    """Index of a pool's first system among every pool's."""
    return sum(earlier.systems for earlier in nodes.pools[:nodes.pools.index(pool)])


def slurm_topology_conf(plan: Any, catalog: "CatalogSnapshot", pattern_text: str | None = None) -> bytes:
    """topology.conf for topology/tree."""
    pattern = slurm_pattern(pattern_text, slurm_nodes(plan, catalog))
    switches = tree_switches(plan, catalog)
    return topology_conf_tree(switches, pattern, _slurm_header(plan, catalog, pattern)).encode("utf-8")


def slurm_block_conf(plan: Any, catalog: "CatalogSnapshot", pattern_text: str | None = None) -> bytes:
    """topology.conf for topology/block (Slurm 23.11+): one block per NVLink domain."""
    pattern = slurm_pattern(pattern_text, slurm_nodes(plan, catalog))
    block_list, sizes = blocks(plan, catalog)
    return topology_conf_blocks(block_list, sizes, pattern, _slurm_header(plan, catalog, pattern)).encode("utf-8")


def slurm_topology_yaml(plan: Any, catalog: "CatalogSnapshot", pattern_text: str | None = None) -> bytes:
    """topology.yaml (Slurm 25.05+): the tree when the plan has a compute fabric, and the blocks
    of NVLink domains when its system has them; at least one of the two."""
    nodes = slurm_nodes(plan, catalog)
    pattern = slurm_pattern(pattern_text, nodes)
    block_list = sizes = None
    if nodes.nvlink_domain:
        block_list, sizes = blocks(plan, catalog)
    switches = tree_switches(plan, catalog) if not block_list or has_compute_fabric(plan) else None
    header = "".join(f"# {line}\n" for line in _slurm_header(plan, catalog, pattern).splitlines())
    body = yaml.safe_dump(topology_yaml_entries(switches, block_list, sizes, pattern), sort_keys=False)
    return (header + "---\n" + body).encode("utf-8")


def ufm_bundle(plan: Any, catalog: "CatalogSnapshot") -> bytes:
    """A zip for the UFM Cable Validation Tool: its point-to-point workbook (`p2p.xlsx`, a sheet
    per InfiniBand fabric) and the `hca_mapping.csv` of every host port number the workbook
    uses, with a README."""
    catalog = plan_catalog(plan, catalog)
    workbook, host_ports, ports_of = _ufm_workbook(plan, catalog)
    mapping = io.StringIO()
    csv.writer(mapping, lineterminator="\n").writerows([HCA_MAPPING_COLUMNS, *hca_mapping_rows(host_ports.most())])
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(UFM_WORKBOOK, workbook)
        archive.writestr(UFM_HCA_MAPPING, mapping.getvalue())
        archive.writestr("README.txt", _ufm_readme(plan, ports_of))
    return buffer.getvalue()


UFM_WORKBOOK = "p2p.xlsx"
UFM_HCA_MAPPING = "hca_mapping.csv"


def ufm_workbook(plan: Any, catalog: "CatalogSnapshot") -> bytes:
    """The UFM Cable Validation Tool's point-to-point workbook alone (see `ufm_bundle`)."""
    return _ufm_workbook(plan, plan_catalog(plan, catalog))[0]


def _ufm_workbook(plan: Any, catalog: "CatalogSnapshot") -> tuple[bytes, HostPorts, dict[str, dict[str, int]]]:
    """One sheet per InfiniBand fabric (named after it), a header row then one row per cable;
    texts as text cells (never formulas), U and port numbers as number cells. XlsxWriter in
    constant-memory mode: rows go to the file as they come, in order (the cabling plan gives
    each fabric's cables together, fabric after fabric); it writes a large sheet about 1.6 times
    as fast as openpyxl's write-only mode (49,152 rows: 5.4 s against 9.1 s on a busy 2-core
    machine)."""
    fabrics = infiniband_fabrics(plan, catalog)
    require_infiniband(fabrics, fabric_technologies(plan, catalog))
    cabling = plan_cabling(plan, catalog)
    devices = list(plan_devices(plan, catalog, cabling))
    shares = plan_system_shares(plan, catalog)
    parts = plan_parts(devices, catalog, shares)
    on_trays = MultiRackSystems(devices, shares)
    part_of = {device.name: parts.get(device.slug) for device in devices}
    host_ports = HostPorts(fabrics)
    buffer = io.BytesIO()
    workbook = xlsxwriter.Workbook(buffer, {"constant_memory": True, "strings_to_formulas": False,
                                            "strings_to_numbers": False})
    bold = workbook.add_format({"bold": True})
    sheets = {}
    for name in fabrics:
        sheet = workbook.add_worksheet(name[:31])
        sheet.write_row(0, 0, UFM_COLUMNS, bold)
        sheet.freeze_panes(1, 0)
        sheets[name] = [sheet, 1]
    for fabric, row in ufm_rows(map(on_trays.row, cabling_rows(plan, catalog)), fabrics, part_of, host_ports):
        sheet, at = sheets[fabric]
        for column, value in enumerate(row):
            if isinstance(value, str):
                if value:
                    sheet.write_string(at, column, value)
            else:
                sheet.write_number(at, column, value)
        sheets[fabric][1] += 1
    workbook.close()
    return buffer.getvalue(), host_ports, {slug: numbers for slug, numbers in host_ports.numbers.items()}


def _ufm_readme(plan: Any, ports_of: dict[str, dict[str, int]]) -> str:
    lines = [f"UFM Cable Validation Tool files of the plan \u201c{plan.name}\u201d.", "",
             f"{UFM_WORKBOOK}: the point-to-point file, one sheet per InfiniBand fabric.",
             f"{UFM_HCA_MAPPING}: its host port numbers on HCAs (port n on mlx5_(n-1)); edit the names to",
             "the hosts' own RDMA devices (`ibdev2netdev`) if they differ, and load it with the P2P file.", "",
             "Host port numbers (the same on every fabric's sheet):"]
    for slug, numbers in ports_of.items():
        listed = ", ".join(f"{number} {name}" for name, number in numbers.items())
        lines.append(f"  {slug}: {listed}")
    return "\n".join(lines) + "\n"


def _csv(columns: Iterable[str], rows: Iterable[Iterable[Any]]) -> bytes:
    """A CSV file whose every text cell is safe to open in a spreadsheet (`spreadsheet_text`)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(_cells(row) for row in rows)
    return buffer.getvalue().encode("utf-8")


def _cells(row: Iterable[Any]) -> list:
    return [("true" if value else "false") if isinstance(value, bool) else spreadsheet_text(value) for value in row]


class _IndentedDumper(yaml.SafeDumper):
    """Sequences indented under their key, as the device-type library's yamllint wants them."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


def device_type_yaml(data: dict) -> str:
    """A device type as the library writes one: a `---` document, sequences indented."""
    return yaml.dump(data, Dumper=_IndentedDumper, sort_keys=False, allow_unicode=True, explicit_start=True,
                     width=1000)


def bundle_device_prefix(site: str, device_prefix: str | None) -> str:
    """The start of every device name: the site's slug by default; `device_prefix` instead
    (empty: none), checked at `device_prefix`."""
    if device_prefix is None:
        return default_device_prefix(site)
    if device_prefix == "":
        return ""
    if not DEVICE_PREFIX_PATTERN.match(device_prefix):
        raise ScenarioError.at(DEVICE_PREFIX_FIELD, f"must be 1 to {DEVICE_PREFIX_LENGTH} letters, digits, '.', '_' "
                               "or '-', starting with a letter or digit (or empty for none)")
    return device_prefix if device_prefix.endswith(("-", ".", "_")) else device_prefix + "-"


@dataclass
class NetboxTables:
    """The NetBox bundle's contents before they are files: each CSV file's columns and rows (raw
    values, not yet made safe for a spreadsheet), the device types by catalog part, and what the
    README counts. The bundle writes them; `handoff.netbox_push` sends the same rows to NetBox's
    REST API."""

    site: str
    prefix: str
    device_types: dict[str, dict]
    tables: dict[str, tuple[tuple[str, ...], list[tuple]]]
    counts: dict[str, int]
    unpowered: int

    def records(self, name: str) -> list[dict[str, Any]]:
        """A file's rows as column -> value (none when the plan has no such file)."""
        columns, rows = self.tables.get(name, ((), []))
        return [dict(zip(columns, row, strict=True)) for row in rows]


def netbox_tables(plan: Any, catalog: "CatalogSnapshot", pattern_text: str | None = None,
                  device_prefix: str | None = None, site: str | None = None) -> NetboxTables:
    """The site, manufacturers and roles, the device types in the device-type library's format,
    racks, power panels and feeds, virtual chassis, devices, the plan's own interfaces (split
    lanes, planes), cables and power cables, at the site `site` (default: the plan's name).
    Every device name starts with `device_prefix` (default: the site's slug), so a second plan's
    devices coexist with the first's in one NetBox."""
    catalog = plan_catalog(plan, catalog)
    cabling = plan_cabling(plan, catalog)
    devices = list(plan_devices(plan, catalog, cabling))
    shares = plan_system_shares(plan, catalog)
    parts = plan_parts(devices, catalog, shares)
    on_trays = MultiRackSystems(devices, shares)
    technologies = fabric_technologies(plan, catalog)
    site = site or plan.name or "plan"
    prefix = bundle_device_prefix(site, device_prefix)
    part_of = {device.name: parts.get(device.slug) for device in devices}
    nodes = slurm_nodes(plan, catalog)
    host_names = _host_names(devices, slurm_pattern(pattern_text, nodes), nodes)
    own_interfaces = {part.slug: {item.name for item in type_interfaces(part)} for part in parts.values()}
    plan_interfaces: dict[tuple[str, str], Interface] = {}
    cables = []
    for row in map(on_trays.row, cabling_rows(plan, catalog)):
        fabric = row[16]
        technology = technologies.get(fabric, "ethernet")
        ends = []
        for device, port in ((row[3], row[4]), (row[7], row[8])):
            part = part_of.get(device)
            end = cable_end(part, port, fabric, technology)
            if part is None or end.name not in own_interfaces[part.slug]:
                plan_interfaces.setdefault((device, end.name), end)
            ends.append(end)
        cables.append(cable_row(row, site, prefix, *ends))
    types = {part.slug: device_type(part) for part in parts.values()}
    manufacturers = sorted({data["manufacturer"] for data in types.values()})
    rack_list = list(rack_rows(plan, cabling.racks, catalog, site))
    kinds = sorted({row[3] for row in rack_list})
    roles = sorted({device.role for device in devices})
    feeds = list(power_feed_rows(devices, catalog, site, prefix))
    power = power_cable_rows(devices, parts, site, prefix)
    chassis_rows, chassis = virtual_chassis(devices, parts, prefix)
    tables = {
        "sites": (SITE_COLUMNS, [(site, slug(site), STATUS)]),
        "manufacturers": (MANUFACTURER_COLUMNS, [(name, slug(name)) for name in manufacturers]),
        "rack-roles": (ROLE_COLUMNS, [(kind, slug(kind), ROLE_COLORS.get(kind, "9e9e9e")) for kind in kinds]),
        "device-roles": (ROLE_COLUMNS, [(role, slug(role), DEVICE_ROLE_COLORS.get(role, "1f77b4")) for role in roles]),
        "racks": (RACK_COLUMNS, rack_list),
        "power-panels": (POWER_PANEL_COLUMNS, sorted({(row[0], row[1]) for row in feeds})),
        "power-feeds": (POWER_FEED_COLUMNS, feeds),
        "virtual-chassis": (VIRTUAL_CHASSIS_COLUMNS, chassis_rows),
        "devices": (DEVICE_COLUMNS, list(device_rows(devices, parts, site, prefix, host_names, chassis))),
        "interfaces": (INTERFACE_COLUMNS, [interface_row(prefix + device, interface)
                                           for (device, _), interface in plan_interfaces.items()]),
        "cables": (CABLE_COLUMNS, cables),
        "power-cables": (POWER_CABLE_COLUMNS, power.rows),
    }
    counts = {"device types": len(types), "racks": len(rack_list), "devices": len(devices),
              "interfaces of the plan": len(plan_interfaces), "virtual chassis": len(chassis_rows),
              "cables": len(cables), "power feeds": len(feeds), "power cables": len(power.rows)}
    return NetboxTables(site, prefix, types, tables, counts, power.unpowered)


def netbox_bundle(plan: Any, catalog: "CatalogSnapshot", pattern_text: str | None = None,
                  device_prefix: str | None = None) -> bytes:
    """A zip of numbered files in NetBox's import order (README.txt gives the steps): the
    `netbox_tables`, each device type a YAML file under its manufacturer."""
    bundle = netbox_tables(plan, catalog, pattern_text, device_prefix)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for data in bundle.device_types.values():
            path = f"{NETBOX_PATHS['device-types']}/{data['manufacturer']}/{data['model'].replace('/', '-')}.yaml"
            archive.writestr(path, device_type_yaml(data))
        present = [name for name in NETBOX_FILES
                   if name not in NETBOX_OPTIONAL_FILES or bundle.tables[name][1]]
        for name in present:
            if name in bundle.tables:
                archive.writestr(NETBOX_PATHS[name], _csv(*bundle.tables[name]))
        archive.writestr("README.txt", _readme(plan, bundle.site, bundle.prefix, present, bundle.counts,
                                               bundle.unpowered))
    return buffer.getvalue()


def _host_names(devices: list, pattern: Any, nodes: Any) -> dict[str, str]:
    """Node device -> its Slurm node names: a system's names (its pool's nodes to a system), a
    multi-rack system's tray its own one."""
    names, first = {}, 0
    for device in devices:
        if device.role != "node":
            continue
        count = 1 if device.chassis else nodes.pool_of(first).per_system
        names[device.name] = pattern.hostlist(range(first, first + count))
        first += count
    return names


def _readme(plan: Any, site: str, prefix: str, present: list[str], counts: dict[str, int], unpowered: int) -> str:
    figures = ", ".join(f"{count:,} {what}" for what, count in counts.items() if count)
    steps = [f"{NETBOX_PATHS[name][:2]}. {NETBOX_PATHS[name]}: {NETBOX_STEPS[name]}" for name in present]
    lines = [
        f"NetBox bundle of the plan \u201c{plan.name}\u201d at the site \u201c{site}\u201d: {figures}.",
        f"Every device name starts with \u201c{prefix}\u201d, so another plan's devices can share this NetBox."
        if prefix else "Device names are the cabling plan's, without a site prefix.",
        "",
        "Import the files in the order of their numbers (NetBox 4.x; each CSV with Import in its object's list view):",
        *steps,
        "",
        "Every rack, device and cable is `planned`. A node's description is its Slurm node name.",
        "Objects other plans share (manufacturers, roles, device types), and the site when this plan was",
        "imported before: NetBox refuses a whole file when one of its rows exists already; import into a",
        "NetBox that holds them by leaving out the rows it has (push_nautobot finds them itself in Nautobot).",
    ]
    if unpowered:
        lines.append(f"{unpowered:,} PSUs have no outlet: their racks' PDUs have too few outlets (or none).")
    return "\n".join(lines) + "\n"


def handoff_check(plan: Any, catalog: "CatalogSnapshot", export_format: str, pattern_text: str | None = None,
                  device_prefix: str | None = None) -> None:
    """Raise the error the format would raise for this plan (before a job is queued for it)."""
    catalog = plan_catalog(plan, catalog)
    if export_format == "netbox":
        bundle_device_prefix(plan.name or "plan", device_prefix)
    slurm_pattern(pattern_text, slurm_nodes(plan, catalog))
    if export_format == "ufm-p2p":
        require_infiniband(infiniband_fabrics(plan, catalog), fabric_technologies(plan, catalog))
    elif export_format == "slurm-block" or (export_format == "slurm-yaml" and slurm_nodes(plan, catalog).nvlink_domain):
        blocks(plan, catalog)
    elif export_format in ("slurm-topology", "slurm-yaml"):
        tree_switches(plan, catalog)


def handoff_available(plan: Any, catalog: "CatalogSnapshot", export_format: str) -> bool:
    """Whether the plan has what the hand-off format needs (see each format's error)."""
    catalog = plan_catalog(plan, catalog)
    has_tree = has_compute_fabric(plan)
    if export_format == "slurm-topology":
        return has_tree
    if export_format == "slurm-block":
        return slurm_nodes(plan, catalog).nvlink_domain
    if export_format == "slurm-yaml":
        return has_tree or slurm_nodes(plan, catalog).nvlink_domain
    if export_format == "ufm-p2p":
        return bool(infiniband_fabrics(plan, catalog))
    return True
