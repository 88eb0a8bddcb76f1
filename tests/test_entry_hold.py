"""The ``storplan`` console script and ``python -m app`` hold the cyclic collector (``app.quiet_start.hold``) before
the command line's modules are imported (``app.__main__.main``), and run the same ``app.cli.main``."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

_PROBE = textwrap.dedent("""
    import gc, json, sys
    seen = {}

    class Watch:
        def find_spec(self, name, path=None, target=None):
            if name == "app.cli":
                seen["collector on while app.cli is imported"] = gc.isenabled()
            return None

    sys.meta_path.insert(0, Watch())
    sys.argv = ["storplan", "examples"]
    from app.__main__ import main
    import io, contextlib
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main()
    seen["status"] = status
    seen["collector on after the command"] = gc.isenabled()
    seen["examples"] = len(out.getvalue().splitlines())
    print(json.dumps(seen))
""")


def test_the_entry_holds_the_collector_before_the_command_line_is_imported():
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen == {"collector on while app.cli is imported": False, "status": 0,
                    "collector on after the command": True, "examples": seen["examples"]}
    assert seen["examples"] > 20


def test_the_console_script_is_that_entry():
    pyproject = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["scripts"]["storplan"] == "app.__main__:main"
