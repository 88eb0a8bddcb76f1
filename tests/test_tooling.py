"""The static checks a maintainer expects, run by the tests: mypy over ``models/``.

mypy runs with the project's own configuration (``[tool.mypy]`` in pyproject.toml: ``files = ["models"]``, every
function annotated, untyped bodies checked, unused ``# type: ignore`` comments reported, the pydantic plugin). It
runs in a subprocess (``python -m mypy``, the interpreter running the tests) so that its global state stays out of
the test process; its cache (``.mypy_cache``) makes a re-run take about a second.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _mypy(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m mypy`` with ``args`` from the project root (so pyproject.toml's [tool.mypy] applies)."""
    return subprocess.run([sys.executable, "-m", "mypy", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, check=False)


def test_mypy_finds_no_error_in_models() -> None:
    result = _mypy()
    assert result.returncode == 0, f"mypy over models/ failed:\n{result.stdout}{result.stderr}"
    assert result.stdout.startswith("Success: no issues found in "), result.stdout


def test_mypy_configuration_rejects_unannotated_functions_and_stale_ignores(tmp_path: Path) -> None:
    # the same configuration on a probe module: the clean result above means something only if these are errors
    probe = tmp_path / "probe.py"
    probe.write_text("def double(x):\n    return 2 * x\n\n\nCOUNT: int = 3  # type: ignore[assignment]\n",
                     encoding="utf-8")
    result = _mypy("--config-file", str(ROOT / "pyproject.toml"), str(probe))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "probe.py:1: error: Function is missing a type annotation  [no-untyped-def]" in result.stdout
    assert 'probe.py:5: error: Unused "type: ignore" comment  [unused-ignore]' in result.stdout


def test_the_heaviest_first_list_names_existing_test_modules() -> None:
    """tests/conftest.py's scheduling list names real modules (a renamed module would silently go back to the end)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "tests" / "conftest.py")
    assert spec is not None and spec.loader is not None
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    heaviest = conftest.HEAVIEST_FIRST
    missing = [m for m in heaviest if not (ROOT / m).is_file()]
    assert not missing, f"tests/conftest.py HEAVIEST_FIRST names modules that do not exist: {missing}"
    assert len(set(heaviest)) == len(heaviest)


def test_the_modules_that_share_a_worker_share_one_work_unit() -> None:
    """tests/conftest.py's SHARED_WORKER: each named module exists, and the scheduler gives its tests the work unit
    (scope) of the module it joins; every other test keeps its own module's."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("root_conftest_shared", ROOT / "tests" / "conftest.py")
    assert spec is not None and spec.loader is not None
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    assert conftest.SHARED_WORKER
    scheduler = object.__new__(conftest.SharedScopes)  # _split_scope reads no state
    for module, joined in conftest.SHARED_WORKER.items():
        assert (ROOT / module).is_file() and (ROOT / joined).is_file(), (module, joined)
        assert scheduler._split_scope(f"{module}::test_x[a-b]") == joined
        assert scheduler._split_scope(f"{joined}::test_y") == joined
    assert scheduler._split_scope("tests/test_cli.py::test_z") == "tests/test_cli.py"
