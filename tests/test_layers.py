"""Imports point down only: the engine never reaches up to a tool, and no two modules need
each other. Read from the source (every import, at the top of a module or inside a
function: a late import is still a dependency), so a new upward import fails here
before it ties the layers together."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The layers, lowest first: a module may import its own layer and those below it. A name
# is a module or a package (all of it); a module's layer is its longest name here.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("base", ("interpreter", "interpreter.diagnostics", "interpreter.words")),
    ("lang", ("interpreter.lang",)),
    ("engine", ("interpreter.engine",)),
    ("verbs", ("interpreter.verbs",)),
    ("load", ("interpreter.load",)),
    ("commands", ("interpreter.records", "interpreter.undo", "interpreter.scale", "interpreter.diff",
                  "interpreter.editions", "interpreter.lint", "interpreter.lint_quantities", "interpreter.rulesdoc",
                  "interpreter.scenarios", "interpreter.scenario_checks", "interpreter.provenance",
                  "interpreter.rulesdoc_clauses", "interpreter.anchors", "interpreter.anchors_text")),
    ("bots", ("interpreter.bots",)),
    ("seats", ("interpreter.agents",)),
    ("runs", ("interpreter.batch", "interpreter.sweep", "interpreter.coverage", "interpreter.coverage_html",
              "interpreter.balance", "interpreter.adapters", "interpreter.results", "interpreter.coverage_play",
              "interpreter.mutate", "interpreter.mutate_ops", "interpreter.mutate_play", "interpreter.mutate_sites")),
    ("front ends", ("interpreter.terminal", "interpreter.draw", "interpreter.web")),
    ("cli", ("interpreter.cli", "interpreter.__main__")),
)


def module_files(root: Path = ROOT, package: str = "interpreter") -> dict[str, tuple[Path, bool]]:
    """Returns each module's dotted name with its file and whether it is a package."""
    found = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if package else parts)] = (path, package)
    return found


def _is_type_checking(node: ast.If) -> bool:
    """Returns whether an `if` holds imports for the type checker only (never run)."""
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or \
        (isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _targets(name: str, package: bool, node: ast.Import | ast.ImportFrom, modules: dict) -> list[str]:
    """Returns the modules an import statement names, relative imports resolved: for
    `from X import y`, X.y where y is a module, else X."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:
        base = name.split(".") if package else name.split(".")[:-1]
        base = base[:len(base) - node.level + 1]
        prefix = ".".join(base + ([node.module] if node.module else []))
    else:
        prefix = node.module or ""
    return [f"{prefix}.{a.name}" if f"{prefix}.{a.name}" in modules else prefix for a in node.names]


def imports_of(name: str, path: Path, package: bool, modules: dict) -> dict[str, int]:
    """Returns the interpreter modules one module imports, each with its first line."""
    out: dict[str, int] = {}

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for other in node.orelse:
                visit(other)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for target in _targets(name, package, node, modules):
                while target not in modules and "." in target:
                    target = target.rsplit(".", 1)[0]
                if target in modules and target != name:
                    out.setdefault(target, node.lineno)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text("utf-8"), str(path)))
    return out


def graph(root: Path = ROOT, package: str = "interpreter") -> dict[str, dict[str, int]]:
    """Returns each module's imports of other modules of the package, with their lines."""
    modules = module_files(root, package)
    return {name: imports_of(name, path, package, modules) for name, (path, package) in modules.items()}


def layer_of(name: str) -> int | None:
    """Returns the index of a module's layer (its longest matching name), None if none."""
    best, rank = -1, None
    for i, (_, names) in enumerate(LAYERS):
        for n in names:
            # the package itself holds only its own __init__: every module must be placed
            if (name == n or (name.startswith(n + ".") and n != "interpreter")) and len(n) > best:
                best, rank = len(n), i
    return rank


def _circle(g: dict[str, dict[str, int]], start: str) -> list[str] | None:
    """Returns a shortest import circle through `start` (breadth first), None if none."""
    seen, frontier = {start: None}, [start]
    while frontier:
        nxt = []
        for m in frontier:
            for t in sorted(g[m]):
                if t == start:
                    chain = [m]
                    while chain[-1] != start:
                        chain.append(seen[chain[-1]])
                    return chain[::-1] + [start]
                if t not in seen:
                    seen[t] = m
                    nxt.append(t)
        frontier = nxt
    return None


def test_the_reader_sees_every_kind_of_import(tmp_path):
    # The checks below are only as good as this reader: a late import inside a function,
    # a relative one at any depth, a module named in a from-import and a package's own
    # names all count; an import for the type checker alone does not.
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    for name in ("__init__", "a", "b", "c", "d", "sub/__init__", "sub/e"):
        (pkg / f"{name}.py").write_text("")
    (pkg / "a.py").write_text("from . import b\nimport pkg.c as c\n\ndef f():\n    from .sub import e\n")
    (pkg / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import d\n"
                              "else:\n    from .sub import helper\n")
    (pkg / "sub" / "e.py").write_text("from ..d import thing\nfrom .. import a\n")
    g = graph(tmp_path, "pkg")
    assert g["pkg.a"] == {"pkg.b": 1, "pkg.c": 2, "pkg.sub.e": 5}
    assert g["pkg.b"] == {"pkg.sub": 5}
    assert g["pkg.sub.e"] == {"pkg.d": 1, "pkg.a": 2}
    assert _circle(g, "pkg.a") == ["pkg.a", "pkg.sub.e", "pkg.a"] and _circle(g, "pkg.b") is None


def test_every_module_has_a_layer():
    unplaced = sorted(m for m in module_files() if layer_of(m) is None)
    assert not unplaced, f"modules in no layer (add each to LAYERS in {Path(__file__).name}): {unplaced}"


def test_imports_point_down():
    g = graph()
    files = module_files()
    upward = [f"{files[m][0].relative_to(ROOT)}:{line}: {m} ({LAYERS[layer_of(m)][0]}) imports "
              f"{t} ({LAYERS[layer_of(t)][0]})"
              for m in sorted(g) for t, line in sorted(g[m].items(), key=lambda kv: kv[1])
              if layer_of(m) is not None and layer_of(t) is not None and layer_of(t) > layer_of(m)]
    edges = sum(map(len, g.values()))
    print(f"\n{len(LAYERS)} layers, {len(g)} modules, {edges} import edges")
    assert not upward, f"{len(upward)} imports point up:\n" + "\n".join(upward)


def test_no_import_circle():
    g = graph()
    on_circles = sorted(m for m in g if _circle(g, m))
    circles = []
    for m in on_circles:
        c = _circle(g, m)
        if not any(set(c) <= set(d) for d in circles):
            circles.append(c)
    shown = "\n".join(" -> ".join(c) for c in circles[:10])
    assert not on_circles, f"{len(on_circles)} modules sit on import circles; for example:\n{shown}"
