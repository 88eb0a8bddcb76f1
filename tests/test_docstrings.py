"""Every public module, class, function and method of models/ and app/ has a docstring (interrogate, 100%).

The rules are pyproject.toml's [tool.interrogate] table, the same ones `uv run interrogate models app` applies:
private (_x) and dunder names, __init__ methods, nested functions, property setters and typing overloads are
not counted. The test reads that table itself, so a misspelt key there fails here instead of being ignored.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from interrogate.config import InterrogateConfig
from interrogate.coverage import InterrogateCoverage

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("models", "app")

# [tool.interrogate] keys are interrogate's command-line option names; most match InterrogateConfig's fields.
CLI_TO_CONFIG = {"ignore_setters": "ignore_property_setters", "whitelist_regex": "include_regex",
                 "style": "docstring_style"}
CLI_ONLY = {"exclude", "verbose", "quiet", "ext", "output", "generate_badge", "badge_format", "badge_style"}


def _pyproject_settings() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as handle:
        table = tomllib.load(handle)["tool"]["interrogate"]
    return {key.replace("-", "_"): value for key, value in table.items()}


def _config(settings: dict) -> InterrogateConfig:
    fields = {a.name for a in InterrogateConfig.__attrs_attrs__}
    values = {}
    for key, value in settings.items():
        if key in CLI_ONLY:
            continue
        name = CLI_TO_CONFIG.get(key, key)
        assert name in fields, f"[tool.interrogate] has an unknown key '{key}'"
        values[name] = value
    return InterrogateConfig(**values)


def test_interrogate_config_is_the_documented_one():
    settings = _pyproject_settings()
    conf = _config(settings)
    assert conf.fail_under == 100
    assert conf.ignore_semiprivate and conf.ignore_private and conf.ignore_magic and conf.ignore_init_method
    assert conf.ignore_nested_functions and conf.ignore_property_setters and conf.ignore_overloaded_functions
    assert not conf.ignore_module and not conf.ignore_regex


def test_every_public_name_has_a_docstring():
    settings = _pyproject_settings()
    excluded = tuple(str(ROOT / p) for p in settings.get("exclude", ()))
    coverage = InterrogateCoverage(paths=[str(ROOT / p) for p in PACKAGES], conf=_config(settings), excluded=excluded)
    results = coverage.get_coverage()
    missing = [
        f"{Path(file.filename).relative_to(ROOT)}:{node.lineno or 1} {node.path.split(':')[-1] or node.node_type}"
        for file in results.file_results
        for node in file.nodes
        if not node.covered
    ]
    assert results.total > 500, "interrogate found too few names: is it looking at models/ and app/?"
    assert not missing, f"{len(missing)} public names without a docstring:\n" + "\n".join(missing)
    assert results.perc_covered == 100.0
