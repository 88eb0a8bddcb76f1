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


def test_ruff_passes():
    """The whole tree passes ruff with the project's configuration (pyproject.toml [tool.ruff])."""
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "."], cwd=ROOT, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


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


# ------------------------------------------------------------------------------------------- typed results

RESULT_NAMES = frozenset({
    "evaluation", "evaluations", "capacity", "capacities", "performance", "resilience", "result", "state", "states",
    "workload", "workloads", "wp", "total", "totals", "system", "systems", "efficiency", "eff", "step", "steps",
    "check", "checks", "point", "points", "curve", "selected",
})
"""Names the views and the presentation layer bind to result objects (an Evaluation, its capacity, performance and
failure states, their parts, a validation check). ``getattr`` / ``hasattr`` on one of them hides a typo or a
missing field behind a default: results are frozen dataclasses with typed fields, read as attributes."""

DUCK_TYPED = ("getattr", "hasattr")


def duck_typed_result_reads(source: str) -> list[tuple[int, str]]:
    """(line, source of the call) for each ``getattr(x, ...)`` / ``hasattr(x, ...)`` whose first argument names a
    result (an identifier of :data:`RESULT_NAMES`, leading underscores ignored: ``self._evaluation``,
    ``evaluation.capacity``, ``getattr(evaluation.capacity, "total", None)``). Names of widgets, catalog records
    and Qt objects (``window``, ``view``, ``record``, ``capacity_view``) are left alone."""
    import re

    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in DUCK_TYPED
                and node.args):
            first = ast.get_source_segment(source, node.args[0]) or ""
            names = {name.lstrip("_") for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", first)}
            if names & RESULT_NAMES:
                found.append((node.lineno, ast.get_source_segment(source, node) or ""))
    return found


def test_the_duck_typing_scan_finds_reads_of_results_and_leaves_widgets_alone():
    flagged = ('getattr(getattr(evaluation.capacity, "total", None), "months_until_full", None)\n'
               'x = getattr(self._evaluation, "resilience", None)\n'
               'hasattr(wp, "open_curve")\n'
               'bands = [getattr(point, "latency_band_p10_ms", None) for point in curve]\n')
    assert sorted(line for line, _ in duck_typed_result_reads(flagged)) == [1, 1, 2, 3, 4]
    left_alone = ('getattr(window, "results", None)\nhasattr(capacity_view, "sig_unit_changed")\n'
                  'getattr(record, "rack_units", None)\ngetattr(self, context)\nevaluation.capacity\n')
    assert duck_typed_result_reads(left_alone) == []


def test_views_and_the_presentation_layer_read_results_as_attributes():
    files = [*sorted((ROOT / "app").rglob("*.py")), *sorted((ROOT / "models" / "present").rglob("*.py")),
             ROOT / "models" / "serialize.py", ROOT / "models" / "evaluate.py"]
    found = [f"{path.relative_to(ROOT)}:{line}: {call}" for path in files
             for line, call in duck_typed_result_reads(path.read_text(encoding="utf-8"))]
    assert not found, "getattr / hasattr on a result object:\n" + "\n".join(found)


def _result_classes() -> list[type]:
    """Every dataclass defined in the result modules (the engines' results, the failure states, the evaluation)."""
    import dataclasses
    import importlib

    modules = ("models.capacity.results", "models.performance.results", "models.performance.resilience",
               "models.performance.profiles", "models.evaluate", "models.problems", "models.replication",
               "models.replication.figures", "models.replication.load", "models.capacity.reduction_band",
               "models.costing.tco", "models.performance.fabricpool_summary")
    classes = []
    for name in modules:
        module = importlib.import_module(name)
        classes += [c for c in vars(module).values()
                    if isinstance(c, type) and dataclasses.is_dataclass(c) and c.__module__ == name]
    return classes


def _loose_parts(hint: object) -> list[str]:
    """The parts of a type that say nothing or can change: ``object``, ``Any``, a bare ``tuple`` / ``Mapping``,
    and the mutable ``dict`` / ``list`` / ``set``."""
    import collections.abc
    import typing

    if hint is object or hint is typing.Any:
        return [str(hint)]
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint in (dict, list, set) or origin in (dict, list, set):
        return [f"mutable {hint}"]
    if hint in (tuple, collections.abc.Mapping, collections.abc.Sequence):
        return [f"bare {hint}"]
    return [loose for arg in args for loose in _loose_parts(arg)]


def test_results_are_frozen_dataclasses_with_typed_fields():
    import collections.abc
    import dataclasses
    import typing

    from models.capacity.results import ScenarioCapacity
    from models.evaluate import Evaluation, RequirementCheck, Resilience
    from models.performance.resilience import CapacityState, StateResult
    from models.performance.results import ScenarioPerformance

    classes = _result_classes()
    names = {c.__name__ for c in classes}
    assert {"Evaluation", "Resilience", "RequirementCheck", "StateResult", "CapacityState", "ScenarioCapacity",
            "CapacityResult", "CapacityTotals", "ScenarioPerformance", "WorkloadPerformance"} <= names
    # names the result modules import for type checking only (``if TYPE_CHECKING:``)
    namespace = {"Mapping": collections.abc.Mapping, "Sequence": collections.abc.Sequence,
                 **{c.__name__: c for c in classes}}
    loose = []
    for cls in classes:
        assert cls.__dataclass_params__.frozen, f"{cls.__name__} is not frozen"
        hints = typing.get_type_hints(cls, localns=namespace)
        for f in dataclasses.fields(cls):
            loose += [f"{cls.__name__}.{f.name}: {part}" for part in _loose_parts(hints[f.name])]
    assert not loose, "untyped result fields:\n" + "\n".join(loose)
    hints = typing.get_type_hints(Evaluation, localns=namespace)
    assert hints["capacity"] == ScenarioCapacity | None
    assert hints["performance"] == ScenarioPerformance | None
    assert hints["resilience"] == Resilience | None
    hints = typing.get_type_hints(Resilience, localns=namespace)
    assert hints["states"] == collections.abc.Mapping[str, tuple[StateResult, ...]]
    assert hints["capacity_states"] == tuple[CapacityState, ...]
    assert hints["requirement_checks"] == tuple[RequirementCheck, ...]


def test_the_failure_states_of_a_result_cannot_be_changed():
    from models.evaluate import Resilience

    given = {"w-1": ()}
    resilience = Resilience(given, None, None, None, iops_growth_pct_per_year={"w-1": 10.0})
    given["w-2"] = ()  # the caller's dict is copied, not shared
    assert dict(resilience.states) == {"w-1": ()}
    with pytest.raises(TypeError):
        resilience.states["w-3"] = ()  # type: ignore[index]
    with pytest.raises(TypeError):
        resilience.iops_growth_pct_per_year["w-1"] = 20.0  # type: ignore[index]
