"""The compiled methods of dataclasses kept between runs (``app.method_cache``): a second start compiles none of
them, and a command prints the same text with or without the cache."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
import textwrap
import zlib
from pathlib import Path

from app import method_cache
from app.gui.project_io import DEFAULT_EXAMPLE

_PROBE = textwrap.dedent(f"""
    import contextlib, io, json, sys
    sys.argv = ["storplan", "evaluate", {DEFAULT_EXAMPLE.removesuffix(".toml")!r}, "--json"]
    import dataclasses, typing
    from app import method_cache
    from models.queueing import generated_code
    from app.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main()  # as the console script calls it: the process's own start installs the cache
    print(json.dumps({{"text": out.getvalue(), "compiled": len(method_cache._compiled),
                      "cached": len(method_cache._codes), "installed": dataclasses.exec is method_cache._exec
                      and typing.compile is method_cache._compile
                      and generated_code.compile_text is method_cache._compile_generated}}))
""")


def _run(home: Path) -> dict:
    env = {**os.environ, "STORPLAN_HOME": str(home)}
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_second_start_compiles_no_method_and_prints_the_same(tmp_path, capsys):
    first = _run(tmp_path)
    assert first["installed"] is True
    assert first["compiled"] > 100  # an empty cache: every method of every dataclass compiled (and saved at exit)
    assert (tmp_path / method_cache.CACHE_FOLDER).is_dir()
    second = _run(tmp_path)
    assert second["compiled"] == 0 and second["cached"] >= first["compiled"]
    assert second["text"] == first["text"]
    from app.cli import main  # this process: no cache installed (only the entry points install it)

    assert main(["evaluate", DEFAULT_EXAMPLE.removesuffix(".toml"), "--json"]) in (0, 1)
    assert capsys.readouterr().out == first["text"]
    import dataclasses

    assert "exec" not in vars(dataclasses)  # a caller running commands in its own process keeps the builtin
    import typing

    assert "compile" not in vars(typing)
    from models.queueing import generated_code

    assert generated_code.compile_text is generated_code.compile_source


def test_the_cached_compile_of_generated_code_gives_the_code_compile_gives():
    """The closed ramp's kernels (``models.queueing.generated_code``): the code ``compile`` makes of the text, with no
    ``__future__`` flag of the caller inherited, compiled once and then taken from the cache."""
    from models.queueing import generated_code
    from models.queueing.general_service import _ramp_kernel

    made = []
    original = generated_code.compile_text
    generated_code.compile_text = lambda source, filename: made.append((source, filename)) or original(source,
                                                                                                       filename)
    try:
        _ramp_kernel.cache_clear()
        _ramp_kernel(3, 1)
    finally:
        generated_code.compile_text = original
        _ramp_kernel.cache_clear()
    ((source, filename),) = made
    before = len(method_cache._compiled)
    try:
        cached = method_cache._compile_generated(source, filename)
        again = method_cache._compile_generated(source, filename)
        assert len(method_cache._compiled) == before + 1 and again is cached
        plain = generated_code.compile_source(source, filename)
        assert cached.co_filename == filename == plain.co_filename
        assert marshal.dumps(cached) == marshal.dumps(plain)
    finally:
        method_cache._codes.pop(method_cache._compiled.pop(), None)


def test_a_damaged_cache_is_ignored_and_a_foreign_entry_compiled_again(tmp_path):
    damaged = tmp_path / "damaged.marshal"
    damaged.write_bytes(b"\x00not marshal data")
    assert method_cache._read(damaged) == {}
    good = marshal.dumps({"x = 1": compile("x = 1", "<string>", "exec")})
    whole = tmp_path / "whole.marshal"
    whole.write_bytes(method_cache._MAGIC + zlib.crc32(good).to_bytes(4, "little") + good)
    assert list(method_cache._read(whole)) == ["x = 1"]
    flipped = bytearray(whole.read_bytes())
    flipped[-3] ^= 1  # one bit of a code object changed on disk: never run
    whole.write_bytes(bytes(flipped))
    assert method_cache._read(whole) == {}
    assert method_cache._read(tmp_path / "missing.marshal") == {}
    text = "def __create_fn__():\n def g(self):\n  return 7\n return g"
    method_cache._codes[text] = 3  # an entry that is no code object: the text is compiled as exec would
    try:
        made: dict = {}
        method_cache._exec(text, {"__name__": "probe"}, made)
        assert made["__create_fn__"]()(None) == 7 and text in method_cache._compiled
    finally:
        method_cache._codes.pop(text, None)
        method_cache._compiled.remove(text)


def test_the_cached_exec_runs_a_text_as_exec_does_in_dataclasses():
    """The file name ``exec`` gives a text, and no ``__future__`` flag of the caller inherited (``dataclasses`` has
    none; this test module's ``annotations`` would turn the annotations into strings), in the namespaces given."""
    text = "def __create_fn__(T):\n def f(self, x: T) -> T:\n  return x\n return f"
    ours: dict = {}
    method_cache._exec(text, {"__name__": "probe"}, ours)
    f = ours["__create_fn__"](int)
    assert f.__annotations__ == {"x": int, "return": int}
    assert f.__code__.co_filename == "<string>" and f(None, 3) == 3
    assert method_cache._codes.pop(text) is not None  # kept for the next text alike (not saved: not installed here)
    method_cache._compiled.remove(text)
    here: dict = {}
    exec(text, {"__name__": "probe"}, here)  # the builtin, called from this module: its future import applies
    assert here["__create_fn__"](int).__annotations__ == {"x": "T", "return": "T"}


def test_the_cached_compile_gives_typing_the_code_compile_gives():
    import typing

    for text in ("list[int]", "dict[str, 'Project'] | None", "*Ts"):
        source = f"({text},)[0]" if text.startswith("*") else text  # as ForwardRef writes an unpacked TypeVarTuple
        try:  # the code typing's ForwardRef gets from the builtin (this test module's own flags not passed on)
            assert method_cache._compile(source, "<string>", "eval") == typing.ForwardRef(text).__forward_code__
            assert method_cache._FORWARD_REF + source in method_cache._compiled  # compiled once, kept
            assert method_cache._compile(source, "<string>", "eval") is method_cache._codes[
                method_cache._FORWARD_REF + source]  # the second time: the kept code
        finally:
            method_cache._codes.pop(method_cache._FORWARD_REF + source, None)
            if method_cache._FORWARD_REF + source in method_cache._compiled:
                method_cache._compiled.remove(method_cache._FORWARD_REF + source)
    for not_an_expression in ("x = 1", "def"):
        try:
            method_cache._compile(not_an_expression, "<string>", "eval")
        except SyntaxError:
            pass
        else:
            raise AssertionError(f"{not_an_expression!r} compiled as an expression")
    assert not any(key.endswith("def") for key in method_cache._codes if isinstance(key, str))
    other = method_cache._compile("x = 1", "<probe>", "exec")  # any other call: the builtin's
    assert other == compile("x = 1", "<probe>", "exec", dont_inherit=True)
    assert method_cache._FORWARD_REF + "x = 1" not in method_cache._codes


_SHIBOKEN_PROBE = textwrap.dedent("""
    import builtins, json, sys
    from app import method_cache
    method_cache.install("app")
    real = builtins.compile
    with method_cache.cached_shiboken_compiles():
        inside = builtins.compile is method_cache._shiboken_compile
        import PySide6.QtCore
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication, QLabel
    app = QApplication([])
    label = QLabel("StorPlan")
    label.setAlignment(Qt.AlignmentFlag.AlignRight)
    support = [key.split("\\0")[2] for key in method_cache._compiled if key.startswith(method_cache._SHIBOKEN)]
    try:
        label.setText(5)  # the message shiboken6's support modules write (the supported signatures)
        refused = ""
    except TypeError as exc:
        refused = str(exc)
    print(json.dumps({"inside": inside, "restored": builtins.compile is real, "support": support,
                      "cached": sum(1 for key in method_cache._codes if key.startswith(method_cache._SHIBOKEN)),
                      "text": label.text(),
                      "refused": refused}))
""")


def _run_shiboken(home: Path) -> dict:
    env = {**os.environ, "STORPLAN_HOME": str(home), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", _SHIBOKEN_PROBE], capture_output=True, text=True, timeout=120,
                          env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_second_start_compiles_none_of_shiboken6_s_support_modules(tmp_path):
    """shiboken6 compiles the Python modules its library carries as source at every start; with the cache, only
    the first start does (the code kept at exit), and PySide6 works alike (its signatures read from those modules)."""
    first = _run_shiboken(tmp_path)
    assert first["inside"] is True and first["restored"] is True
    assert "signature_bootstrap.py" in first["support"] and len(first["support"]) >= 5  # an empty cache
    second = _run_shiboken(tmp_path)
    assert second["support"] == [] and second["cached"] >= len(first["support"])  # each taken from the cache
    assert second["text"] == first["text"] == "StorPlan"
    assert "Supported signatures" in first["refused"] and second["refused"] == first["refused"]


def test_the_shiboken_compile_gives_the_code_compile_gives():
    """A support module's code is the builtin's for the same source, kept once compiled; any other call is the
    builtin's, with the calling code's ``__future__`` flags (this module's ``annotations``) passed on as the
    builtin would inherit them."""
    source = b"from __future__ import annotations\nx: int = 1\ndef f(y: list[int]) -> int:\n    return len(y)\n"
    key = None
    try:
        ours = method_cache._shiboken_compile(source, "shibokensupport/probe.py", "exec")
        key = method_cache._compiled[-1]
        assert key.startswith(method_cache._SHIBOKEN) and method_cache._codes[key] is ours
        assert ours == compile(source, "shibokensupport/probe.py", "exec")
        assert method_cache._shiboken_compile(source, "shibokensupport/probe.py", "exec") is ours  # kept
    finally:
        if key is not None:
            method_cache._codes.pop(key, None)
            method_cache._compiled.remove(key)
    text = "def g(z: int) -> int:\n    return z\n"
    other = method_cache._shiboken_compile(text, "<probe>", "exec")
    assert other == compile(text, "<probe>", "exec")  # both inherit this module's future annotations
    namespace: dict = {}
    exec(other, namespace)
    assert namespace["g"].__annotations__ == {"z": "int", "return": "int"}
    plain = method_cache._shiboken_compile(text, "<probe>", "exec", dont_inherit=True)
    assert plain == compile(text, "<probe>", "exec", dont_inherit=True) and plain != other
    assert not any(isinstance(k, str) and "<probe>" in k for k in method_cache._codes)
