"""The one place that knows the order of the steps: scenario in, plan out."""

from typing import Any

from planner.solver.bom import PartCount, bom_lines
from planner.solver.catalog import CatalogSnapshot, check_references
from planner.solver.compute import compute_warnings, size_compute
from planner.solver.plan import Plan
from planner.solver.scenario import ScenarioSpec, read_scenario
from power.solver.rack_packing import pack_compute_racks


def validate_scenario(document: Any, catalog: CatalogSnapshot) -> tuple[ScenarioSpec, CatalogSnapshot]:
    """The document read into a spec, and the catalog with its inline components, or ScenarioError."""
    scenario = read_scenario(document)
    catalog = catalog.with_components(scenario)
    check_references(scenario, catalog)
    return scenario, catalog


def plan_scenario(document: Any, catalog: CatalogSnapshot) -> Plan:
    """Plan a scenario document. Raises ScenarioError (bad input) or InfeasibleError (no design)."""
    scenario, catalog = validate_scenario(document, catalog)
    system = catalog.systems[scenario.compute.system]
    compute = size_compute(scenario.compute, system)
    racks = pack_compute_racks(compute.total_nodes, system, scenario.racks, catalog.cooling_types)
    warnings = compute_warnings(scenario.compute, system, compute)
    part_counts = [PartCount("compute", system.slug, compute.total_nodes)]
    return Plan(
        name=scenario.name,
        compute=compute,
        racks=racks,
        bom=bom_lines(part_counts, catalog, scenario.prices),
        warnings=tuple(warnings),
    )
