"""The biggest plans the work limits allow (planner/solver/limits.py), one per compute fabric
topology, with every fabric: how long the plan takes and the memory it needs, then the cabling
plan streamed as a request streams it and written zipped as a background job writes it.

Run as `.venv/bin/python scripts/benchmark_limits.py [--rows N]`. Each plan runs in a process
of its own, so that its peak memory (resident set) is its own. Times are CPU seconds of that
process (what it would take on an idle core) and wall seconds. `--rows` stops the cabling plan
after N rows (default: all of them, about two minutes per topology).
"""

import argparse
import json
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
    for line in plan_export_lines(plan, "cabling", catalog)[0]:
        size += len(line)
        rows += 1
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
                batch, rows = [], 0
                for line in plan_export_lines(plan, "cabling", catalog)[0]:
                    batch.append(line)
                    rows += 1
                    if len(batch) == 5_000:
                        member.write("".join(batch).encode())
                        batch.clear()
                    if rows_limit and rows > rows_limit:
                        break
                member.write("".join(batch).encode())
        figures.update(zip_cpu_s=time.process_time() - cpu, zip_wall_s=time.perf_counter() - wall,
                       zip_mb=path.stat().st_size / 1e6)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=None, help="stop each cabling plan after this many rows")
    parser.add_argument("--measure", nargs=2, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    if arguments.measure:
        topology, nodes = arguments.measure
        print(json.dumps(measure(int(nodes), topology, arguments.rows)))
        return
    from planner.solver.limits import MAX_PLAN_CABLES

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
