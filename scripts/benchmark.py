"""How long plans take at 1k, 10k, 100k and 1M GPUs: the whole pipeline, the compute fabric alone,
and racks, floor, power and cooling alone (with every fabric's switches); then the bill of
materials, cost and exports, the cabling plan streamed (rows per second and peak memory) and
the workspace pages at 100k GPUs.

Run as `.venv/bin/python scripts/benchmark.py [--runs N]`. Prints the best of N runs of each
(a benchmark, not a timed test: the figures depend on the machine).

`scripts/benchmark.py --against REF [--runs N]` times the same plans on a git ref and on the
working tree, interleaved in one run, and prints their CPU times and ratios with the load
average (`scripts/side_by_side.py`): on a shared machine, ratios measured side by side are what
to compare, not absolute times.
"""

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from catalog.rows import catalog_snapshot_from_files  # noqa: E402
from core.solver.errors import ScenarioError  # noqa: E402
from core.solver.part_counts import PartCount  # noqa: E402
from fabric.solver.cabling import PlanCabling  # noqa: E402
from fabric.solver.cabling_counts import counted_fabrics  # noqa: E402
from fabric.solver.endpoints import system_endpoints  # noqa: E402
from fabric.solver.fabric import plan_fabric  # noqa: E402
from planner.solver.pipeline import plan_scenario, validate_scenario  # noqa: E402
from planner.solver.rounds import optics_kw_by_device  # noqa: E402
from power.solver.power_plan import RackDemand, racks_and_power  # noqa: E402

GPU_COUNTS = (1_000, 10_000, 100_000, 1_000_000)
SYSTEM = "dgx-b300"
"""8 GPUs and 8 x 800G compute NICs per node."""


def designs(gpus: int) -> dict[str, dict]:
    """Compute fabrics to time: a Quantum-X800 fat tree (3:1 leaves at 1M GPUs, where a
    non-blocking three-tier tree of 144-port switches stops at 746,496 links) and a dragonfly."""
    fat_tree = {"switch": "q3400", "topology": "fat_tree"}
    if gpus > 746_496:
        fat_tree["oversubscription"] = 3
    return {
        "fat tree, q3400" + (" 3:1" if gpus > 746_496 else ""): fat_tree,
        "dragonfly, q3400": {"switch": "q3400", "topology": "dragonfly"},
    }


def document(gpus: int, fabric: dict) -> dict:
    return {
        "name": f"{gpus:,} GPUs",
        "compute": {"system": SYSTEM, "gpus": gpus},
        "racks": {"power_budget_kw": 130, "cooling": "direct_liquid"},
        "fabrics": {
            "compute": fabric,
            # 144-port switches: at 1M GPUs the 250,000 storage links pass 64-port three-tier reach
            "storage": {"switch": "q3400"},
            "inband": {"switch": "q3400"},
            "oob": {"switch": "sn2201", "spine_switch": "sn5600"},
        },
    }


def side_by_side_cases() -> list[tuple[str, dict, str]]:
    """(label, document, measure) of the cases `--against` times on both sides."""
    import yaml
    from benchmark_sweep import sweep_document

    cases = [(f"{gpus:>9,} GPUs, {SYSTEM}, four fabrics", document(gpus, next(iter(designs(gpus).values()))), "plan")
             for gpus in GPU_COUNTS]
    cases.append(("   10,000 GPUs, GB200 NVL72, rail-optimized", {
        "name": "GB200 NVL72", "compute": {"system": "gb200-nvl72", "gpus": 10_008},
        "racks": {"power_budget_kw": 140, "cooling": "direct_liquid"},
        "fabrics": {"compute": {"switch": "qm9700"}, "oob": {"switch": "sn2201", "spine_switch": "sn5600"}},
    }, "plan"))
    cases.append(("   10,000 GPUs, HGX H100, top-of-rack Ethernet", {
        "name": "top of rack", "compute": {"system": "hgx-h100", "gpus": 10_000},
        "racks": {"power_budget_kw": 41, "cooling": "air"},
        "fabrics": {"compute": {"switch": "sn5600", "leaf_placement": "top_of_rack"}},
    }, "plan"))
    for example in ("two-pool-site", "three-phase-expansion"):
        cases.append((f"example {example}", yaml.safe_load((ROOT / "examples" / f"{example}.yaml").read_text()), "plan"))
    cabled = document(100_000, designs(100_000)["fat tree, q3400"])
    cases += [("  100,000 GPUs, cabling plan rows", cabled, "cabling"),
              ("  100,000 GPUs, cabling CSV export", cabled, "cabling-csv")]
    cases += [(f"{gpus:>9,} GPUs, API round trip (POST plan)", document(gpus, designs(gpus)["fat tree, q3400"]), "api")
              for gpus in (1_000, 100_000)]
    cases.append(("sweep of 400 designs (benchmark_sweep.py)", sweep_document(5), "sweep"))
    return cases


def best_ms(function, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs of each, the best is printed")
    runs = parser.parse_args().runs
    catalog = catalog_snapshot_from_files()
    print(f"{SYSTEM}, best of {runs} runs (ms)")
    print(f"{'GPUs':>10}  {'compute fabric':<22} {'fabric alone':>13} {'racks+power':>12} "
          f"{'cables':>8} {'whole plan':>11}  switches  links  racks")
    for gpus in GPU_COUNTS:
        for label, fabric in designs(gpus).items():
            doc = document(gpus, fabric)
            try:
                scenario, full_catalog = validate_scenario(doc, catalog)
                system = full_catalog.systems[SYSTEM]
                nodes = -(-gpus // system.gpus)
                endpoints = [system_endpoints(system, nodes, "compute")]
                spec = scenario.fabrics.compute
                result = plan_fabric("compute", spec, endpoints, full_catalog, gpus_per_node=system.gpus)
                fabric_ms = best_ms(
                    lambda: plan_fabric("compute", spec, endpoints, full_catalog, gpus_per_node=system.gpus), runs
                )
                plan_ms = best_ms(lambda: plan_scenario(doc, catalog), runs)
                plan = plan_scenario(doc, catalog)
                groups = [group for fabric in plan.fabrics.values() for group in fabric.switch_groups()]
                optics_kw = optics_kw_by_device(plan.fabrics)

                def facility():
                    demand = RackDemand.of(nodes, system, scenario.racks, switch_groups=groups,
                                           optics_kw_by_switch=optics_kw)
                    return racks_and_power(demand, scenario.facility, full_catalog)

                racks_ms = best_ms(facility, runs)
                cables_ms = best_ms(lambda: counted_fabrics(PlanCabling(plan, full_catalog)), runs)
                racks = facility().racks.total
            except ScenarioError as error:
                print(f"{gpus:>10,}  {label:<22} {'-':>13} {'-':>12} {'-':>8} {'-':>11}  {error}")
                continue
            switches = sum(tier.switches for tier in result.tiers)
            links = sum(link.count for link in result.links)
            print(
                f"{gpus:>10,}  {label:<22} {fabric_ms:>13.3f} {racks_ms:>12.2f} {cables_ms:>8.1f} {plan_ms:>11.2f}  "
                f"{switches:>8,}  {links:,}  {racks:,}"
            )


def export_timings(runs: int) -> None:
    """The bill of materials and cost, and each export, of a 100,000-GPU plan."""
    from handoff.exports import plan_export
    from planner.solver.bom import bom_lines
    from planner.solver.tco import cost_of_ownership

    catalog = catalog_snapshot_from_files()
    gpus = 100_000
    doc = document(gpus, designs(gpus)["fat tree, q3400"])
    plan = plan_scenario(doc, catalog)
    scenario, full_catalog = validate_scenario(doc, catalog)
    counts = [
        PartCount(line.category, line.sku, line.quantity - line.spares) for line in plan.bom
    ]

    def bom_and_cost():
        bom = bom_lines(counts, full_catalog, scenario.prices, scenario.finance.spares_percent)
        cost_of_ownership(
            bom=bom, finance=scenario.finance, gpus=plan.compute.gpus, it_kw=plan.power.it_kw,
            annual_energy_kwh=plan.power.annual_energy_mwh * 1000, electricity_usd_per_kwh=0.08,
        )

    plan_dict = plan.to_dict()
    print(f"\nBill of materials, cost and exports at {gpus:,} GPUs ({SYSTEM}), best of {runs} runs (ms)")
    print(f"  BOM ({len(plan.bom)} lines) and cost   {best_ms(bom_and_cost, runs):9.2f}")
    print(f"  plan to plain data           {best_ms(plan.to_dict, runs):9.2f}")
    for export_format in ("json", "csv", "xlsx"):
        size_kb = len(plan_export(plan_dict, export_format)[0]) / 1024
        elapsed = best_ms(lambda: plan_export(plan_dict, export_format), runs)
        print(f"  {export_format:<5} export ({size_kb:7.1f} KiB)   {elapsed:9.2f}")


def cabling_timings(runs: int) -> None:
    """The point-to-point cabling plan streamed at 1,000 and 100,000 GPUs: rows per second (rows
    alone, and as CSV lines) and the peak memory [tracemalloc] while streaming the CSV."""
    import tracemalloc

    from fabric.solver.cabling import cabling_rows
    from handoff.exports import plan_export_lines

    catalog = catalog_snapshot_from_files()
    runs = min(runs, 3)
    print(f"\nCabling plan ({SYSTEM}, every fabric), best of {runs} runs")
    print(f"{'GPUs':>10}  {'cables':>9}  {'rows/s':>10}  {'CSV lines/s':>11}  {'Parquet rows/s':>14}  "
          f"{'peak memory (KiB)':>17}")
    for gpus in (1_000, 100_000):
        plan = plan_scenario(document(gpus, designs(gpus)["fat tree, q3400"]), catalog)
        cables = sum(link.count for fabric in plan.fabrics.values() for link in fabric.links)

        def rows(plan=plan):
            for _ in cabling_rows(plan, catalog):
                pass

        def lines(plan=plan, export_format="cabling"):
            for _ in plan_export_lines(plan, export_format, catalog)[0]:
                pass

        rows_s = best_ms(rows, runs) / 1000
        lines_s = best_ms(lines, runs) / 1000
        parquet_s = best_ms(lambda plan=plan: lines(plan, "cabling-parquet"), runs) / 1000
        tracemalloc.start()
        lines()
        peak_kib = tracemalloc.get_traced_memory()[1] / 1024
        tracemalloc.stop()
        print(f"{gpus:>10,}  {cables:>9,}  {cables / rows_s:>10,.0f}  {cables / lines_s:>11,.0f}  "
              f"{cables / parquet_s:>14,.0f}  {peak_kib:>17,.0f}")


def workspace_timings(runs: int) -> None:
    """Server-side time of the workspace at 100,000 GPUs: the plan dashboard page, and one
    recompute round trip of the editor (the htmx preview), through Django's test client on a
    throw-away test database."""
    import json

    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from catalog.rows import catalog_snapshot
    from planner.services import scenario_create
    from workspace.editor.form import ScenarioEditor

    # No setup_test_environment(): its template instrumentation would be timed too.
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        call_command("loadcatalog", verbosity=0)
        user = get_user_model().objects.create_user("benchmark")
        gpus = 100_000
        doc = document(gpus, designs(gpus)["fat tree, q3400"])
        scenario = scenario_create(owner=user, document=doc)
        client = Client()
        client.force_login(user)
        editor = ScenarioEditor(doc, catalog_snapshot())
        form = {"document": json.dumps(doc), "base_revision": "1"}
        for section in editor.sections:
            if section.optional and section.included:
                form[section.include_name] = "on"
            for field in section.fields:
                if field.widget != "rows":
                    form[field.path] = "true" if field.checked else field.value
        form["compute.gpus"] = str(gpus + 8)

        def dashboard():
            assert client.get(f"/scenarios/{scenario.pk}/").status_code == 200

        def preview():
            assert client.post("/scenarios/preview/", form).status_code == 200

        print(f"\nWorkspace at {gpus:,} GPUs ({SYSTEM}), best of {runs} runs (ms)")
        print(f"  plan dashboard page        {best_ms(dashboard, runs):9.1f}")
        print(f"  editor recompute (preview) {best_ms(preview, runs):9.1f}")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    against = argparse.ArgumentParser(add_help=False)
    against.add_argument("--against")
    against.add_argument("--runs", type=int, default=7)
    asked = against.parse_known_args()[0]
    if asked.against:
        from side_by_side import compare

        compare(ROOT, asked.against, side_by_side_cases(), asked.runs)
        sys.exit(0)
    main()
    runs_parser = argparse.ArgumentParser(add_help=False)
    runs_parser.add_argument("--runs", type=int, default=7)
    extra_runs = runs_parser.parse_known_args()[0].runs
    export_timings(extra_runs)
    cabling_timings(extra_runs)
    workspace_timings(extra_runs)
