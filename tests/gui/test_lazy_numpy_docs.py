"""numpy's docstrings held from its import until the first results (app.gui.lazy_numpy_docs): none are attached
while held, and once attached every documented object of numpy (its namespace, numpy._core, ndarray, dtype and the
scalar types' attributes: over a thousand) reads as after a plain import."""

from __future__ import annotations

import json
import subprocess
import sys

from app.gui import lazy_numpy_docs

DOCS = r"""
import hashlib, json

def texts():
    import numpy

    out = {}
    spaces = {"numpy": numpy, "numpy._core": numpy._core, "numpy.ndarray": numpy.ndarray,
              "numpy.dtype": numpy.dtype, "numpy.generic": numpy.generic}
    for label, space in spaces.items():
        for name in sorted(dir(space)):
            try:
                obj = getattr(space, name)
            except Exception:
                continue
            doc = getattr(obj, "__doc__", None)
            sig = getattr(obj, "__text_signature__", None)
            out[f"{label}.{name}"] = hashlib.sha1(repr((doc, sig)).encode()).hexdigest()
    return out
"""

HELD = DOCS + r"""
from app.gui import lazy_numpy_docs
assert lazy_numpy_docs.install()
import numpy
# methods' documentation is read from their C definition each time: reading it here changes nothing
held_docs = [getattr(numpy.ndarray, name).__doc__ for name in ("sum", "reshape", "astype", "tolist")]
count = lazy_numpy_docs.attach()
print(json.dumps({"after": texts(), "count": count, "held_docs": held_docs, "again": lazy_numpy_docs.attach()}))
"""

PLAIN = DOCS + r"""
print(json.dumps(texts()))
"""


def _run(code: str) -> object:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout)


def test_docs_held_then_as_a_plain_import():
    held = _run(HELD)
    plain = _run(PLAIN)
    assert held["count"] == len(lazy_numpy_docs.DEFERRED)
    assert held["again"] == 0
    assert held["held_docs"] == [None] * 4  # held: these methods have no documentation yet
    assert len(plain) > 1000
    assert held["after"] == plain  # every docstring and text signature as numpy's own import leaves them


def test_not_installed_when_numpy_is_imported():
    import numpy  # noqa: F401

    assert lazy_numpy_docs.install() is False
