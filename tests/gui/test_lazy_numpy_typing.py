"""numpy's typing packages run on first use (app.gui.lazy_numpy_typing): numpy's import and pyqtgraph's use of
``numpy.typing.ArrayLike`` leave them unexecuted, and once anything else is asked they are the packages a plain
import makes (same names, same objects, the same annotations in numpy.linalg)."""

from __future__ import annotations

import json
import subprocess
import sys

from app.gui import lazy_numpy_typing

SNAPSHOT = r"""
def snapshot():
    import re
    import numpy, numpy.typing, numpy._typing, numpy.linalg._linalg as la
    out = {}
    for label, space in (("typing", numpy.typing), ("_typing", numpy._typing)):
        for name in sorted(vars(space)):
            if not name.startswith("__"):
                out[f"{label}.{name}"] = re.sub(" at 0x[0-9a-f]+", "", repr(getattr(space, name)))
    out["annotations"] = repr([la.EigResult.__annotations__, la.SVDResult.__annotations__])
    return out
"""

LAZY = SNAPSHOT + r"""
import json, sys
from app.gui import lazy_numpy_typing
assert lazy_numpy_typing.install()
import numpy
import numpy.typing as npt
served = [npt.ArrayLike, npt.NDArray]  # what pyqtgraph's ImageItem and numpy.linalg ask
kinds = [type(sys.modules[name]).__name__ for name in ("numpy._typing", "numpy.typing")]
loaded = sorted(name for name in sys.modules if name.startswith("numpy._typing."))
from numpy._typing import _array_like
same = [served[0] is _array_like.ArrayLike, served[1] is _array_like.NDArray]
dtype_like = npt.DTypeLike  # anything else: the package's __init__ runs
kinds_after = [type(sys.modules[name]).__name__ for name in ("numpy._typing", "numpy.typing")]
same += [npt.NDArray is numpy._typing.NDArray is _array_like.NDArray, npt.ArrayLike is numpy._typing.ArrayLike,
         dtype_like is numpy._typing.DTypeLike]
print(json.dumps({"kinds": kinds, "loaded": loaded, "same": same, "kinds_after": kinds_after,
                  "snapshot": snapshot()}))
"""

PLAIN = SNAPSHOT + r"""
import json
print(json.dumps(snapshot()))
"""


def _run(code: str) -> object:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout)


def test_typing_packages_lazy_then_as_a_plain_import():
    lazy = _run(LAZY)
    plain = _run(PLAIN)
    assert lazy["kinds"] == ["LazyTypingPackage", "LazyTypingPackage"]
    assert lazy["loaded"] == ["numpy._typing._array_like", "numpy._typing._nbit_base", "numpy._typing._nested_sequence",
                              "numpy._typing._shape"]  # not _char_codes, _dtype_like, _scalars, _ufunc, ...
    assert lazy["same"] == [True] * 5
    assert lazy["kinds_after"] == ["module", "module"]
    assert len(plain) > 100
    assert lazy["snapshot"] == plain


def test_not_installed_when_numpy_is_imported():
    import numpy  # noqa: F401

    assert lazy_numpy_typing.install() is False
