"""CPU time and peak memory of the XLSX workbook of a 100,000-GPU plan (the plan of
`scripts/benchmark.py`'s export timings: dgx-b300, a Quantum-X800 fat tree and three more
fabrics): the plan's data made once, then the workbook made from it.

Run as `.venv/bin/python scripts/benchmark_xlsx.py [--runs N] [--gpus N]`. CPU time is the best
of N runs (time.process_time); peak memory is what Python allocated on top of the plan's data
while making the workbook (tracemalloc, in a run of its own: tracing slows it), and the
process's peak resident size at the end.
"""

import argparse
import os
import resource
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from catalog.rows import catalog_snapshot_from_files
from handoff.exports import plan_export
from planner.solver.pipeline import plan_scenario
from scripts.benchmark import designs, document


def cpu_s(function, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        function()
        best = min(best, time.process_time() - start)
    return best


def peak_mib(function) -> float:
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--gpus", type=int, default=100_000)
    arguments = parser.parse_args()
    catalog = catalog_snapshot_from_files()
    plan = plan_scenario(document(arguments.gpus, next(iter(designs(arguments.gpus).values()))), catalog)
    plan_data = plan.to_dict()

    def workbook() -> bytes:
        return plan_export(plan_data, "xlsx")[0]

    size_kib = len(workbook()) / 1024
    print(f"{arguments.gpus:,} GPUs: workbook {size_kib:,.0f} KiB, load average {os.getloadavg()[0]:.1f}")
    print(f"  CPU, best of {arguments.runs}      {cpu_s(workbook, arguments.runs) * 1000:9.1f} ms")
    print(f"  peak Python memory    {peak_mib(workbook):9.1f} MiB (tracemalloc)")
    print(f"  peak resident size    {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:9.1f} MiB (whole process)")


if __name__ == "__main__":
    main()
