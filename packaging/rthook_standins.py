"""Runtime hook of the frozen app (packaging/storplan.spec): stand-ins for modules the bundle leaves out although a
library imports them when it loads, for features StorPlan never uses.

- ``PySide6.QtOpenGL`` (8.9 MB): pyqtgraph's curve, colour-mesh and raw-image items import it when they load and
  use it only to draw through OpenGL (pyqtgraph's ``useOpenGL`` / ``enableExperimental`` options, GLViewWidget,
  RawImageGLWidget), which StorPlan never turns on: its charts draw with Qt's raster painter. The stand-in has no
  attributes; touching one says why. (PySide6.QtOpenGLWidgets stays: pyqtgraph subclasses its QOpenGLWidget when it
  loads, and it is 0.1 MB.)
- ``PIL`` (Pillow, 5.6 MB with its libraries): reportlab runs ``from PIL import Image`` when it loads, for the
  bitmaps a PDF may embed; StorPlan's report draws vector graphics and text only. The stand-in's ``Image`` is None,
  which is reportlab's own "no imaging library" state (``reportlab.lib.utils.haveImages`` is False; reading a bitmap
  fails with an error), and openpyxl's check for Pillow finds none either.
- ``scipy.optimize._highspy._core`` and ``_highs_options`` (the HiGHS linear-programming solver, 6 MB):
  ``scipy.optimize`` imports them when it loads, for linprog and milp; StorPlan's calibration fit calls
  least_squares only. The stand-ins give every name imported from them as a placeholder that raises when it is
  called or used.
- ``scipy.spatial`` (6 MB: Qhull, KD-trees, distances): ``scipy.optimize`` imports it when it loads
  (``scipy.optimize._shgo``: ``from scipy import spatial``) for the shgo global optimizer's Delaunay triangulation;
  StorPlan's fit calls least_squares only. A placeholder module as for HiGHS.
- ``numpy.f2py`` (the Fortran-to-Python interface generator, 0.25 MB of the archive): scipy's array API layer asks
  numpy for each of its public names when it loads (``hasattr(numpy, "f2py")`` imports the subpackage); StorPlan
  compiles no Fortran. A module without attributes, as for Qt's OpenGL.

Each finder is the last one Python asks, so it answers only when the real module is absent (a run from the source
tree, or a bundle that keeps the module, is unchanged).
"""

import importlib.machinery
import sys
import types


def _not_bundled(name, what):
    return f"{name} is not bundled with StorPlan ({what})"


class _NoAttributes(types.ModuleType):
    """A module whose every attribute access (but introspection's dunders) raises AttributeError, saying why."""

    _why = ""

    def __getattr__(self, attribute):
        if attribute.startswith("__"):  # hasattr(module, "__file__"), pickling...: a plain module
            raise AttributeError(attribute)
        raise AttributeError(f"{self.__name__}.{attribute}: {self._why}")


class _Placeholder:
    """What a placeholder module gives for a name: importable, and raising as soon as it is called or used."""

    def __init__(self, name, why):
        self._name, self._why = name, why

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"{self._name}: {self._why}")

    def __getattr__(self, attribute):
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        raise RuntimeError(f"{self._name}.{attribute}: {self._why}")

    def __repr__(self):
        return f"<{self._name}: not bundled>"


class _Placeholders(types.ModuleType):
    """A module that gives a placeholder for every name imported from it (``from module import a, b``)."""

    _why = ""

    def __getattr__(self, attribute):
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        return _Placeholder(f"{self.__name__}.{attribute}", self._why)


def _pil(module):
    module.Image = None


STAND_INS = {
    "PySide6.QtOpenGL": (_NoAttributes, "Qt's OpenGL module: StorPlan's charts draw without OpenGL", None),
    "PIL": (types.ModuleType, "Pillow: StorPlan's report embeds no bitmap", _pil),
    "scipy.optimize._highspy._core": (
        _Placeholders, "scipy's HiGHS solver for linprog and milp: StorPlan's fit uses least_squares", None),
    "scipy.optimize._highspy._highs_options": (
        _Placeholders, "scipy's HiGHS solver for linprog and milp: StorPlan's fit uses least_squares", None),
    "scipy.spatial": (
        _Placeholders, "scipy's spatial algorithms, for the shgo global optimizer: StorPlan's fit uses least_squares",
        None),
    "numpy.f2py": (_NoAttributes, "numpy's Fortran interface generator: StorPlan compiles no Fortran", None),
}
"""Module name -> (module type, why it is not bundled, what to set on the stand-in)."""


class _Loader:
    @staticmethod
    def create_module(spec):
        kind, what, fill = STAND_INS[spec.name]
        module = kind(spec.name)
        module._why = _not_bundled(spec.name, what)
        if fill:
            fill(module)
        return module

    @staticmethod
    def exec_module(module):
        pass


class StandInFinder:
    """The finder: a stand-in module for a name of STAND_INS that no other finder found."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        if fullname not in STAND_INS:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Loader(), origin="not bundled")

    @staticmethod
    def invalidate_caches():
        pass


sys.meta_path.append(StandInFinder())
