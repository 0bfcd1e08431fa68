"""The editor's catalog pickers: which catalog parts a slug field chooses from, and how a part
reads as a choice (its name and the figures that decide a design, never its slug alone).

A field is a picker when its name says the kind (`switch` chooses switches) or when
`CATALOG_PICKS` names it; the table also narrows a kind to the parts that fit the field (a
fabric manager is a server of that role, a CDU a cooling unit of that kind).
"""

import re
from dataclasses import dataclass
from typing import Any

from fabric.solver.specs import FabricSpec
from power.solver.cooling_plant import UNIT_KINDS_BY_FIELD
from power.solver.specs import FacilitySpec, RacksSpec
from storage.solver.specs import StorageTierSpec

CATALOG_FIELD_ALIASES = {"cooling": "cooling_types"}
"""Scenario fields whose values are catalog slugs of a kind not named by the field's plural."""


@dataclass(frozen=True)
class CatalogPick:
    """The catalog kind a field chooses from, narrowed to the parts whose `attribute` is one of
    `values` (all parts of the kind when `attribute` is empty)."""

    kind: str
    attribute: str = ""
    values: tuple[str, ...] = ()

    def fits(self, part: Any) -> bool:
        return not self.attribute or part_attribute(part, self.attribute) in self.values


CATALOG_PICKS: dict[tuple[type, str], CatalogPick] = {
    (StorageTierSpec, "system"): CatalogPick("storage_systems"),
    (FabricSpec, "fabric_manager"): CatalogPick("servers", "role", ("fabric_manager",)),
    (RacksSpec, "management_server"): CatalogPick("servers", "role", ("management_server",)),
    **{
        (FacilitySpec, path.removeprefix("facility.")): CatalogPick("cooling_units", "kind", tuple(kinds))
        for path, kinds in UNIT_KINDS_BY_FIELD.items()
    },
}
"""Slug fields whose kind their name does not say, or that take only some parts of a kind."""


def catalog_pick(owner: type, name: str, catalog_kinds: set[str]) -> CatalogPick | None:
    """What the field `name` of the dataclass `owner` chooses from, if it is a catalog slug.

    `switch` and `spine_switch` choose switches, `network_rack_type` rack types.
    """
    if (owner, name) in CATALOG_PICKS:
        return CATALOG_PICKS[(owner, name)]
    words = name.removesuffix("_slug").split("_")
    for start in range(len(words)):
        base = "_".join(words[start:])
        for kind in (CATALOG_FIELD_ALIASES.get(base), base + "s", base + "es", base[:-1] + "ies"):
            if kind in catalog_kinds:
                return CatalogPick(kind)
    return None


SLUG_IN_HELP = re.compile(
    r"\b(?:(?:the|an?) )?(?P<capital>[Cc])atalog slug of (?P<article>the|an?) (?P<thing>[^.;(]+?)"
    r"(?P<aside> \([^)]*\))?(?=[.;,]? used |[.;]| for |$)"
)
API_IN_HELP = re.compile(r",?\s*/api/[^\s),]*")
OTHER_SLUG = re.compile(r"\bcatalog slug\b")


def help_in_form(text: str) -> str:
    """A help text as the form reads it: "Catalog slug of the switch." -> "The switch (from the
    catalog)." The document reference and the API keep the word slug."""

    def replace(match: re.Match) -> str:
        article = match["article"].capitalize() if match["capital"] == "C" else match["article"]
        aside = API_IN_HELP.sub("", match["aside"] or "")
        source = " from the catalog" if aside else " (from the catalog)"
        return f"{article} {match['thing']}{source}{aside}"

    return OTHER_SLUG.sub("catalog part", SLUG_IN_HELP.sub(replace, text))


def part_attribute(part: Any, name: str, default: Any = None) -> Any:
    if isinstance(part, dict):
        return part.get(name, default)
    return getattr(part, name, default)


def _number(value: Any) -> str:
    return f"{value:,g}" if isinstance(value, (int, float)) else "?"


def part_label(kind: str | None, part: Any) -> str:
    """A catalog part as a choice: its name and the figures that decide a design."""
    name = part_attribute(part, "name") or part_attribute(part, "slug", "")
    try:
        if kind == "systems":
            racks = (part_attribute(part, "compute_racks", 1) or 1) + (
                part_attribute(part, "switch_racks", 0) or 0)
            if racks > 1:
                size = f"{racks} racks"
            else:
                size = "one rack" if part_attribute(part, "rack_scale") else f"{part_attribute(part, 'rack_units')}U"
            figures = f"{part_attribute(part, 'gpus')} GPUs, {_number(part_attribute(part, 'power_kw'))} kW, {size}"
        elif kind == "switches":
            figures = (
                f"{part_attribute(part, 'ports')} × {_number(part_attribute(part, 'port_gbps'))}G "
                f"{part_attribute(part, 'technology', '')}, {_number(part_attribute(part, 'power_w'))} W, "
                f"{part_attribute(part, 'rack_units')}U"
            ).replace("  ", " ")
        elif kind == "cooling_types":
            figures = (
                f"up to {_number(part_attribute(part, 'max_rack_kw'))} kW per rack, "
                f"typical PUE {_number(part_attribute(part, 'typical_pue'))}"
            )
        elif kind == "storage_systems":
            figures = (
                f"{_number(part_attribute(part, 'usable_capacity_tb'))} TB, "
                f"{_number(part_attribute(part, 'read_gbytes_per_s'))} GB/s read, "
                f"{part_attribute(part, 'rack_units')}U"
            )
        elif kind in ("transceivers", "cables"):
            figures = f"{_number(part_attribute(part, 'gbps'))}G, reach {_number(part_attribute(part, 'reach_m'))} m"
        elif kind == "cooling_units":
            figures = f"{_number(part_attribute(part, 'capacity_kw'))} kW of heat"
        elif kind == "servers":
            figures = f"{_number(part_attribute(part, 'power_kw'))} kW, {part_attribute(part, 'rack_units')}U"
        else:
            figures = ""
    except (TypeError, ValueError):
        figures = ""
    return f"{name} — {figures}" if figures else str(name)
