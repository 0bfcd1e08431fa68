"""The point-to-point cabling plan: one row per cable, from (rack, U, device, port) to (rack, U,
device, port), with media, cable, length, segment, fabric and plane.

The rows are made one at a time from the plan's counts (`cabling_rows` is a generator): nothing
holds a list of links, so 500,000 cables cost no more memory than 500. Every rule below is
arithmetic on a device's index, and reproduces the fabric engine's counts segment by segment.

Naming
------
- Racks are numbered in floor order, row by row and along each row (`floor.rack_positions`),
  from 1: `r012` (at least three digits). The racks of one kind are taken in the order of the
  per-rack groups (`RacksResult.per_rack`): the k-th compute rack of the groups is the k-th
  compute rack on the floor, and so on for storage and management racks. Network racks, which
  the groups keep fabric by fabric, are spread over the floor's network racks in proportion:
  the j-th of a fabric's n racks goes (j + 1/2) / n of the way along them (ties in fabric
  order), so every fabric's switches stand along the systems they serve
  (`cabling_racks.network_slots`).
- Devices are `<rack>-<role>-<nn>`, nn counting the devices of that role in the rack from 01:
  `r012-node-03` (the third system of rack 12), `r101-leaf-03`, `r101-spine-01`,
  `r140-storage-02`, `r036-fabric-manager-01`. A device whose rack is not known is
  `<role>-<n>`, numbered over the cluster.
- Switch ports are `p17`, or `p17/2` for the second link of a split (breakout) port; down
  ports come first, then up ports; a switch's management port is `mgmt`.
- On the oob network (`endpoints.management_port_endpoints`): rack PDU p of a rack is
  `r012-pdu-01` (the racks' PDUs counted in the order of the rack groups, p-th of the rack),
  port `mgmt`, with no U (a 0U PDU takes none; its cable takes the segment's length); fabric
  managers and management servers are `r036-fabric-manager-01`, `r036-management-server-01`,
  their BMC port `oob-p1`; a storage system's management port is `mgmt` on `r140-storage-02`.
  A device with several management ports numbers them `mgmt1`, `mgmt2`. A device's NIC ports
  are `<fabric>-p3`, or `<fabric>-p3/2` for plane 2 of NIC port 3 (a NIC port carries one link
  per plane).
- U is the lowest rack unit a device takes, U1 at the bottom of the rack's usable space.

Placement
---------
- System i sits in compute rack i // nodes_per_rack, slot i mod nodes_per_rack, stacked from U1.
- Top-of-rack leaves sit at the top of the compute rack they serve, fabric by fabric
  (compute, storage, inband, oob), plane by plane (the fabric engine's count for that rack:
  ceil(systems x NICs / down links); rack packing spreads the same total evenly, which differs
  only when a short last rack needs two leaves fewer than a full one).
- Other switches fill their fabric's network racks in the order of the per-rack groups: the
  n-th switch of a model takes the n-th place of that model in the racks, the tiers of one
  model interleaved in proportion (switch m of a tier of N at (m + 1/2) / N, plane by plane,
  ties to the lower tier; `FabricWiring.network_rank`), so each unit's leaves stand along the
  racks as its systems stand along the floor; each rack is filled from the top,
  its models in the order of its contents. Storage systems fill the storage racks likewise.
  Fabric manager appliances (`RacksResult.servers`, fabric by fabric) then management servers
  fill the management racks from the top, numbered among the units of their part in the rack;
  a fabric's manager links go p // e to its appliance p // e, port p mod e (e fabric ports per
  appliance: ports 1-2 to the first UFM, 3-4 to the second). A switch's rack units come from
  `rack_units` (1 U where not given); U counts the rack's usable space only (no PDUs, no
  reserved units).

Assignment (one plane; every plane is wired alike)
--------------------------------------------------
Endpoint links are numbered j = 0, 1, ... over the endpoint groups in the fabric engine's order
(systems first: system i, NIC port r is j = i R + r for R ports per system; then the fabric
manager, storage systems, or the other fabrics' switches for oob).

- rail-optimized: link j goes to the leaf of rail r = j mod R in scalable unit s = q // d
  (q = j // R, d down links per leaf), port q mod d: system i of unit s, NIC r -> leaf (s, r).
  Other endpoints continue the numbering, as if they were more systems, one port per rail.
- top-of-rack: the links of compute rack k (local system l, NIC r: t = l R + r) go to the
  rack's leaf t // d, port t mod d; other endpoints fill the network-rack leaves in order.
- one switch: link j on port j.
- rail-only: link j goes to rail r = j mod R at position q = j // R: rail switch r (or, for
  a rail too large for one switch, leaf q // d of rail r's own tree).
- leaf-spine: within a pod of P leaves and S spines, leaf l's uplink k goes to spine k // m,
  m = uplinks / S (the balance rule: m links from every leaf to every spine), on the spine's
  down link l_pod m + k mod m.
- spine-core: spine i of pod o, uplink k goes to core k // m' of core group i, m' = spine
  uplinks / cores per group, on its down link o m' + k mod m'.
- dragonfly: terminal link j to router j // p, port j mod p; local links join every pair of
  routers of a group (router x's local port to y is y, or y - 1 when y > x); the k-th of the m
  global links between groups G and G' takes global port k (g - 1) + (index of G' among G's
  peers) of each group, router port // h, link port mod h.

Pods, spines per pod, cores per group and each tier's port split are not in the fabric result:
they are read back from its counts as the engine makes them (`clos.three_tier_counts`: pods of
whole scalable units; `cabling_wiring.tier_ports`: down ports are the native ports not facing
up). The tests check the rows against the engine's counts, segment by segment.

Lengths and media: each cable's length is measured between its two ports
(`cabling_distance.cable_length_m` with the scenario's tray height and slack, port heights from
each device's U), rounded up to 0.1 m; the segment's length where the floor positions are not
known. Its medium is the segment's, or, given the catalog's cables, the one its own length needs
(`media.cable_for_link`) where the segment buys that medium or its own cable does not reach.
Since the fabric engine sizes media from a distribution of runs and this plan from concrete
places, the media totals of the rows may differ from the segment's `media_counts`.
"""

import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any

from fabric.solver.cabling_racks import CACHE_SIZE, DevicePlace, RackIndex, top_u
from fabric.solver.cabling_wiring import FabricWiring, SharedRacks, WiredGroup, nic_port
from fabric.solver.endpoints import FABRIC_MANAGER, STORAGE_MANAGEMENT_PORTS
from fabric.solver.media import cable_for_link
from fabric.solver.parts import CableSpec
from fabric.solver.results import LinkResult
from power.solver.cabling_distance import cable_length_m
from storage.solver.tiers import storage_endpoint_groups

CABLING_COLUMNS = (
    "link", "from_rack", "from_u", "from_device", "from_port", "to_rack", "to_u", "to_device",
    "to_port", "media", "cable", "length_m", "segment", "fabric", "plane",
)
FABRIC_ORDER = ("compute", "storage", "inband", "oob")
MANAGEMENT_PORT = "mgmt"
U_HEIGHT_M = 0.04445
"""One rack unit: 1.75 in (EIA-310)."""
FIRST_U_HEIGHT_M = 0.1
"""Bottom of U1 above the floor (cabling_distance: a 42U rack's space starts ~0.1 m up)."""
LENGTH_STEP_M = 0.1
"""Lengths are rounded up to this step."""


class _Cabling:
    """One plan's devices, fabrics and lengths, for `cabling_rows`."""

    def __init__(
        self, plan: Any, rack_units: Mapping[str, int], cables: Mapping[str, CableSpec] | None = None
    ) -> None:
        self.plan = plan
        self.cables = dict(cables) if cables else None
        racks_spec = getattr(getattr(plan, "inputs", None), "racks", None)
        if racks_spec is not None and getattr(racks_spec, "management_server_u", None):
            rack_units = {**rack_units, racks_spec.management_server: racks_spec.management_server_u}
        self.racks = RackIndex(plan.racks, rack_units)
        storage = getattr(plan, "storage", None)
        storage_groups = {
            group.name: (group.count, group.ports_per_endpoint) for group in storage_endpoint_groups(storage)
        } if storage is not None else {}
        results = plan.fabrics or {}
        ordered = [name for name in FABRIC_ORDER if name in results]
        ordered += [name for name in results if name not in ordered]
        self.fabrics = [FabricWiring(results[name], plan, self.racks, storage_groups) for name in ordered]
        shared = SharedRacks(self.fabrics, self.racks)
        for fabric in self.fabrics:
            fabric.shared = shared
        self.tray_height_m = getattr(racks_spec, "cable_tray_height_m", 2.7)
        self.slack_m = getattr(racks_spec, "cable_slack_m", 1.0)
        self.slack_fraction = getattr(racks_spec, "cable_slack_fraction", 0.1)
        per_rack = max(getattr(plan.racks, "nodes_per_rack", 1) or 1, 1)
        used = getattr(plan.racks, "compute_rack_units_used", 0) or 0
        self.node_units = max(used // per_rack, 1)
        self.nodes_per_rack = per_rack
        # Each fabric's manager appliances, and the index of the first among the units of their
        # part in the management racks (fabric managers come first, in fabric order).
        self.fabric_managers: dict[str, tuple[Any, int]] = {}
        seen: dict[str, int] = {}
        for server in getattr(plan.racks, "servers", ()) or ():
            if server.role == "fabric_manager":
                self.fabric_managers[server.fabric] = (server, seen.get(server.server, 0))
            seen[server.server] = seen.get(server.server, 0) + server.count
        self._management_devices(plan, storage_groups)
        self.length_m = lru_cache(maxsize=CACHE_SIZE)(self._length_m)
        self.media_for = lru_cache(maxsize=CACHE_SIZE)(self._media_for)
        self.reaches = lru_cache(maxsize=CACHE_SIZE)(self._reaches)
        fabric_specs = getattr(getattr(plan, "inputs", None), "fabrics", None)
        self.optical_media = {
            fabric.name: getattr(getattr(fabric_specs, fabric.name, None), "optical_media", "transceivers")
            for fabric in self.fabrics
        }
        # A system's ports are cabled one after the other: a few entries hold its place.
        self.node = lru_cache(maxsize=64)(self._node)
        self._switch_runs = self._management_runs()

    # -- endpoint devices ---------------------------------------------------------------------

    def _node(self, index: int) -> DevicePlace:
        rack, slot = divmod(index, self.nodes_per_rack)
        number = self.racks.number("compute", rack)
        return self.racks.place(number, 1 + slot * self.node_units, self.node_units, "node", slot + 1, index)

    def supported(self, kind: str, slug: str, index: int, role: str) -> DevicePlace:
        """The index-th `slug` unit in storage or management racks, filled from the top."""
        racks = self.racks
        units = racks.units_of(slug)
        found = racks.locate(kind, "", slug, index)
        if found is None:
            return racks.place(0, 0, units, role, 0, index)
        rack, slot, group = found
        number = racks.number(kind, rack)
        above_units, above_devices = racks.units_before(group, slug, slot)
        u = top_u(group.usable_u, above_units, units) if number else 0
        return racks.place(number, u, units, role, above_devices + 1, index)

    def server(self, slug: str, index: int, role: str) -> DevicePlace:
        """The index-th `slug` server in the management racks, filled from the top; numbered
        among the units of its part in its rack."""
        racks = self.racks
        units = racks.units_of(slug)
        found = racks.locate("management", "", slug, index)
        if found is None:
            return racks.place(0, 0, units, role, 0, index)
        rack, slot, group = found
        number = racks.number("management", rack)
        above_units, _ = racks.units_before(group, slug, slot)
        u = top_u(group.usable_u, above_units, units) if number else 0
        return racks.place(number, u, units, role, slot + 1, index)

    def _management_devices(self, plan: Any, storage_groups: Mapping[str, Any]) -> None:
        """What oob serves besides systems and switches (`endpoints.management_port_endpoints`):
        PDUs by model, as runs over the rack groups; servers by part; storage systems."""
        # PDU slug -> runs of (first PDU, rack kind, first rack of the kind, racks, PDUs per rack)
        self.pdu_starts: dict[str, list[int]] = {}
        self.pdu_runs: dict[str, list[tuple[int, str, int, int, int]]] = {}
        kind_counts: dict[str, int] = {}
        for group in getattr(plan.racks, "per_rack", ()) or ():
            first_rack = kind_counts.get(group.kind, 0)
            kind_counts[group.kind] = first_rack + group.count
            pdus = getattr(group, "pdus", 0)
            if not pdus:
                continue
            runs = self.pdu_runs.setdefault(group.pdu, [])
            first = runs[-1][0] + runs[-1][3] * runs[-1][4] if runs else 0
            self.pdu_starts.setdefault(group.pdu, []).append(first)
            runs.append((first, group.kind, first_rack, group.count, pdus))
        # server slug -> (BMC ports of one, fabric manager units of the part, which come first)
        self.oob_servers: dict[str, tuple[int, int]] = {}
        for server in getattr(plan.racks, "servers", ()) or ():
            ports, managers = self.oob_servers.get(server.server, (server.oob_ports_each, 0))
            if server.role == "fabric_manager":
                managers += server.count
            self.oob_servers[server.server] = (ports, managers)
        self.storage_slugs = set(storage_groups)

    def pdu(self, slug: str, index: int) -> DevicePlace:
        """The index-th PDU of `slug` over the racks in the order of the rack groups: PDU p of a
        rack is `<rack>-pdu-<p>`. A 0U PDU takes no U (the row's U is empty; its cable takes the
        segment's length)."""
        starts = self.pdu_starts.get(slug)
        if not starts:
            return self.racks.place(0, 0, 0, "pdu", 0, index)
        at = bisect_right(starts, index) - 1
        first, kind, first_rack, racks, per_rack = self.pdu_runs[slug][at]
        rack, within = divmod(index - first, per_rack)
        if rack >= racks:
            return self.racks.place(0, 0, 0, "pdu", 0, index)
        number = self.racks.number(kind, first_rack + rack)
        return self.racks.place(number, 0, 0, "pdu", within + 1, index)

    def management_port(self, fabric: FabricWiring, group: WiredGroup, device: int, port: int, plane: int):
        """A PDU's, server's or storage system's management port on oob, or None for other groups.
        Ports are counted flat over the group (`cabling_wiring` may list a group one port per
        device), then split by the ports of one device."""
        flat = device * group.ports + port
        suffix = "" if fabric.planes == 1 else f"/{plane + 1}"
        if group.name in self.pdu_runs:
            # Ports of one PDU: the group's links over the PDUs racked.
            last = self.pdu_runs[group.name][-1]
            ports = max((group.count * group.ports) // (last[0] + last[3] * last[4]), 1)
            index, own = divmod(flat, ports)
            name = MANAGEMENT_PORT if ports == 1 else f"{MANAGEMENT_PORT}{own + 1}"
            return self.pdu(group.name, index), name + suffix
        if group.name in self.oob_servers:
            ports, managers = self.oob_servers[group.name]
            index, own = divmod(flat, max(ports, 1))
            role = "fabric-manager" if index < managers else "management-server"
            return self.server(group.name, index, role), nic_port(fabric.name, own, plane, fabric.planes)
        if group.name in self.storage_slugs:
            index, own = divmod(flat, STORAGE_MANAGEMENT_PORTS)
            name = MANAGEMENT_PORT if STORAGE_MANAGEMENT_PORTS == 1 else f"{MANAGEMENT_PORT}{own + 1}"
            return self.supported("storage", group.name, index, "storage"), name + suffix
        return None

    def _management_runs(self) -> dict[str, list[tuple[int, FabricWiring, str, str, int]]]:
        """The other fabrics' switches in the order oob serves their management ports
        (fabric, tier, placement; `endpoints.management_endpoints`), by model: runs of
        (first endpoint, fabric, role, placement, switches of all planes)."""
        runs: dict[str, list] = {}
        for fabric in self.fabrics:
            if fabric.name == "oob":
                continue
            for tier in fabric.result.tiers:
                for placement, count in tier.placement.items():
                    if count:
                        slug_runs = runs.setdefault(tier.switch, [])
                        first = slug_runs[-1][0] + slug_runs[-1][4] if slug_runs else 0
                        slug_runs.append((first, fabric, tier.role, placement, count))
        return runs

    def managed_switch(self, slug: str, index: int) -> tuple[FabricWiring, DevicePlace] | None:
        for first, fabric, role, placement, count in self._switch_runs.get(slug, ()):
            if first <= index < first + count:
                offset = index - first
                per_plane = count // fabric.planes
                plane, within = divmod(offset, per_plane)
                if role == fabric.edge_role and placement == "network_rack":
                    within += fabric.in_racks
                return fabric, fabric.switch_place(role, plane, within)
        return None

    def endpoint(self, fabric: FabricWiring, group: WiredGroup, device: int, port: int, plane: int):
        """The place and port name of one endpoint link's device end."""
        if group.name == "node":
            return self.node(device), nic_port(fabric.name, port, plane, fabric.planes)
        if group.name == FABRIC_MANAGER:
            # The fabric's leaf links are spread over its appliances, each taking its own ports.
            manager, first = self.fabric_managers.get(fabric.name, (None, 0))
            each = max(manager.fabric_ports_each, 1) if manager is not None else max(group.ports, 1)
            appliance, own_port = divmod(port, each)
            if manager is None:
                place = self.racks.place(0, 0, 1, "fabric-manager", 0, appliance)
            else:
                place = self.server(manager.server, first + appliance, "fabric-manager")
            return place, nic_port(fabric.name, own_port, plane, fabric.planes)
        if group.ports == 1 and group.name in self._switch_runs and fabric.name == "oob":
            found = self.managed_switch(group.name, device)
            if found is not None:
                port_name = MANAGEMENT_PORT if fabric.planes == 1 else f"{MANAGEMENT_PORT}/{plane + 1}"
                return found[1], port_name
        if fabric.name == "oob":
            found = self.management_port(fabric, group, device, port, plane)
            if found is not None:
                return found
        place = self.supported("storage", group.name, device, "storage")
        return place, nic_port(fabric.name, port, plane, fabric.planes)

    # -- lengths ----------------------------------------------------------------------------

    def _length_m(self, rack_a: int, u_a: int, units_a: int, rack_b: int, u_b: int, units_b: int) -> float | None:
        a, b = self.racks.position(rack_a), self.racks.position(rack_b)
        if a is None or b is None or not u_a or not u_b:
            return None
        length = cable_length_m(
            a, b, tray_height_m=self.tray_height_m, slack_m=self.slack_m, slack_fraction=self.slack_fraction,
            port_height_a_m=FIRST_U_HEIGHT_M + (u_a - 1 + units_a / 2) * U_HEIGHT_M,
            port_height_b_m=FIRST_U_HEIGHT_M + (u_b - 1 + units_b / 2) * U_HEIGHT_M,
        )
        return round(math.ceil(round(length / LENGTH_STEP_M, 6)) * LENGTH_STEP_M, 3)

    def _reaches(self, gbps: float) -> list[float]:
        return sorted({cable.reach_m for cable in self.cables.values() if cable.gbps >= gbps})

    def _media_for(self, optical_media: str, gbps: float, reach_index: int, media: str, cable: str,
                   allowed: tuple[str, ...]) -> tuple[str, str]:
        """The medium and cable the engine's rule (`media.cable_for_link`) gives the lengths up
        to the reach_index-th reach of the catalog's cables: taken when the segment buys that
        medium, or when the segment's own cable does not reach; else the segment's own."""
        reaches = self.reaches(gbps)
        if reach_index >= len(reaches):
            return media, cable
        length_m = reaches[reach_index]
        choice = cable_for_link(length_m, gbps, self.cables, optical_media)
        if choice.cable is None or choice.media == media:
            return media, cable
        own = self.cables.get(cable)
        if choice.media in allowed or own is None or own.reach_m < length_m:
            return choice.media, choice.cable
        return media, cable

    def row(self, number: int, a: DevicePlace, port_a: str, b: DevicePlace, port_b: str, link: LinkResult,
            fabric: FabricWiring, plane: int) -> tuple:
        length = self.length_m(a.rack, a.u, a.units, b.rack, b.u, b.units)
        if length is None:
            length = link.length_m
        media, cable = link.media, link.cable or ""
        if self.cables is not None and cable:
            # The medium changes only where a catalog cable's reach is crossed.
            reach_index = bisect_left(self.reaches(link.gbps), length - 1e-9)
            allowed = tuple(sorted(getattr(link, "media_counts", None) or (media,)))
            media, cable = self.media_for(self.optical_media[fabric.name], link.gbps, reach_index,
                                          media, cable, allowed)
        return (
            number, a.label, a.u or "", a.device, port_a, b.label, b.u or "", b.device, port_b,
            media, cable, length, link.segment, fabric.name, plane + 1,
        )

    # -- rows -------------------------------------------------------------------------------

    def rows(self) -> Iterator[tuple]:
        number = 0
        for fabric in self.fabrics:
            groups = {id(group.link): group for group in fabric.groups}
            for link in fabric.result.links:
                for plane in range(fabric.planes):
                    for a, port_a, b, port_b in self._segment(fabric, link, groups.get(id(link)), plane):
                        number += 1
                        yield self.row(number, a, port_a, b, port_b, link, fabric, plane)

    def _segment(self, fabric: FabricWiring, link: LinkResult, group: WiredGroup | None, plane: int):
        place = fabric.switch_place
        if group is not None:
            edge_ports = fabric.ports[fabric.edge_role]
            j = group.first_link
            for device in range(group.count):
                for port in range(group.ports):
                    switch, down = fabric.edge(j)
                    j += 1
                    end, port_name = self.endpoint(fabric, group, device, port, plane)
                    yield end, port_name, place(fabric.edge_role, plane, switch), edge_ports.down(down)
            return
        segment = link.segment
        if segment.endswith("-spine"):
            lower = fabric.edge_role
            lower_ports, spine_ports = fabric.ports[lower], fabric.ports["spine"]
            for leaf, uplink, spine, down, _ in fabric.tree_links():
                yield (place(lower, plane, leaf), lower_ports.up(uplink),
                       place("spine", plane, spine), spine_ports.down(down))
        elif segment == "spine-core":
            spine_ports, core_ports = fabric.ports["spine"], fabric.ports["core"]
            for spine, uplink, core, down in fabric.core_links():
                yield (place("spine", plane, spine), spine_ports.up(uplink),
                       place("core", plane, core), core_ports.down(down))
        elif segment in ("local", "global"):
            _, first_local, first_global = fabric.router_ports()
            first = first_local if segment == "local" else first_global
            links = fabric.local_links() if segment == "local" else fabric.global_links()
            for router_a, port_a, router_b, port_b in links:
                yield (place("router", plane, router_a), f"p{first + port_a + 1}",
                       place("router", plane, router_b), f"p{first + port_b + 1}")
        else:
            raise ValueError(f"no cabling rule for the {segment} links of the {fabric.name} fabric")


def cabling_rows(
    plan: Any, *, rack_units: Mapping[str, int] | None = None, cables: Mapping[str, CableSpec] | None = None
) -> Iterator[tuple]:
    """One row per cable of the plan's fabrics (see the module docstring), made as asked for.

    `plan` is a `Plan` (or anything with its `fabrics`, `racks`, `compute`, and optionally
    `storage` and `inputs`). `rack_units` gives the height [U] of switches and other devices by
    catalog slug (1 U where not given), to place them in their racks. `cables` (the catalog's)
    lets each cable take the medium its own length needs (`media.cable_for_link`) where the
    segment buys that medium (`LinkResult.media_counts`: short runs copper, long ones optical),
    or where the segment's own cable does not reach; without it, every cable of a segment has
    the segment's main medium and cable. The columns are CABLING_COLUMNS; U and rack are empty
    ("") where the racks do not say.
    """
    if plan.fabrics:
        yield from _Cabling(plan, rack_units or {}, cables).rows()
