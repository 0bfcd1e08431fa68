import sys
from contextlib import nullcontext
from pathlib import Path

from django.core.management.base import BaseCommand

from catalog.rows import catalog_snapshot
from core.solver.errors import ScenarioError
from planner.solver.rounds import CABLE_MODES, CABLES_ENGINE
from sweeps.files import sweep_document_from_file, write_scenario
from sweeps.output import DesignWriter
from sweeps.progress import ProgressBar
from sweeps.report import summary_lines
from sweeps.runner import MAX_WORKERS, run_sweep, scheduler_address
from sweeps.solver.spec import check_sweep_size, read_sweep
from sweeps.solver.summary import SweepSummary

EXIT_BAD_SWEEP = 2


class Command(BaseCommand):
    help = (
        "Sweep the designs of a sweep document (JSON or YAML): plan each, and print the feasible "
        "count, the refusals by reason, the Pareto front and the best design per objective; or "
        "print one line per bad field on stderr and exit with status 2."
    )

    def add_arguments(self, parser):
        parser.add_argument("sweep_file", help="Sweep document, JSON or YAML.")
        parser.add_argument("--workers", type=int, default=1, help="Processes on this machine (default 1).")
        parser.add_argument(
            "--scheduler", help="Dask scheduler address (tcp://host:8786); default DASK_SCHEDULER_ADDRESS."
        )
        parser.add_argument("--output", help="Write every design's figures to this CSV or Parquet file (.csv, .parquet).")
        parser.add_argument(
            "--cables", choices=CABLE_MODES, default=CABLES_ENGINE,
            help="engine (default): screen each design with the fabric engine's cables and optics; "
            "sampled: pack the racks again with a sample of the optics; counted: plan in full, "
            "every cable counted (several times slower).",
        )
        parser.add_argument("--no-progress", action="store_true", help="No progress bar on stderr.")
        parser.add_argument(
            "--save-best", metavar="FILE",
            help="Write the best design of the first objective as a scenario document (YAML, or "
            "JSON for a .json file), to plan or edit as any scenario.",
        )

    def handle(self, *args, sweep_file, workers, scheduler, output, cables, no_progress, save_best, **options):
        scheduler = scheduler_address(scheduler)
        try:
            if not 1 <= workers <= MAX_WORKERS:
                raise ScenarioError.at("--workers",
                                       f"must be from 1 to {MAX_WORKERS} (more: a Dask cluster, --scheduler)")
            catalog = catalog_snapshot()
            spec = read_sweep(sweep_document_from_file(Path(sweep_file)), catalog)
            check_sweep_size(spec, scheduler=bool(scheduler), output=bool(output))
            summary = SweepSummary(spec)
            writer = DesignWriter(spec, output) if output else None
            progress = None if no_progress else ProgressBar(
                lambda text: self.stderr.write(text, ending=""), self.stderr.flush, spec.design_count
            )
            with writer or nullcontext():
                for results in run_sweep(spec, catalog, workers=workers, scheduler=scheduler, cables=cables):
                    summary.add(results)
                    if writer:
                        writer.write(results)
                    if progress:
                        progress.advance(len(results))
            if progress:
                progress.close()
            if save_best and summary.best and summary.best[0] is not None:
                write_scenario(spec.design_document(summary.best[0].index), Path(save_best))
        except ScenarioError as error:
            for problem in error.errors:
                self.stderr.write(str(problem))
            sys.exit(EXIT_BAD_SWEEP)
        for line in summary_lines(summary, cables):
            self.stdout.write(line)
        if output:
            self.stdout.write(f"Every design's figures: {output}")
        if save_best and summary.feasible:
            self.stdout.write(f"The best design for {spec.objectives[0].key}, as a scenario: {save_best}")

