"""How long the hand-off exports take (issue 15): Slurm topology (tree, YAML, blocks), the UFM
point-to-point workbook and the NetBox bundle, for the 4-SU DGX H100 SuperPOD example, a
16,384-GPU DGX H100 plan (2,048 systems, 3-tier rail-optimized NDR) and 16 GB200 NVL72 racks;
with the plan's cables and each file's size.

Run as `.venv/bin/python scripts/benchmark_handoff.py [--runs N]`. Prints the best of N runs of
each (a benchmark, not a timed test: the figures depend on the machine).
"""

import argparse
import os
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from catalog.rows import catalog_snapshot_from_files
from handoff.export_jobs import plan_cable_count
from handoff.exports import HANDOFF_EXPORTS, export_available, plan_export_of
from planner.solver.pipeline import plan_scenario

H100_16K = {
    "name": "DGX H100, 16k GPUs", "compute": {"system": "dgx-h100", "nodes": 2048},
    "fabrics": {"compute": {"switch": "qm9700", "topology": "fat_tree", "leaf_placement": "rail_optimized",
                            "tiers": 3}},
}


def documents() -> dict[str, dict]:
    nvl72 = yaml.safe_load((ROOT / "examples" / "gb200-nvl72-liquid-facility.yaml").read_text())
    nvl72["fabrics"] = {"compute": {"switch": "qm9700", "topology": "fat_tree", "leaf_placement": "rail_optimized",
                                    "tiers": 2}}
    return {
        "4-SU DGX H100 (1,024 GPUs)": yaml.safe_load((ROOT / "examples" / "dgx-h100-4su.yaml").read_text()),
        "DGX H100 3-tier (16,384 GPUs)": H100_16K,
        "GB200 NVL72 x 16 (1,152 GPUs)": nvl72,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    catalog = catalog_snapshot_from_files()
    for title, document in documents().items():
        plan = plan_scenario(document, catalog)
        print(f"{title}: {plan_cable_count(plan):,} cables")
        for export_format in HANDOFF_EXPORTS:
            if not export_available(plan, export_format, catalog):
                continue
            best = float("inf")
            for _ in range(runs):
                start = time.perf_counter()
                content, _, _ = plan_export_of(plan, export_format, catalog=catalog)
                best = min(best, time.perf_counter() - start)
            print(f"  {export_format:<12} {best * 1000:9.1f} ms  {len(content) / 1e6:8.2f} MB")


if __name__ == "__main__":
    main()
