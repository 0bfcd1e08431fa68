"""Phases that change technology (planner.solver.phases, phase_spec, phase_checks): a pool's
system and fabric, a storage tier's system, a retired pool; the salvage credit, capex on each
phase's date and maintenance that stops with the retired gear, by hand."""

import copy
from pathlib import Path

import pytest

from core.solver.errors import InfeasibleError, ScenarioError
from planner.solver.documents import parse_document
from planner.solver.pipeline import plan_scenario

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def example(name):
    return parse_document((EXAMPLES / name).read_text())


@pytest.fixture(scope="module")
def slurm(catalog):
    return plan_scenario(example("slurm-cluster-128-to-10k.yaml"), catalog)


@pytest.fixture(scope="module")
def mixed(catalog):
    return plan_scenario(example("mixed-generation-expansion.yaml"), catalog)


def removed(phase):
    return {(change.sku, change.length_m): change.quantity for change in phase.removed}


def test_the_slurm_cluster_retires_its_roce_fabric_and_nfs_tier(slurm):
    """Phase 0 is 16 hgx-h800 on SN4600C (64 x 100GbE) in 4 planes, with one VAST (NFS) system;
    phase 1 moves to the QM9700 fat tree and Lustre: every SN4600C and the VAST system leave."""
    pilot, two_tier, three_tier = slurm.phases
    assert (pilot.gpus, two_tier.gpus, three_tier.gpus) == (128, 2048, 10240)
    gone = removed(two_tier)
    assert gone[("sn4600c", None)] == -36 and gone[("vast-cbox-dbox", None)] == -1
    assert not any(change.sku == "vast-cbox-dbox" for change in two_tier.added)
    assert not any(line.sku == "vast-cbox-dbox" for line in slurm.bom)


def test_the_salvage_credit_by_hand(slurm):
    """salvage_share 0.1 of the parts phase 1 retires, at their unit prices [USD]:
    36 sn4600c x 25,000 = 900,000; 737 qsfp28-100g-sr4 x 100 = 73,700; 19 cat6a-rj45 x 10.50 =
    199.50; 74 + 206 + 239 + 223 = 742 dac-100g-qsfp28 x 60 = 44,520; 371 mpo12-os2 x 60 = 22,260;
    1 vast-cbox-dbox x 600,000. Sum 1,640,679.50; x 0.1 = 164,067.95, taken off the capex."""
    two_tier = slurm.phases[1]
    assert two_tier.salvage_usd == pytest.approx(164_067.95)
    assert two_tier.capex_by_category_usd["salvage"] == pytest.approx(-164_067.95)
    assert two_tier.capex_usd == pytest.approx(sum(two_tier.capex_by_category_usd.values()))
    assert slurm.phases[0].salvage_usd == 0


def test_capex_is_paid_on_each_phase_date(slurm):
    """t_k [years] from 2026-01-15: 2026-07-01 is 167 days, 2027-04-01 is 441 days (of 365.25).
    The present value's capex part is sum capex_k / 1.08^t_k; the rest is the opex's."""
    t = [0.0, 167 / 365.25, 441 / 365.25]
    assert [phase.years_from_first for phase in slurm.phases] == pytest.approx(t)
    capex_present = sum(phase.capex_usd / 1.08 ** years for phase, years in zip(slurm.phases, t, strict=True))
    opex_present = sum(amount / 1.08 ** year for year, amount in enumerate(slurm.cost.opex_usd_by_year, start=1))
    assert slurm.cost.tco_present_value_usd == pytest.approx(capex_present + opex_present)
    assert slurm.cost.capex_usd == pytest.approx(sum(phase.capex_usd for phase in slurm.phases))


def test_the_bom_is_the_finished_site_and_adds_up(slurm, mixed):
    for plan in (slurm, mixed):
        assert sum(line.extended_price_usd for line in plan.bom) == pytest.approx(plan.cost.bom_total_usd)


def test_a_retired_pool_leaves_with_its_parts_and_its_maintenance(mixed):
    """examples/mixed-generation-expansion.yaml, phase a100-retired (growth: final). Removed at
    unit prices [USD]: 25 hgx-a100 x 200,000 = 5,000,000; 206 qsfp112-200g-sr2 x 700 = 144,200;
    the A100s' 8 leaves x 40,000 = 320,000; 381 osfp-800g-2xsr4 x 1,100 = 419,100; 17 acc-800g x
    900 = 15,300; 13 dac-400g x 250 = 3,250; 123 x 47.5 + 178 x 55 + 178 x 67.5 = 27,647.50 of
    mpo12-om4: 5,929,497.50 in all. salvage_share 0.2 -> 1,185,899.50 credited. The phase adds
    14,940 of cables (the H100s' design on its own). Maintenance (0.1 a year of the gear
    installed) falls by 0.1 x (5,929,497.50 - 14,940) = 591,455.75 a year."""
    production, retired = mixed.phases[2:]
    assert retired.gpus == 8 * 213 and "a100" not in (mixed.pools or {})
    assert -sum(change.extended_price_usd for change in retired.removed) == pytest.approx(5_929_497.5)
    assert removed(retired)[("hgx-a100", None)] == -25
    assert retired.salvage_usd == pytest.approx(1_185_899.5)
    assert sum(change.extended_price_usd for change in retired.added) == pytest.approx(14_940)
    assert retired.capex_usd == pytest.approx(14_940 * 1.05 - 1_185_899.5)
    drop = production.opex_by_category_usd_per_year["maintenance"] - retired.opex_by_category_usd_per_year["maintenance"]
    assert drop == pytest.approx(591_455.75)


def test_the_mixed_expansion_keeps_the_shared_fabric_in_every_phase(mixed):
    """One QM9700 fat tree in every phase, the lone A100 pool of the first too: 25 systems,
    one unit of 32 -> 8 leaves (a leaf a rail); the last phase's 213 H100 -> ceil(213 / 32) = 7
    units x 8 = 56 leaves, 56 x 32 uplinks over the fewest spines >= 28 that divide 32: 32.
    Racks (growth: final): the A100s keep their own 5 racks (6 a rack at 6.5 kW, 6 U) until they
    retire; the H100s fill the final floor's 54 at 4 a rack; 6 network and management racks."""
    assert [phase.fabric_tiers for phase in mixed.phases] == [
        {"leaf": 8, "spine": 2}, {"leaf": 32, "spine": 16}, {"leaf": 64, "spine": 32}, {"leaf": 56, "spine": 32}]
    others = mixed.racks.total - mixed.racks.compute
    assert others == 6
    assert [phase.racks for phase in mixed.phases] == [5 + others, 5 + 19 + others, 5 + 54 + others, 54 + others]


def test_growth_final_counts_the_gear_installed_early_in_the_power(catalog):
    """three-phase-expansion.yaml: the validation phase's own design has 5 spines; growth: final
    installs the final design's 32 from the start: 27 QM9700 more at 1,720 W (the catalog's
    power without optics) = 46.44 kW beyond the phase's own design, at its PUE."""
    document = example("three-phase-expansion.yaml")
    phased = plan_scenario(document, catalog)
    single = copy.deepcopy(document)
    single.pop("phases")
    single.pop("growth")
    single["compute"]["gpus"] = 200
    own = plan_scenario(single, catalog)
    early_kw = 27 * catalog.switches["qm9700"].power_w / 1000
    assert phased.phases[0].it_kw == pytest.approx(own.power.it_kw + early_kw)
    assert phased.phases[0].facility_kw == pytest.approx(own.power.facility_kw + early_kw * own.power.pue)
    assert phased.phases[-1].it_kw == pytest.approx(phased.power.it_kw)


def test_a_system_the_final_racks_cannot_hold_is_a_422_on_its_phase(catalog):
    """growth: final with 25 dgx-h100 at the end (4 a 41 kW rack: 7 compute racks) and 100
    hgx-a100 before (6 a rack: 17 racks): the final floor cannot hold the first phase."""
    document = example("three-phase-expansion.yaml")
    document["compute"]["gpus"] = 200
    document["phases"] = [
        {"name": "a100", "start": "2026-01-01", "pools": {"compute": {"gpus": 800, "system": "hgx-a100"}}},
        {"name": "h100", "start": "2027-01-01", "pools": {"compute": {"gpus": 200}}},
    ]
    with pytest.raises(InfeasibleError) as raised:
        plan_scenario(document, catalog)
    assert raised.value.errors[0].path == "phases[0].pools.compute.system"
    assert "7 compute racks" in raised.value.errors[0].message and "17 racks" in raised.value.errors[0].message


def test_a_system_change_the_final_racks_hold_is_bought_and_retired(catalog):
    """The same with 25 hgx-a100 first (5 racks of the final 60): bought in phase 0, removed in
    phase 1 when the dgx-h100 arrive."""
    document = example("three-phase-expansion.yaml")
    document["phases"][0]["pools"]["compute"]["system"] = "hgx-a100"
    plan = plan_scenario(document, catalog)
    assert any(change.sku == "hgx-a100" and change.quantity == 25 for change in plan.phases[0].added)
    assert removed(plan.phases[1])[("hgx-a100", None)] == -25
    assert plan.phases[0].racks == 5 + plan.racks.total - plan.racks.compute


def test_a_switch_that_cannot_serve_the_phase_fabric_is_named_on_the_phase(catalog):
    document = example("slurm-cluster-128-to-10k.yaml")
    document["phases"][0]["pools"]["compute"]["fabric"].pop("planes")
    with pytest.raises(ScenarioError) as raised:
        plan_scenario(document, catalog)
    assert raised.value.errors[0].path == "phases[0].pools.compute.fabric.switch"
    assert "100 Gb/s ports of sn4600c" in raised.value.errors[0].message
