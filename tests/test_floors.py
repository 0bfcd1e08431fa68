"""The import rule of the floors (architecture: "Layout: floors"): an app imports only the
floors below it and itself, and no module imports itself back through others. Every import
counts: function-local ones and those under `TYPE_CHECKING` too, since a circle hidden in a
function is still a circle."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLOORS = (
    ("config",),
    ("sweeps",),
    ("workspace",),
    ("handoff",),
    ("planner",),
    ("fabric",),
    ("power", "storage"),
    ("catalog",),
    ("core", "jobs"),
)
"""Top floor first. Apps on one floor do not import each other, except that anything may queue a
job: `jobs` sits beside `core` and imports only `core`."""
FLOOR = {app: height for height, apps in enumerate(reversed(FLOORS)) for app in apps}


def _modules() -> dict[str, Path]:
    modules = {}
    for app in FLOOR:
        for path in (ROOT / app).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


MODULES = _modules()


def _imports(name: str, path: Path) -> set[tuple[str, int]]:
    """(module of this project, line) for every import statement anywhere in the file."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package[: len(package) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            if target in MODULES and target != name:
                found.add((target, node.lineno))
    return found


IMPORTS = {name: _imports(name, path) for name, path in MODULES.items()}


def _app(module: str) -> str:
    return module.split(".")[0]


def _allowed(importer: str, imported: str) -> bool:
    if importer == imported:
        return True
    if imported == "jobs":
        return True
    if importer == "jobs":
        return imported == "core"
    return FLOOR[imported] < FLOOR[importer]


def test_every_app_has_a_floor():
    apps = {path.parent.name for path in ROOT.glob("*/__init__.py") if path.parent.name != "tests"}
    assert apps <= set(FLOOR), sorted(apps - set(FLOOR))


def test_imports_go_down_the_floors():
    wrong = sorted(
        f"{name}:{line} imports {target}"
        for name, targets in IMPORTS.items()
        for target, line in targets
        if not _allowed(_app(name), _app(target))
    )
    assert wrong == []


def _cycles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    graph = {name: sorted({target for target, _ in targets}) for name, targets in IMPORTS.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, position = work.pop()
            if position == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            for next_position in range(position, len(graph[node])):
                child = graph[node][next_position]
                if child not in index:
                    work.append((node, next_position + 1))
                    work.append((child, 0))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
    return components


def test_no_module_imports_itself_back():
    assert _cycles() == []


def test_the_cycle_finder_finds_a_circle(monkeypatch):
    monkeypatch.setitem(IMPORTS, "core.a", {("core.b", 1)})
    monkeypatch.setitem(IMPORTS, "core.b", {("core.c", 1)})
    monkeypatch.setitem(IMPORTS, "core.c", {("core.a", 1)})
    assert ["core.a", "core.b", "core.c"] in _cycles()

