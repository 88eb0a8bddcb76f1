"""The packaging helpers without a build: build.py's size table, the ICU data subset's choice of items and the runtime
hook's stand-ins for the modules the bundle leaves out."""

import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packaging"))

import build  # noqa: E402
import icu_data  # noqa: E402


def test_package_of_groups_a_wheels_libraries_with_it():
    assert build.package_of("scipy.libs") == build.package_of("scipy") == "scipy"
    assert build.package_of("numpy.libs") == "numpy"
    assert build.package_of("pillow.libs") == build.package_of("PIL") == "Pillow"
    assert build.package_of("libpython3.11.so.1.0") == build.package_of("python3.11") == "Python runtime"
    assert build.package_of("base_library.zip") == "Python runtime"
    assert build.package_of("libX11.so.6") == "system libraries"
    assert build.package_of("numpy-2.4.6.dist-info") == "package metadata"
    assert build.package_of("pydantic_core") == "pydantic_core"


def test_package_table_adds_up_to_the_folder(tmp_path):
    app = tmp_path / "storplan"
    (app / "_internal" / "scipy").mkdir(parents=True)
    (app / "_internal" / "scipy.libs").mkdir()
    (app / "storplan").write_bytes(b"x" * 50)
    (app / "_internal" / "scipy" / "a.so").write_bytes(b"x" * 100)
    (app / "_internal" / "scipy.libs" / "b.so").write_bytes(b"x" * 200)
    (app / "_internal" / "libz.so.1").write_bytes(b"x" * 10)
    (app / "_internal" / "link.so").symlink_to("libz.so.1")
    table = build.package_table(app)
    assert table[0] == ("scipy", 300, 2)
    assert ("system libraries", 10, 1) in table
    assert sum(size for _, size, _ in table) == build.folder_size_bytes(app) == 360
    assert build.largest_files(app, top=1) == [(str(Path("_internal/scipy.libs/b.so")), 200)]


def test_icu_items_kept_and_left_out():
    keep = ["root.res", "en.res", "en_GB.res", "res_index.res", "pool.res", "coll/root.res", "coll/en.res",
            "coll/ucadata.icu", "zone/en.res", "zone/tzdbNames.res", "zoneinfo64.res", "metaZones.res",
            "likelySubtags.res", "supplementalData.res", "cnvalias.icu", "uts46.nrm", "curr/supplementalData.res"]
    leave = ["de.res", "sr_Latn_BA.res", "coll/de.res", "coll/de_.res", "zone/fr.res", "lang/ja.res",
             "brkitr/root.res", "brkitr/cjdict.dict", "rbnf/en.res", "translit/root.res"]
    assert not [name for name in keep if icu_data.unused(name, 1000)]
    assert [name for name in leave if icu_data.unused(name, 1000)] == leave
    assert not icu_data.unused("ibm-5348_P100-1997.cnv", 30_000)  # windows-1252: single-byte, kept
    assert icu_data.unused("ibm-943_P15A-2003.cnv", 200_000)  # Shift-JIS: multi-byte, left out


def test_icu_items_reads_a_package_table_of_contents():
    header = struct.pack("<H", 16) + bytes(14)
    names = b"pkg/a.res\0pkg/coll/de.res\0"
    toc_size = 4 + 2 * 8
    first = toc_size + len(names)
    toc = struct.pack("<III", 2, toc_size, first) + struct.pack("<II", toc_size + 10, first + 7)
    data = header + toc + names + b"A" * 7 + b"B" * 5
    assert icu_data.items(data) == {"a.res": 7, "coll/de.res": 5}


def _bundled_icu_library() -> Path | None:
    """PySide6's own ICU data library (Linux wheels ship one; Windows and macOS Qt use the system's)."""
    import PySide6

    return next((Path(PySide6.__file__).parent / "Qt" / "lib").glob("libicudata.so.*"), None)


@pytest.mark.skipif(not sys.platform.startswith("linux") or not icu_data.tools_present()
                    or _bundled_icu_library() is None,
                    reason="Linux, PySide6's ICU data library and readelf, icupkg and cc (what the subset needs)")
def test_icu_subset_of_the_bundled_library(tmp_path):
    library = _bundled_icu_library()
    symbol, data = icu_data.data_blob(library)
    assert symbol.startswith("icudt") and len(icu_data.items(data)) > 1000
    out = icu_data.subset_library(library, tmp_path)
    assert out.name == library.name and out.stat().st_size < 0.25 * library.stat().st_size
    listed = subprocess.run([shutil.which("icupkg"), "-l", str(tmp_path / "subset" / f"{symbol[:-4]}l.dat")],
                            capture_output=True, text=True, check=True).stdout.split()
    assert {"root.res", "en.res", "coll/ucadata.icu", "zoneinfo64.res", "cnvalias.icu"} <= set(listed)
    assert "de.res" not in listed and not any(name.startswith("brkitr/") for name in listed)
    soname = subprocess.run(["readelf", "-dW", str(out)], capture_output=True, text=True, check=True).stdout
    assert f"[{library.name}]" in soname


def _stand_ins(monkeypatch):
    """packaging/rthook_standins.py run on a copy of sys.meta_path: its namespace (the copy goes with the test)."""
    import runpy

    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    namespace = runpy.run_path(str(ROOT / "packaging" / "rthook_standins.py"))
    assert isinstance(sys.meta_path[-1], namespace["StandInFinder"])  # asked last: only when the real module is absent
    return namespace


def _stand_in(namespace, name):
    import importlib.util

    return importlib.util.module_from_spec(namespace["StandInFinder"].find_spec(name))


def test_stand_ins_answer_their_names_only(monkeypatch):
    finder = _stand_ins(monkeypatch)["StandInFinder"]
    assert finder.find_spec("PySide6.QtCore") is None and finder.find_spec("PIL.Image") is None
    assert finder.find_spec("scipy.optimize._highspy") is None


def test_stand_ins_say_what_is_not_bundled(monkeypatch):
    namespace = _stand_ins(monkeypatch)
    opengl = _stand_in(namespace, "PySide6.QtOpenGL")
    assert not hasattr(opengl, "__file__")
    with pytest.raises(AttributeError, match="not bundled with StorPlan"):
        _ = opengl.QOpenGLBuffer
    assert _stand_in(namespace, "PIL").Image is None  # reportlab's "no imaging library": `from PIL import Image`
    core = _stand_in(namespace, "scipy.optimize._highspy._core")
    status = core.HighsModelStatus  # importable (`from ._highspy._core import HighsModelStatus`), unusable
    with pytest.raises(RuntimeError, match="HiGHS"):
        _ = status.kOptimal
    with pytest.raises(RuntimeError, match="not bundled with StorPlan"):
        core.HighsLp()


def test_libraries_load_and_work_on_the_stand_ins():
    """pyqtgraph, reportlab and scipy's least_squares import (and the fit runs) with the stand-ins in front of the
    real modules: what the frozen app does without them (a library that starts using one when it loads fails here
    before the frozen build does)."""
    script = f"""
import runpy, sys
namespace = runpy.run_path({str(ROOT / "packaging" / "rthook_standins.py")!r})
sys.meta_path.insert(0, sys.meta_path.pop())
import pyqtgraph.graphicsItems.PlotCurveItem as curves
import reportlab.lib.utils
from scipy.optimize import least_squares
assert curves.QtOpenGL.__spec__.origin == "not bundled", curves.QtOpenGL
assert reportlab.lib.utils.haveImages is False
assert abs(least_squares(lambda x: x - 3.0, [0.0]).x[0] - 3.0) < 1e-9
assert all(sys.modules[name].__spec__.origin == "not bundled" for name in namespace["STAND_INS"])
print("ok")
"""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr[-3000:]
