"""The desktop app's start drops Python 3.11's ``EnumType.__getattr__`` as Python 3.12 did
(:func:`app.gui.fast_enum_class_attributes`, issue 27): enum classes, Qt's among them, behave as before, and no enum
class of the Qt modules StorPlan uses has a member its namespace lacks (the one case the hook answered)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

_PROBE = textwrap.dedent("""
    import enum, gc, json, sys
    from app.gui import fast_enum_class_attributes
    had_hook = "__getattr__" in vars(enum.EnumType)
    dropped = fast_enum_class_attributes()
    again = fast_enum_class_attributes()

    class Colour(enum.Enum):
        RED = 1
        GREEN = 2
        name = 3  # a member named as a property of Enum's: a redirect in the class namespace

    class Bits(enum.IntFlag):
        A = 1
        B = 2

    try:
        Colour.BLUE
        missing = "found"
    except AttributeError:
        missing = "AttributeError"
    import PySide6.QtCore, PySide6.QtGui, PySide6.QtWidgets
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication, QLabel, QMessageBox
    app = QApplication([])
    label = QLabel("x")
    label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    for module in (PySide6.QtCore, PySide6.QtGui, PySide6.QtWidgets):  # every class, so every enum class, built
        for attribute in dir(module):
            getattr(module, attribute, None)
    gc.unfreeze()
    enums = [c for c in gc.get_objects() if isinstance(c, type) and isinstance(c, enum.EnumType)]
    outside = sorted(f"{c.__qualname__}.{n}" for c in enums for n in c._member_map_
                     if not any(n in vars(k) for k in c.__mro__))
    print(json.dumps({
        "had_hook": had_hook, "dropped": dropped, "again": again, "hook_now": "__getattr__" in vars(enum.EnumType),
        "red": Colour.RED.value, "name": Colour.name.value, "by_name": Colour["RED"].value,
        "by_value": Colour(2).name, "missing": missing, "bits": int(Bits.A | Bits.B),
        "bits_name": (Bits.A | Bits.B).name,
        "aligned": bool(label.alignment() & Qt.AlignmentFlag.AlignRight),
        "ok": QMessageBox.StandardButton.Ok.name, "enums": len(enums), "outside": outside[:10]}))
""")


def test_enum_classes_behave_as_before_without_the_hook():
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    probe = json.loads(done.stdout.strip().splitlines()[-1])
    assert probe["dropped"] is probe["had_hook"]  # dropped where Python has it (3.11), nothing to do on 3.12+
    assert probe["again"] is False and probe["hook_now"] is False
    assert (probe["red"], probe["name"], probe["by_name"], probe["by_value"]) == (1, 3, 1, "GREEN")
    assert probe["missing"] == "AttributeError"
    assert probe["bits"] == 3 and probe["bits_name"] in ("A|B", "B|A")
    assert probe["aligned"] is True and probe["ok"] == "Ok"
    assert probe["enums"] > 500  # Qt's enum classes were all built and looked at
    assert probe["outside"] == []
