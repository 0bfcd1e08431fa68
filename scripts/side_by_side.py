"""The same plans timed on a git ref and on the working tree, interleaved, in one run.

`scripts/benchmark.py --against REF` checks REF out in a temporary worktree, starts one worker
process in each tree (each imports its own tree's code with the shared virtual environment),
and asks them in turn to plan each case: REF, tree, REF, tree ... Each answer is the CPU time
of one plan (time.process_time), so the best of N of each side, measured minutes apart at
most, gives a ratio that the load on a shared machine moves far less than absolute times. The
load average is printed with the table.

A worker reads one JSON request a line on stdin, {"document": ..., "measure": ...}, and answers
{"ms": CPU ms} or {"error": "..."}. Measures:
- "plan": `planner.solver.pipeline.plan_scenario` of the document;
- "cabling": the cabling plan's rows (`fabric.solver.cabling.cabling_rows`) of its plan;
- "cabling-csv": its cabling CSV export streamed (`plan_export_lines`, format "cabling");
- "api": POST /api/v1/plan/ of the document through Django's test client, signed in, on a
  throw-away in-memory database with the catalog loaded (made at the first such request);
- "sweep": the sweep document's designs screened in the worker (`sweeps.runner.run_sweep`), its
  caches emptied first.
Each is what both sides have (the settings, catalog and exports where each tree keeps them:
config/, catalog/ and handoff/ since the floors, planner/ before).
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

WORKER = r"""
import json, os, sys, time
sys.path.insert(0, os.getcwd())
floors = os.path.exists("config/settings.py")
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings" if floors else "planner.settings"
import django
django.setup()
if floors:
    from catalog.rows import catalog_snapshot_from_files
else:
    from planner.catalog import catalog_snapshot_from_files
from planner.solver.pipeline import plan_scenario
from fabric.solver.cabling import cabling_rows
catalog = catalog_snapshot_from_files()
client = None


def signed_in_client():
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    call_command("loadcatalog", verbosity=0)
    signed_in = Client()
    signed_in.force_login(get_user_model().objects.create_user("benchmark"))
    return signed_in


def sweep_timed(document):
    from sweeps.runner import run_sweep
    from sweeps.solver.engine import clear_sweep_caches
    from sweeps.solver.spec import read_sweep
    spec = read_sweep(document, catalog)
    clear_sweep_caches()
    start = time.process_time()
    for _ in run_sweep(spec, catalog):
        pass
    return start


def cabling_csv_lines(plan):
    try:
        from handoff.exports import plan_export_lines
    except ImportError:
        from planner.exports import plan_export_lines
    return plan_export_lines(plan, "cabling", catalog)[0]


for line in sys.stdin:
    request = json.loads(line)
    document, measure = request["document"], request["measure"]
    try:
        if measure in ("cabling", "cabling-csv"):
            plan = plan_scenario(document, catalog)
            start = time.process_time()
            lines = cabling_rows(plan, catalog) if measure == "cabling" else cabling_csv_lines(plan)
            for _ in lines:
                pass
        elif measure == "api":
            client = client or signed_in_client()
            start = time.process_time()
            body = json.dumps(document)
            status = client.post("/api/v1/plan/", body, content_type="application/json").status_code
            if status != 200:
                raise RuntimeError(f"HTTP {status}")
        elif measure == "sweep":
            start = sweep_timed(document)
        else:
            start = time.process_time()
            plan_scenario(document, catalog)
        print(json.dumps({"ms": (time.process_time() - start) * 1000}), flush=True)
    except Exception as error:  # a case the other side cannot plan is reported, not fatal
        print(json.dumps({"error": f"{type(error).__name__}: {error}"[:200]}), flush=True)
"""


class Worker:
    """One tree's worker process."""

    def __init__(self, tree: Path, python: str) -> None:
        self.process = subprocess.Popen(
            [python, "-c", WORKER], cwd=tree, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )

    def time(self, document: dict, measure: str) -> float | str:
        self.process.stdin.write(json.dumps({"document": document, "measure": measure}) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        return answer.get("ms", answer.get("error", "no answer"))

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=60)


def compare(root: Path, ref: str, cases: list[tuple[str, dict, str]], runs: int) -> None:
    """Print, for each (label, document, measure) case, the best CPU ms of REF and of the working
    tree and their ratio (tree / REF: below 1 is faster)."""
    python = str(root / ".venv" / "bin" / "python")
    with tempfile.TemporaryDirectory(prefix="benchmark-") as folder:
        other = Path(folder) / "ref"
        subprocess.run(["git", "-C", str(root), "worktree", "add", "--detach", "--quiet", str(other), ref],
                       check=True)
        try:
            workers = {"ref": Worker(other, python), "tree": Worker(root, python)}
            print(f"{ref} against the working tree: best of {runs} interleaved runs, CPU ms; "
                  f"load average {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
            print(f"{'case':<44} {ref[:12]:>12} {'tree':>10} {'ratio':>7}")
            for label, document, measure in cases:
                times: dict[str, list[float]] = {"ref": [], "tree": []}
                errors: dict[str, str] = {}
                for _ in range(runs):
                    for side, worker in workers.items():
                        elapsed = worker.time(document, measure)
                        if isinstance(elapsed, str):
                            errors[side] = elapsed
                        else:
                            times[side].append(elapsed)
                if times["ref"] and times["tree"]:
                    ref_ms, tree_ms = min(times["ref"]), min(times["tree"])
                    print(f"{label:<44} {ref_ms:>12.1f} {tree_ms:>10.1f} {tree_ms / ref_ms:>7.2f}")
                else:
                    print(f"{label:<44} {'; '.join(f'{side}: {error}' for side, error in errors.items())}")
            print(f"load average after: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
            for worker in workers.values():
                worker.close()
        finally:
            subprocess.run(["git", "-C", str(root), "worktree", "remove", "--force", str(other)], check=False)
    sys.stdout.flush()
