"""h. Totals equal the sum of their parts: BOM and cost, racks, power, and each fabric's figures."""

from collections import Counter

import pytest
from hypothesis import given

from power.solver.floor import rack_positions
from tests.properties.cabling_summary import installed
from tests.properties.strategies import plan_or_reject, racks_spanned, scenarios

approx = lambda value: pytest.approx(value, rel=1e-9, abs=1e-6)  # noqa: E731

CAPEX_HARDWARE = ("systems", "network", "optics_and_cables", "storage", "management", "racks_and_power", "cooling")


@given(scenarios())
def test_bom_extended_prices_add_up_to_the_cost_totals(document):
    """Extended = quantity x unit price; their sum is cost.bom_total_usd, by category
    cost.bom_usd_by_category; capex is the sum of its categories, its hardware categories the
    BOM total, installation its share; opex the sum of its categories; TCO capex + opex."""
    plan, _ = plan_or_reject(document)
    cost = plan.cost
    by_category: Counter = Counter()
    for line in plan.bom:
        assert line.extended_price_usd == approx(line.quantity * line.unit_price_usd), line
        assert 0 <= line.spares <= line.quantity, line
        by_category[line.category] += line.extended_price_usd
    assert cost.bom_total_usd == approx(sum(line.extended_price_usd for line in plan.bom))
    assert cost.bom_usd_by_category == approx(dict(by_category))
    assert cost.capex_usd == approx(sum(cost.capex_by_category_usd.values()))
    hardware = sum(cost.capex_by_category_usd.get(category, 0.0) for category in CAPEX_HARDWARE)
    assert hardware == approx(cost.bom_total_usd)
    assert cost.capex_by_category_usd["installation"] == approx(
        plan.inputs.finance.installation_share * cost.bom_total_usd)
    assert cost.opex_usd_per_year == approx(sum(cost.opex_by_category_usd_per_year.values()))
    assert cost.opex_usd_by_year[0] == approx(cost.opex_usd_per_year)
    assert cost.tco_usd == approx(cost.capex_usd + sum(cost.opex_usd_by_year))


@given(scenarios())
def test_bom_quantities_are_the_parts_the_plan_counts(document):
    """Installed quantities (BOM less spares) are the plan's own counts: systems = total nodes;
    switches per model = the tiers' switches; optics = the fabrics' transceiver_parts; cables
    per part = the fabrics' CableCounts."""
    plan, _ = plan_or_reject(document)
    assert installed(plan.bom, "compute") == Counter({plan.inputs.compute.system: plan.compute.total_nodes})
    switches, optics, cables = Counter(), Counter(), Counter()
    for fabric in (plan.fabrics or {}).values():
        for tier in fabric.tiers:
            switches[tier.switch] += tier.switches
        for part in fabric.transceiver_parts:
            optics[part.sku] += part.quantity
        for cable in fabric.cables:
            if cable.cable:
                cables[cable.cable] += cable.count
    assert installed(plan.bom, "network") == +switches
    assert installed(plan.bom, "optics") == +optics
    assert installed(plan.bom, "cables") == +cables


@given(scenarios())
def test_rack_counts_add_up(document):
    """racks.total = compute + network + storage + management; the per-rack groups of each kind
    add up to its count; the floor places every rack once; the compute racks hold every system
    and the racks every switch the fabrics count."""
    plan, catalog = plan_or_reject(document)
    racks = plan.racks
    assert racks.total == racks.compute + racks.network + racks.storage + racks.management
    kinds = Counter()
    for group in racks.per_rack:
        kinds[group.kind] += group.count
    assert {kind: kinds[kind] for kind in ("compute", "network", "storage", "management")} == {
        "compute": racks.compute, "network": racks.network, "storage": racks.storage,
        "management": racks.management}
    if racks.floor is not None:
        assert Counter(kind for kind, _ in rack_positions(racks.floor)) == +kinds
    system = plan.inputs.compute.system
    racked = Counter()
    for group in racks.per_rack:
        for item in group.contents:
            racked[item.slug] += item.count * group.count
    assert racked[system] == plan.compute.total_nodes * racks_spanned(catalog.systems[system])
    switches = Counter()
    for fabric in (plan.fabrics or {}).values():
        for tier in fabric.tiers:
            switches[tier.switch] += tier.switches
    assert {slug: racked[slug] for slug in switches} == dict(switches)


@given(scenarios())
def test_it_kw_by_category_adds_up_and_is_what_the_racks_draw(document):
    """power.it_kw = sum of it_kw_by_category; its network share = the fabrics' switch and
    optics power; and the racks (one group's it_kw x its count) draw the plan's it_kw."""
    plan, _ = plan_or_reject(document)
    power = plan.power
    assert power.it_kw == approx(sum(power.it_kw_by_category.values()))
    # The switches draw their own power and the modules in their cages; a system's modules are
    # in the compute share (only where its rating leaves them out).
    switches = {tier.switch for fabric in (plan.fabrics or {}).values() for tier in fabric.tiers}
    network = sum(
        fabric.switch_power_kw + sum(kw for device, kw in fabric.optics_power_kw_by_device.items() if device in switches)
        for fabric in (plan.fabrics or {}).values()
    )
    if any("packed and powered for the largest count" in warning for warning in plan.warnings):
        # counts alternated between two packings: the racks carry the larger optics
        assert power.it_kw_by_category["network"] >= network * (1 - 1e-9)
    else:
        assert power.it_kw_by_category["network"] == approx(network)
    assert sum(group.it_kw * group.count for group in plan.racks.per_rack) == approx(power.it_kw)


@given(scenarios())
def test_fabric_transceivers_and_cables_add_up(document):
    """fabric.transceivers = sum of transceiver_parts, at most the links' (a cage whose links are
    of two segments, a leaf's last down and first up port, holds one module); cables_by_media
    totals = sum of the link counts, less the links no catalog cable reaches (the plan warns);
    each link's media_counts add up to its count; the tiers' power is switch_power_kw."""
    plan, _ = plan_or_reject(document)
    for name, fabric in (plan.fabrics or {}).items():
        assert fabric.transceivers == sum(part.quantity for part in fabric.transceiver_parts), name
        assert fabric.transceivers <= sum(link.transceivers for link in fabric.links), name
        missing = sum(link.count for link in fabric.links) - sum(fabric.cables_by_media().values())
        assert missing >= 0, name
        if missing:
            assert any("counted without a cable" in warning for warning in fabric.media_warnings), name
        for link in fabric.links:
            assert sum(link.media_counts.values()) == link.count, (name, link)
        assert fabric.switch_power_kw == approx(sum(tier.power_kw for tier in fabric.tiers)), name
