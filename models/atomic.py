"""The one way StorPlan writes a file: a new temporary file beside it, fsync, ``os.replace``, fsync of the folder.

Every file StorPlan writes for a person (``.storplan`` projects, TOML projects and the user catalog, the PDF
report, the XLSX workbook, CSV files, PNG and SVG charts) goes through :func:`write_atomic` or one of its
forms, so a crash, a kill or a full disk leaves either the old file or the new one, never half of one, and no
temporary file behind (POSIX ``rename(2)`` is atomic within a file system; the temporary file is in the target's
folder so it is on the same one).

Rules:

* **The temporary file is ours alone.** It is created with ``O_CREAT | O_EXCL | O_NOFOLLOW`` under a random name
  (``.<name>.<16 hex digits><suffix>``): an existing file or a symlink planted at that name makes the creation fail
  (and another random name is tried); a link is never followed.
* **Permissions.** A new file gets ``0o666 & ~umask`` (and the folder's default ACL where there is one), like any
  file a program creates: the temporary file is created with mode ``0o666`` and the kernel applies the umask.
  A file that is *replaced* keeps its own permission bits (``0o777`` of them; set-id and sticky bits are dropped):
  a person who made a customer's project or report private (``chmod 600``) does not find it readable by everyone
  after the next save. Owner and group are those of the process (only root could keep another owner).
* **Durability.** The data is fsynced before the rename and the folder after it (where the platform can:
  Windows cannot open a folder, NTFS journals the rename; some file systems refuse, and the rename stands).
* **Failure.** Any exception (the writer's own, a full disk, an interrupt) removes the temporary file and
  propagates unchanged; the target is untouched. Callers turn ``OSError`` into their own message.
* **One replace at a time per folder.** The last check (``before_replace``: has the file changed on disk since it
  was opened?) and the rename run under an exclusive advisory lock (``flock(2)``) on the target's folder, so two
  processes saving one file cannot both pass the check before either renames: the second sees the first's file
  and is refused (compare-and-swap). A lock on the folder rather than on a lock file beside the target leaves no
  file behind; it is held for one check and one rename. Where the platform or the file system has no ``flock``
  (Windows, some network file systems) the check still runs, unlocked.

Imports nothing of StorPlan: every layer may use it.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

TEMP_SUFFIX = ".tmp"
"""Default ending of a temporary file's name."""

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation
_ATTEMPTS = 100


def temp_path_for(path: Path, suffix: str = TEMP_SUFFIX) -> Path:
    """A fresh random temporary name beside ``path``: ``.<name>.<16 hex digits><suffix>`` (64 random bits, so a
    name cannot be guessed ahead of time). Raises nothing."""
    return path.with_name(f".{path.name}.{secrets.token_hex(8)}{suffix}")


def _create_temp(path: Path, suffix: str) -> tuple[int, Path]:
    """Create a new empty temporary file beside ``path``; its open descriptor (write-only) and its path.

    Raises:
        OSError: the folder cannot be written (FileExistsError only when 100 random names were all taken).
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC | _BINARY
    for _attempt in range(_ATTEMPTS):
        tmp = temp_path_for(path, suffix)
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue  # a file or a planted link has this name: never open it, try another name
    raise FileExistsError(errno.EEXIST, "cannot create a temporary file", str(path.parent))


def _kept_mode(path: Path) -> int | None:
    """The permission bits of the regular file at ``path`` being replaced (``0o777`` of them), or None when there
    is none (a new file keeps the mode it was created with: ``0o666 & ~umask``)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return stat.S_IMODE(info.st_mode) & 0o777 if stat.S_ISREG(info.st_mode) else None


def _set_mode(fd: int | None, tmp: Path, mode: int) -> None:
    """Give the temporary file ``mode`` (through its descriptor where the platform allows)."""
    if fd is not None and hasattr(os, "fchmod"):
        os.fchmod(fd, mode)
    else:
        os.chmod(tmp, mode)


def _fsync_fd(fd: int) -> None:
    """Flush a file's data and metadata to the disk (``os.fsync``; one place, so tests can make it fail)."""
    os.fsync(fd)


def _fsync_folder(folder: Path) -> None:
    """fsync a folder after a rename in it, where the platform and file system allow (else nothing)."""
    if os.name == "nt":
        return  # Windows cannot open a directory; NTFS journals the rename
    try:
        fd = os.open(folder, os.O_RDONLY | _CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # the rename happened; some file systems cannot fsync a folder
    finally:
        os.close(fd)


@contextmanager
def replace_lock(folder: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock (``flock(2)``, ``LOCK_EX``) on ``folder`` for the body: every StorPlan
    process takes it for its last check and rename in that folder (module rules), so those run one at a time.

    Blocks while another process holds it (each holder runs one content check and one rename). Without
    ``fcntl`` (Windows), or when the folder cannot be opened or locked (some network file systems), the body runs
    unlocked. The lock goes with the descriptor: a killed holder releases it. Raises nothing of its own.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    try:
        fd = os.open(folder, os.O_RDONLY | _CLOEXEC | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            pass  # no flock on this file system: the check still runs
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _finish(tmp: Path, path: Path, before_replace: Callable[[Path], None] | None) -> None:
    """Run the last check and rename ``tmp`` onto ``path`` under the folder's :func:`replace_lock`, then fsync
    the folder."""
    with replace_lock(path.parent):
        if before_replace is not None:
            before_replace(tmp)
        os.replace(tmp, path)  # replaces a link at ``path`` itself, never the file it points to
    _fsync_folder(path.parent)


def _discard(tmp: Path) -> None:
    """Remove our temporary file after a failure (unlink never follows a link)."""
    try:
        os.unlink(tmp)
    except OSError:
        pass


def write_atomic(path: Path | str, write: Callable[[BinaryIO], None], *,
                 before_replace: Callable[[Path], None] | None = None, suffix: str = TEMP_SUFFIX,
                 new_mode: int | None = None) -> Path:
    """Write ``path`` atomically: ``write(handle)`` fills a binary file object open on a new temporary file beside
    ``path``; the data is fsynced and the file renamed onto ``path`` (module rules: permissions, durability).

    Args:
        path: the file to create or replace.
        write: called once with the open temporary file (binary, seekable); it must not close it.
        before_replace: called with the temporary file's path after the data is on disk, just before the rename
            (a last check, e.g. that the target did not change meanwhile); what it raises cancels the write.
        suffix: the temporary file's name ending.
        new_mode: the permission bits of a new file (e.g. ``0o600`` for a private one) instead of
            ``0o666 & ~umask``; a replaced file keeps its own either way.

    Returns:
        ``path`` as a Path.

    Raises:
        OSError: the folder cannot be written, the disk is full, ...; whatever ``write`` or ``before_replace``
            raise. In every case the target is unchanged and the temporary file removed.
    """
    path = Path(path)
    mode = _kept_mode(path)
    if mode is None and new_mode is not None:
        mode = new_mode & 0o777
    fd, tmp = _create_temp(path, suffix)
    try:
        with os.fdopen(fd, "wb") as handle:
            fd = -1  # the file object owns it now
            write(handle)
            handle.flush()
            if mode is not None:
                _set_mode(handle.fileno(), tmp, mode)
            _fsync_fd(handle.fileno())
        _finish(tmp, path, before_replace)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        _discard(tmp)
        raise
    return path


def write_atomic_named(path: Path | str, write: Callable[[Path], None], *,
                       before_replace: Callable[[Path], None] | None = None, suffix: str = TEMP_SUFFIX) -> Path:
    """:func:`write_atomic` for writers that need a file name rather than a file object (SQLite): ``write(tmp)``
    writes the new, empty temporary file ``tmp`` by its name (created exclusively, as in :func:`write_atomic`).

    Args and Raises: as :func:`write_atomic`. Returns ``path`` as a Path.
    """
    path = Path(path)
    mode = _kept_mode(path)
    fd, tmp = _create_temp(path, suffix)
    try:
        os.close(fd)
        write(tmp)
        fd = os.open(tmp, os.O_RDWR | _NOFOLLOW | _CLOEXEC | _BINARY)
        try:
            if mode is not None:
                _set_mode(fd, tmp, mode)
            _fsync_fd(fd)
        finally:
            os.close(fd)
        _finish(tmp, path, before_replace)
    except BaseException:
        _discard(tmp)
        raise
    return path


def write_bytes_atomic(path: Path | str, data: bytes, *,
                       before_replace: Callable[[Path], None] | None = None, new_mode: int | None = None) -> Path:
    """Write ``data`` to ``path`` atomically (:func:`write_atomic`, ``before_replace`` and ``new_mode`` as there);
    returns ``path`` as a Path.

    Raises:
        OSError: the file cannot be written (the target is unchanged); whatever ``before_replace`` raises.
    """
    def write(handle: BinaryIO) -> None:
        handle.write(data)

    return write_atomic(path, write, before_replace=before_replace, new_mode=new_mode)


def write_text_atomic(path: Path | str, text: str, encoding: str = "utf-8", *,
                      before_replace: Callable[[Path], None] | None = None) -> Path:
    """Write ``text`` to ``path`` atomically in ``encoding``, line endings as given (no translation: CSV's
    ``\\r\\n`` stays); ``before_replace`` as :func:`write_atomic`; returns ``path`` as a Path.

    Raises:
        OSError: the file cannot be written (the target is unchanged); UnicodeEncodeError: ``text`` does not fit
            ``encoding``, before anything is written; whatever ``before_replace`` raises.
    """
    return write_bytes_atomic(path, text.encode(encoding), before_replace=before_replace)



def write_error_words(exc: OSError, path: Path | str) -> str:
    """Why writing ``path`` failed, in words a person acts on (no errno number, no temporary file name):
    "the folder F does not exist", "the folder F is read-only", "permission denied for the folder F",
    "it is a folder", "the disk is full", else the system's own short reason.

    The PDF report, the workbook, CSV files and project saves word the same failures the same way.
    """
    path = Path(path)
    folder = path.parent
    number = exc.errno
    if number in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return "the disk is full"
    if number == errno.EROFS:
        return f"the folder {folder} is read-only"
    if number == errno.EISDIR or (number in (errno.EEXIST, errno.ENOTEMPTY) and path.is_dir()):
        return "it is a folder; choose a file name"
    if number in (errno.EACCES, errno.EPERM):
        if os.name == "nt":  # pragma: no cover - Windows: a file open in Excel refuses to be replaced
            return f"permission denied (the file may be open in another program, or the folder {folder} is read-only)"
        return f"permission denied for the folder {folder}"
    if number == errno.ENOENT:
        return f"the folder {folder} does not exist" if not folder.is_dir() else "no such file"
    if number == errno.ENOTDIR:
        return f"{folder} is not a folder"
    reason = exc.strerror or str(exc)
    return reason[:1].lower() + reason[1:]


def write_files_atomic(files: dict[Path, bytes]) -> list[Path]:
    """Write several files as one set: all of them are replaced, or (on a failure) none is.

    Every file is first written to a temporary file beside its target and fsynced; only when all are on disk
    are the old files moved aside (to temporary names) and the new ones renamed into place. A failure at any
    step renames the old files back and removes the new temporary files, so a folder of CSV files never holds
    some files of one design and some of another. Returns the targets, in order.

    Raises:
        OSError: a file cannot be written or replaced (every target is as it was); its ``filename`` is the target.
    """
    staged: list[tuple[Path, Path]] = []
    moved: list[tuple[Path, Path]] = []  # (old file's temporary name, target)
    placed: list[Path] = []
    try:
        for path, data in files.items():
            path = Path(path)
            if path.is_dir():
                raise IsADirectoryError(errno.EISDIR, "Is a directory", str(path))
            mode = _kept_mode(path)
            try:
                fd, tmp = _create_temp(path, TEMP_SUFFIX)
                staged.append((tmp, path))
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                    handle.flush()
                    if mode is not None:
                        _set_mode(handle.fileno(), tmp, mode)
                    _fsync_fd(handle.fileno())
            except OSError as exc:
                exc.filename = str(path)  # the target, never the temporary file's name
                raise
        for tmp, path in staged:
            try:
                if os.path.lexists(path):
                    aside = temp_path_for(path, ".old")
                    os.replace(path, aside)
                    moved.append((aside, path))
                os.replace(tmp, path)
                placed.append(path)
            except OSError as exc:
                exc.filename = str(path)
                raise
    except BaseException:
        for path in placed:
            _discard(path)
        for aside, path in moved:
            try:
                os.replace(aside, path)
            except OSError:
                pass
        for tmp, _path in staged:
            _discard(tmp)
        raise
    for aside, _path in moved:
        _discard(aside)
    for folder in {path.parent for _tmp, path in staged}:
        _fsync_folder(folder)
    return [path for _tmp, path in staged]
