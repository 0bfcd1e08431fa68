"""Invariants of rack packing: every rack within its rack units, power, cooling and weight."""

from hypothesis import example, given

from tests.properties.strategies import plan_or_reject, scenarios

TOLERANCE = 1e-6


def _rack_scale(plan, catalog, group) -> bool:
    """A rack-scale system's own rack: its compute racks, and the switch racks of a system that
    spans several (CloudMatrix 384), whose rack type is the system."""
    system = catalog.systems[plan.inputs.compute.system]
    return system.rack_scale and (group.kind == "compute" or group.rack_type == system.slug)


def equipment_weight_kg(plan, catalog, group) -> float:
    """What the rack holds: its weight less the empty enclosure (a rack-scale system's weight
    already includes its rack)."""
    enclosure = 0.0 if _rack_scale(plan, catalog, group) else plan.inputs.racks.empty_rack_weight_kg
    return group.weight_kg - enclosure


@given(scenarios())
def test_every_rack_within_its_rack_units(document):
    """c. units_used <= usable_u for every group of identical racks."""
    plan, _ = plan_or_reject(document)
    for group in plan.racks.per_rack:
        assert group.units_used <= group.usable_u, group


@given(scenarios())
def test_every_rack_within_its_power_budget_and_cooling(document):
    """c. A rack draws at most its budget (racks.power_budget_kw for compute racks,
    racks.support_power_budget_kw for the others) and what its cooling type removes; a system
    that needs liquid cooling sits in a liquid-cooled rack."""
    plan, catalog = plan_or_reject(document)
    racks = plan.inputs.racks
    system = catalog.systems[plan.inputs.compute.system]
    for group in plan.racks.per_rack:
        budget = racks.power_budget_kw if group.kind == "compute" else racks.support_power_budget_kw
        assert group.it_kw <= budget + TOLERANCE, group
        cooling = catalog.cooling_types[group.cooling]
        assert group.it_kw <= cooling.max_rack_kw + TOLERANCE, group
        if group.kind == "compute" and system.liquid_cooling_required:
            assert cooling.liquid_fraction > 0, group


@given(scenarios())
def test_every_rack_within_its_weight_limit(document):
    """c. A compute rack holds at most racks.max_weight_kg, or its rack type's static load when
    none is given (a rack-scale system: only racks.max_weight_kg); network, storage and
    management racks at most their rack type's static load."""
    plan, catalog = plan_or_reject(document)
    racks = plan.inputs.racks
    for group in plan.racks.per_rack:
        rack_type = catalog.rack_types.get(group.rack_type)
        if group.kind == "compute" and racks.max_weight_kg is not None:
            limit = racks.max_weight_kg
        elif _rack_scale(plan, catalog, group):
            continue
        else:
            limit = rack_type.static_load_kg
        assert equipment_weight_kg(plan, catalog, group) <= limit + TOLERANCE, group


NETWORK_RACK_OVER_MAX_WEIGHT = {
    "name": "64 DGX H100, racks of at most 300 kg",
    "compute": {"system": "dgx-h100", "nodes": 64},
    "racks": {"max_weight_kg": 300},
    "fabrics": {"compute": {"switch": "qm9700"}},
}


@example(NETWORK_RACK_OVER_MAX_WEIGHT)
@given(scenarios())
def test_support_racks_within_racks_max_weight_kg(document):
    """c. racks.max_weight_kg is "equipment one rack may hold" (docs/scenario-reference.md): it
    bounds network, storage and management racks too, not only compute racks."""
    plan, catalog = plan_or_reject(document)
    limit = plan.inputs.racks.max_weight_kg
    if limit is None:
        return
    for group in plan.racks.per_rack:
        if group.kind != "compute":
            assert equipment_weight_kg(plan, catalog, group) <= limit + TOLERANCE, group
