"""A site of several compute pools: each pool's fabric and racks, the shared storage fabric, the
site's totals; the one-pool forms; bad input on its dotted path."""

import math
from pathlib import Path

import pytest
import yaml

from core.solver.errors import ScenarioError
from planner.solver.pipeline import plan_scenario

ROOT = Path(__file__).resolve().parents[3]
TWO_POOLS = yaml.safe_load((ROOT / "examples" / "two-pool-site.yaml").read_text())


@pytest.fixture(scope="module")
def site(catalog):
    return plan_scenario(TWO_POOLS, catalog)


def test_each_pool_has_its_nodes_fabric_and_racks(site):
    training, finetune = site.pools["training"], site.pools["finetune"]
    # training: 512 H100 / 8 a DGX H100 = 64 nodes, 8 x 400G compute NICs each = 512 links.
    # A QM9700 has 64 x 400G ports: a 1:1 leaf has 32 down and 32 up. Leaves = 512 / 32 = 16;
    # their 16 x 32 = 512 uplinks fill 512 / 64 = 8 spines. Links = 512 + 512.
    assert (training.compute.nodes, training.gpus, training.system) == (64, 512, "dgx-h100")
    assert [(tier.role, tier.switches) for tier in training.fabric.tiers] == [("leaf", 16), ("spine", 8)]
    assert (training.fabric.name, training.fabric.switches, training.fabric.links) == ("compute-training", 24, 1024)
    # finetune: 256 A100 / 8 = 32 hgx-a100, 8 x 200G HCAs (rails). A QM8700 has 40 x 200G: 20 down,
    # 20 up. Rail-optimized, a rail's leaf takes 20 nodes: ceil(32 / 20) = 2 leaves a rail x 8 rails
    # = 16 leaves. Spines: the fewest that split a leaf's 20 uplinks evenly and take 16 leaves x
    # 20 / s links on 40 ports: s = 10 (2 links from each leaf, 32 of 40 ports).
    assert (finetune.compute.nodes, finetune.gpus, finetune.system) == (32, 256, "hgx-a100")
    assert [(tier.role, tier.switches) for tier in finetune.fabric.tiers] == [("leaf", 16), ("spine", 10)]
    assert finetune.fabric.links == 32 * 8 + 16 * 20
    # Racks at 41 kW and 42 U: DGX H100 10.2 kW -> floor(41 / 10.2) = 4 a rack, 64 / 4 = 16 racks;
    # hgx-a100 6.5 kW, 6 U -> min(floor(41 / 6.5), floor(42 / 6)) = 6 a rack, ceil(32 / 6) = 6 racks.
    assert (training.racks.nodes_per_rack, training.racks.compute) == (4, 16)
    assert (finetune.racks.nodes_per_rack, finetune.racks.compute, finetune.racks.nodes_in_last_rack) == (6, 6, 2)


def test_the_site_totals_are_the_sums_over_the_pools(site):
    assert (site.compute.gpus, site.compute.nodes, site.compute.total_nodes) == (768, 96, 96)
    assert site.compute.system == "dgx-h100+hgx-a100"
    assert site.racks.compute == 16 + 6
    assert site.racks.total == site.racks.compute + site.racks.network + site.racks.storage + site.racks.management
    assert sum(group.count for group in site.racks.per_rack if group.kind == "compute") == 22
    assert set(site.fabrics) == {"compute-training", "compute-finetune", "storage"}
    # IT kW: the pools' (systems + their compute fabric's switches and optics), then the shared
    # storage fabric's switches and optics, the storage systems and the management equipment.
    storage = site.fabrics["storage"]
    shared_kw = storage.switch_power_kw + sum(storage.optics_power_kw_by_device.values())
    by_category = site.power.it_kw_by_category
    pools_kw = sum(pool.power.it_kw for pool in site.pools.values())
    assert site.power.it_kw == pytest.approx(pools_kw + shared_kw + by_category["storage"] + by_category["management"])
    # Each pool's: 64 x 10.2 kW + 24 QM9700 x 0.75 kW + the modules in their ports.
    training_fabric = site.fabrics["compute-training"]
    assert site.pools["training"].power.it_kw == pytest.approx(
        64 * 10.2 + 24 * 0.75 + training_fabric.optics_power_kw_by_device["qm9700"])
    assert by_category["compute"] == pytest.approx(64 * 10.2 + 32 * 6.5)


def test_one_storage_fabric_serves_both_pools(site):
    storage = site.fabrics["storage"]
    systems = sum(tier.systems for tier in site.storage.tiers)
    # 64 DGX H100 x 2 storage NICs + 32 hgx-a100 x 1 + each storage system's 4 ports.
    links = 64 * 2 + 32 * 1 + systems * 4
    assert storage.endpoints == 64 + 32 + systems
    assert storage.endpoint_links == links
    # QM9700 at 400G: 32 down a leaf -> ceil(links / 32) leaves, rounded to whole rails (2).
    leaves = math.ceil(math.ceil(links / 32) / 2) * 2
    assert (storage.tiers[0].role, storage.tiers[0].switches) == ("leaf", leaves)


def test_the_bom_has_every_pools_systems_and_switches(site):
    quantities = {line.sku: line.quantity for line in site.bom}
    assert (quantities["dgx-h100"], quantities["hgx-a100"]) == (64, 32)
    switches = sum(tier.switches for fabric in site.fabrics.values() for tier in fabric.tiers if tier.switch == "qm9700")
    assert quantities["qm9700"] >= switches  # plus the spares percentage
    assert quantities["qm8700"] >= 26
    assert site.cost.capex_usd > 0 and site.to_dict()["pools"]["finetune"]["fabric"]["tiers"][1]["switches"] == 10


def test_warnings_name_their_pool(site):
    assert any(warning.startswith("Pool finetune: The last compute rack holds 2 of 6") for warning in site.warnings)
    assert any("the pools' spare_nodes add up to 0" in warning for warning in site.warnings)
    assert not any("compute.spare_nodes" in warning for warning in site.warnings)


def test_one_pool_plans_as_its_compute_form(catalog):
    shorthand = yaml.safe_load((ROOT / "examples" / "dgx-h100-4su.yaml").read_text())
    pooled = {key: value for key, value in shorthand.items() if key != "compute"}
    pooled["fabrics"] = {name: spec for name, spec in shorthand["fabrics"].items() if name != "compute"}
    pooled["pools"] = [{"name": "training", **shorthand["compute"], "fabric": shorthand["fabrics"]["compute"]}]
    plain, pool = plan_scenario(shorthand, catalog).to_dict(), plan_scenario(pooled, catalog).to_dict()
    assert "pools" not in plain
    assert pool["pools"]["training"]["compute"] == plain["compute"]
    assert pool["pools"]["training"]["fabric"]["name"] == "compute"
    assert pool["pools"]["training"]["racks"]["compute"] == plain["racks"]["compute"]
    for key in ("inputs", "pools"):
        pool.pop(key), plain.pop(key, None)
    assert pool == plain


def test_a_lone_pool_keeps_the_sites_shared_compute_fabric(catalog):
    """One pool that names no fabric joins fabrics.compute, as a pool of a larger site does (the
    first phase of the mixed-generation example): 25 HGX A100 of 8 x 200G on QM9700 (ports split
    to 2 x 200G, 128 down links a leaf at 1:1): 8 rails, one leaf each, 25 links a leaf; 25 x 200G
    go up at the native 400G: 12 uplinks (12.5 rounded down), 96 leaf-spine links on
    ceil(96 / 64) = 2 spines. Before, the lone pool was planned with no compute fabric at all."""
    document = {
        "name": "one pool on the site's fabric",
        "pools": [{"name": "a100", "system": "hgx-a100", "gpus": 200}],
        "racks": {"power_budget_kw": 41},
        "fabrics": {"compute": {"switch": "qm9700"}},
    }
    plan = plan_scenario(document, catalog)
    fabric = plan.fabrics["compute"]
    assert [(tier.role, tier.switches) for tier in fabric.tiers] == [("leaf", 8), ("spine", 2)]
    assert [(link.segment, link.count, link.gbps) for link in fabric.links] == [
        ("node-leaf", 200, 200), ("leaf-spine", 96, 400)]
    assert plan.pools["a100"].fabric is not None


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda doc: doc["pools"][1].update(name="training"), "pools[1].name"),
        (lambda doc: doc["pools"][0].update(name="Training zone"), "pools[0].name"),
        (lambda doc: doc["pools"][0].pop("gpus"), "pools[0].gpus"),
        (lambda doc: doc["pools"][0].update(nodes=8), "pools[0].gpus"),
        (lambda doc: doc["pools"][0].update(system="dgx-h1000"), "pools[0].system"),
        (lambda doc: doc["pools"][1]["fabric"].update(switch="qm870"), "pools[1].fabric.switch"),
        # 400G DGX H100 NICs on a 200G switch: the fabric engine's error, on the pool's path.
        (lambda doc: doc["pools"][0]["fabric"].update(switch="qm8700"), "pools[0].fabric.switch"),
        (lambda doc: doc.update(compute={"system": "dgx-h100", "gpus": 8}), "pools"),
        (lambda doc: doc.update(pools=[]), "pools"),
        (lambda doc: doc.pop("pools"), "compute"),
        (lambda doc: doc.update(workload={"parameters_billion": 70, "tokens_trillion": 2}), "workload"),
        (lambda doc: doc["fabrics"].update(compute={"switch": "qm9700"}), "fabrics.compute"),
        (lambda doc: doc.update(inference=yaml.safe_load(
            (ROOT / "examples" / "llama-70b-inference.yaml").read_text())["inference"]), "inference"),
        (lambda doc: doc["pools"][0].update(nics=[{"role": "storage", "count": 1, "gbps": 400}] * 2),
         "pools[0].nics"),
    ],
)
def test_bad_pools_are_named_by_their_path(catalog, change, path):
    document = yaml.safe_load((ROOT / "examples" / "two-pool-site.yaml").read_text())
    change(document)
    with pytest.raises(ScenarioError) as caught:
        plan_scenario(document, catalog)
    assert path in caught.value.as_dict(), caught.value.as_dict()


def test_pools_of_two_generations_share_the_sites_compute_fabric(catalog):
    """A100 nodes with 200 Gb/s HCAs beside H100 nodes under one set of 400G spines: the pools
    leave out their own fabric and join fabrics.compute."""
    document = yaml.safe_load((ROOT / "examples" / "two-pool-site.yaml").read_text())
    for pool in document["pools"]:
        pool.pop("fabric")
    document["fabrics"]["compute"] = {"switch": "qm9700", "topology": "fat_tree", "leaf_placement": "rail_optimized"}
    plan = plan_scenario(document, catalog)
    assert "compute" in plan.fabrics and not any(name.startswith("compute-") for name in plan.fabrics)
    fabric = plan.fabrics["compute"]
    # H100: 512 / 8 = 64 nodes x 8 NICs = 512 links at 400G; A100: 256 / 8 = 32 nodes x 8 HCAs =
    # 256 links at 200G, each on a 400G port. A QM9700 leaf at 1:1 has 32 down and 32 up ports:
    # 512 / 32 + 256 / 32 = 16 + 8 = 24 leaves and 24 x 32 = 768 uplinks. Spines: the fewest that
    # split a leaf's 32 uplinks evenly and take 768 / s links on 64 ports: s >= 12 and s divides
    # 32, so s = 16 (2 links from each leaf, 48 of 64 ports).
    assert [(link.from_, link.to, link.count, link.gbps) for link in fabric.links][:2] == [
        ("node", "leaf", 512, 400), ("hgx-a100", "leaf", 256, 200)]
    assert [(tier.role, tier.switches) for tier in fabric.tiers] == [("leaf", 24), ("spine", 16)]
    assert sum(link.count for link in fabric.links if link.to == "spine") == 24 * 32
    assert all(pool.fabric.name == "compute" for pool in plan.pools.values())
    # The shared fabric is the site's: the pools' power is their systems alone.
    assert plan.pools["training"].power.it_kw == pytest.approx(64 * catalog.systems["dgx-h100"].power_kw)
    # A fabrics.compute that no pool shares is refused.
    document["pools"][0]["fabric"] = {"switch": "qm9700"}
    document["pools"][1]["fabric"] = {"switch": "qm8700"}
    with pytest.raises(ScenarioError) as caught:
        plan_scenario(document, catalog)
    assert "fabrics.compute" in caught.value.as_dict()


def test_a_one_pool_error_is_on_the_pools_path(catalog):
    document = {"name": "one", "pools": [{"name": "solo", "system": "dgx-h100", "gpus": 64,
                                          "fabric": {"switch": "qm8700"}}]}
    with pytest.raises(ScenarioError) as caught:
        plan_scenario(document, catalog)
    assert "pools[0].fabric.switch" in caught.value.as_dict()


def test_a_pool_sized_by_its_workload(catalog):
    document = yaml.safe_load((ROOT / "examples" / "two-pool-site.yaml").read_text())
    document["pools"][1] = {"name": "finetune", "system": "hgx-a100", "fabric": {"switch": "qm8700"},
                            "workload": {"parameters_billion": 8, "tokens_trillion": 0.1, "days": 10}}
    plan = plan_scenario(document, catalog)
    # 6 x 8e9 x 1e11 FLOPs / (312 TFLOPS x 0.4 MFU x 10 days x 86,400 s) = 44.5 -> 45 GPUs, 6 nodes.
    gpus = math.ceil(6 * 8e9 * 1e11 / (312e12 * 0.4 * 10 * 86_400))
    assert plan.pools["finetune"].compute.nodes == math.ceil(gpus / 8)
    assert plan.pools["finetune"].workload.training_days <= 10


TRAINING_AND_INFERENCE = yaml.safe_load((ROOT / "examples" / "training-and-inference-site.yaml").read_text())


def test_an_inference_pool_is_sized_by_its_load_beside_a_training_pool(catalog):
    plan = plan_scenario(TRAINING_AND_INFERENCE, catalog)
    serving = plan.pools["serving"].inference
    # Llama 3.1 70B in FP8: weights 70e9 x 1 B = 70 GB; KV cache 2 x 80 layers x 8 heads x 128 x 1 B
    # = 163,840 B a token. In flight (Little's law): 200 requests/s x (2 s to the first token +
    # 400 tokens x 0.040 s) = 3,600 sequences of 2,400 tokens: 163,840 x 2,400 x 3,600 B = 1,415.6 GB.
    kv_gb = 163_840 * 2_400 * 3_600 / 1e9
    assert (serving.weights_gb, serving.concurrent_sequences) == (70, 3_600)
    assert serving.kv_cache_gb == pytest.approx(kv_gb)
    # DGX H200: 141 GB x 0.9 usable = 126.9 GB a GPU; the weights fit one GPU (1.1 x 70 < 126.9),
    # so a replica is one GPU. Replicas r: 1.1 x (70 r + 1,415.6) <= 126.9 r -> r >= 31.2 -> 32.
    replicas = math.ceil(1.1 * kv_gb / (126.9 - 1.1 * 70))
    assert (serving.gpus_per_replica, serving.gpus_for_memory) == (1, replicas) == (1, 32)
    # Throughput: 200 x 400 = 80,000 tokens/s at TPOT 40 ms, TTFT 2 s: H200's interactive point (MLPerf
    # v5.0 llama2-70b-interactive, TTFT <= 450 ms, TPOT <= 40 ms) is the loosest the targets meet (the
    # server point's 200 ms is not): 19,424.25 / 8 = 2,428.0 a GPU, a third under the server point's
    # 3,653.5: 32.9 -> 33 GPUs (2-GPU replicas: memory 18, throughput 34). Throughput binds: 33 GPUs,
    # 5 DGX H200.
    assert serving.tokens_per_s_per_gpu == pytest.approx(19_424.25 / 8)
    assert serving.operating_point == "h200-llama2-70b-interactive-v5.0"
    assert serving.gpus_for_throughput == math.ceil(80_000 / (19_424.25 / 8)) == 33
    assert serving.binds == "throughput"
    assert (plan.pools["serving"].compute.nodes, plan.pools["serving"].gpus) == (5, 40)
    # The site: 1,024 H100 (128 DGX H100) + 40 H200.
    assert (plan.compute.nodes, plan.compute.gpus) == (128 + 5, 1_024 + 40)
    assert plan.pools["training"].inference is None


def test_an_inference_pool_carries_its_share_of_the_site_tco_per_million_tokens(catalog):
    plan = plan_scenario(TRAINING_AND_INFERENCE, catalog)
    serving = plan.pools["serving"].inference
    # The pool's share of the TCO: its 5 DGX H200's price over every system's (128 DGX H100 too)
    h100, h200 = catalog.systems["dgx-h100"], catalog.systems["dgx-h200"]
    share = plan.cost.tco_usd * 5 * h200.price_usd / (5 * h200.price_usd + 128 * h100.price_usd)
    # over 33 GPUs × 2,428.0 tokens/s × 0.6 (the default utilisation) × 3,600 × 8,760 × 5 years
    served = 33 * 19_424.25 / 8 * 0.6 * 3_600 * 8_760 * plan.inputs.finance.years
    assert serving.usd_per_million_output_tokens == pytest.approx(share / served * 1e6)
    assert plan.cost.usd_per_million_output_tokens == pytest.approx(serving.usd_per_million_output_tokens)


def test_an_inference_pool_error_is_on_the_pools_path(catalog):
    document = yaml.safe_load((ROOT / "examples" / "training-and-inference-site.yaml").read_text())
    # 70 GB of weights read per token over 8 x 4.8 TB/s take at least 1.8 ms: 1 ms cannot be met.
    document["pools"][1]["inference"]["time_per_output_token_ms"] = 1
    with pytest.raises(ScenarioError) as caught:
        plan_scenario(document, catalog)
    assert "pools[1].inference.time_per_output_token_ms" in caught.value.as_dict()
    document["pools"][1]["inference"]["time_per_output_token_ms"] = 40
    document["pools"][1]["gpus"] = 64
    with pytest.raises(ScenarioError) as caught:
        plan_scenario(document, catalog)
    assert "pools[1].gpus" in caught.value.as_dict()


def test_the_shorthand_is_one_pool_named_compute():
    from planner.solver.scenario import read_scenario, scenario_pools

    scenario = read_scenario({"name": "s", "compute": {"system": "dgx-h100", "gpus": 16, "spare_nodes": 1},
                              "fabrics": {"compute": {"switch": "qm9700"}}})
    (pool,) = scenario_pools(scenario)
    assert (pool.name, pool.system, pool.gpus, pool.spare_nodes, pool.fabric.switch) == (
        "compute", "dgx-h100", 16, 1, "qm9700")


def test_the_cabling_plan_places_each_pools_systems_in_its_own_racks(site, catalog):
    """examples/two-pool-site.yaml: the 64 DGX H100 fill the first 16 compute racks (4 a rack),
    so the first A100 system stands in the 17th compute rack; its 8 HCAs go to the finetune
    fabric's leaves, its storage NIC to the shared storage fabric; the BOM's cables are the
    rows."""
    from collections import Counter

    from fabric.solver.cabling import PlanCabling, cabling_rows

    cabling = PlanCabling(site, catalog)
    first_a100 = cabling.node(64)
    assert first_a100.rack == cabling.racks.number("compute", 16)
    assert cabling.node(63).rack == cabling.racks.number("compute", 15)
    rows = list(cabling_rows(site, catalog))
    own = [row for row in rows if row[3] == first_a100.device]
    assert Counter(row[16] for row in own) == {"compute-finetune": 8, "storage": 1}
    assert all(row[7].split("-")[1] == "leaf" for row in own)
    laid = Counter(row[10] for row in rows if row[10])
    bought = Counter()
    for line in site.bom:
        if line.category == "cables":
            bought[line.sku] += line.quantity - line.spares
    assert bought == laid
