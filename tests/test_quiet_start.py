"""The cyclic collector is held while a process starts and released, with what start-up made frozen, before the
work runs (app.quiet_start): the command line releases it before a command, or, for ``evaluate`` and ``size``, once
the project is loaded and the engines imported; the desktop app once its first window is up."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import textwrap

import pytest

from app import quiet_start


@pytest.fixture
def collector_restored():
    """Leave the test process's collector as it was: on or off, nothing frozen by the test."""
    was = gc.isenabled()
    frozen = gc.get_freeze_count()
    yield
    quiet_start._held = False
    if gc.get_freeze_count() > frozen:
        gc.unfreeze()
    gc.enable() if was else gc.disable()


def test_hold_stops_the_collector_and_release_freezes_and_restarts_it(collector_restored, monkeypatch):
    monkeypatch.delenv(quiet_start.PLUGINS_SETTING, raising=False)
    gc.enable()
    quiet_start.hold()
    assert not gc.isenabled() and quiet_start.holding()
    assert os.environ[quiet_start.PLUGINS_SETTING] == "__all__"  # pydantic's plugin scan skipped
    alive = object()  # made while held: frozen by the release
    quiet_start.release()
    assert gc.isenabled() and not quiet_start.holding()
    assert gc.get_freeze_count() > 0
    assert alive is not None


def test_release_without_hold_changes_nothing(collector_restored):
    gc.enable()
    frozen = gc.get_freeze_count()
    quiet_start.release()
    assert gc.isenabled() and gc.get_freeze_count() == frozen


def test_hold_leaves_a_collector_someone_else_stopped_to_them(collector_restored, monkeypatch):
    monkeypatch.setenv(quiet_start.PLUGINS_SETTING, "a_plugin")  # the user's own setting is kept
    gc.disable()
    quiet_start.hold()
    assert not quiet_start.holding()
    quiet_start.release()
    assert not gc.isenabled()  # still theirs to turn back on
    assert os.environ[quiet_start.PLUGINS_SETTING] == "a_plugin"


def test_the_window_s_freeze_releases_a_held_collector(collector_restored, monkeypatch):
    from app.gui import freeze_start_up

    monkeypatch.setenv(quiet_start.PLUGINS_SETTING, "__all__")

    gc.enable()
    quiet_start.hold()
    freeze_start_up()
    assert gc.isenabled() and not quiet_start.holding() and gc.get_freeze_count() > 0


_COMMAND = textwrap.dedent("""
    import gc, json, sys
    import models.evaluate as ev
    seen = {}
    real = ev.evaluate
    def spy(*args, **kwargs):  # the collector's state while the evaluation runs
        seen.setdefault("during", gc.isenabled())
        return real(*args, **kwargs)
    ev.evaluate = spy
    from app import cli
    sys.argv = ["storplan", *sys.argv[1:]]
    status = cli.main()
    print(json.dumps({"status": status, "during": seen.get("during"), "after": gc.isenabled(),
                      "frozen": gc.get_freeze_count()}), file=sys.stderr)
""")


@pytest.mark.parametrize("command", [["evaluate", "--json", "aff-a70-ns224-oracle-nvmetcp"], ["examples"],
                                     ["size", "aff-a70-ns224-oracle-nvmetcp"]])
def test_a_command_runs_with_the_collector_on_and_start_up_frozen(command, tmp_path):
    """``storplan`` from the command line: the evaluation (or any other command) runs with the collector on, and
    what start-up made is frozen (no collection walks it again)."""
    env = {**os.environ, "STORPLAN_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-c", _COMMAND, *command], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    state = json.loads(done.stderr.strip().splitlines()[-1])
    assert state["status"] == 0 and state["after"] is True and state["frozen"] > 1000
    if command[0] == "evaluate":
        assert state["during"] is True
        assert json.loads(done.stdout)["workloads"]  # the command's own output is unchanged


def test_pydantic_plugin_loader_imports_importlib_metadata_only_when_it_looks_for_plugins():
    """``quiet_start.hold`` defers pydantic's ``importlib.metadata`` import (``defer_plugin_metadata``): a project
    model is built without it; with plugins turned on, pydantic's plugin discovery still gets the real entry points
    (the same as ``importlib.metadata.entry_points`` returns), importing the module then."""
    code = textwrap.dedent("""
        import os, sys
        from app import quiet_start
        quiet_start.hold()
        import models.project.model
        from models.project.model import Project
        Project()
        print("before", "importlib.metadata" in sys.modules, "pydantic.plugin._loader" in sys.modules)
        from pydantic.plugin import _loader
        os.environ[quiet_start.PLUGINS_SETTING] = ""
        _loader._plugins = None
        plugins = list(_loader.get_plugins())
        import importlib.metadata as real
        print("after", "importlib.metadata" in sys.modules, isinstance(real.entry_points(group="pydantic"),
              type(_loader.entry_points(group="pydantic"))), plugins == [])
    """)
    env = {k: v for k, v in os.environ.items() if k != quiet_start.PLUGINS_SETTING}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    assert out.split() == ["before", "False", "True", "after", "True", "True", "True"]
