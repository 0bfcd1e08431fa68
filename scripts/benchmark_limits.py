"""The biggest plans the work limits allow (planner/solver/limits.py), one per compute fabric
topology, with every fabric: how long the plan takes and the memory it needs, then the cabling
plan streamed as a request streams it and written zipped as a background job writes it.

Run as `.venv/bin/python scripts/benchmark_limits.py [--rows N]`.

`--calibrate` instead plans a spread of documents (1 to 100 pools, 1 to 50 phases, 1k to 10 M
GPUs, with and without fabrics) in this process, measures each plan's CPU time, and fits the
work estimate's coefficients (`planner.solver.limits.CPU_S_PER_*`) to them by non-negative least
squares; it prints the fit and each document's estimated and measured seconds. Each plan runs in a process
of its own, so that its peak memory (resident set) is its own. Times are CPU seconds of that
process (what it would take on an idle core) and wall seconds. `--rows` stops the cabling plan
after N rows (default: all of them, about two minutes per topology).
"""

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SYSTEM = "dgx-b300"
TOPOLOGIES = ("fat_tree", "rail_only", "dragonfly")


def document(nodes: int, topology: str) -> dict:
    compute = {"switch": "q3400", "topology": topology}
    if topology == "fat_tree":
        # Past 746,496 links a non-blocking three-tier tree of 144-port switches ends.
        compute["oversubscription"] = 3
    return {
        "name": f"{topology} limit",
        "compute": {"system": SYSTEM, "nodes": nodes},
        "racks": {"power_budget_kw": 130, "cooling": "direct_liquid"},
        "fabrics": {"compute": compute, "storage": {"switch": "q3400"}, "inband": {"switch": "q3400"},
                    "oob": {"switch": "sn2201", "spine_switch": "sn5600"}},
    }


def largest_allowed_nodes(topology: str) -> int:
    """The most systems whose document passes validation and the work limits (a bisection over
    the limits check, which costs milliseconds)."""
    from catalog.rows import catalog_snapshot_from_files
    from core.solver.errors import ScenarioError
    from planner.solver.limits import check_work_limits
    from planner.solver.pipeline import validate_scenario

    catalog = catalog_snapshot_from_files()

    def allowed(nodes: int) -> bool:
        try:
            check_work_limits(*validate_scenario(document(nodes, topology), catalog))
        except ScenarioError:
            return False
        return True

    low, high = 1, 2_000_000
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if allowed(middle) else (low, middle - 1)
    return low


def measure(nodes: int, topology: str, rows_limit: int | None) -> dict:
    """In this process: the plan, then its cabling plan streamed, then written zipped."""
    import tempfile

    from catalog.rows import catalog_snapshot_from_files
    from handoff.export_jobs import plan_cable_count
    from handoff.exports import plan_export_lines
    from planner.solver.pipeline import plan_scenario

    catalog = catalog_snapshot_from_files()
    started_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    cpu, wall = time.process_time(), time.perf_counter()
    plan = plan_scenario(document(nodes, topology), catalog)
    figures = {
        "topology": topology, "gpus": plan.compute.gpus, "cables": plan_cable_count(plan),
        "racks": plan.racks.total, "plan_cpu_s": time.process_time() - cpu,
        "plan_wall_s": time.perf_counter() - wall,
        "plan_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - started_rss_mb,
    }
    cpu, wall, size, rows = time.process_time(), time.perf_counter(), 0, 0
    for lines in plan_export_lines(plan, "cabling", catalog)[0]:
        size += len(lines)
        rows += lines.count("\n")
        if rows_limit and rows > rows_limit:
            break
    figures.update(stream_rows=rows - 1, stream_mb=size / 1e6, stream_cpu_s=time.process_time() - cpu,
                   stream_wall_s=time.perf_counter() - wall,
                   after_stream_rss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - started_rss_mb)
    cpu, wall = time.process_time(), time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "cabling.zip"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
            with archive.open("cabling.csv", "w", force_zip64=True) as member:
                rows = 0
                for lines in plan_export_lines(plan, "cabling", catalog)[0]:
                    member.write(lines.encode())
                    rows += lines.count("\n")
                    if rows_limit and rows > rows_limit:
                        break
        figures.update(zip_cpu_s=time.process_time() - cpu, zip_wall_s=time.perf_counter() - wall,
                       zip_mb=path.stat().st_size / 1e6)
    return figures


def calibration_documents() -> dict[str, dict]:
    """Documents whose plan times span the estimate's figures: plans, cables, racks and rows."""
    fabrics = {"compute": {"switch": "q3400"}, "oob": {"switch": "sn2201", "spine_switch": "sn5600"}}

    def pools(count: int, gpus: int, own: bool = False) -> dict:
        site = {"oob": fabrics["oob"]} if own else fabrics
        return {"name": "pools", "fabrics": site, "pools": [
            {"name": f"p{index}", "system": SYSTEM, "gpus": gpus, **({"fabric": {"switch": "q3400"}} if own else {})}
            for index in range(count)]}

    def phases(count: int, gpus: int) -> dict:
        return {"name": "phases", "fabrics": fabrics, "growth": "per_phase",
                "pools": [{"name": "compute", "system": SYSTEM, "gpus": gpus}],
                "phases": [{"name": f"f{index}", "start": f"{2026 + index // 12}-{index % 12 + 1:02d}-01",
                            "pools": {"compute": {"gpus": max(8, gpus * (index + 1) // count)}}}
                           for index in range(count)]}

    documents = {f"{gpus:,} GPUs": {"name": "one", "compute": {"system": SYSTEM, "gpus": gpus}, "fabrics": fabrics}
                 for gpus in (1_000, 10_000, 100_000, 300_000)}
    documents.update({f"{gpus:,} GPUs, no fabric": {"name": "bare", "compute": {"system": SYSTEM, "gpus": gpus}}
                      for gpus in (100_000, 1_000_000, 10_000_000)})
    documents["1,000,000 GPUs, rows of 2"] = {"name": "rows", "compute": {"system": SYSTEM, "gpus": 1_000_000},
                                              "racks": {"racks_per_row": 2}}
    documents["10 x 2,000 GPUs"] = pools(10, 2_000)
    documents["100 x 800 GPUs"] = pools(100, 800)
    documents["100 x 2,000 GPUs, own fabrics"] = pools(100, 2_000, own=True)
    documents["100 x 5,000 GPUs, own fabrics"] = pools(100, 5_000, own=True)
    documents["10 phases to 24,000 GPUs"] = phases(10, 24_000)
    documents["50 phases to 24,000 GPUs"] = phases(50, 24_000)
    documents["50 phases to 240,000 GPUs"] = phases(50, 240_000)
    return documents


def calibrate() -> None:
    import numpy
    from scipy.optimize import nnls

    from catalog.rows import catalog_snapshot_from_files
    from planner.solver import limits
    from planner.solver.pipeline import plan_scenario

    catalog = catalog_snapshot_from_files()
    rows, measured, names = [], [], []
    for name, document in calibration_documents().items():
        estimate = limits.work_estimate(document, catalog)
        best = math.inf
        for _ in range(2):
            cpu = time.process_time()
            plan_scenario(document, catalog).to_dict()
            best = min(best, time.process_time() - cpu)
        rows.append([estimate.plans, estimate.fabrics, estimate.cables, estimate.racks, estimate.rows])
        measured.append(best)
        names.append(name)
    coefficients, _ = nnls(numpy.array(rows, dtype=float), numpy.array(measured))
    print("fit: CPU_S_PER_PLAN = {:.3g}, CPU_S_PER_FABRIC = {:.3g}, CPU_S_PER_CABLE = {:.3g}, "
          "CPU_S_PER_RACK = {:.3g}, CPU_S_PER_ROW = {:.3g}".format(*coefficients))
    for name, row, seconds in zip(names, rows, measured, strict=True):
        estimate = limits.WorkEstimate(plans=row[0], fabrics=row[1], cables=row[2], racks=row[3], rows=row[4],
                                       driver="")
        print(f"{name:<34} {row[0]:>5} plans {row[1]:>4} fabrics {row[2]:>10,} cables {row[3]:>8,} racks "
              f"{row[4]:>6,} rows | "
              f"measured {seconds:6.2f} s, estimated {estimate.cpu_s:6.2f} s (fit "
              f"{float(numpy.dot(coefficients, row)):6.2f} s)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=None, help="stop each cabling plan after this many rows")
    parser.add_argument("--measure", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--calibrate", action="store_true", help="fit the work estimate's coefficients")
    arguments = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    if arguments.calibrate:
        calibrate()
        return
    if arguments.measure:
        topology, nodes = arguments.measure
        print(json.dumps(measure(int(nodes), topology, arguments.rows)))
        return
    from fabric.solver.cable_limit import MAX_PLAN_CABLES

    print(f"The largest plans under MAX_PLAN_CABLES = {MAX_PLAN_CABLES:,} ({SYSTEM}, every fabric); "
          "CPU seconds (wall), memory added to the process [MB]")
    for topology in TOPOLOGIES:
        nodes = largest_allowed_nodes(topology)
        command = [sys.executable, __file__, "--measure", topology, str(nodes)]
        if arguments.rows:
            command += ["--rows", str(arguments.rows)]
        figures = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
        print(
            f"{topology:<10} {figures['gpus']:>9,} GPUs {figures['cables']:>10,} cables {figures['racks']:>7,} racks | "
            f"plan {figures['plan_cpu_s']:5.1f} s ({figures['plan_wall_s']:5.1f}) {figures['plan_rss_mb']:4.0f} MB | "
            f"CSV {figures['stream_rows']:,} rows {figures['stream_mb']:,.0f} MB in {figures['stream_cpu_s']:5.1f} s "
            f"({figures['stream_wall_s']:5.1f}), {figures['stream_rows'] / figures['stream_cpu_s']:,.0f} rows/s, "
            f"memory after {figures['after_stream_rss_mb']:4.0f} MB | zipped {figures['zip_mb']:,.0f} MB in "
            f"{figures['zip_cpu_s']:5.1f} s ({figures['zip_wall_s']:5.1f})",
            flush=True,
        )


if __name__ == "__main__":
    main()
