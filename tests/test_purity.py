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


BLAS_CALLS = {"dot", "vdot", "inner", "matmul", "tensordot", "einsum", "linalg"}


def test_no_solver_module_hands_work_to_blas():
    """A plan runs on one core: numpy hands a float product of arrays (`@`, `np.dot`, ...) to
    OpenBLAS, whose threads then spin on the other cores. One dot product in the cable count
    made a million-GPU plan take 370 CPU ms for 187 ms of wall time, on a 2-core machine that
    serves other requests meanwhile."""
    import ast

    found = []
    for path in ROOT.glob("*/solver/**/*.py"):
        if ".venv" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            matmul = isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, ast.MatMult)
            if matmul or (isinstance(node, ast.Attribute) and node.attr in BLAS_CALLS):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
