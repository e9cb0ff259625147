"""The import graph of the apps: no cycle, and every import in the direction of the
layering table of docs/architecture.md.

Every ``import`` statement counts, module-level and inside functions alike (a
function-level import that closes a cycle is a cycle that only waits for the call);
only imports under ``if TYPE_CHECKING:`` are left out (they never run). ``from package
import name`` is an edge to ``package.name`` when that is a module, else to the
package itself. A Celery task that a module would have to import against the
direction is sent by its name instead.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("games", "tournaments", "ratings", "outbox", "tock_site")

#: Who may not import whom: the layering of docs/architecture.md
#: (tournaments -> ratings -> games -> games.engine; outbox below the domain apps;
#: the engine and the seating algorithms import nothing of Django).
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "games.engine": ("django", "games", "tournaments", "ratings", "outbox", "tock_site"),
    "tournaments.seating": ("django", "games", "tournaments", "ratings", "outbox", "tock_site"),
    "games": ("tournaments", "ratings", "tock_site"),
    "ratings": ("tournaments", "tock_site"),
    "outbox": ("games", "tournaments", "ratings", "tock_site"),
}
#: Inside a forbidden prefix, what a layer may still import of itself.
OWN = {"games.engine": ("games.engine",), "tournaments.seating": ("tournaments.seating",)}


def _modules() -> dict[str, Path]:
    found = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _type_checking_only(tree: ast.AST) -> set[int]:
    """Ids of the import nodes under ``if TYPE_CHECKING:``."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                skipped |= {id(n) for n in ast.walk(inner)}
    return skipped


def _imports(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_checking_only(tree)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                names.add(full if full in modules else base)
    return names


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _layer(module: str) -> str | None:
    # The most specific layer first (games.engine before games).
    for prefix in sorted(FORBIDDEN, key=len, reverse=True):
        if _within(module, prefix):
            return prefix
    return None


def test_every_import_follows_the_layering():
    wrong = []
    for module, names in _graph().items():
        layer = _layer(module)
        if layer is None:
            continue
        for name in names:
            if any(_within(name, own) for own in OWN.get(layer, ())):
                continue
            if any(_within(name, banned) for banned in FORBIDDEN[layer]):
                wrong.append(f"{module} imports {name}")
    assert sorted(wrong) == []


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    known = {m: {n for n in names if n in graph and n != m} for m, names in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in known:
        if root in index:
            continue
        work = [(root, iter(sorted(known[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(known[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_module_imports_itself_back():
    assert _cycles(_graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
