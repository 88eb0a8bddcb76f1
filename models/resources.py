"""Where bundled resources and user files live, resolved in one place (source tree or a frozen build)."""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path


def resources_dir() -> Path:
    """The ``resources/`` folder: beside the packages in a source tree, under ``sys._MEIPASS`` when frozen."""
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root:
        return Path(frozen_root) / "resources"
    return _source_resources_dir()


@lru_cache(maxsize=1)
def _source_resources_dir() -> Path:
    """``resources/`` beside the packages, resolved once per process: this module's file does not move while it
    runs, and resolving its path looks at every folder on the way (an evaluation asked about 20 times, each bundled
    catalog file's cache among them)."""
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


_HOME_VARIABLES = ("STORPLAN_HOME", "APPDATA", "XDG_DATA_HOME", "HOME", "USERPROFILE", "HOMEDRIVE", "HOMEPATH")
"""The environment variables the per-user folder is found from (``Path.home()`` reads HOME, or USERPROFILE /
HOMEDRIVE + HOMEPATH on Windows)."""


def user_data_dir() -> Path:
    """The per-user data folder (``STORPLAN_HOME`` overrides it, e.g. in tests)."""
    return _user_paths(sys.platform, tuple(os.environ.get(name) for name in _HOME_VARIABLES))[0]


def user_catalog_path() -> Path:
    """The user's own catalog records (drives, controllers, VMs they defined)."""
    return _user_paths(sys.platform, tuple(os.environ.get(name) for name in _HOME_VARIABLES))[1]


@lru_cache(maxsize=8)
def _user_paths(platform: str, environment: tuple[str | None, ...]) -> tuple[Path, Path]:
    """(:func:`user_data_dir`, :func:`user_catalog_path`) on ``platform`` (``sys.platform``) for these values of
    :data:`_HOME_VARIABLES` (cached per values: every evaluation looks for the user's catalog, and building the paths
    cost more than the look)."""
    override = environment[0]
    if override:
        base = Path(override)
        return base, base / "user_catalog.toml"
    if platform == "win32":
        base = Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming"))
    elif platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share"))
    folder = base / "StorPlan"
    return folder, folder / "user_catalog.toml"


def _project_table_name(text: str) -> str | None:
    """``name`` of the ``[project]`` table, parsed from that table's own lines (from its header to the next table
    header); None when there is no such header, the lines do not parse on their own or hold no string ``name``."""
    import re
    import tomllib

    header = re.search(r"(?m)^\[project\][ \t]*(?:#.*)?$", text)
    if header is None:
        return None
    following = re.search(r"(?m)^[ \t]*\[", text[header.end():])
    table = text[header.start():header.end() + following.start()] if following else text[header.start():]
    try:
        name = tomllib.loads(table).get("project", {}).get("name")
    except tomllib.TOMLDecodeError:
        return None
    return name if isinstance(name, str) else None


def example_titles() -> list[tuple[str, Path]]:
    """(title, path) of every bundled example, its title the project's name (``[project] name``; the file name
    when a file has none or does not parse), in file-name order (a menu sorts them by title:
    ``models.formatting.natural_key``). Reads only the files' text, and parses only each file's ``[project]`` table
    when that table alone parses and names the project (the whole file otherwise): the main window's menu lists
    them before its first paint, and the 26 examples parsed whole cost ~20 ms of every start."""
    import tomllib

    folder = examples_dir()
    out: list[tuple[str, Path]] = []
    for path in sorted(folder.glob("*.toml")) if folder.is_dir() else []:
        try:
            text = path.read_text(encoding="utf-8")
            name = _project_table_name(text)
            if name is None:
                name = tomllib.loads(text).get("project", {}).get("name", "")
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            name = ""
        out.append((name.strip() if isinstance(name, str) and name.strip() else path.stem.replace("-", " "), path))
    return out
