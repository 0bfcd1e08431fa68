"""Phased build-out (planner.solver.phases): the issue's three-phase 1,900-GPU expansion against
hand calculations, the recabling rule, and the phased TCO by hand."""

import copy
import math
from pathlib import Path

import pytest
import yaml

from planner.solver.documents import parse_document
from planner.solver.pipeline import plan_scenario

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
EXAMPLE = EXAMPLES / "three-phase-expansion.yaml"
DGX_H100_USD = 270_000.0
QM9700_USD = 40_000.0
INSTALLATION_SHARE = 0.05

# Hand calculation, DGX H100 (8 GPUs, 10.2 kW) on a rail-optimised QM9700 (64 x 400G) fat tree:
# - systems: ceil(200 / 8) = 25; 800 / 8 = 100; ceil(1,900 / 8) = 238 (1,904 GPUs).
# - leaves: a scalable unit of 32 systems has one leaf per rail, 8 rails: 8 x ceil(25 / 32) = 8;
#   8 x ceil(100 / 32) = 32; 8 x ceil(238 / 32) = 64.
# - spines (non-blocking: a leaf of a full unit has 32 ports down and 32 up): 32 x 32 / 64 = 16;
#   64 x 32 / 64 = 32. With one unit of 25 systems each leaf has 25 uplinks; 8 x 25 = 200 need at
#   least ceil(200 / 64) = 4 spines, and 25 uplinks spread evenly over the spines take the
#   fewest count >= 4 that divides 25: 5.
# - compute racks: 4 systems (40.8 kW) in a 41 kW rack: ceil(25 / 4) = 7; 100 / 4 = 25;
#   ceil(238 / 4) = 60.
HAND = {
    "validation": {"gpus": 200, "nodes": 25, "leaf": 8, "spine": 5, "compute_racks": 7},
    "pre-production": {"gpus": 800, "nodes": 100, "leaf": 32, "spine": 16, "compute_racks": 25},
    "production": {"gpus": 1904, "nodes": 238, "leaf": 64, "spine": 32, "compute_racks": 60},
}


@pytest.fixture(scope="module")
def example():
    return parse_document(EXAMPLE.read_text())


def planned(document, catalog, growth):
    return plan_scenario({**copy.deepcopy(document), "growth": growth}, catalog)


def one_phase(document, catalog, gpus):
    single = copy.deepcopy(document)
    single.pop("phases")
    single["compute"]["gpus"] = gpus
    return plan_scenario(single, catalog)


@pytest.mark.parametrize("growth", ["final", "per_phase"])
def test_each_phase_has_the_hand_calculated_systems_leaves_and_spines(example, catalog, growth):
    plan = planned(example, catalog, growth)
    assert [phase.name for phase in plan.phases] == list(HAND)
    for phase in plan.phases:
        hand = HAND[phase.name]
        assert (phase.gpus, phase.nodes) == (hand["gpus"], hand["nodes"])
        assert phase.fabric_tiers == {"leaf": hand["leaf"], "spine": hand["spine"]}
    # The plan's own sections are the site: the last phase.
    assert plan.compute.gpus == 1904 and plan.racks.compute == 60


def test_final_growth_fills_in_the_final_floor(example, catalog):
    plan = planned(example, catalog, "final")
    other_racks = plan.racks.total - plan.racks.compute
    assert [phase.racks for phase in plan.phases] == [hand["compute_racks"] + other_racks for hand in HAND.values()]
    assert plan.phases[0].racks_added == plan.phases[0].racks
    # The floor (every rack) and the 32 spines are bought with the first phase.
    first = {(change.category, change.sku): change.quantity for change in plan.phases[0].added}
    assert first["racks", "rack-42u-600"] + first.get(("racks", "rack-52u-800"), 0) == sum(
        line.quantity for line in plan.bom if line.category == "racks"
    )
    assert first["network", "qm9700"] == 32 + 8 + math.ceil((32 + 8) * 0.02)  # spines, leaves, 2 % spares
    assert all(phase.recabled_links == 0 for phase in plan.phases)


def test_final_growth_phase_capex_is_what_the_phase_buys(example, catalog):
    plan = planned(example, catalog, "final")
    second = plan.phases[1]
    bought = {(change.category, change.sku): change.quantity for change in second.added}
    # 100 - 25 systems; leaves 32 - 8, with spares: (32 + 32) + ceil(64 x 2 %) = 66 after,
    # (32 + 8) + ceil(40 x 2 %) = 41 before.
    assert bought["compute", "dgx-h100"] == 75
    assert bought["network", "qm9700"] == 66 - 41
    assert second.capex_by_category_usd["systems"] == pytest.approx(75 * DGX_H100_USD)
    hardware = sum(change.extended_price_usd for change in second.added)
    assert second.capex_usd == pytest.approx(hardware * (1 + INSTALLATION_SHARE))
    # Filled in to the end, the phases bought exactly the final design (leased hall).
    assert sum(phase.capex_usd for phase in plan.phases) == pytest.approx(one_phase(example, catalog, 1900).cost.capex_usd)
    assert plan.phases[-1].cumulative_capex_usd == pytest.approx(plan.cost.capex_usd)


def test_per_phase_growth_designs_each_phase_on_its_own(example, catalog):
    plan = planned(example, catalog, "per_phase")
    first, second, third = plan.phases
    alone = one_phase(example, catalog, 200)
    assert first.capex_usd == pytest.approx(alone.cost.capex_usd)
    assert first.racks == alone.racks.total == HAND["validation"]["compute_racks"] + alone.racks.total - alone.racks.compute
    bought = {(change.category, change.sku): change.quantity for change in third.added}
    # 238 - 100 systems; switches (64 + 32) + ceil(96 x 2 %) = 98 after, (32 + 16) + 1 = 49 before.
    assert bought["compute", "dgx-h100"] == 138
    assert bought["network", "qm9700"] == 98 - 49
    # The spines change 5 -> 16 -> 32: every leaf-to-spine link of the phase before moves.
    assert second.recabled_links == 8 * 25
    assert third.recabled_links == 32 * 32
    assert third.racks_added == third.racks - second.racks


def test_a_one_tier_fabric_growing_two_tiers_recables_every_link(catalog):
    # 8 DGX H100 = 64 links fit one QM9700 (one tier); 16 need 8 leaves and 2 spines; 32 need
    # 4 spines. Tier count changes: all 64 links of the one-tier phase move; then the spines
    # change: the 8 x 16 = 128 leaf-to-spine links of the two-tier phase move.
    document = {
        "name": "grows a tier",
        "compute": {"system": "dgx-h100", "nodes": 32},
        "fabrics": {"compute": {"switch": "qm9700"}},
        "growth": "per_phase",
        "phases": [
            {"name": "one", "start": "2026-01-01", "pools": {"compute": {"nodes": 8}}},
            {"name": "two", "start": "2026-06-01", "pools": {"compute": {"nodes": 16}}},
            {"name": "three", "start": "2027-01-01", "pools": {"compute": {"nodes": 32}}},
        ],
    }
    plan = plan_scenario(document, catalog)
    one, two, three = plan.phases
    assert one.fabric_tiers == {"leaf": 1} and two.fabric_tiers == {"leaf": 8, "spine": 2}
    assert two.recabled_links == 64
    assert three.recabled_links == 128
    # Leaves stay leaves (1 -> 8, nothing falls), cables of lengths no longer used are removed.
    assert all(change.quantity < 0 for change in two.removed)


def test_the_phased_tco_by_hand(catalog):
    document = {
        "name": "two phases",
        "compute": {"system": "dgx-h100", "nodes": 16},
        "fabrics": {"compute": {"switch": "qm9700"}},
        "finance": {"years": 3, "discount_rate": 0.08, "escalation_per_year": 0.03},
        "phases": [
            {"name": "first", "start": "2026-01-01", "pools": {"compute": {"nodes": 8}}},
            {"name": "second", "start": "2026-07-02", "pools": {"compute": {"nodes": 16}}},
        ],
    }
    plan = plan_scenario(document, catalog)
    first, second = plan.phases
    t = 182 / 365.25  # 2026-01-01 to 2026-07-02
    assert second.years_from_first == pytest.approx(t)
    r1, r2 = first.opex_usd_per_year, second.opex_usd_per_year
    # Year 1: the first phase for t of it, the second for the rest; years 2 and 3 the second,
    # escalated 3 % a year; opex paid at the end of each year, capex on each phase's date.
    opex = [r1 * t + r2 * (1 - t), r2 * 1.03, r2 * 1.03**2]
    assert plan.cost.opex_usd_by_year == pytest.approx(opex)
    capex = first.capex_usd + second.capex_usd
    assert plan.cost.capex_usd == pytest.approx(capex)
    assert plan.cost.tco_usd == pytest.approx(capex + sum(opex))
    present = first.capex_usd + second.capex_usd / 1.08**t + sum(amount / 1.08**year for year, amount in enumerate(opex, 1))
    assert plan.cost.tco_present_value_usd == pytest.approx(present)
    gpu_hours = (64 * t + 128 * (3 - t)) * 8760
    assert plan.cost.gpu_hours == pytest.approx(gpu_hours)
    # Maintenance is on the hardware bought so far: 10 % a year of both phases' purchases.
    bought = sum(change.extended_price_usd for phase in plan.phases for change in phase.added)
    assert second.opex_by_category_usd_per_year["maintenance"] == pytest.approx(0.10 * bought)
    # The one-shot TCO buys all 16 systems at once and runs them from year 1: it costs more.
    assert plan.cost.tco_present_value_usd < one_shot_present_value(document, catalog)


def one_shot_present_value(document, catalog):
    single = {key: value for key, value in document.items() if key != "phases"}
    return plan_scenario(single, catalog).cost.tco_present_value_usd


def test_a_three_phase_plan_costs_three_plans(example, catalog):
    plan = planned(example, catalog, "final")
    assert len(plan.phases) == 3 and plan.to_dict()["phases"][2]["gpus"] == 1904


def test_a_two_pool_site_built_in_phases(catalog):
    document = {
        "name": "two pools in two phases",
        "pools": [
            {"name": "training", "system": "dgx-h100", "gpus": 1024, "fabric": {"switch": "qm9700"}},
            {"name": "serving", "system": "hgx-h100", "gpus": 256, "fabric": {"switch": "qm9700"}},
        ],
        "phases": [
            {"name": "pilot", "start": "2026-03-01", "pools": {"training": {"gpus": 256}}},
            {"name": "production", "start": "2026-09-01",
             "pools": {"training": {"gpus": 1024}, "serving": {"gpus": 256}}},
        ],
    }
    plan = plan_scenario(document, catalog)
    pilot, production = plan.phases
    # 256 / 8 = 32 training systems and no serving pool; then 128 + 32 systems.
    assert (pilot.gpus, pilot.nodes) == (256, 32)
    assert (production.gpus, production.nodes) == (1024 + 256, 128 + 32)


def test_the_slurm_cluster_grows_from_one_to_three_tiers(catalog):
    document = yaml.safe_load((EXAMPLES / "slurm-cluster-128-to-10k.yaml").read_text())
    phases = plan_scenario(document, catalog).to_dict()["phases"]
    # hgx-h800: 8 GPUs and 8 x 400G rails. Phase 0 on SN4600C (64 x 100GbE) in 4 planes, each
    # 400G NIC as 4 x 100G, one per plane; top-of-rack leaves stand in the compute racks, whose
    # 41 kW then hold 3 nodes (4 x 10.2 = 40.8 kW leaves no room for the 4 planes' leaves):
    # ceil(16 / 3) = 6 racks -> 6 leaves a plane, 24 in all; each leaf has 3 x 8 = 24 ports down
    # and 24 up, 6 x 24 = 144 uplinks over the fewest spines >= ceil(144 / 64) = 3 that divide
    # 24: 3 a plane, 12 in all.
    # QM9700: 64 ports, 32 down and 32 up at 1:1.
    # 2,048 GPUs = 256 nodes = 2,048 rail ports / 32 = 64 leaves; 2,048 uplinks / 64 = 32 spines.
    # 10,240 GPUs = 1,280 nodes = 10,240 ports: past 2,048 a third tier; 10,240 / 32 = 320 leaves.
    assert [(phase["gpus"], phase["nodes"]) for phase in phases] == [(128, 16), (2048, 256), (10240, 1280)]
    assert phases[0]["fabric_tiers"] == {"leaf": 24, "spine": 12}
    assert phases[1]["fabric_tiers"] == {"leaf": 64, "spine": 32}
    assert set(phases[2]["fabric_tiers"]) == {"leaf", "spine", "core"} and phases[2]["fabric_tiers"]["leaf"] == 320
    # The RoCE fabric is replaced, not re-cabled (its 24 x 24 = 576 leaf uplinks leave with its
    # switches, in `removed`): phase 1 re-cables only the site fabrics' links. A third tier moves
    # every link of the phase before.
    assert phases[1]["recabled_links"] < 576
    assert any(change["sku"] == "sn4600c" for change in phases[1]["removed"])
    assert phases[2]["recabled_links"] >= 256 * 8 + 64 * 32
    assert all(later["capex_usd"] > 0 for later in phases)


def test_the_mixed_generation_expansion_by_hand(catalog):
    """examples/mixed-generation-expansion.yaml: 25 A100 systems (200G HCAs), then H100s beside
    them on the same NDR fabric (the issue's pool that mixes generations under 400G spines),
    and last the A100 pool retired (phases[3]): the site is the H100 pool."""
    document = parse_document((EXAMPLES / "mixed-generation-expansion.yaml").read_text())
    plan = plan_scenario(document, catalog)
    # Systems: 200 / 8 = 25 hgx-a100; 600 / 8 = 75 and ceil(1,700 / 8) = 213 dgx-h100.
    assert [phase.gpus for phase in plan.phases] == [200, 800, 8 * (25 + 213), 8 * 213]
    # The production phase as its own design: links 25 x 8 = 200 at 200 Gb/s and 213 x 8 =
    # 1,704 at 400 Gb/s, numbered on: 238 systems in units of 32 (a leaf's 32 down ports) ->
    # ceil(238 / 32) = 8 units x 8 rails = 64 leaves; 64 x 32 uplinks / 64 ports = 32 spines.
    production = copy.deepcopy(document)
    production.pop("phases")
    fabric = plan_scenario(production, catalog).fabrics["compute"]
    assert [(link.from_, link.count, link.gbps) for link in fabric.links[:2]] == [
        ("node", 200, 200), ("dgx-h100", 1704, 400)]
    assert [(tier.role, tier.switches) for tier in fabric.tiers] == [("leaf", 64), ("spine", 32)]
    # Compute racks at 41 kW and 42 U: hgx-a100 6.5 kW, 6 U -> min(floor(41 / 6.5), floor(42 / 6))
    # = 6 a rack, ceil(25 / 6) = 5 racks; dgx-h100 10.2 kW -> 4 a rack, ceil(75 / 4) = 19 and
    # ceil(213 / 4) = 54. growth: final stands every other rack from the start; the A100s keep
    # their own 5 until they retire.
    others = plan.racks.total - plan.racks.compute
    assert plan.racks.compute == 54
    assert [phase.racks for phase in plan.phases] == [5 + others, 5 + 19 + others, 5 + 54 + others, 54 + others]
