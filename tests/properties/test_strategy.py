"""The scenario strategy itself: its documents are valid, most of them plan, a refusal names its
field, and it reaches every system, topology, placement and fabric."""

from collections import Counter

from hypothesis import given, settings

from planner.solver.scenario import read_scenario
from tests.properties.strategies import plan_or_refusal, scenarios, seed_catalog

PLANNED_SHARE_AT_LEAST = 0.6
SECTIONS = ("compute", "racks", "fabrics", "storage", "components", "prices", "finance")


def test_most_drawn_scenarios_plan_and_every_refusal_names_a_field():
    outcomes: Counter = Counter()
    seen: Counter = Counter()

    @settings(max_examples=settings.default.max_examples)
    @given(scenarios())
    def draw(document):
        read_scenario(document)  # valid: the format's own reader accepts it
        # Reached: whether a system's scenario plans depends on the budgets drawn with it (each
        # catalog system plans in tests/catalog/test_catalog.py).
        seen[("system", document["compute"]["system"])] += 1
        plan, refusal = plan_or_refusal(document)
        if plan is None:
            outcomes["refused"] += 1
            for error in refusal.errors:
                assert error.path.split(".")[0].split("[")[0] in SECTIONS, error
            return
        outcomes["planned"] += 1
        for name, fabric in (plan.fabrics or {}).items():
            seen[("fabric", name)] += 1
            seen[("topology", fabric.topology)] += 1
            seen[("placement", fabric.leaf_placement)] += 1
            seen[("tiers", fabric.tier_count)] += 1
            seen[("planes", fabric.planes)] += 1

    draw()
    total = outcomes["planned"] + outcomes["refused"]
    assert outcomes["planned"] >= PLANNED_SHARE_AT_LEAST * total, outcomes
    if settings.default.max_examples >= 200:
        # Every catalog system and the inline one drawn; every fabric, topology, placement and
        # tier count planned.
        wanted = {("system", slug) for slug in seed_catalog().systems} | {("system", "custom-gpu-node")}
        wanted |= {("fabric", name) for name in ("compute", "storage", "inband", "oob")}
        wanted |= {("topology", name) for name in ("fat_tree", "rail_only", "dragonfly")}
        wanted |= {("placement", name) for name in ("rail_optimized", "top_of_rack")}
        wanted |= {("tiers", count) for count in (1, 2, 3)} | {("planes", count) for count in (1, 2, 3, 4)}
        assert wanted - set(seen) == set()
