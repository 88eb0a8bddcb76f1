"""The shape of the code: import-linter contracts (pyproject.toml), no import cycles, one table of node kinds."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from models.project import NODE_KIND_FOR_CATALOG, NODE_TYPES
from models.project.kinds import NODE_KINDS, SYSTEM_KINDS

ROOT = Path(__file__).resolve().parents[1]

KNOWN_CYCLES: set[frozenset[str]] = set()
"""Import cycles known and being removed; any other cycle fails the test. Drop an entry once it is gone."""

CONTRACTS = (
    "models never imports the GUI",
    "models.queueing imports nothing of StorPlan",
    "app.report imports no Qt",
    "models is layered",
)


def test_import_contracts_are_kept():
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    for name in CONTRACTS:
        assert f"{name} KEPT" in result.stdout, result.stdout


# ------------------------------------------------------------------------------------------- import cycles


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_imports(tree: ast.AST, module: str, is_package: bool) -> set[tuple[str, str]]:
    """The import statements of a module that run when it runs (at import time or inside a function), leaving
    out the body of ``if TYPE_CHECKING:``: (module, name) for ``from module import name`` (relative imports
    resolved against ``module``), (module, "") for ``import module``."""
    found: set[tuple[str, str]] = set()
    package = module if is_package else module.rpartition(".")[0]

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update((alias.name, "") for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.update((target, alias.name) for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def import_graph(packages=("app", "models")) -> dict[str, set[str]]:
    """Module -> the modules of ``packages`` it imports at run time (parsed from the source files).

    ``from a import b`` depends on module ``a.b`` when there is one, else on ``a`` (as import-linter's grimp
    counts it); ``import a.b`` on ``a.b``.
    """
    files = {_module_name(p): p for pkg in packages for p in (ROOT / pkg).rglob("*.py")}
    graph = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        named = set()
        for target, name in _runtime_imports(tree, module, path.name == "__init__.py"):
            named.add(f"{target}.{name}" if name and f"{target}.{name}" in files else target)
        graph[module] = {m for m in named if m in files and m != module}
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    cycles = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
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
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    cycles.append(frozenset(component))
    return cycles


def test_cycle_finder_finds_a_cycle_and_ignores_type_checking_imports():
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import c\nimport pkg.b\n"
              "def f():\n    from . import c\n")
    named = _runtime_imports(ast.parse(source), "pkg.a", False)
    assert named == {("typing", "TYPE_CHECKING"), ("pkg.b", ""), ("pkg", "c")}  # the function-level import counts
    only_typing = _runtime_imports(ast.parse("import typing\nif typing.TYPE_CHECKING:\n    import pkg.c\n"), "pkg.a",
                                   False)
    assert only_typing == {("typing", "")}
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_cycles(graph) == [frozenset({"a", "b", "c"})]
    assert import_cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_among_app_and_models():
    cycles = [c for c in import_cycles(import_graph()) if c not in KNOWN_CYCLES]
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(sorted(c)) for c in cycles)


# ------------------------------------------------------------------------------------------- node kinds


def test_every_node_record_type_has_one_row_in_the_kind_table():
    assert {k: row.record_type for k, row in NODE_KINDS.items()} == NODE_TYPES
    assert {row.catalog_kind: k for k, row in NODE_KINDS.items()} == NODE_KIND_FOR_CATALOG
    assert SYSTEM_KINDS == ("controller", "hci_cluster", "cloud_vm", "managed_service")
    for row in NODE_KINDS.values():
        assert row.record_type.model_fields["kind"].default == row.kind
        assert row.catalog_type.KIND == row.catalog_kind


@pytest.mark.parametrize("kind", sorted(NODE_KINDS))
def test_kind_table_rows_are_complete(kind):
    row = NODE_KINDS[kind]
    assert row.label and row.icon.startswith("mdi6.") and row.layout_column in (0, 1, 2, 3)
    assert row.link_media and row.link_media <= {"FC", "Ethernet", "SAS", "PCIe"}


@pytest.mark.parametrize("kind", sorted(NODE_KINDS))
def test_every_node_kind_has_its_figures_and_bill_of_materials_lines(kind):
    # the per-kind tables of models.present follow the kind table: a new kind without its figures fails here
    from models.catalog import bundled_catalog
    from models.present import bill_of_materials, node_figures
    from models.present.nodes import key_figures
    from models.project.factory import new_node
    from models.project.model import Scenario

    catalog = bundled_catalog()
    entry = catalog.of_kind(NODE_KINDS[kind].catalog_kind)[0]
    node = new_node(entry, "n-1", catalog)
    assert node.kind == kind
    assert node_figures(node, catalog) and all(node_figures(node, catalog)) and key_figures(node, catalog)
    rows = bill_of_materials(Scenario(name="s", nodes=[node]), catalog)
    assert rows[0].model == entry.name and rows[0].figures and rows[0].quantity
    assert NODE_KINDS[kind].plural and NODE_KINDS[kind].plural != NODE_KINDS[kind].label
