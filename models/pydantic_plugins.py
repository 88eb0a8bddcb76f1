"""No pydantic plugin scan at start-up: StorPlan uses no pydantic plugins.

pydantic looks for plugins the first time it builds a model class: its plugin loader imports ``importlib.metadata``
(about 35 ms of CPU on the 2-core reference machine, for the ``email``, ``zipfile`` and ``csv`` modules it pulls in)
and scans every installed package's entry points, to find none. :func:`skip_plugin_scan` puts a loader that finds
none in its place before pydantic imports its own, as pydantic's documented ``PYDANTIC_DISABLE_PLUGINS=__all__``
would make it answer. ``models/__init__.py`` calls it, so every process that uses the model (the desktop app, its
worker process, the command line, the tests) behaves alike.
"""

from __future__ import annotations

import os
import sys
import types
from collections.abc import Iterable
from typing import Any

LOADER = "pydantic.plugin._loader"
"""The module pydantic imports its plugin loader from (pydantic 2.x: ``get_plugins()``)."""


def _no_plugins() -> Iterable[Any]:
    return ()


def _real_loader_attribute(name: str) -> Any:
    """A name the stand-in lacks (a newer pydantic's loader may offer more): pydantic's own loader is imported now,
    takes the stand-in's place, and answers."""
    if name.startswith("__"):
        raise AttributeError(name)
    import importlib

    if getattr(sys.modules.get(LOADER), "STORPLAN_STAND_IN", False):
        del sys.modules[LOADER]
    return getattr(importlib.import_module(LOADER), name)


def skip_plugin_scan() -> bool:
    """Give pydantic a plugin loader that finds no plugins, unless its own is imported already or the environment
    asks for plugins (``PYDANTIC_DISABLE_PLUGINS`` set to anything but ``__all__``, ``1`` or ``true``: pydantic's
    own loader then reads it). Returns True when the stand-in is in place."""
    if LOADER in sys.modules and not getattr(sys.modules[LOADER], "STORPLAN_STAND_IN", False):
        return False
    if os.environ.get("PYDANTIC_DISABLE_PLUGINS", "__all__") not in ("__all__", "1", "true"):
        return False
    stand_in = types.ModuleType(LOADER, "StorPlan's stand-in for pydantic's plugin loader: no plugins.")
    setattr(stand_in, "get_plugins", _no_plugins)  # noqa: B010 - a module made here, not a typed one
    setattr(stand_in, "STORPLAN_STAND_IN", True)  # noqa: B010
    setattr(stand_in, "__getattr__", _real_loader_attribute)  # noqa: B010
    sys.modules[LOADER] = stand_in
    return True
