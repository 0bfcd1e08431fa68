"""A site of two pools: its totals are the sums of its pools' and its shared parts'."""

from collections import Counter

import pytest
from hypothesis import given

from tests.properties.cabling_summary import installed
from tests.properties.strategies import plan_or_reject, racks_spanned, site_scenarios


def approx(value):
    return pytest.approx(value, rel=1e-9, abs=1e-6)


@given(site_scenarios())
def test_a_sites_systems_racks_switches_and_power_add_up(document):
    plan, catalog = plan_or_reject(document)
    pools = plan.pools
    assert set(pools) == {"pool-0", "pool-1"}
    assert plan.compute.gpus == sum(pool.gpus for pool in pools.values())
    assert plan.compute.total_nodes == sum(pool.compute.total_nodes for pool in pools.values())
    systems = Counter()
    for pool in pools.values():
        systems[pool.system] += pool.compute.total_nodes
    assert installed(plan.bom, "compute") == systems
    racks = plan.racks
    assert racks.compute == sum(pool.racks.compute for pool in pools.values())
    assert racks.total == racks.compute + racks.network + racks.storage + racks.management
    racked = Counter()
    for group in racks.per_rack:
        for item in group.contents:
            racked[item.slug] += item.count * group.count
    assert {slug: racked[slug] for slug in systems} == {
        slug: count * racks_spanned(catalog.systems[slug]) for slug, count in systems.items()}
    switches = Counter()
    for fabric in (plan.fabrics or {}).values():
        for tier in fabric.tiers:
            switches[tier.switch] += tier.switches
    assert {slug: racked[slug] for slug in switches} == dict(switches)
    assert installed(plan.bom, "network") == +switches
    fabrics = plan.fabrics or {}
    for name, pool in pools.items():
        # Its own compute-<name>, or the site's shared compute fabric, or none.
        joined = f"compute-{name}" if f"compute-{name}" in fabrics else "compute" if "compute" in fabrics else None
        assert (pool.fabric.name if pool.fabric else None) == joined
    power = plan.power
    assert power.it_kw == approx(sum(power.it_kw_by_category.values()))
    assert sum(group.it_kw * group.count for group in racks.per_rack) == approx(power.it_kw)
    assert sum(pool.power.it_kw for pool in pools.values()) <= power.it_kw + 1e-6
