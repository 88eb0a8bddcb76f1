"""The compiled methods ``dataclasses`` writes, kept between runs: a start compiles none of them again.

For each class ``@dataclass`` makes, Python 3.11 writes the source text of the methods it adds (``__init__``,
``__repr__``, ``__eq__``, ``__hash__``, a frozen class's ``__setattr__`` and ``__delattr__``) and runs it with
``exec`` (``dataclasses._create_fn``), which parses and compiles it at every start: unlike a module's code, no
``.pyc`` keeps it. ``storplan evaluate --json`` of the default example defines about 140 dataclasses (StorPlan's
results, pydantic's and annotated-types' own), about 730 methods and 280,000 characters of source, and that parsing
and compiling was a quarter of the command's instructions (``valgrind --tool=callgrind``: ``PyRun_StringFlags`` under
``builtin_exec``), the largest single cost of a start (issue 27).

:func:`install` (called by the process's entry points only: ``storplan`` from the command line and the desktop
app, beside :func:`app.quiet_start.hold`; never by the tests' own process) gives the ``dataclasses``
module an ``exec`` of its own: a module-level name, which the module's code finds before the builtin (nothing else
sees it). It runs the code object compiled from the very text ``dataclasses`` wrote, as ``exec`` would have
compiled it (file name ``"<string>"``, no ``__future__`` flag inherited: ``dataclasses`` has none), taken from a
per-user file when an earlier run compiled that text, else compiled now: the methods are the same either way (same
code, names and defaults), and so is everything a command prints. The file is rewritten at exit when this run
compiled a text it lacked; its name carries the interpreter's bytecode version (``importlib.util.MAGIC_NUMBER``), so
another Python never reads it, and a file that cannot be read or written, or whose CRC-32 does not match, is ignored
(every text is then compiled, as without this module). The file is the user's own, in the folder that already holds
their catalog caches; like a ``.pyc`` beside a module, it holds code that runs. With it, ``evaluate --json`` of the
default example runs 1,295 million instructions instead of 1,763 million (callgrind, this module's commit).

The same file keeps the code of ``typing``'s forward references (an annotation written as text, compiled by
``typing.ForwardRef`` with ``compile(text, '<string>', 'eval')``: about 740 of them while pydantic's modules and
StorPlan's records are defined): :func:`install` gives ``typing`` a ``compile`` of its own (:func:`_compile`), the
code of such a text taken from the file when an earlier run compiled it (1,211 -> 1,180 million instructions).

It keeps too the code the models write at run time (the closed ramp's kernels,
:mod:`models.queueing.generated_code`): :func:`install` gives that module a compile of its own
(:func:`_compile_generated`; 1,147.5 -> 1,136.9 million).

The desktop app also keeps there the code of the Python support modules that shiboken6 (PySide6's bindings) carries
inside its library as source text and compiles at every start (``signature_bootstrap.py`` and the
``shibokensupport`` modules, about 15 of them: 7 % of the instructions to the first window, callgrind):
:func:`cached_shiboken_compiles` gives ``builtins`` a ``compile`` of its own while PySide6 is first imported
(:func:`_shiboken_compile`), the code of such a source taken from the file when an earlier run compiled that very
source (another PySide6 version carries other sources, so other entries).
"""

import __future__

import builtins
import marshal
import sys
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import CodeType
from typing import Any, BinaryIO

CACHE_FOLDER = "compiled-methods"
"""Folder (in :func:`models.resources.user_data_dir`) of the cache file."""

MAX_ENTRIES = 20_000
"""A cache holding more texts than this is dropped and started again (StorPlan's own commands and app make a few
thousand; a cache never grows without bound)."""

_MAGIC = b"SPmc"
"""The first bytes of a cache file; the next four are the CRC-32 of the rest (little-endian)."""

_codes: dict[Any, Any] = {}  # text -> code (as read: :func:`_exec` checks each entry it uses)
_compiled: list[str] = []
_installed: list[Path] = []


def cache_file(front: str) -> Path:
    """The cache file of one front door (``cli``: the commands; ``app``: the desktop app, which defines many more
    dataclasses a command would read for nothing) and this interpreter's bytecode version."""
    from importlib.util import MAGIC_NUMBER

    from models.resources import user_data_dir

    return user_data_dir() / CACHE_FOLDER / f"{front}-{MAGIC_NUMBER.hex()}.marshal"


def _exec(source: Any, namespace: dict[str, Any] | None = None, local_names: dict[str, Any] | None = None, /) -> None:
    """``exec`` for the ``dataclasses`` module: a text runs as the code compiled from it (cached); anything else as
    ``exec`` runs it."""
    if namespace is None:  # exec's own default, the caller's globals (``dataclasses`` always passes its own)
        namespace = sys._getframe(1).f_globals
    if type(source) is str:
        code = _codes.get(source)
        if type(code) is not CodeType:  # not cached (or a damaged entry): compiled as exec compiles a text
            code = compile(source, "<string>", "exec", dont_inherit=True)
            _codes[source] = code
            _compiled.append(source)
        source = code
    builtins.exec(source, namespace, local_names)


_FORWARD_REF = "\0typing.ForwardRef\0"
"""The prefix of a forward reference's key in the cache (no method text starts with a NUL)."""


def _compile(source: Any, filename: Any, mode: Any, *args: Any, **kwargs: Any) -> Any:
    """``compile`` for the ``typing`` module, whose ``ForwardRef`` compiles each annotation written as text
    (``compile(text, '<string>', 'eval')``: about 740 of them while pydantic's own modules and StorPlan's records are
    defined, 4% of ``storplan evaluate --json``'s instructions, callgrind): such a text gets the code compiled from it
    (cached; compiled with no ``__future__`` flag, as ``typing`` has none to pass on); any other call is the builtin's.

    Raises:
        SyntaxError: the text is not an expression (what ``compile`` raises; nothing is cached)."""
    if type(source) is not str or filename != "<string>" or mode != "eval" or args or kwargs:
        return builtins.compile(source, filename, mode, *args, **kwargs)
    key = _FORWARD_REF + source
    code = _codes.get(key)
    if type(code) is not CodeType:  # not cached (or a damaged entry): compiled as typing compiles it
        code = builtins.compile(source, "<string>", "eval", dont_inherit=True)
        _codes[key] = code
        _compiled.append(key)
    return code


_GENERATED = "\0models generated code\0"
"""The prefix of the key of the code the models write at run time (then its file name and its text):
:mod:`models.queueing.generated_code`."""


def _compile_generated(source: str, filename: str) -> CodeType:
    """:data:`models.queueing.generated_code.compile_text` while installed: the code compiled from the text (cached;
    compiled as :func:`models.queueing.generated_code.compile_source` compiles it, no ``__future__`` flag inherited).
    The closed ramp's kernels of one evaluation of the default example are four such texts, 1.8 ms of CPU to
    compile.

    Raises:
        SyntaxError: the text is not Python (nothing is cached)."""
    key = f"{_GENERATED}{filename}\0{source}"
    code = _codes.get(key)
    if type(code) is not CodeType:  # not cached (or a damaged entry): compiled as compile_source compiles it
        code = builtins.compile(source, filename, "exec", dont_inherit=True)
        _codes[key] = code
        _compiled.append(key)
    return code


_SHIBOKEN = "\0shiboken6 support\0"
"""The prefix of a shiboken6 support module's key in the cache (then its file name, the compile flags, the
optimisation level and its source as Latin-1 text: one character a byte)."""

_FUTURE_FLAGS = sum(getattr(__future__, name).compiler_flag for name in (
    "division", "absolute_import", "with_statement", "print_function", "unicode_literals", "barry_as_FLUFL",
    "generator_stop", "annotations"))
"""The ``from __future__`` flags a ``compile`` call inherits from the code calling it without ``dont_inherit``
(CPython's ``PyCF_MASK``; each a bit of its own)."""

_BUILTIN_COMPILE = builtins.compile


def _is_shiboken_support(source: Any, filename: Any, mode: Any) -> bool:
    """Whether a ``compile`` call is shiboken6 compiling one of the Python modules its library carries as source
    (a relative file name: ``signature_bootstrap.py`` or ``shibokensupport/...``; nothing on disk has such a name)."""
    return (type(source) is bytes and type(filename) is str and mode == "exec"
            and (filename == "signature_bootstrap.py" or filename.startswith("shibokensupport/")))


def _shiboken_compile(source: Any, filename: Any, mode: Any, flags: int = 0, dont_inherit: bool = False,
                      optimize: int = -1, **kwargs: Any) -> Any:
    """``compile`` while PySide6 is first imported (:func:`cached_shiboken_compiles`): a shiboken6 support module
    (:func:`_is_shiboken_support`) gets the code compiled from its source (cached), any other call what the builtin
    returns. The ``from __future__`` flags of the calling code are passed on as the builtin would inherit them.

    Raises:
        SyntaxError, ValueError, TypeError: what ``compile`` raises (nothing is cached)."""
    if not dont_inherit:  # what compile inherits: the calling code's future flags
        flags |= sys._getframe(1).f_code.co_flags & _FUTURE_FLAGS
    if not _is_shiboken_support(source, filename, mode) or kwargs:
        return _BUILTIN_COMPILE(source, filename, mode, flags, True, optimize, **kwargs)
    level = sys.flags.optimize if optimize == -1 else optimize
    key = f"{_SHIBOKEN}{filename}\0{flags}\0{level}\0" + source.decode("latin-1")
    code = _codes.get(key)
    if type(code) is not CodeType:  # not cached (or a damaged entry): compiled as the builtin compiles it
        code = _BUILTIN_COMPILE(source, filename, mode, flags, True, optimize)
        _codes[key] = code
        _compiled.append(key)
    return code


@contextmanager
def cached_shiboken_compiles() -> Iterator[None]:
    """While in the ``with`` block (the desktop app's first ``import PySide6.QtCore``), ``compile`` is
    :func:`_shiboken_compile` for the whole process; the builtin is put back on leaving. Without an installed cache
    (:func:`install`) nothing changes."""
    if not _installed or builtins.compile is not _BUILTIN_COMPILE:
        yield
        return
    builtins.compile = _shiboken_compile
    try:
        yield
    finally:
        builtins.compile = _BUILTIN_COMPILE


def _read(path: Path) -> dict[Any, Any]:
    """The cache of ``path`` (text -> code; an entry of another kind is compiled again when its text comes), or {}
    when it is missing, unreadable, not a cache or not as written (its CRC-32 differs: a damaged disk block is never
    run as code)."""
    try:
        body = memoryview(path.read_bytes())
        if body[:4] != _MAGIC or int.from_bytes(body[4:8], "little") != zlib.crc32(body[8:]):
            return {}
        data = marshal.loads(body[8:])
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    return data if isinstance(data, dict) and len(data) <= MAX_ENTRIES else {}


def save() -> None:
    """Write the cache when this run compiled a text it lacked (at exit; atomically: a reader sees the old file or
    the new one). Nothing is raised (an exception at exit would print on stderr): a cache that cannot be written is
    only slower next time."""
    if not _installed or not _compiled:
        return
    from models.atomic import write_atomic

    path = _installed[0]
    try:
        payload = marshal.dumps({text: code for text, code in _codes.items()
                                 if type(text) is str and type(code) is CodeType})
    except ValueError:
        return
    header = _MAGIC + zlib.crc32(payload).to_bytes(4, "little")

    def write(handle: BinaryIO) -> None:
        handle.write(header)
        handle.write(payload)

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, write)
    except OSError:
        return
    _compiled.clear()


def install(front: str) -> None:
    """Give ``dataclasses`` the cached ``exec`` (:func:`_exec`), ``typing`` the cached ``compile`` of its forward
    references (:func:`_compile`) and :mod:`models.queueing.generated_code` its cached compile
    (:func:`_compile_generated`), read the cache of ``front`` (:func:`cache_file`) and save it at exit; once per
    process, and only where ``dataclasses`` writes its methods through ``exec`` (CPython 3.11 to 3.13 do)."""
    import atexit
    import dataclasses
    import typing

    if _installed or getattr(dataclasses, "exec", builtins.exec) is not builtins.exec:
        return
    try:
        path = cache_file(front)
    except (OSError, RuntimeError):  # no home folder: nothing to keep
        return
    _codes.update(_read(path))
    _installed.append(path)
    dataclasses.exec = _exec  # type: ignore[attr-defined]
    if "compile" not in vars(typing):  # typing's own name, found before the builtin by ForwardRef (nothing else)
        typing.compile = _compile  # type: ignore[attr-defined]
    from models.queueing import generated_code

    generated_code.compile_text = _compile_generated
    atexit.register(save)
