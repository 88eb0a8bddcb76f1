"""Runtime hook of the frozen app (packaging/storplan.spec): a stand-in for PySide6.QtOpenGL, which the bundle leaves
out (its Python module alone is 8.9 MB).

pyqtgraph's curve, colour-mesh and raw-image items import PySide6.QtOpenGL when they load, and use it only when they
draw through OpenGL (pyqtgraph's ``useOpenGL`` / ``enableExperimental`` options, GLViewWidget, RawImageGLWidget),
which StorPlan never turns on: its charts draw with Qt's raster painter. The finder below is the last one Python
asks, so it answers only when the real module is absent; its module has no attributes, and touching one says why.
(PySide6.QtOpenGLWidgets stays: pyqtgraph subclasses its QOpenGLWidget when it loads, and it is 0.1 MB.)
"""

import importlib.machinery
import sys
import types

NAME = "PySide6.QtOpenGL"


class _NotBundled(types.ModuleType):
    def __getattr__(self, attribute):
        if attribute.startswith("__"):  # introspection (hasattr(module, "__file__"), pickling...) sees a plain module
            raise AttributeError(attribute)
        raise AttributeError(f"{NAME}.{attribute}: Qt's OpenGL module is not bundled with StorPlan (its charts draw "
                             "without OpenGL)")


class _Loader:
    @staticmethod
    def create_module(spec):
        return _NotBundled(spec.name)

    @staticmethod
    def exec_module(module):
        pass


class _Finder:
    @staticmethod
    def find_spec(fullname, path=None, target=None):
        if fullname != NAME:
            return None
        return importlib.machinery.ModuleSpec(NAME, _Loader(), origin="not bundled")

    @staticmethod
    def invalidate_caches():
        pass


sys.meta_path.append(_Finder())
