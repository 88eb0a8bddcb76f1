"""pydantic's plugin scan is skipped (models.pydantic_plugins): no package metadata is read to build the model,
pydantic still validates, and a name the stand-in lacks is answered by pydantic's own loader."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_the_model_is_built_without_reading_package_metadata():
    out = _run("""
        import sys
        import models.catalog, models.project.model
        from models.catalog import Drive
        from pydantic import ValidationError
        try:
            Drive.model_validate({"id": "x"})
        except ValidationError as exc:
            print("refused", len(exc.errors()) > 0)
        print("metadata", "importlib.metadata" in sys.modules)
        print("stand-in", getattr(sys.modules["pydantic.plugin._loader"], "STORPLAN_STAND_IN", False))
    """)
    assert out.splitlines() == ["refused True", "metadata False", "stand-in True"]


def test_a_name_the_stand_in_lacks_comes_from_pydantic_s_own_loader():
    out = _run("""
        import sys
        import models
        loader = sys.modules["pydantic.plugin._loader"]
        print(list(loader.get_plugins()))
        print(loader.PYDANTIC_ENTRY_POINT_GROUP)  # only pydantic's own loader defines it
        real = sys.modules["pydantic.plugin._loader"]
        print(real is not loader, getattr(real, "STORPLAN_STAND_IN", False))
    """)
    assert out.splitlines() == ["[]", "pydantic", "True False"]


def test_plugins_asked_for_in_the_environment_are_left_to_pydantic():
    import os

    env = {**os.environ, "PYDANTIC_DISABLE_PLUGINS": "some-plugin"}
    done = subprocess.run([sys.executable, "-c", "import sys, models; "
                           "print(getattr(sys.modules.get('pydantic.plugin._loader'), 'STORPLAN_STAND_IN', False))"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "False"
