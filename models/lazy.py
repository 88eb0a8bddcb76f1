"""A package's offered names loaded on first use (PEP 562 module ``__getattr__`` / ``__dir__``), as
``models.present`` and ``models.store`` offer theirs: importing the package loads none of its modules."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package`` (its ``__name__``) whose names ``exports`` maps to the
    module of the package each comes from: the first use of a name imports its module and keeps the value in the
    package (later uses do not come here again).

    Raises (from the returned ``__getattr__``):
        AttributeError: a name ``exports`` does not offer.
    """

    def __getattr__(name: str) -> Any:  # noqa: N807 - the module-level hook PEP 562 names
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        vars(sys.modules[package])[name] = value
        return value

    def __dir__() -> list[str]:  # noqa: N807
        return sorted({*vars(sys.modules[package]), *exports})

    return __getattr__, __dir__


__all__ = ["lazy_exports"]
