"""Every GUI setting declared once (key, type, default, doc) and read through one accessor.

Values live in ``QSettings`` (organisation "StorPlan", application "StorPlan"). Tests switch on
``QStandardPaths.setTestModeEnabled(True)`` so a developer's own settings are never touched.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QByteArray, QSettings


@dataclass(frozen=True)
class Setting:
    """One declared setting: its ``QSettings`` key ("group/name"), value type, default and a one-line doc.

    ``type`` is what `get` converts the stored value to (bool, int, str, list of str, or QByteArray); units, where a
    value has one, are in ``doc`` (e.g. ms, scene units).
    """

    key: str
    type: type
    default: Any
    doc: str


SETTINGS: dict[str, Setting] = {
    s.key: s
    for s in (
        Setting("files/recent", list, [], "Recently opened or saved project paths, newest first."),
        Setting("files/recent_max", int, 10, "How many recent files the File menu lists."),
        Setting("files/last_dir", str, "", "Folder of the last Open / Save dialog."),
        Setting("startup/open_example", bool, True, "Open the bundled example on start when no file is given."),
        Setting("canvas/snap_to_grid", bool, True, "Snap moved items to the canvas grid."),
        Setting("canvas/grid_size", int, 20, "Canvas grid spacing, scene units."),
        Setting("view/theme", str, "system", "Colour theme: system (follows the desktop), light or dark."),
        Setting("window/geometry", QByteArray, QByteArray(), "Main window geometry (saveGeometry)."),
        Setting("window/state", QByteArray, QByteArray(), "Dock and toolbar layout (saveState)."),
        Setting("results/capacity_splitter", QByteArray, QByteArray(),
                "Capacity tab: waterfall chart | steps table split (QSplitter.saveState)."),
        Setting("results/performance_charts", QByteArray, QByteArray(),
                "Performance tab: latency chart | utilisation split (QSplitter.saveState)."),
        Setting("evaluation/debounce_ms", int, 40, "Delay after an edit before the engine runs, ms."),
    )
}


def _store() -> QSettings:
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "StorPlan", "StorPlan")


def get(key: str) -> Any:
    """The value of a declared setting, converted to its type (the default when unset or unreadable)."""
    setting = SETTINGS[key]
    raw = _store().value(key, None)
    if raw is None:
        return setting.default
    try:
        if setting.type is bool:
            return raw if isinstance(raw, bool) else str(raw).lower() in ("1", "true", "yes")
        if setting.type is list:
            if isinstance(raw, str):
                return [raw] if raw else []
            return [str(v) for v in raw]
        if setting.type is QByteArray:
            return raw if isinstance(raw, QByteArray) else setting.default
        return setting.type(raw)
    except (TypeError, ValueError):
        return setting.default


def put(key: str, value: Any) -> None:
    """Store a declared setting (raises KeyError for an undeclared key)."""
    setting = SETTINGS[key]
    _store().setValue(setting.key, value)


def add_recent(path: str) -> list[str]:
    """Put a path first in the recent-files list; returns the new list."""
    recent = [p for p in get("files/recent") if p != path]
    recent.insert(0, path)
    recent = recent[: get("files/recent_max")]
    put("files/recent", recent)
    return recent
