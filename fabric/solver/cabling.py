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
  A system of k compute racks (`RacksResult.racks_per_node`, CloudMatrix 384: 12) fills compute
  racks i k to i k + k - 1: its NIC ports of each role are spread evenly over them in order (port
  p of P in its rack i k + p k // P), so each cable is measured from the rack its port is in;
  the system itself is named after its first rack.
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
  R is the rail-aligned ports of one tray (`FabricResult.rails`): a GB200 NVL72's NIC port
  4t + r of tray t is on rail r.
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

Pods, spines per pod, cores per group and each tier's ports (native down ports, their split,
then the up ports and theirs) come from the fabric result as the engine made them
(`FabricResult.leaves_per_pod`, `TierResult.down_ports`, ...). A split up port is `p33/2`.
The tests check the rows against the engine's counts, segment by segment.

Lengths, media and transceivers: each cable's length is measured between its two ports
(`cabling_distance.cable_length_m` with the scenario's tray height and slack, port heights from
each device's U), rounded up to 0.1 m; the segment's assumed length where the floor positions
are not known. Its medium, cable and the transceiver each end needs follow from that length
(`media.link_choice`); it is bought in the shortest stock length that covers it (cables made to
length in order steps, `media.order_lengths_m`); a cage holds one module, of the longest reach
its links need. The arithmetic runs on arrays of links (`cabling_links`), and the bill of
materials counts the same arrays (`cabling_counts.counted_fabrics`): the BOM's cables, per part and stock
length, and its transceivers, one per cage used, are these rows added up.
"""

from bisect import bisect_right
from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from fabric.solver.arrays import divmod_by
from fabric.solver.cabling_columns import column_blocks, rows_of
from fabric.solver.cabling_links import (
    LinkEnds,
    fabric_segments,
)
from fabric.solver.cabling_management import MANAGEMENT_PORT, ManagementPlaces
from fabric.solver.cabling_pools import fabric_node_pools, node_pools, pool_fabric_spec
from fabric.solver.cabling_racks import DevicePlace, RackIndex, port_heights_m
from fabric.solver.cabling_wiring import FabricWiring, SharedRacks, WiredGroup, nic_port
from fabric.solver.endpoints import FABRIC_MANAGER
from fabric.solver.media import link_choice_steps
from fabric.solver.results import LinkResult
from storage.solver.tiers import storage_endpoint_groups

if TYPE_CHECKING:
    from catalog.solver.snapshot import CatalogSnapshot

CABLING_COLUMNS = (
    "link", "from_rack", "from_u", "from_device", "from_port", "to_rack", "to_u", "to_device",
    "to_port", "media", "cable", "length_m", "stock_length_m", "from_transceiver", "to_transceiver",
    "segment", "fabric", "plane",
)
FABRIC_ORDER = ("compute", "storage", "inband", "oob")


class PlanCabling:
    """One plan's devices, fabrics and lengths: the cabling plan's rows (`cabling_rows`) and the
    hand-off files' devices (handoff/solver/devices.py)."""

    def __init__(self, plan: Any, catalog: "CatalogSnapshot") -> None:
        self.plan = plan
        self.cables = catalog.cables
        self.transceivers = catalog.transceivers
        self.switches = catalog.switches
        rack_units = {slug: part.rack_units for slug, part in catalog.storage_systems.items()}
        rack_units.update((slug, part.rack_units) for slug, part in catalog.switches.items())
        rack_units.update((slug, part.rack_units) for slug, part in catalog.servers.items())
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
        self.node_pools = node_pools(plan, catalog)
        self._pool_starts = [pool.first_node for pool in self.node_pools]
        self.fabrics = [
            FabricWiring(results[name], plan, self.racks, storage_groups,
                         fabric_node_pools(plan, catalog, self.node_pools, name))
            for name in ordered
        ]
        shared = SharedRacks(self.fabrics, self.racks)
        for fabric in self.fabrics:
            fabric.shared = shared
        self.tray_height_m = getattr(racks_spec, "cable_tray_height_m", 2.7)
        self.slack_m = getattr(racks_spec, "cable_slack_m", 1.0)
        self.slack_fraction = getattr(racks_spec, "cable_slack_fraction", 0.1)
        self.node_heights_m = {
            pool.name: port_heights_m(1 + np.arange(pool.nodes_per_rack) * pool.node_units, pool.node_units)
            for pool in self.node_pools
        }
        # Each fabric's manager appliances, and the index of the first among the units of their
        # part in the management racks (fabric managers come first, in fabric order).
        self.fabric_managers: dict[str, tuple[Any, int]] = {}
        seen: dict[str, int] = {}
        for server in getattr(plan.racks, "servers", ()) or ():
            if server.role == "fabric_manager":
                self.fabric_managers[server.fabric] = (server, seen.get(server.server, 0))
            seen[server.server] = seen.get(server.server, 0) + server.count
        self.places = ManagementPlaces(plan, self.racks, self.fabrics, storage_groups)
        self.optical_media = {
            fabric.name: getattr(pool_fabric_spec(plan, fabric.name), "optical_media", "transceivers")
            for fabric in self.fabrics
        }
        # A system's ports are cabled one after the other: a few entries hold its place.
        self.node = lru_cache(maxsize=64)(self._node)
        self._steps: dict[tuple, tuple] = {}
        # Transceivers by reach: a cage holds the module of longest reach its links need.
        self.module_order = tuple(sorted(self.transceivers, key=lambda slug: (self.transceivers[slug].reach_m, slug)))
        self.module_rank = {slug: rank for rank, slug in enumerate(self.module_order)}
        self._segments: dict[str, list] = {}

    # -- endpoint devices ---------------------------------------------------------------------

    def _node(self, index: int) -> DevicePlace:
        """System `index` of every pool's (in pool order), in its pool's compute racks."""
        pool = self.node_pools[bisect_right(self._pool_starts, index) - 1]
        rack, slot = divmod(index - pool.first_node, pool.nodes_per_rack)
        number = self.racks.number("compute", pool.first_rack + rack * pool.racks_per_node)
        return self.racks.place(number, 1 + slot * pool.node_units, pool.node_units, "node", slot + 1, index)

    def node_names(self, pool, devices: np.ndarray) -> list[str]:
        """Names of a pool's systems `devices` (from 0 in the pool), as `node` gives them."""
        rack, slot = divmod_by(devices, pool.nodes_per_rack)
        numbers = self.racks.numbers("compute", pool.first_rack + rack * pool.racks_per_node)
        return self.racks.device_names(numbers, "node", slot + 1, pool.first_node + devices)

    def endpoint(self, fabric: FabricWiring, group: WiredGroup, device: int, port: int, plane: int):
        """The place and port name of one endpoint link's device end."""
        if group.pool is not None:
            return self.node(group.pool.first_node + device), nic_port(fabric.name, port, plane, fabric.planes)
        if group.name == FABRIC_MANAGER:
            # The fabric's leaf links are spread over its appliances, each taking its own ports.
            manager, first = self.fabric_managers.get(fabric.name, (None, 0))
            each = max(manager.fabric_ports_each, 1) if manager is not None else max(group.ports, 1)
            appliance, own_port = divmod(port, each)
            if manager is None:
                place = self.racks.place(0, 0, 1, "fabric-manager", 0, appliance)
            else:
                place = self.places.server(manager.server, first + appliance, "fabric-manager")
            return place, nic_port(fabric.name, own_port, plane, fabric.planes)
        if group.ports == 1 and group.name in self.places.switch_runs and fabric.name == "oob":
            found = self.places.managed_switch(group.name, device)
            if found is not None:
                port_name = MANAGEMENT_PORT if fabric.planes == 1 else f"{MANAGEMENT_PORT}/{plane + 1}"
                return found[1], port_name
        if fabric.name == "oob":
            found = self.places.management_port(fabric, group, device, port, plane)
            if found is not None:
                return found
        place = self.places.supported("storage", group.name, device, "storage")
        return place, nic_port(fabric.name, port, plane, fabric.planes)

    # -- ends as arrays ----------------------------------------------------------------------

    def endpoint_ends(self, fabric: FabricWiring, group: WiredGroup, plane: int, index: np.ndarray) -> LinkEnds:
        """The device end of a group's links numbered `index` in one plane: systems by arithmetic
        on arrays, the few other devices (appliances, storage systems, switches' management
        ports) one by one."""
        count = len(index)
        device, port = divmod_by(index, max(group.ports, 1))
        end = group.link.lower_end
        per_cage = max((end.links_per_module // fabric.planes) if end else 1, 1)
        cages_per_device = -(-group.ports // per_cage)
        cage = device * cages_per_device + port // per_cage
        planes = fabric.planes
        pool = group.pool
        if pool is not None:
            rack, slot = divmod_by(device, pool.nodes_per_rack)
            if pool.racks_per_node > 1:
                rack = rack * pool.racks_per_node + port * pool.racks_per_node // max(group.ports, 1)
            number = self.racks.numbers("compute", pool.first_rack + rack)
            u = np.where(number > 0, 1 + slot * pool.node_units, 0)
            return LinkEnds(
                number, u, self.node_heights_m[pool.name][slot], device, port, cage,
                cages=max(group.count * cages_per_device, 1), devices=f"nodes:{pool.name}",
                place=lambda index, _: self.node(pool.first_node + index),
                names=lambda devices, _: self.node_names(pool, devices),
                port_name=lambda index, plane: nic_port(fabric.name, index, plane, planes),
                holder=pool.holder, links_per_cage=per_cage,
            )
        placed = self._management_ends(fabric, group, plane, device, port)
        if placed is not None:
            number, u, units = placed
            # One port each: the device names both (a PDU's ports are numbered over the group).
            return LinkEnds(
                number, u, port_heights_m(u, units), device, device, cage, cages=max(group.count * cages_per_device, 1),
                devices=f"group:{group.name}",
                place=lambda at, plane: self.endpoint(fabric, group, at, 0, plane)[0],
                port_name=lambda at, plane: self.endpoint(fabric, group, at, 0, plane)[1],
                holder=None,
            )
        # Few devices, each placed by its own rule; a device's ports may sit on different
        # appliances (a fabric manager's links spread over its UFMs), so each link is placed.
        places = [self.endpoint(fabric, group, int(at), int(nic), plane) for at, nic in zip(device, port)]
        link = np.arange(count, dtype=np.int64)
        return LinkEnds(
            np.array([place.rack for place, _ in places], dtype=np.int64),
            np.array([place.u for place, _ in places], dtype=np.int64),
            port_heights_m([place.u for place, _ in places], np.array([place.units for place, _ in places])),
            link, link, cage, cages=max(group.count * cages_per_device, 1),
            devices=f"group:{group.name}", place=lambda at, _: places[at][0],
            port_name=lambda at, _: places[at][1],
            holder=None,
        )

    def _management_ends(self, fabric: FabricWiring, group: WiredGroup, plane: int, device: np.ndarray,
                         port: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """Racks, U and heights of the many one-port devices oob serves, by arithmetic on arrays:
        the other fabrics' switches (`managed_switch`) and the rack PDUs (`pdu`, no U). None for
        other groups, which are few and placed one by one."""
        if fabric.name != "oob" or group.ports != 1:
            return None
        if group.name in self.places.switch_runs:
            number, u = np.zeros(len(device), dtype=np.int64), np.zeros(len(device), dtype=np.int64)
            for first, owner, role, placement, count in self.places.switch_runs[group.name]:
                mine = (device >= first) & (device < first + count)
                if not mine.any():
                    continue
                per_plane = count // owner.planes
                its_plane, within = divmod_by(device[mine] - first, per_plane)
                if role == owner.edge_role and placement == "network_rack":
                    within = within + owner.in_racks
                rack_number, rack_u, _ = owner._tier_places(role)
                at = its_plane * owner.per_plane[role] + within
                number[mine], u[mine] = rack_number[at], rack_u[at]
            units = np.full(len(device), self.racks.units_of(group.name), dtype=np.int64)
            return number, u, units
        if group.name in self.places.pdu_runs:
            starts = np.array(self.places.pdu_starts[group.name], dtype=np.int64)
            runs = self.places.pdu_runs[group.name]
            last = runs[-1]
            ports = max((group.count * group.ports) // (last[0] + last[3] * last[4]), 1)
            index = device // ports
            at = np.clip(np.searchsorted(starts, index, side="right") - 1, 0, None)
            number = np.zeros(len(device), dtype=np.int64)
            for run, (first, kind, first_rack, racks, per_rack) in enumerate(runs):
                mine = at == run
                rack = (index[mine] - first) // per_rack
                number[mine] = np.where(rack < racks, self.racks.numbers(kind, first_rack + rack), 0)
            return number, np.zeros(len(device), dtype=np.int64), np.zeros(len(device), dtype=np.int64)
        return None

    def switch_ends(self, fabric: FabricWiring, role: str, plane: int, switch: np.ndarray,
                    link: np.ndarray, kind: str) -> LinkEnds:
        """A switch end in one plane: the switches by index in their tier, and each link's down
        link, up link or router port (`kind`: down, up, router)."""
        tier = fabric.tiers[role]
        ports = fabric.ports.get(role)
        per_plane = fabric.per_plane[role]
        number, u, height_m = fabric.switch_places(role, plane, switch)
        spec = self.switches.get(tier.switch)
        per_cage = spec.ports_per_cage if spec is not None else 1
        if kind == "down":
            native, name, split = link // ports.split, ports.down, ports.split
        elif kind == "up":
            native, name, split = ports.down_ports + link // ports.up_split, ports.up, ports.up_split
        else:
            native, name, split = link, lambda index: f"p{index + 1}", 1
        cages_per_switch = -(-tier.ports_per_switch // per_cage)
        device = plane * per_plane + switch
        return LinkEnds(
            number, u, height_m, device, link, device * cages_per_switch + native // per_cage,
            cages=max(fabric.planes * per_plane * cages_per_switch, 1), devices=f"tier:{role}",
            native=device * tier.ports_per_switch + native, natives=max(fabric.planes * per_plane * tier.ports_per_switch, 1),
            place=lambda index, plane: fabric.switch_place(role, plane, index - plane * per_plane),
            names=lambda devices, _: fabric.switch_names(role, devices),
            port_name=lambda index, _: name(index),
            holder=tier.switch, links_per_cage=per_cage * split,
        )

    def segments(self, fabric: FabricWiring) -> list:
        """The fabric's segments with links (`cabling_links.fabric_segments`), made once."""
        if fabric.name not in self._segments:
            self._segments[fabric.name] = fabric_segments(self, fabric)
        return self._segments[fabric.name]

    def steps(self, fabric: str, link: LinkResult) -> tuple:
        """The link choice of a segment as a step function of length (`media.link_choice_steps`)."""
        key = (link.gbps, link.lower_end, link.upper_end, self.optical_media[fabric])
        if key not in self._steps:
            self._steps[key] = link_choice_steps(
                link.gbps, link.lower_end, link.upper_end, self.cables, self.transceivers, key[3]
            )
        return self._steps[key]


def cabling_rows(plan: Any, catalog: "CatalogSnapshot") -> Iterator[tuple]:
    """One row per cable of the plan's fabrics (see the module docstring), made as asked for.

    `plan` is a `Plan` (or anything with its `fabrics`, `racks`, `compute`, and optionally
    `storage` and `inputs`); `catalog` gives the devices' rack units, the cables and the
    transceivers, as the plan was made with them. The columns are CABLING_COLUMNS; U and rack
    are empty ("") where the racks do not say.
    """
    yield from rows_of(cabling_columns(plan, catalog))


def cabling_columns(plan: Any, catalog: "CatalogSnapshot") -> Iterator[list]:
    """The rows of `cabling_rows` as columns, a chunk of links at a time
    (`cabling_columns.column_blocks`)."""
    if plan.fabrics:
        yield from column_blocks(PlanCabling(plan, catalog))
