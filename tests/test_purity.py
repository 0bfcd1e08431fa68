"""The solver core must not know Django, DRF or plotly exist (architecture: pure at its core)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = ("django", "rest_framework", "drf_spectacular", "plotly")


def solver_modules() -> list[str]:
    return sorted(
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for path in ROOT.glob("*/solver/**/*.py")
        if ".venv" not in path.parts
    )


def test_there_are_solver_modules_in_every_app():
    apps = {module.split(".")[0] for module in solver_modules()}
    assert apps == {"core", "catalog", "planner", "fabric", "power", "storage", "handoff", "sweeps"}


def test_no_solver_module_imports_django_drf_or_plotly():
    """Import every solver module in a fresh interpreter and look at what came along."""
    script = (
        "import importlib, sys\n"
        f"for name in {solver_modules()!r}: importlib.import_module(name)\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({FORBIDDEN!r})))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
