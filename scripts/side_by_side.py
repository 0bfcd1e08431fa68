"""The same plans timed on a git ref and on the working tree, interleaved, in one run.

`scripts/benchmark.py --against REF` checks REF out in a temporary worktree, starts one worker
process in each tree (each imports its own tree's code with the shared virtual environment),
and asks them in turn to plan each case: REF, tree, REF, tree ... Each answer is the CPU time
of one plan (time.process_time), so the best of N of each side, measured minutes apart at
most, gives a ratio that the load on a shared machine moves far less than absolute times. The
load average is printed with the table.

A worker reads one JSON request a line on stdin, {"document": ..., "measure": "plan" |
"cabling"}, and answers {"ms": CPU ms} or {"error": "..."}; it uses only
`planner.solver.pipeline.plan_scenario`, `catalog_snapshot_from_files` and
`fabric.solver.cabling.cabling_rows`, which both sides have (the settings and the catalog where
each tree keeps them: config/ and catalog/ since the floors, planner/ before).
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
for line in sys.stdin:
    request = json.loads(line)
    try:
        if request["measure"] == "cabling":
            plan = plan_scenario(request["document"], catalog)
            start = time.process_time()
            for _ in cabling_rows(plan, catalog):
                pass
        else:
            start = time.process_time()
            plan_scenario(request["document"], catalog)
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
