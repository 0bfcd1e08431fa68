"""The elevation of every distinct rack of a plan, drawn from `plan.racks.per_rack` and
`plan.catalog`, the catalog snapshot the plan was made with (part names, heights and power, rack
types)."""

from dataclasses import dataclass

from catalog.solver.snapshot import CatalogSnapshot
from core.plot_theme import COLORS, base_layout
from planner.solver.plan import Plan
from power.solver.rack_loads import RackGroupResult
from power.solver.specs import RacksSpec

MAX_ELEVATIONS = 8
"""Distinct racks drawn side by side; more would be too narrow to read."""

MIN_SLOTS = 5
"""Slots the figure is divided into at least, however few racks it draws."""

RACK_WIDTH = 0.62
"""Of one rack in an elevation, in slots of 1 (the rest is the gap between racks)."""

PDU_STRIP_WIDTH = 0.05
"""Of the strip drawn along each side of a rack for its zero-U PDUs."""

KIND_WORDS = {
    "compute": "Compute",
    "network": "Network",
    "storage": "Storage",
    "management": "Management",
}

DEVICE_COLORS = {
    "system": COLORS["compute"],
    "switch": COLORS["network"],
    "storage": COLORS["storage"],
    "server": COLORS["management"],
    "pdu": COLORS["power"],
    "reserved": "#b8c2cc",
    "part": COLORS["other"],
}


@dataclass(frozen=True)
class Device:
    slug: str
    name: str
    """Short human name, drawn on the rack."""
    full_name: str
    family: str
    """system, switch, storage, server, pdu, reserved or part (DEVICE_COLORS)."""
    units: int
    power_kw: float | None


@dataclass(frozen=True)
class PlacedDevice:
    device: Device
    bottom_u: int
    """First rack unit it takes, from 1 at the bottom."""

    @property
    def top_u(self) -> int:
        return self.bottom_u + self.device.units - 1


@dataclass(frozen=True)
class Elevation:
    """One distinct rack: what it holds, where, and how many racks are like it."""

    kind: str
    count: int
    rack_type: str
    rack_u: int
    """Rack units of the frame (usable U, reserved U and PDU U together)."""
    usable_u: int
    placed: tuple[PlacedDevice, ...]
    free_u: int
    free_bottom_u: int
    it_kw: float
    fabric: str
    zero_u_pdus: int
    pdu_name: str

    @property
    def title(self) -> str:
        """Short lines, so that eight racks' titles fit side by side on a phone."""
        fabric = f"<br>{self.fabric} fabric" if self.fabric else ""
        return f"{KIND_WORDS.get(self.kind, self.kind.capitalize())}<br>× {self.count:,}{fabric}"


def short_name(name: str) -> str:
    """A catalog name without its parenthesised details or the clause after a comma."""
    return name.split(" (")[0].split(", ")[0].strip() or name


def _family(part) -> str:
    kind = type(part).__name__
    return {
        "SystemSpec": "system",
        "SwitchSpec": "switch",
        "StorageSystemSpec": "storage",
        "ServerSpec": "server",
        "PduSpec": "pdu",
    }.get(kind, "part")


def _power_kw(part) -> float | None:
    if getattr(part, "power_kw", None) is not None:
        return float(part.power_kw)
    if getattr(part, "power_w", None) is not None:
        return float(part.power_w) / 1000
    return None


def device_of(slug: str, catalog: CatalogSnapshot | None, unit_overrides: dict[str, int]) -> Device:
    part = catalog.part(slug) if catalog is not None else None
    full_name = getattr(part, "name", None) or slug
    units = unit_overrides.get(slug)
    if units is None:
        units = int(getattr(part, "rack_units", 1) or 0) if part is not None else 1
    return Device(
        slug=slug,
        name=short_name(full_name),
        full_name=full_name,
        family=_family(part) if part is not None else "part",
        units=units,
        power_kw=_power_kw(part) if part is not None else None,
    )


def _rack_frame_u(rack_type_slug: str, catalog: CatalogSnapshot | None, usable_u: int) -> int:
    rack_type = catalog.rack_types.get(rack_type_slug) if catalog is not None else None
    return max(rack_type.usable_u, usable_u) if rack_type is not None else usable_u


def _racks_spec(plan: Plan) -> RacksSpec:
    """The racks section the plan was made with; the defaults for a plan without its inputs."""
    return plan.inputs.racks if plan.inputs is not None else RacksSpec()


def _unit_overrides(racks: RacksSpec) -> dict[str, int]:
    """Rack units by slug where the scenario overrides the catalog's: its management server's
    (racks.management_server_u)."""
    units = racks.management_server_u
    return {racks.management_server: units} if units else {}


def elevations(plan: Plan) -> list[Elevation]:
    """Every distinct rack (kind, rack type and contents) of the plan, in the plan's order.

    Devices are stacked from U1 in the order the plan lists them; PDUs that take rack units sit
    at the bottom, zero-U PDUs along the sides. What the frame has beyond the group's usable U
    (and its PDUs) is reserved: cable management and patch panels in network racks, in-rack
    CDUs in compute racks. Parts come from `plan.catalog`; a group without its usable U takes
    the scenario's (`plan.inputs.racks.usable_u`), and the scenario's management server its
    rack units (racks.management_server_u) where it sets them.
    """
    catalog = plan.catalog
    racks_spec = _racks_spec(plan)
    overrides = _unit_overrides(racks_spec)
    # Groups of one kind, rack type, contents and fabric are one elevation: the first group's,
    # with the count of them all.
    merged: dict[tuple, tuple[RackGroupResult, int]] = {}
    for group in plan.racks.per_rack:
        contents = tuple((item.slug, item.count) for item in group.contents)
        key = (group.kind, group.rack_type, contents, group.fabric)
        first, count = merged.get(key, (group, 0))
        merged[key] = (first, count + group.count)
    result = []
    for group, count in merged.values():
        group_usable = group.usable_u or racks_spec.usable_u
        frame_u = _rack_frame_u(group.rack_type, catalog, group_usable)
        pdu = device_of(group.pdu, catalog, overrides) if group.pdu else None
        pdus = group.pdus
        placed: list[PlacedDevice] = []
        position = 1
        if pdu is not None and pdu.units > 0:
            for _ in range(pdus):
                placed.append(PlacedDevice(pdu, position))
                position += pdu.units
        for item in group.contents:
            device = device_of(item.slug, catalog, overrides)
            for _ in range(item.count):
                if device.units <= 0:
                    continue
                placed.append(PlacedDevice(device, position))
                position += device.units
        pdu_u = pdus * pdu.units if pdu is not None and pdu.units > 0 else 0
        reserved_u = max(0, frame_u - group_usable - pdu_u)
        top_of_usable = frame_u - reserved_u
        free_u = max(0, top_of_usable - (position - 1))
        if reserved_u:
            reserved = Device(
                "reserved",
                "Reserved",
                "Reserved: patch panels and cable management"
                if group.kind == "network"
                else "Reserved (in-rack cooling, cable management)",
                "reserved",
                reserved_u,
                None,
            )
            placed.append(PlacedDevice(reserved, top_of_usable + 1))
        result.append(
            Elevation(
                kind=group.kind,
                count=count,
                rack_type=group.rack_type,
                rack_u=frame_u,
                usable_u=group_usable,
                placed=tuple(placed),
                free_u=free_u,
                free_bottom_u=position,
                it_kw=group.it_kw,
                fabric=group.fabric,
                zero_u_pdus=pdus if pdu is not None and pdu.units == 0 else 0,
                pdu_name=pdu.full_name if pdu is not None else "",
            )
        )
    return result


def _runs(placed: tuple[PlacedDevice, ...]) -> list[tuple[Device, int, int, int]]:
    """Consecutive identical devices as (device, count, bottom U, top U): one label per run."""
    runs: list[tuple[Device, int, int, int]] = []
    for item in placed:
        if runs and runs[-1][0] == item.device and runs[-1][3] + 1 == item.bottom_u:
            device, count, bottom, _ = runs[-1]
            runs[-1] = (device, count + 1, bottom, item.top_u)
        else:
            runs.append((item.device, 1, item.bottom_u, item.top_u))
    return runs


def _device_hover(item: PlacedDevice) -> str:
    device = item.device
    where = f"U{item.bottom_u}" if device.units == 1 else f"U{item.bottom_u}–U{item.top_u}"
    power = f"<br>{device.power_kw:,.2f} kW" if device.power_kw else ""
    return f"<b>{device.full_name}</b><br>{where} ({device.units} U){power}"


def rack_elevation_figure(plan: Plan) -> dict | None:
    """Front view of every distinct rack (the first MAX_ELEVATIONS): each device at its U
    position and height, named, with its U range and power in the hover; free U as free.
    Parts, usable U and the management server's rack units as `elevations` reads them."""
    racks = elevations(plan)
    if not racks:
        return None
    shown = racks[:MAX_ELEVATIONS]
    bars = {"x": [], "base": [], "y": [], "hover": [], "color": []}
    labels = {"x": [], "base": [], "y": [], "text": [], "color": []}
    pdu_strips = {"x": [], "base": [], "y": [], "hover": []}
    tick_text = []
    tallest = 0
    for slot, rack in enumerate(shown):
        tick_text.append(f"<b>{rack.title}</b><br>{rack.it_kw:,.1f} kW")
        tallest = max(tallest, rack.rack_u)
        for item in rack.placed:
            bars["x"].append(slot)
            bars["base"].append(item.bottom_u - 1)
            bars["y"].append(item.device.units)
            bars["hover"].append(_device_hover(item))
            bars["color"].append(DEVICE_COLORS[item.device.family])
        for device, count, bottom, top in _runs(rack.placed):
            labels["x"].append(slot)
            labels["base"].append(bottom - 1)
            labels["y"].append(top - bottom + 1)
            labels["text"].append(f"{count} × {device.name}" if count > 1 else device.name)
            labels["color"].append("#1d2733" if device.family == "reserved" else "#ffffff")
        if rack.free_u:
            first_free = rack.free_bottom_u
            bars["x"].append(slot)
            bars["base"].append(first_free - 1)
            bars["y"].append(rack.free_u)
            bars["hover"].append(f"<b>{rack.free_u} U free</b><br>U{first_free}–U{first_free + rack.free_u - 1}")
            bars["color"].append(COLORS["free"])
            labels["x"].append(slot)
            labels["base"].append(first_free - 1)
            labels["y"].append(rack.free_u)
            labels["text"].append(f"{rack.free_u} U free")
            labels["color"].append("#5b6b7c")
        if rack.zero_u_pdus:
            for side in (-1, 1):
                pdu_strips["x"].append(slot + side * (RACK_WIDTH + PDU_STRIP_WIDTH) / 2)
                pdu_strips["base"].append(0)
                pdu_strips["y"].append(rack.rack_u)
                pdu_strips["hover"].append(
                    f"<b>{rack.pdu_name}</b><br>{rack.zero_u_pdus} zero-U PDUs per rack, "
                    f"along both sides"
                )
    data = [
        {
            "type": "bar",
            "name": "Devices",
            "x": bars["x"],
            "y": bars["y"],
            "base": bars["base"],
            "width": RACK_WIDTH,
            "customdata": bars["hover"],
            "hovertemplate": "%{customdata}<extra></extra>",
            "marker": {"color": bars["color"], "line": {"color": "#ffffff", "width": 1}},
        },
        # One label per run of identical devices, on a see-through bar that spans the run:
        # plotly hides a label that does not fit (a narrow phone screen) instead of overlapping.
        {
            "type": "bar",
            "name": "Names",
            "x": labels["x"],
            "y": labels["y"],
            "base": labels["base"],
            "width": RACK_WIDTH,
            "text": labels["text"],
            "textposition": "inside",
            "insidetextanchor": "middle",
            "textangle": 0,
            "textfont": {"size": 11, "color": labels["color"]},
            "marker": {"color": "rgba(0,0,0,0)"},
            "hoverinfo": "skip",
        },
    ]
    if pdu_strips["x"]:
        data.append(
            {
                "type": "bar",
                "name": "PDUs",
                "x": pdu_strips["x"],
                "y": pdu_strips["y"],
                "base": pdu_strips["base"],
                "width": PDU_STRIP_WIDTH,
                "customdata": pdu_strips["hover"],
                "hovertemplate": "%{customdata}<extra></extra>",
                "marker": {"color": DEVICE_COLORS["pdu"], "opacity": 0.7},
            }
        )
    annotations = []
    if len(racks) > len(shown):
        annotations.append(
            {
                "text": f"The first {len(shown)} of {len(racks)} distinct racks; "
                f"the table below lists them all.",
                "xref": "paper",
                "yref": "paper",
                "x": 0,
                "y": 1.0,
                "yanchor": "bottom",
                "xanchor": "left",
                "showarrow": False,
                "font": {"size": 11, "color": "#5b6b7c"},
            }
        )
    # A few racks keep a rack's width: empty slots on both sides, not racks a metre wide.
    padding = max(0, MIN_SLOTS - len(shown)) / 2
    layout = base_layout(
        height=120 + 11 * tallest,
        barmode="overlay",
        showlegend=False,
        uniformtext={"minsize": 9, "mode": "hide"},
        annotations=annotations,
        margin={"l": 48, "r": 8, "t": 24 if annotations else 8, "b": 56},
        yaxis={
            "title": {"text": "Rack unit"},
            "range": [0, tallest],
            "dtick": 6,
            "gridcolor": "#eef2f6",
            "zeroline": False,
            "fixedrange": True,
        },
        xaxis={
            "tickfont": {"size": 10},
            "tickangle": 0,
            "automargin": True,
            "range": [-0.5 - padding, len(shown) - 0.5 + padding],
            "tickvals": list(range(len(shown))),
            "ticktext": tick_text,
            "fixedrange": True,
        },
    )
    return {"data": data, "layout": layout}

