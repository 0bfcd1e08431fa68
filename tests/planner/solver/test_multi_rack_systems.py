"""A system that spans several racks (Huawei CloudMatrix 384: 12 compute racks and 4 racks of
its own scale-up switching, one scale-up domain): its racks, their power and weight, its
internal links on the bill of materials, where its NIC ports are cabled from, and bad input.
examples/cloudmatrix-384.yaml is checked here by hand; GB200 NVL72 stays one rack (its own tests
are unchanged)."""

import csv
import io
from collections import Counter
from pathlib import Path

import pytest
import yaml

from core.solver.errors import ScenarioError
from fabric.solver.cabling import cabling_rows
from handoff.solver.slurm import slurm_nodes
from planner.solver.pipeline import plan_scenario

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = yaml.safe_load((ROOT / "examples" / "cloudmatrix-384.yaml").read_text())

# Published figures (SemiAnalysis, 2025-04-16; Huawei, arXiv 2506.12708).
NPUS_PER_SUPERNODE = 384
SUPERNODE_KW = 559
LPO_MODULES_PER_SUPERNODE = 6_912
SUPERNODE_PRICE_USD = 8_000_000


@pytest.fixture(scope="module")
def plan(catalog):
    return plan_scenario(EXAMPLE, catalog)


def test_the_catalog_entry_carries_the_published_figures(catalog):
    system = catalog.systems["cloudmatrix-384"]
    assert system.gpus == NPUS_PER_SUPERNODE
    assert (system.compute_racks, system.switch_racks) == (12, 4)
    assert system.power_kw == SUPERNODE_KW
    # ~300 PFLOPS dense BF16 over 384 NPUs.
    assert system.gpus * system.dense_bf16_tflops_per_gpu / 1_000 == pytest.approx(300, rel=0.01)
    assert 2 * system.scale_up_links == LPO_MODULES_PER_SUPERNODE
    # 48 nodes of 8 NPUs: 48 trays, 8 compute ports each, 4 nodes a compute rack.
    assert system.compute_trays == 48 and system.nic("compute").count == 384


def test_two_supernodes_fill_sixteen_racks_each(plan):
    # 768 NPUs / 384 = 2 supernodes; 2 x 12 = 24 compute racks, 2 x 4 = 8 switch racks.
    assert (plan.compute.nodes, plan.compute.gpus) == (2, 768)
    assert plan.racks.compute == 24
    compute = [group for group in plan.racks.per_rack if group.kind == "compute"]
    scale_up = [group for group in plan.racks.per_rack if group.fabric == "scale-up"]
    assert sum(group.count for group in compute) == 24
    assert [(group.kind, group.count) for group in scale_up] == [("network", 8)]
    # Each compute rack: (559 - 4 x 20) / 12 = 39.9167 kW, within the 45 kW budget and the 45 kW
    # air cooling; (11,400 - 4 x 600) / 12 = 750 kg. Each switch rack: 20 kW, 600 kg.
    assert [group.it_kw for group in compute] == [pytest.approx((559 - 4 * 20) / 12)]
    assert [group.weight_kg for group in compute] == [pytest.approx(750)]
    assert (scale_up[0].it_kw, scale_up[0].weight_kg) == (20, 600)
    # The racks of the two supernodes draw 2 x 559 kW, the published figure, all in "compute".
    drawn = sum(group.it_kw * group.count for group in compute + scale_up)
    assert drawn == pytest.approx(2 * SUPERNODE_KW)
    assert plan.power.it_kw_by_category["compute"] == pytest.approx(2 * SUPERNODE_KW)


def test_the_internal_links_are_on_the_bill_of_materials(plan):
    lines = {(line.category, line.sku): line for line in plan.bom}
    modules = lines["scale_up", "lpo-400g-dr4"]
    fibres = lines["scale_up", "mpo12-os2"]
    # 2 x 3,456 links: one fibre and two modules each (spares only on network, optics, cables).
    assert (modules.quantity, fibres.quantity, fibres.length_m) == (2 * LPO_MODULES_PER_SUPERNODE, 2 * 3_456, 10)
    # A supernode's price with its internal links: ~USD 8 M (SemiAnalysis), within 5 %.
    per_supernode = (lines["compute", "cloudmatrix-384"].extended_price_usd
                     + modules.extended_price_usd + fibres.extended_price_usd) / 2
    assert per_supernode == pytest.approx(SUPERNODE_PRICE_USD, rel=0.05)
    assert plan.cost.capex_by_category_usd["optics_and_cables"] >= modules.extended_price_usd + fibres.extended_price_usd


def test_each_nic_port_is_cabled_from_the_compute_rack_it_is_in(plan, catalog):
    # 384 compute ports over 12 compute racks: 32 a rack; the first supernode's ports come from
    # the first 12 compute racks on the floor, the second's from the next 12.
    rows = [row for row in cabling_rows(plan, catalog) if row[16] == "compute" and "-node-" in row[3]]
    by_system = {}
    for row in rows:
        by_system.setdefault(row[3], Counter())[row[1]] += 1
    assert len(by_system) == 2
    racks = [set(counter) for counter in by_system.values()]
    assert [len(numbers) for numbers in racks] == [12, 12] and not racks[0] & racks[1]
    assert all(set(counter.values()) == {32} for counter in by_system.values())


def test_slurm_sees_the_48_nodes_of_each_supernode(plan, catalog):
    nodes = slurm_nodes(plan, catalog)
    assert (nodes.count, nodes.per_system) == (96, 48)


def test_gpus_round_up_to_whole_supernodes(catalog):
    plan = plan_scenario({**EXAMPLE, "compute": {"system": "cloudmatrix-384", "gpus": 400}}, catalog)
    assert (plan.compute.nodes, plan.compute.gpus, plan.racks.compute) == (2, 768, 24)
    assert any("rounds up to 2 systems (768 GPUs)" in warning for warning in plan.warnings)


@pytest.mark.parametrize(
    ("racks", "path"),
    [
        ({"cooling": "air", "power_budget_kw": 35}, "racks.power_budget_kw"),
        ({"cooling": "air", "power_budget_kw": 45, "support_power_budget_kw": 15}, "racks.support_power_budget_kw"),
    ],
)
def test_a_rack_too_small_for_its_share_is_refused_on_its_field(catalog, racks, path):
    with pytest.raises(ScenarioError) as raised:
        plan_scenario({**EXAMPLE, "racks": racks}, catalog)
    assert [error.path for error in raised.value.errors] == [path]
    # Judged by one of its racks, not by the whole supernode's 559 kW.
    assert "559" not in raised.value.errors[0].message


CUSTOM = {
    "slug": "two-rack-pod", "name": "Two-rack pod", "price_usd": 1_000_000, "gpus": 64, "power_kw": 100,
    "rack_units": 42, "weight_kg": 2_000, "rack_scale": True, "compute_racks": 2, "switch_racks": 1,
    "switch_rack_kw": 10, "switch_rack_weight_kg": 400, "compute_trays": 16,
    "nics": [{"role": "compute", "count": 64, "gbps": 400}],
}


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"rack_scale": False}, "components.systems[0].rack_scale"),
        ({"compute_trays": 3, "nics": [{"role": "compute", "count": 63, "gbps": 400}]}, "components.systems[0].compute_trays"),
        ({"nics": [{"role": "compute", "count": 64, "gbps": 400}, {"role": "oob", "count": 3, "gbps": 1}]},
         "components.systems[0].nics"),
        ({"switch_rack_kw": 100}, "components.systems[0].switch_rack_kw"),
        ({"scale_up_links": 10}, "components.systems[0].scale_up_links"),
        ({"scale_up_links": 10, "scale_up_transceiver": "no-such-module", "scale_up_cable": "mpo12-os2",
          "scale_up_cable_length_m": 5}, "components.systems[0].scale_up_transceiver"),
    ],
)
def test_a_multi_rack_system_that_does_not_add_up_is_refused_on_its_field(catalog, change, path):
    document = {"name": "custom pod", "compute": {"system": "two-rack-pod", "nodes": 2},
                "components": {"systems": [{**CUSTOM, **change}]}}
    with pytest.raises(ScenarioError) as raised:
        plan_scenario(document, catalog)
    assert path in [error.path for error in raised.value.errors]


def test_a_custom_multi_rack_system_plans(catalog):
    document = {"name": "custom pod", "compute": {"system": "two-rack-pod", "nodes": 3},
                "components": {"systems": [CUSTOM]}, "racks": {"power_budget_kw": 50, "cooling": "rear_door"}}
    plan = plan_scenario(document, catalog)
    # 3 systems x 2 compute racks of (100 - 10) / 2 = 45 kW; 3 switch racks of 10 kW.
    assert plan.racks.compute == 6
    assert {group.it_kw for group in plan.racks.per_rack if group.kind == "compute"} == {45}
    assert sum(group.count for group in plan.racks.per_rack if group.fabric == "scale-up") == 3


@pytest.mark.django_db
def test_the_bom_export_lists_the_supernodes_and_their_modules(api):
    # The example plans from the command line, the API and the form: tests/planner/test_examples.py.
    bom = api.post("/api/v1/plan/export.csv", EXAMPLE, format="json")
    assert bom.status_code == 200
    rows = {row["sku"]: row for row in csv.DictReader(io.StringIO(bom.content.decode()))}
    assert rows["cloudmatrix-384"]["quantity"] == "2"
    assert rows["lpo-400g-dr4"]["quantity"] == str(2 * LPO_MODULES_PER_SUPERNODE)


def test_a_second_supernode_in_a_later_phase(catalog):
    document = {**EXAMPLE, "phases": [
        {"name": "first", "start": "2026-01-01", "pools": {"compute": {"gpus": 384}}},
        {"name": "second", "start": "2026-07-01", "pools": {"compute": {"gpus": 768}}},
    ]}
    plan = plan_scenario(document, catalog)
    final = plan_scenario(EXAMPLE, catalog)
    # growth: final lays out every network and management rack at once (the 8 switch racks, the
    # compute, in-band and oob fabrics' 4, the management rack: 13) and fills the compute racks:
    # one supernode fills 12 of them, two fill 24.
    assert final.racks.total - final.racks.compute == 13
    assert [phase.racks for phase in plan.phases] == [12 + 13, 24 + 13]
    # The first phase buys its supernode's 6,912 modules, the second the other 6,912.
    added = [{line.sku: line.quantity for line in phase.added if line.category == "scale_up"} for phase in plan.phases]
    assert [bought["lpo-400g-dr4"] for bought in added] == [LPO_MODULES_PER_SUPERNODE] * 2


def test_a_switch_rack_beyond_the_network_racks_cooling_is_refused(catalog):
    # 50 kW in one switch rack: within a 60 kW support budget, beyond air's 45 kW.
    document = {"name": "custom pod", "compute": {"system": "two-rack-pod", "nodes": 1},
                "components": {"systems": [{**CUSTOM, "switch_rack_kw": 50}]},
                "racks": {"power_budget_kw": 50, "cooling": "air", "support_power_budget_kw": 60}}
    with pytest.raises(ScenarioError) as raised:
        plan_scenario(document, catalog)
    assert [error.path for error in raised.value.errors] == ["racks.cooling"]
    assert "switch rack draws 50 kW" in raised.value.errors[0].message
