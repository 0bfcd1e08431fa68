"""The scenario's checks against the catalog: every slug it names must be a part there."""

import difflib

from catalog.solver.snapshot import CatalogSnapshot
from core.solver.errors import FieldError, ScenarioError, join_path
from planner.solver.scenario import ScenarioSpec
from power.solver.cooling_plant import facility_unit_references


def check_references(scenario: ScenarioSpec, catalog: CatalogSnapshot) -> None:
    """Raise `ScenarioError` for every slug the scenario names that the catalog does not hold."""
    errors = []

    def check(path: str, slug: str, parts: dict, kind: str) -> None:
        if slug not in parts:
            errors.append(FieldError(path, _unknown_slug_message(slug, parts, kind)))

    if scenario.compute is not None:
        check("compute.system", scenario.compute.system, catalog.systems, "system")
    fabrics = [(f"fabrics.{name}", getattr(scenario.fabrics, name)) for name in ("compute", "storage", "inband", "oob")]
    for index, pool in enumerate(scenario.pools):
        check(f"pools[{index}].system", pool.system, catalog.systems, "system")
        fabrics.append((f"pools[{index}].fabric", pool.fabric))
    check("racks.cooling", scenario.racks.cooling, catalog.cooling_types, "cooling type")
    check("racks.rack_type", scenario.racks.rack_type, catalog.rack_types, "rack type")
    check("racks.network_rack_type", scenario.racks.network_rack_type, catalog.rack_types, "rack type")
    check("racks.pdu", scenario.racks.pdu, catalog.pdus, "PDU")
    if scenario.racks.management_servers:
        check("racks.management_server", scenario.racks.management_server, catalog.servers, "server")
    for path, slug, kinds, label in facility_unit_references(scenario.facility):
        check(path, slug, {unit.slug: unit for unit in catalog.cooling_units.values() if unit.kind in kinds}, label)
    for path, fabric in fabrics:
        if fabric is not None:
            check(f"{path}.switch", fabric.switch, catalog.switches, "switch")
            if fabric.spine_switch is not None:
                check(f"{path}.spine_switch", fabric.spine_switch, catalog.switches, "switch")
            if fabric.fabric_manager_ports:
                check(f"{path}.fabric_manager", fabric.fabric_manager, catalog.servers, "server")
    for index, tier in enumerate(scenario.storage.tiers):
        check(f"storage.tiers[{index}].system", tier.system, catalog.storage_systems, "storage system")
    for index, system in enumerate(scenario.components.systems):
        if system.scale_up_links:
            path = f"components.systems[{index}]"
            check(f"{path}.scale_up_transceiver", system.scale_up_transceiver, catalog.transceivers, "transceiver")
            check(f"{path}.scale_up_cable", system.scale_up_cable, catalog.cables, "cable")
    for slug in scenario.prices:
        if catalog.part(slug) is None:
            errors.append(FieldError(join_path("prices", slug), f"no part has the slug '{slug}'"))
    if errors:
        raise ScenarioError(errors)


def _unknown_slug_message(slug: str, parts: dict, kind: str) -> str:
    close = difflib.get_close_matches(slug, parts, n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else f"; known: {', '.join(sorted(parts))}"
    return f"no {kind} '{slug}' in the catalog or the scenario's components{hint}"
