"""The layout ARCHITECTURE.md describes: no import circles in the code (imports inside functions
included), no module lying flat in ``arena/``, the command line imported by nobody else, the
parts of ``arena/`` importing only the parts below them, and only through their faces."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engines", "protocol", "arena", "bots", "envs", "benchmarks")
#: the parts of arena/, lowest first: each may import only those before it (ratings: none)
PARTS = ("sandbox", "players", "match", "tournament", "report", "ladder", "play", "cli")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")
            if "node_modules" not in path.parts}


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of the code base that ``name`` imports, anywhere in its body."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            elif name.startswith("benchmarks.") and node.module in {m.rpartition(".")[2] for m in modules
                                                                      if m.startswith("benchmarks.")}:
                target = f"benchmarks.{node.module}"  # a script importing its neighbour (sys.path)
            else:
                target = node.module or ""
            targets = [f"{target}.{alias.name}" for alias in node.names] + [target]
        else:
            continue
        for target in targets:
            if target in modules and target != name:
                found.add(target)
                break
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def test_no_import_circles(graph):
    # Tarjan's strongly connected components, iteratively.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    circles.append(sorted(component))
    assert circles == []


def test_no_module_lies_flat_in_arena():
    flat = sorted(path.name for path in (ROOT / "arena").glob("*.py") if path.name not in ("__init__.py", "__main__.py"))
    assert flat == []


def test_nothing_outside_the_command_line_imports_it(graph):
    reaching = sorted(f"{name} -> {target}" for name, targets in graph.items() for target in targets
                      if target.startswith("arena.cli") and not name.startswith("arena.cli"))
    assert reaching == []


def _part(name: str) -> str | None:
    """The part of ``arena/`` a module belongs to (its face, ``arena.<part>``, included)."""
    pieces = name.split(".")
    return pieces[1] if len(pieces) >= 2 and pieces[0] == "arena" else None


def test_each_part_of_arena_imports_only_the_parts_below_it(graph):
    upward = []
    for name, targets in graph.items():
        source = _part(name)
        for target in targets:
            above = _part(target)
            if source is None or above is None or above == source:
                continue
            allowed = above == "ratings" and source != "ratings" or (
                source in PARTS and above in PARTS and PARTS.index(above) < PARTS.index(source))
            if not allowed:
                upward.append(f"{name} -> {target}")
    assert sorted(upward) == []


def test_architecture_names_every_part_of_arena():
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    parts = sorted(path.parent.name for path in (ROOT / "arena").glob("*/__init__.py"))
    assert sorted({*PARTS, "ratings"}) == parts
    assert [name for name in parts if f"`arena/{name}/`" not in text] == []
    assert "ARCHITECTURE.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_parts_use_each_other_only_through_their_faces(graph):
    # What a part offers the others is what its __init__.py exports; its _modules are its own to
    # rearrange (issue 45). Tests may still reach inside a part: they are not parts.
    reaching_in = sorted(f"{name} -> {target}" for name, targets in graph.items() for target in targets
                         if _part(name) and _part(target) and _part(name) != _part(target)
                         and target != f"arena.{_part(target)}")
    assert reaching_in == []


@pytest.mark.parametrize("part", sorted({*PARTS, "ratings"} - {"cli"}))
def test_every_name_a_face_exports_is_there(part):
    # A lazy face (lazy_loader) finds a name only when it is asked for: ask for each.
    import importlib

    face = importlib.import_module(f"arena.{part}")
    missing = [name for name in getattr(face, "__all__", []) if not hasattr(face, name)]
    assert missing == []
