"""Shared test setup: user files go to a temporary StorPlan home, never the developer's own; the heaviest test
modules are handed out first; compiled bytecode is cached outside the checkout."""

import os
import sys
import tempfile
from pathlib import Path

import pytest
from xdist.scheduler import LoadScopeScheduling

PYCACHE = Path(tempfile.gettempdir()) / "storplan-tests-pycache"
"""Where this run's processes (pytest-xdist's workers and the interpreters tests start: the command line, the app,
mypy) keep compiled bytecode (``PYTHONPYCACHEPREFIX``), outside the checkout. Python caches it by default; a machine
that sets ``PYTHONDONTWRITEBYTECODE`` (as CI's does) made every one of those processes compile numpy, scipy,
PySide6's wrappers and StorPlan again: about 2.5 s of CPU each (1.6 s against 4.1 s for the app's imports)."""
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
os.environ["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
sys.dont_write_bytecode = False
sys.pycache_prefix = str(PYCACHE)

HEAVIEST_FIRST = (
    "tests/test_fuzz_files.py",  # about 145 s of one worker's CPU
    "tests/test_customer_citations.py",  # with tests/test_report.py (SHARED_WORKER): about 75 s
    "tests/test_report.py",
    "tests/test_engine_invariants.py",
    "tests/test_sizing.py",
    "tests/test_design.py",
    "tests/test_affinity_ramps.py",
    "tests/gui/test_present_consistency.py",
    "tests/gui/test_gui_hardware_editor.py",
    "tests/test_sizer_golden.py",
    "tests/test_tooling.py",
    "tests/gui/test_gui_dialog_sizes.py",
    "tests/test_sizer_lazy_walk.py",
    "tests/test_report_scale.py",
    "tests/test_cross_validation.py",
    "tests/test_export_injection.py",
    "tests/test_tail_latency.py",
    "tests/gui/test_import_wizard.py",  # about 11 s; every module not named here took less
)
"""Test modules of 11 s or more of one worker's CPU time (a full run, 2026-11-30, stop 53: CPU time per module,
which the worker's wall time follows on CI's two otherwise idle cores), longest first. pytest-xdist hands modules to
its workers in collection order (``--dist loadscope`` with ``--no-loadscope-reorder`` in pyproject.toml): these
first and the many short ones after, so that no worker starts a long module while the other has nothing left
(xdist's own order, by number of tests, handed out the one-test modules of 30-57 s last)."""


SHARED_WORKER = {"tests/test_report.py": "tests/test_customer_citations.py"}
"""Test modules run on the same pytest-xdist worker as another (module -> the module whose work unit it joins):
both read the very same PDF of every bundled example, which tests/example_reports.py builds once per process (the
PDF and its text: about 1 s of CPU per example)."""


class SharedScopes(LoadScopeScheduling):
    """pytest-xdist's ``--dist loadscope`` with the modules of :data:`SHARED_WORKER` in one work unit: one worker runs
    both, the joined module's tests after the other's."""

    def _split_scope(self, nodeid: str) -> str:
        scope = super()._split_scope(nodeid)
        return SHARED_WORKER.get(scope, scope)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log) -> SharedScopes | None:
    """:class:`SharedScopes` for ``--dist loadscope`` (pyproject.toml's); any other distribution is left to
    pytest-xdist."""
    return SharedScopes(config, log) if config.getvalue("dist") == "loadscope" else None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The modules of :data:`HEAVIEST_FIRST` first, in its order; every other test keeps its collection order (a
    stable sort: a module's tests keep theirs)."""
    rank = {module: n for n, module in enumerate(HEAVIEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))


@pytest.fixture(autouse=True)
def _storplan_home(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("STORPLAN_HOME", str(tmp_path_factory.mktemp("storplan-home")))
