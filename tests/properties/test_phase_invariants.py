"""A site built in phases that change technology: over random phase sequences (any number of
pools and phases, pools changing system, retired, joining late; growth final or per_phase):

- the plan's BOM lines add up to cost.bom_total_usd;
- what the phases add and remove accumulates to each phase's installed parts: after phase k,
  the sum of every phase's changes up to k is phase k's own bill of materials (per_phase) and,
  after the last, the site's; the compute systems so counted are the phase's nodes;
- no phase's installed quantity of a part is ever negative, and the capex is the phases'.
"""

import copy
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.solver.phases import phase_document
from planner.solver.pipeline import plan_scenario
from planner.solver.scenario import read_scenario
from tests.properties.strategies import plan_or_reject, seed_catalog

SYSTEMS = ("hgx-a100", "dgx-h100", "hgx-h100", "hgx-h800")
"""8-GPU air-cooled systems with 200G or 400G compute NICs, all served by one QM9700 fabric."""
GPUS_PER_SYSTEM = 8


@st.composite
def phased_sites(draw) -> dict:
    pool_count = draw(st.integers(1, 3))
    phase_count = draw(st.integers(1, 4))
    names = [f"pool-{index}" for index in range(pool_count)]
    own = {name: (draw(st.sampled_from(SYSTEMS)), draw(st.integers(1, 64)) * GPUS_PER_SYSTEM) for name in names}
    # Phase a pool first appears in; the phase that retires it (None: it is in the site).
    first = {name: draw(st.integers(0, phase_count - 1)) for name in names}
    retired_at = {}
    for name in names[1:]:
        if phase_count > 1 and first[name] < phase_count - 1 and draw(st.booleans()):
            retired_at[name] = draw(st.integers(first[name] + 1, phase_count - 1))
    first[names[0]] = 0  # the first phase builds something; pool-0 is never retired
    phases = []
    for index in range(phase_count):
        pools = {}
        for name in names:
            system, gpus = own[name]
            if index < first[name] or (name in retired_at and index > retired_at[name]):
                continue
            if retired_at.get(name) == index:
                pools[name] = {"retire": True}
                continue
            last = index == phase_count - 1
            size = gpus if last else GPUS_PER_SYSTEM * draw(st.integers(1, gpus // GPUS_PER_SYSTEM))
            entry = {"gpus": size}
            if not last and draw(st.integers(0, 2)) == 0:
                entry["system"] = draw(st.sampled_from([other for other in SYSTEMS if other != system]))
            pools[name] = entry
        phases.append({"name": f"phase-{index}", "start": f"{2026 + index}-03-01", "pools": pools})
    return {
        "name": "phased site",
        "pools": [{"name": name, "system": own[name][0], "gpus": own[name][1]} for name in names],
        "racks": {"power_budget_kw": 41, "usable_u": 42, "cooling": "air"},
        "fabrics": {"compute": {"switch": "qm9700", "topology": "fat_tree", "leaf_placement": "rail_optimized"}},
        "phases": phases,
        "growth": draw(st.sampled_from(["final", "per_phase"])),
        "salvage_share": draw(st.sampled_from([0.0, 0.25])),
    }


def quantities(lines) -> Counter:
    counts = Counter()
    for line in lines:
        counts[(line.category, line.sku, line.length_m)] += line.quantity
    return counts


@settings(max_examples=max(settings.default.max_examples // 10, 30))
@given(phased_sites())
def test_phase_changes_accumulate_to_the_installed_parts_and_the_bom_adds_up(document):
    # Sizes drawn below an earlier phase's on the same system are refused (400): rejected.
    plan, _ = plan_or_reject(document)
    assert sum(line.extended_price_usd for line in plan.bom) == pytest.approx(plan.cost.bom_total_usd, abs=0.01)
    assert plan.cost.capex_usd == pytest.approx(sum(phase.capex_usd for phase in plan.phases))
    scenario = read_scenario(document)
    tier_names = tuple(tier.name for tier in scenario.storage.tiers)
    installed = Counter()
    for phase_spec, phase in zip(scenario.phases, plan.phases, strict=True):
        for change in (*phase.added, *phase.removed):
            installed[(change.category, change.sku, change.length_m)] += change.quantity
        assert all(quantity >= 0 for quantity in installed.values())
        systems = sum(quantity for (category, _, _), quantity in installed.items() if category == "compute")
        assert systems == phase.nodes
        assert phase.salvage_usd == pytest.approx(
            document["salvage_share"] * -sum(change.extended_price_usd for change in phase.removed))
        if document["growth"] == "per_phase":
            own = plan_scenario(phase_document(copy.deepcopy(document), phase_spec, tier_names), seed_catalog())
            assert +installed == quantities(own.bom)
    assert +installed == quantities(plan.bom)
