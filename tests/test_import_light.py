"""What a start imports does no work it does not need: the customer citations' rewrite patterns are compiled when
the first citation is made, not when the presentation layer is imported (every command and the first window import
it; few cite anything)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

_PROBE = textwrap.dedent("""
    import json
    import models.present  # what evaluate --json and the first window import
    from models.present import citations
    before = citations._rx.cache_info().currsize
    text = citations.customer_citation("NetAppDocs ontap-systems, 'a70-90/install-overview.adoc' (HEAD 0123abc)")
    print(json.dumps({"before": before, "after": citations._rx.cache_info().currsize, "text": text}))
""")


def test_citation_patterns_are_compiled_on_the_first_citation_only():
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    probe = json.loads(done.stdout.strip().splitlines()[-1])
    assert probe["before"] == 0 and probe["after"] == 1
    # the rewrites still apply, in order: the documentation path becomes its published page, the HEAD note goes
    assert probe["text"] == "https://docs.netapp.com/us-en/ontap-systems/a70-90/install-overview.html"


_PACKAGE_PROBE = textwrap.dedent("""
    import json, sys
    import models.present
    before = sorted(m for m in sys.modules if m.startswith("models.present."))
    from models.present import scenario_waterfall, verdicts
    after = sorted(m for m in sys.modules if m.startswith("models.present."))
    print(json.dumps({"before": before, "after": after, "verdicts": callable(verdicts),
                      "waterfall": scenario_waterfall.__module__}))
""")


def test_the_presentation_package_loads_a_module_when_one_of_its_names_is_first_asked_for():
    """``import models.present`` loads only its verdicts (whose function shares the module's name), the profile
    kinds' words they read (models.present.profile_words) and the verdict line's record they build
    (models.present.verdict_line); any other name loads its own module on first use, and is
    the same object as the module's."""
    done = subprocess.run([sys.executable, "-c", _PACKAGE_PROBE], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    probe = json.loads(done.stdout.strip().splitlines()[-1])
    assert probe["before"] == ["models.present.profile_words", "models.present.verdict_line", "models.present.verdicts"]
    assert "models.present.waterfall" in probe["after"]
    assert "models.present.comparison" not in probe["after"]  # nothing asked for from it
    assert probe["waterfall"] == "models.present.waterfall"
    assert probe["verdicts"] is True  # the function, not its module


def test_every_name_the_presentation_package_offers_is_its_module_s_own():
    import importlib

    import models.present as present

    assert set(present._EXPORTS) == set(present.__all__)
    for name, module in present._EXPORTS.items():
        assert getattr(present, name) is getattr(importlib.import_module(f"models.present.{module}"), name)


def test_evaluating_a_current_design_does_not_import_scipy():
    """``storplan evaluate --json`` of the default example never fits anything: scipy (~0.3 s of imports) stays out;
    the pooled software fit imports it when a platform first needs the fit (an ONTAP release older than every
    calibrated one)."""
    from models.resources import examples_dir

    probe = textwrap.dedent(f"""
        import contextlib, io, json, sys
        from app.cli import main
        with contextlib.redirect_stdout(io.StringIO()):
            main(["evaluate", {str(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml")!r}, "--json"])
        print(json.dumps(sorted(m for m in sys.modules if m == "scipy" or m.startswith("scipy."))))
    """)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


_CAPACITY_PROBE = textwrap.dedent("""
    import json, sys
    from models.capacity import rules  # what the inspector and the RAID labels read
    from models.capacity.layout import ARRAY_RAID
    light = sorted(m for m in sys.modules if m.startswith("models.capacity."))
    from models.capacity import evaluate_capacity
    print(json.dumps({"light": light, "engine": "models.capacity.engine" in sys.modules,
                      "function": evaluate_capacity.__module__, "raid": list(ARRAY_RAID), "rules": rules.__name__}))
""")


def test_the_capacity_package_loads_its_engines_when_one_of_their_names_is_first_asked_for():
    """The RAID rules and layout names (the first window's inspector and labels) load without the capacity engines;
    ``evaluate_capacity`` loads them on first use."""
    done = subprocess.run([sys.executable, "-c", _CAPACITY_PROBE], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    probe = json.loads(done.stdout.strip().splitlines()[-1])
    assert "models.capacity.engine" not in probe["light"] and "models.capacity.array" not in probe["light"]
    assert "models.capacity.rules" in probe["light"]
    assert probe["engine"] is True and probe["function"] == "models.capacity.engine"
    assert probe["raid"][0] == "none" and probe["rules"] == "models.capacity.rules"


def test_every_name_the_capacity_package_offers_is_its_module_s_own():
    import importlib

    import models.capacity as capacity

    assert set(capacity._EXPORTS) == set(capacity.__all__)
    for name, module in capacity._EXPORTS.items():
        assert getattr(capacity, name) is getattr(importlib.import_module(f"models.capacity.{module}"), name)
