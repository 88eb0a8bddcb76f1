"""Where bundled resources and user files live, resolved in one place (source tree or a frozen build)."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def resources_dir() -> Path:
    """The ``resources/`` folder: beside the packages in a source tree, under ``sys._MEIPASS`` when frozen."""
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root:
        return Path(frozen_root) / "resources"
    return Path(__file__).resolve().parents[1] / "resources"


def catalog_dir() -> Path:
    """The bundled hardware catalog: ``resources/catalog/`` (one TOML file per record family)."""
    return resources_dir() / "catalog"


def workloads_dir() -> Path:
    """The bundled workload presets: ``resources/workloads/`` (``presets.toml``)."""
    return resources_dir() / "workloads"


def examples_dir() -> Path:
    """The bundled example projects: ``resources/examples/`` (one ``.toml`` project per seed system)."""
    return resources_dir() / "examples"


def validation_dir() -> Path:
    """The published measurements the model is validated against: ``resources/validation/`` (``published.toml``)."""
    return resources_dir() / "validation"


def user_data_dir() -> Path:
    """The per-user data folder (``STORPLAN_HOME`` overrides it, e.g. in tests)."""
    override = os.environ.get("STORPLAN_HOME")
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share"))
    return base / "StorPlan"


def user_catalog_path() -> Path:
    """The user's own catalog records (drives, controllers, VMs they defined)."""
    return user_data_dir() / "user_catalog.toml"


def example_titles() -> list[tuple[str, Path]]:
    """(title, path) of every bundled example, its title the project's name (``[project] name``; the file name
    when a file has none or does not parse), in file-name order (a menu sorts them by title:
    ``models.formatting.natural_key``). Reads only the files' text."""
    import tomllib

    folder = examples_dir()
    out: list[tuple[str, Path]] = []
    for path in sorted(folder.glob("*.toml")) if folder.is_dir() else []:
        try:
            name = tomllib.loads(path.read_text(encoding="utf-8")).get("project", {}).get("name", "")
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            name = ""
        out.append((name.strip() if isinstance(name, str) and name.strip() else path.stem.replace("-", " "), path))
    return out
