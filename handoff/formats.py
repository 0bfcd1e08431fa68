"""The hand-off files as bytes: Slurm topology (tree, blocks, YAML), the UFM point-to-point
workbook and the NetBox bundle (a zip). Made from the `Plan` and the catalog it was made with;
no Django here (planner/exports.py registers these and the views serve them).
"""

import csv
import io
import zipfile
from collections.abc import Iterable
from itertools import chain
from typing import TYPE_CHECKING, Any

import xlsxwriter
import yaml

from fabric.solver.cabling import cabling_rows
from handoff.solver.devices import plan_cabling, plan_devices
from handoff.solver.fabrics import fabric_technologies, infiniband_fabrics
from handoff.solver.hostlist import node_pattern
from handoff.solver.netbox import (
    CABLE_COLUMNS,
    DEVICE_COLUMNS,
    DEVICE_ROLE_COLORS,
    MANUFACTURER_COLUMNS,
    POWER_FEED_COLUMNS,
    POWER_PANEL_COLUMNS,
    RACK_COLUMNS,
    ROLE_COLORS,
    ROLE_COLUMNS,
    SITE_COLUMNS,
    STATUS,
    cable_row,
    device_rows,
    device_type,
    manufacturer_name,
    plan_parts,
    power_feed_rows,
    rack_rows,
    slug,
)
from handoff.solver.slurm import (
    blocks,
    slurm_nodes,
    topology_conf_blocks,
    topology_conf_tree,
    topology_yaml_entries,
    tree_switches,
)
from handoff.solver.ufm import UFM_COLUMNS, require_infiniband, ufm_rows

if TYPE_CHECKING:
    from planner.solver.catalog import CatalogSnapshot


def _catalog(plan: Any, catalog: "CatalogSnapshot") -> "CatalogSnapshot":
    return catalog.with_components(plan.inputs) if getattr(plan, "inputs", None) is not None else catalog


def _slurm_header(plan: Any, catalog: "CatalogSnapshot", pattern) -> str:
    nodes = slurm_nodes(plan, catalog)
    cabling = plan_cabling(plan, catalog)
    first = cabling._node(0).device if nodes.count else ""
    what = "compute tray" if nodes.per_system > 1 else "system"
    return (
        f"Slurm topology of the plan \u201c{plan.name}\u201d: {nodes.count:,} nodes, one per {what} of "
        f"{nodes.system}.\n"
        f"Node names {pattern.name(0)} ... {pattern.name(max(nodes.count - 1, 0))}, in the cabling plan's order: "
        + (f"{pattern.name(0)} is compute tray 1 of {first} ({nodes.per_system} trays to a system)."
           if nodes.per_system > 1 else f"{pattern.name(0)} is {first}.")
    )


def slurm_topology_conf(plan: Any, catalog: "CatalogSnapshot", pattern_text: str | None = None) -> bytes:
    """topology.conf for topology/tree."""
    pattern = node_pattern(pattern_text, slurm_nodes(plan, catalog).count)
    switches = tree_switches(plan, catalog)
    return topology_conf_tree(switches, pattern, _slurm_header(plan, catalog, pattern)).encode("utf-8")


def slurm_block_conf(plan: Any, catalog: "CatalogSnapshot", pattern_text: str | None = None) -> bytes:
    """topology.conf for topology/block (Slurm 23.11+): one block per NVLink domain."""
    pattern = node_pattern(pattern_text, slurm_nodes(plan, catalog).count)
    block_list, sizes = blocks(plan, catalog)
    return topology_conf_blocks(block_list, sizes, pattern, _slurm_header(plan, catalog, pattern)).encode("utf-8")


def slurm_topology_yaml(plan: Any, catalog: "CatalogSnapshot", pattern_text: str | None = None) -> bytes:
    """topology.yaml (Slurm 25.05+): the tree when the plan has a compute fabric, and the blocks
    of NVLink domains when its system has them; at least one of the two."""
    nodes = slurm_nodes(plan, catalog)
    pattern = node_pattern(pattern_text, nodes.count)
    block_list = sizes = None
    if nodes.nvlink_domain:
        block_list, sizes = blocks(plan, catalog)
    switches = tree_switches(plan, catalog) if not block_list or (plan.fabrics and "compute" in plan.fabrics) else None
    header = "".join(f"# {line}\n" for line in _slurm_header(plan, catalog, pattern).splitlines())
    body = yaml.safe_dump(topology_yaml_entries(switches, block_list, sizes, pattern), sort_keys=False)
    return (header + "---\n" + body).encode("utf-8")


def ufm_workbook(plan: Any, catalog: "CatalogSnapshot") -> bytes:
    """The UFM Cable Validation Tool's point-to-point workbook: one sheet per InfiniBand fabric
    (named after it), a header row then one row per cable. XlsxWriter in constant-memory mode:
    rows go to the file as they come, in order (the cabling plan gives each fabric's cables
    together, fabric after fabric); it writes a large sheet about 1.6 times as fast as
    openpyxl's write-only mode (49,152 rows: 5.4 s against 9.1 s on a busy 2-core machine)."""
    catalog = _catalog(plan, catalog)
    fabrics = infiniband_fabrics(plan, catalog)
    require_infiniband(fabrics, fabric_technologies(plan, catalog))
    buffer = io.BytesIO()
    workbook = xlsxwriter.Workbook(buffer, {"constant_memory": True, "strings_to_formulas": False})
    bold = workbook.add_format({"bold": True})
    sheets = {}
    for name in fabrics:
        sheet = workbook.add_worksheet(name[:31])
        sheet.write_row(0, 0, UFM_COLUMNS, bold)
        sheet.freeze_panes(1, 0)
        sheets[name] = [sheet, 1]
    for fabric, row in ufm_rows(cabling_rows(plan, catalog), fabrics):
        sheet = sheets[fabric]
        sheet[0].write_row(sheet[1], 0, row)
        sheet[1] += 1
    workbook.close()
    return buffer.getvalue()


def _csv(columns: Iterable[str], rows: Iterable[Iterable[Any]]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerows(chain([columns], rows))
    return buffer.getvalue().encode("utf-8")


def netbox_bundle(plan: Any, catalog: "CatalogSnapshot", pattern_text: str | None = None) -> bytes:
    """A zip: `device-types/<Manufacturer>/<model>.yaml` in the device-type library's format for
    every part the plan racks, and NetBox bulk-import CSVs in import order (README.txt)."""
    catalog = _catalog(plan, catalog)
    cabling = plan_cabling(plan, catalog)
    devices = list(plan_devices(plan, catalog, cabling))
    parts = plan_parts(devices, catalog)
    technologies = fabric_technologies(plan, catalog)
    site = plan.name or "plan"
    slug_of = {device.name: device.slug for device in devices}
    nodes = slurm_nodes(plan, catalog)
    pattern = node_pattern(pattern_text, nodes.count)
    host_names = {
        device.name: pattern.hostlist(range(index * nodes.per_system, (index + 1) * nodes.per_system))
        for index, device in enumerate(device for device in devices if device.role == "node")
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        cabled: dict[str, set[str]] = {}
        cables = 0
        with archive.open("csv/5-cables.csv", "w", force_zip64=True) as member:
            text = io.TextIOWrapper(member, encoding="utf-8", newline="")
            writer = csv.writer(text, lineterminator="\n")
            writer.writerow(CABLE_COLUMNS)
            for row in cabling_rows(plan, catalog):
                for device, port in ((row[3], row[4]), (row[7], row[8])):
                    cabled.setdefault(slug_of.get(device, ""), set()).add(port)
                writer.writerow(cable_row(row))
                cables += 1
            text.flush()
            text.detach()
        manufacturers = sorted({manufacturer_name(part.spec.vendor) for part in parts.values()})
        for part in parts.values():
            data = device_type(part, cabled.get(part.slug, ()), technologies)
            archive.writestr(f"device-types/{data['manufacturer']}/{part.slug}.yaml",
                             yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
        rack_list = list(rack_rows(plan, cabling.racks, catalog, site))
        kinds = sorted({row[3] for row in rack_list})
        roles = sorted({device.role for device in devices})
        feeds = list(power_feed_rows(devices, catalog, site))
        files = {
            "csv/1-sites.csv": _csv(SITE_COLUMNS, [(site, slug(site), STATUS)]),
            "csv/1-manufacturers.csv": _csv(MANUFACTURER_COLUMNS, [(name, slug(name)) for name in manufacturers]),
            "csv/1-rack-roles.csv": _csv(ROLE_COLUMNS, [(kind, slug(kind), ROLE_COLORS.get(kind, "9e9e9e"))
                                                      for kind in kinds]),
            "csv/1-device-roles.csv": _csv(ROLE_COLUMNS, [(role, slug(role), DEVICE_ROLE_COLORS.get(role, "1f77b4"))
                                                        for role in roles]),
            "csv/2-racks.csv": _csv(RACK_COLUMNS, rack_list),
            "csv/3-power-panels.csv": _csv(POWER_PANEL_COLUMNS, sorted({(row[0], row[1]) for row in feeds})),
            "csv/3-power-feeds.csv": _csv(POWER_FEED_COLUMNS, feeds),
            "csv/4-devices.csv": _csv(DEVICE_COLUMNS, device_rows(devices, parts, site, host_names)),
        }
        for name, content in files.items():
            archive.writestr(name, content)
        archive.writestr("README.txt", _readme(plan, len(parts), len(rack_list), len(devices), cables, len(feeds)))
    return buffer.getvalue()


def _readme(plan: Any, parts: int, racks: int, devices: int, cables: int, feeds: int) -> str:
    return (
        f"NetBox bundle of the plan \u201c{plan.name}\u201d: {parts} device types, {racks} racks, {devices} devices, "
        f"{cables} cables, {feeds} power feeds.\n\n"
        "1. Import the device types (device-types/, the community device-type library's format), e.g. with\n"
        "   the library's import script or Devices > Device Types > Import, one YAML each.\n"
        "2. Import the CSV files in the order of their numbers (Import in each object's list view):\n"
        "   sites, manufacturers, rack roles and device roles; racks; power panels and feeds; devices;\n"
        "   cables. Every object is `planned`. A device's description is its Slurm node name.\n"
    )


def handoff_check(plan: Any, catalog: "CatalogSnapshot", export_format: str, pattern_text: str | None = None) -> None:
    """Raise the error the format would raise for this plan (before a job is queued for it)."""
    catalog = _catalog(plan, catalog)
    node_pattern(pattern_text, slurm_nodes(plan, catalog).count)
    if export_format == "ufm-p2p":
        require_infiniband(infiniband_fabrics(plan, catalog), fabric_technologies(plan, catalog))
    elif export_format == "slurm-block" or (export_format == "slurm-yaml" and slurm_nodes(plan, catalog).nvlink_domain):
        blocks(plan, catalog)
    elif export_format in ("slurm-topology", "slurm-yaml"):
        tree_switches(plan, catalog)


def handoff_available(plan: Any, catalog: "CatalogSnapshot", export_format: str) -> bool:
    """Whether the plan has what the hand-off format needs (see each format's error)."""
    catalog = _catalog(plan, catalog)
    has_tree = bool(plan.fabrics) and "compute" in plan.fabrics
    if export_format == "slurm-topology":
        return has_tree
    if export_format == "slurm-block":
        return slurm_nodes(plan, catalog).nvlink_domain
    if export_format == "slurm-yaml":
        return has_tree or slurm_nodes(plan, catalog).nvlink_domain
    if export_format == "ufm-p2p":
        return bool(infiniband_fabrics(plan, catalog))
    return True
