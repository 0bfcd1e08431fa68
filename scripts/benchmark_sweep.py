"""Designs per second of a sweep over 1k-10k GPU designs: in this process with each way of
treating the cables (the engine's screen, the sampled screen, counted in full), then the default
screen in this process (`--workers 1`), over two worker processes and on a Dask LocalCluster of two worker processes.

Run as `.venv/bin/python scripts/benchmark_sweep.py [--pue-values N | --budget-values N] [--screen-only]`. A benchmark, not a timed
test: the figures depend on the machine and on what else runs on it (the best of --runs runs).

`--ten-million [--designs N]` runs one sweep of ten million designs (`large_sweep_document`) on a
Dask LocalCluster of two worker processes, as `manage.py sweep --scheduler ... --output
designs.parquet` runs it (every design written to a Parquet file), and prints its rate and the
peak memory of this process and of each worker.
"""

import argparse
import logging
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from catalog.rows import catalog_snapshot_from_files  # noqa: E402
from planner.solver.rounds import CABLES_COUNTED, CABLES_ENGINE, CABLES_SAMPLED  # noqa: E402
from sweeps.runner import run_sweep  # noqa: E402
from sweeps.solver.engine import clear_sweep_caches  # noqa: E402
from sweeps.solver.spec import read_sweep  # noqa: E402
from sweeps.solver.summary import SweepSummary  # noqa: E402


def sweep_document(pue_values: int, budget_values: int = 0) -> dict:
    """10 GPU counts (1,024 to 10,240) x 2 systems x 2 topologies x 2 coolings x the PUE values:
    a compute fabric of QM9700 and an oob network, 80 designs per PUE value. With
    `budget_values`, rack power budgets (40 to 120 kW) in place of the PUE: no two designs
    share their racks, so the screen reuses only fabrics and sections read."""
    if budget_values:
        last_axis = {"racks.power_budget_kw": [round(40 + 80 * index / max(1, budget_values - 1), 2)
                                               for index in range(budget_values)]}
    else:
        last_axis = {"facility.pue": [round(1.1 + 0.4 * index / max(1, pue_values - 1), 4) for index in range(pue_values)]}
    return {
        "name": "benchmark",
        "base": {
            "name": "benchmark",
            "compute": {"system": "dgx-h100", "gpus": 1024},
            "racks": {"power_budget_kw": 60},
            "fabrics": {
                "compute": {"switch": "qm9700"},
                "oob": {"switch": "sn2201", "spine_switch": "sn4600c"},
            },
        },
        "axes": {
            "compute.gpus": {"from": 1024, "to": 10240, "step": 1024},
            "compute.system": ["dgx-h100", "dgx-b200"],
            "fabrics.compute.topology": ["fat_tree", "rail_only"],
            "racks.cooling": ["air", "direct_liquid"],
            **last_axis,
        },
        "constraints": {"power.facility_kw": {"max": 20_000}},
        "objectives": [{"key": "cost.tco_usd", "goal": "minimise"}, {"key": "power.facility_kw", "goal": "minimise"}],
    }


def large_sweep_document(designs: int = 10_000_000) -> dict:
    """The benchmark's 80 designs (`sweep_document`) times 5 rack power budgets (40-120 kW): 400
    distinct racks, each costed at 20 electricity prices, 10 lives and 5 discount rates, and at
    as many PUE values as make about `designs` designs (25 for ten million)."""
    document = sweep_document(0, budget_values=5)
    pue_values = max(1, round(designs / 400_000))
    document["axes"] |= {
        "facility.pue": [round(1.1 + 0.4 * index / max(1, pue_values - 1), 6) for index in range(pue_values)],
        "facility.electricity_usd_per_kwh": [round(0.04 + 0.01 * index, 4) for index in range(20)],
        "finance.years": list(range(3, 13)),
        "finance.discount_rate": [round(0.04 + 0.01 * index, 4) for index in range(5)],
    }
    return document


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def large_sweep(designs: int) -> None:
    """One sweep of `designs` designs on a LocalCluster, written to Parquet as the command does."""
    import tempfile

    from distributed import Client, LocalCluster

    from sweeps.output import DesignWriter

    catalog = catalog_snapshot_from_files()
    spec = read_sweep(large_sweep_document(designs), catalog)
    axes = ", ".join(f"{axis.key} ({len(axis.values)})" for axis in spec.axes)
    print(f"{spec.design_count:,} designs: {axes}; {os.cpu_count()} cores")
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    logging.getLogger("distributed").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory() as folder, \
            LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                         silence_logs=logging.WARNING) as cluster, \
            Client(cluster) as client:
        client.run(lambda: None)
        summary = SweepSummary(spec)
        path = Path(folder) / "designs.parquet"
        start, start_cpu = time.perf_counter(), _cpu_s()
        with DesignWriter(spec, str(path)) as writer:
            for results in run_sweep(spec, catalog, client=client):
                summary.add(results)
                writer.write(results)
        wall, cpu = time.perf_counter() - start, _cpu_s() - start_cpu
        workers_mb = sorted(client.run(_peak_rss_mb).values())
        print(f"{summary.designs:,} designs in {wall:,.0f} s: {summary.designs / wall:,.0f} designs/s; "
              f"{summary.feasible:,} feasible, {len(summary.front)} on the front")
        print(f"this process (the client, the summary and the Parquet writer): {cpu:,.0f} CPU s, "
              f"peak {_peak_rss_mb():,.0f} MB; workers' peak: {', '.join(f'{mb:,.0f} MB' for mb in workers_mb)}; "
              f"Parquet file {path.stat().st_size / 1e6:,.0f} MB")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


def _cpu_s() -> float:
    """CPU seconds of this process and of its children that have ended (a pool's workers, once
    the pool is shut down)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def designs_per_second(spec, catalog, runs: int, **options) -> tuple[float, float, int]:
    """Designs per second of wall time, and per CPU second of this process and its worker
    processes (the figure that other work on the machine moves least; a Dask cluster's workers
    are not counted: they are not this process's children)."""
    best_wall = best_cpu = float("inf")
    for _ in range(runs):
        clear_sweep_caches()  # every run starts cold, as a sweep does
        summary = SweepSummary(spec)
        start, start_cpu = time.perf_counter(), _cpu_s()
        for results in run_sweep(spec, catalog, **options):
            summary.add(results)
        best_wall = min(best_wall, time.perf_counter() - start)
        best_cpu = min(best_cpu, _cpu_s() - start_cpu)
    return spec.design_count / best_wall, spec.design_count / best_cpu, summary.feasible


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pue-values", type=int, default=5, help="values of the PUE axis (80 designs each)")
    parser.add_argument("--budget-values", type=int, default=0,
                        help="values of a rack power budget axis in place of the PUE axis (80 designs each)")
    parser.add_argument("--screen-only", action="store_true", help="leave out the full plans and the sampled screen")
    parser.add_argument("--runs", type=int, default=2, help="runs of each, the best is printed")
    parser.add_argument("--ten-million", action="store_true",
                        help="one sweep of --designs designs on a LocalCluster, written to Parquet")
    parser.add_argument("--designs", type=int, default=10_000_000, help="designs of --ten-million")
    arguments = parser.parse_args()
    if arguments.ten_million:
        large_sweep(arguments.designs)
        return
    catalog = catalog_snapshot_from_files()
    spec = read_sweep(sweep_document(arguments.pue_values, arguments.budget_values), catalog)
    last_axis = f"{arguments.budget_values} rack budgets" if arguments.budget_values else f"{arguments.pue_values} PUE values"
    print(f"{spec.design_count:,} designs (1,024-10,240 GPUs, {last_axis}), {os.cpu_count()} cores; "
          f"best of {arguments.runs}")
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    print(f"{'how':<48} {'designs/s':>10} {'per CPU s':>10}  feasible")
    rows = [
        ("this process, counted (full plans)", {"cables": CABLES_COUNTED}),
        ("this process, sampled screen", {"cables": CABLES_SAMPLED}),
        ("1 worker (this process), engine screen (default)", {"cables": CABLES_ENGINE}),
        ("2 worker processes, engine screen", {"workers": 2}),
    ]
    if arguments.screen_only:
        rows = rows[2:]
    for label, options in rows:
        rate, cpu_rate, feasible = designs_per_second(spec, catalog, arguments.runs, **options)
        print(f"{label:<48} {rate:>10,.0f} {cpu_rate:>10,.0f}  {feasible:,}")
    from distributed import Client, LocalCluster

    logging.getLogger("distributed").setLevel(logging.WARNING)  # the project's logging says INFO
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=logging.WARNING) as cluster, \
            Client(cluster) as client:
        client.run(lambda: None)  # the workers are up before the clock starts
        rate, _, feasible = designs_per_second(spec, catalog, arguments.runs, client=client)
        print(f"{'Dask LocalCluster, 2 worker processes x 1 thread':<48} {rate:>10,.0f} {'-':>10}  {feasible:,}")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
