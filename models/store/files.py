"""Saving and opening ``.storplan`` files: atomic saves, read-only opens, clear errors.

Rules this module keeps:

* **Saving is atomic.** The project is written to a temporary file in the target's folder, flushed to disk
  (fsync), and moved onto the target with ``os.replace``; the folder is fsynced too (``models.atomic``, the writer
  of every file StorPlan writes; a replaced file keeps its permissions, a new one gets the umask's). A crash, a kill or
  a full disk at any point leaves the previous file as it was (a stray ``.<name>.*.saving`` file at worst, cleaned up by
  a later save once it is an hour old).
* **Opening changes nothing on disk.** Files are read through ``file:...?mode=ro`` URIs. A file of an older
  schema version is copied into memory and migrated there; the file on disk is upgraded only by the next save
  (which writes the current schema from scratch), so an older StorPlan can still open it until then.
* **Every failure is a** :class:`StoreError` whose message names the file and says what to do.

One module although it is over 600 lines: it is the ``.storplan`` file on disk, in both directions, under the
three rules above; what is written is what is read back (each direction is the other's test). The tables are in
:mod:`.schema`, the rows in :mod:`.codec`, the lock in :mod:`.lock` and crash recovery in :mod:`.recovery`.
"""

from __future__ import annotations

import codecs
import errno
import os
import sqlite3
import struct
import time
import tomllib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from models.atomic import write_atomic_named, write_error_words
from models.catalog import Catalog, CatalogError
from models.collector import collector_paused
from models.project.model import Project
from models.store import codec
from models.store.lock import held_by_other
from models.store.records import (
    Calibration,
    FileChangedOnDiskError,
    FileFingerprint,
    OpenedProject,
    SnapshotEntry,
    StoreError,
)
from models.store.schema import APPLICATION_ID, SCHEMA_VERSION, SQLITE_HEADER, migrate, schema_problems
from models.store.snapshot import default_catalog, snapshot_catalog
from models.store.sniff import is_sqlite_file

TEMP_SUFFIX = ".saving"
_STALE_TEMP_SECONDS = 3600
_DISK_FULL_ERRNOS = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}
_READ_ONLY_ERRNOS = {errno.EACCES, errno.EPERM, errno.EROFS}

MAX_PROJECT_BYTES = 2**30
"""Largest ``.storplan`` file opened (1 GiB; a 10,000-node project is a few MB)."""


def installed_app_version() -> str:
    """The installed StorPlan version (``"0.0.0+unknown"`` when it is not installed as a package)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("storplan")
    except PackageNotFoundError:
        return "0.0.0+unknown"


# --- saving --------------------------------------------------------------------------------------------------------


def _remove_stale_temps(directory: Path, name: str) -> None:
    now = time.time()
    for stale in directory.glob(f".{name}.*{TEMP_SUFFIX}"):
        try:
            if now - stale.stat().st_mtime > _STALE_TEMP_SECONDS:
                stale.unlink()
        except OSError:
            pass


def read_only_folder_error(path: Path, exc: OSError | None = None) -> StoreError:
    """A save (or Save As) into a folder that cannot be written: say which folder and what to do.

    "Cannot save P: cannot write to the folder F (read-only). Choose another folder with Save As." (a file
    already there is unchanged); "permission denied" instead of "read-only" when the folder is not the user's.
    """
    path = Path(path)
    why = "read-only" if exc is None or exc.errno == errno.EROFS else "permission denied"
    keep = " The file there is unchanged." if os.path.lexists(path) else ""
    return StoreError(f"Cannot save {path}: cannot write to the folder {path.parent} ({why}).{keep} Choose "
                      "another folder with Save As.", path, "read_only")


def _save_error(exc: BaseException, path: Path) -> StoreError:
    """Translate an OS / SQLite failure during a save into a message for the user."""
    keep = "The previous version of the file is unchanged."
    if isinstance(exc, StoreError):
        return exc
    if isinstance(exc, OSError):
        if exc.errno in _DISK_FULL_ERRNOS:
            return StoreError(f"Cannot save {path}: the disk is full. {keep} Free some space or save elsewhere.",
                              path, "disk_full")  # fmt: skip
        if exc.errno in _READ_ONLY_ERRNOS:
            return read_only_folder_error(path, exc)
        if exc.errno == errno.ENOENT:
            return StoreError(f"Cannot save {path}: the folder {path.parent} does not exist.", path, "not_found")
        return StoreError(f"Cannot save {path}: {write_error_words(exc, path)}. {keep}", path, "io")
    if isinstance(exc, sqlite3.Error):
        text = str(exc)
        if "disk is full" in text or getattr(exc, "sqlite_errorname", "") == "SQLITE_FULL":
            return StoreError(f"Cannot save {path}: the disk is full. {keep} Free some space or save elsewhere.",
                              path, "disk_full")  # fmt: skip
        if "readonly" in text or "read-only" in text:
            return StoreError(f"Cannot save {path}: the medium is read-only. {keep}", path, "read_only")
        return StoreError(f"Cannot save {path}: {text}. {keep}", path, "io")
    if isinstance(exc, OverflowError):
        return StoreError(
            f"Cannot save {path}: a number in the project is too large to store (integers are limited to 2^63-1). "
            f"{keep}",
            path,
            "invalid",
        )
    if isinstance(exc, (TypeError, ValueError)):
        return StoreError(f"Cannot save {path}: {exc}. {keep}", path, "invalid")
    return StoreError(f"Cannot save {path}: {type(exc).__name__}: {exc}. {keep}", path, "io")


def _probe_not_being_written(path: Path, busy_timeout: float) -> None:
    """Refuse to replace a StorPlan file another program is writing to at this moment."""
    if not is_sqlite_file(path):
        return
    try:
        conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=busy_timeout)
    except sqlite3.Error:
        return
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            raise StoreError(
                f"Cannot save {path}: another program is writing to it right now (the database is locked). "
                "The file is unchanged; try again in a moment.",
                path,
                "locked",
            ) from exc
    except sqlite3.Error:
        pass
    finally:
        conn.close()


def _connect_for_write(tmp: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(tmp, isolation_level=None)
    conn.execute("PRAGMA journal_mode = MEMORY")  # the temp file is thrown away on any failure
    conn.execute("PRAGMA synchronous = OFF")  # durability comes from the fsync before the rename
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def write_database(
    target: Path,
    project: Project,
    *,
    snapshot: dict[str, SnapshotEntry],
    calibration: Calibration,
    app_version: str,
    catalog_version: str,
) -> None:
    """Write ``project`` to a new file ``target`` (which must not exist or be empty): schema, rows, commit."""
    conn = _connect_for_write(target)
    try:
        conn.execute("BEGIN")
        codec.create_schema(conn)
        codec.write_project(
            conn,
            project,
            snapshot=snapshot,
            calibration=calibration,
            app_version=app_version,
            catalog_version=catalog_version,
            saved_at=datetime.now(UTC).isoformat(timespec="milliseconds"),
        )
        problems = conn.execute("PRAGMA foreign_key_check").fetchall()
        if problems:
            raise ValueError(f"internal error: foreign key check failed: {problems[:3]}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    finally:
        conn.close()


@dataclass(frozen=True)
class SavedProject:
    """Where :func:`save_project_tracked` wrote, and the written file's fingerprint (the next save's expectation)."""

    path: Path
    fingerprint: FileFingerprint


def check_unchanged(path: Path, expected: FileFingerprint | None) -> None:
    """Refuse to replace ``path`` when its content (size and SHA-256) is no longer ``expected`` (None: no check).

    Both savers (``.storplan`` and TOML) call it before writing and again in ``before_replace``, under the folder's
    lock (``models.atomic.replace_lock``), so of two processes saving one file exactly one succeeds. A file that
    cannot be read now, or is gone, is not refused here (the save itself then says why it cannot write, or
    writes the file anew).

    Raises:
        FileChangedOnDiskError: the file has other content than ``expected``.
    """
    if expected is None:
        return
    try:
        current = FileFingerprint.of(path)
    except OSError:
        return  # unreadable now: the save itself reports why it cannot write
    if current is not None and not expected.same_content(current):
        raise FileChangedOnDiskError(path, expected, current)


def save_project(
    project: Project,
    path: Path | str,
    *,
    catalog: Catalog | None = None,
    app_version: str | None = None,
    calibration: Calibration | None = None,
    respect_lock: bool = True,
    busy_timeout: float = 2.0,
    expected_fingerprint: FileFingerprint | None = None,
    force: bool = False,
) -> Path:
    """Save a project to a ``.storplan`` file, atomically.

    Args:
        project: the project to save.
        path: the target file; it is created or replaced (a symlink is followed and its target replaced).
        catalog: the catalog the project is evaluated with; the records the project uses are stored with it
            (see :func:`snapshot_catalog`). Pass the :func:`pinned_catalog` of an opened project to keep its
            pinned records. None: the default catalog, bundled plus the user's records (``default_catalog``; no
            snapshot if it cannot be loaded).
        app_version: the StorPlan version to record (default: the installed version).
        calibration: calibration data to store. None stores none: pass ``opened.calibration`` back to keep it.
        respect_lock: refuse when another live StorPlan holds the project's lock (:class:`ProjectLock`).
        busy_timeout: seconds to wait for another program that is writing to the target at the moment.
        expected_fingerprint: the file as this StorPlan opened or last saved it (``OpenedProject.fingerprint``,
            ``SavedProject.fingerprint``). When the file on disk now has other content, the save is refused with
            :class:`FileChangedOnDiskError` (checked before writing and again just before the file is replaced).
            None: no check (a new file, Save As).
        force: overwrite even when the file changed on disk (the user chose to overwrite).

    Returns:
        The path written (symlinks resolved). :func:`save_project_tracked` also returns the new fingerprint.

    Raises:
        FileChangedOnDiskError: (``reason`` ``"changed_on_disk"``) see ``expected_fingerprint``.
        StoreError: ``reason`` ``"read_only"`` (folder/medium/file not writable), ``"disk_full"``, ``"locked"``
            (another StorPlan has it open, or a program is writing to it), ``"not_found"`` (no such folder),
            ``"invalid"`` (a value cannot be stored) or ``"io"``. In every case the previous file is unchanged and
            the temporary file is removed.
    """
    return save_project_tracked(
        project, path, catalog=catalog, app_version=app_version, calibration=calibration,
        respect_lock=respect_lock, busy_timeout=busy_timeout, expected_fingerprint=expected_fingerprint, force=force,
    ).path  # fmt: skip


def save_project_tracked(
    project: Project,
    path: Path | str,
    *,
    catalog: Catalog | None = None,
    app_version: str | None = None,
    calibration: Calibration | None = None,
    respect_lock: bool = True,
    busy_timeout: float = 2.0,
    expected_fingerprint: FileFingerprint | None = None,
    force: bool = False,
) -> SavedProject:
    """:func:`save_project`, returning the path and the fingerprint of the file as written.

    Keep ``SavedProject.fingerprint`` and pass it as ``expected_fingerprint`` to the next save of this file: the
    fingerprint is taken from the temporary file before it is renamed onto the target, so a write by someone
    else right after the rename is still noticed. Arguments and errors as :func:`save_project`.
    """
    path = Path(os.path.realpath(path))
    if respect_lock and (holder := held_by_other(path)) is not None:
        raise StoreError(
            f"Cannot save {path}: it is open in another StorPlan ({holder.describe()}). The file is unchanged.",
            path,
            "locked",
        )
    if path.is_dir():
        raise StoreError(f"Cannot save {path}: it is a folder.", path, "io")
    if path.exists() and not os.access(path, os.W_OK):
        raise StoreError(
            f"Cannot save {path}: the file is read-only. It is unchanged; use Save As to save a copy elsewhere.",
            path,
            "read_only",
        )
    expected = None if force else expected_fingerprint
    check_unchanged(path, expected)
    if path.exists():
        _probe_not_being_written(path, busy_timeout)

    if catalog is None:
        try:
            catalog = default_catalog()  # what the project evaluates against without pins: bundled + the user's
        except CatalogError:
            catalog = Catalog([], "")
    with collector_paused():
        snapshot = snapshot_catalog(project, catalog)
    version = app_version if app_version is not None else installed_app_version()

    fingerprints: list[FileFingerprint] = []

    def write(tmp: Path) -> None:
        with collector_paused():
            write_database(
                tmp,
                project,
                snapshot=snapshot,
                calibration=calibration or Calibration(),
                app_version=version,
                catalog_version=catalog.version,
            )

    def last_check(tmp: Path) -> None:  # the data is on disk (fsynced, its mode set); the rename is next
        written = FileFingerprint.of(tmp)
        assert written is not None
        fingerprints.append(written)
        check_unchanged(path, expected)  # again, as late as possible: the window left is one rename

    try:
        write_atomic_named(path, write, before_replace=last_check, suffix=TEMP_SUFFIX)
    except BaseException as exc:
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        raise _save_error(exc, path) from exc
    _remove_stale_temps(path.parent, path.name)
    return SavedProject(path, fingerprints[-1])


# --- opening -------------------------------------------------------------------------------------------------------


def _looks_like_toml(head: bytes, path: Path) -> bool:
    try:
        with open(path, "rb") as fh:  # at most 1 MiB: a huge file is judged by its first bytes
            text = fh.read(1 << 20).decode("utf-8")
        tomllib.loads(text)
    except (OSError, ValueError, RecursionError):  # UnicodeDecodeError and TOMLDecodeError are ValueErrors
        try:  # a damaged text project is still text: random bytes starting with "#" (1 in ~250) are not
            codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
        except UnicodeDecodeError:
            return False
        return head.lstrip().startswith((b"format", b"[project]", b"#"))
    return True


def _check_header(path: Path) -> None:
    """Recognise non-StorPlan files before SQLite sees them (SQLite treats an empty file as an empty database)."""
    try:
        if path.exists() and not path.is_dir() and not path.is_file():
            raise StoreError(f"{path} is not a StorPlan project (it is a pipe or a device).", path, "not_storplan")
        with open(path, "rb") as fh:
            head = fh.read(100)
    except FileNotFoundError:
        raise StoreError(f"{path}: no such file.", path, "not_found") from None
    except IsADirectoryError:
        raise StoreError(f"{path} is a folder, not a StorPlan project.", path, "not_storplan") from None
    except OSError as exc:
        raise StoreError(f"{path}: cannot read the file: {exc.strerror or exc}.", path, "io") from exc
    if not head:
        raise StoreError(f"{path} is an empty file, not a StorPlan project.", path, "not_storplan")
    if not head.startswith(SQLITE_HEADER):
        if _looks_like_toml(head, path):
            raise StoreError(
                f"{path} is a text (TOML) project, not a .storplan file. Use File > Import to open it, or "
                "models.store.load_any / import_toml.",
                path,
                "not_storplan",
            )
        if len(head) == 100 and struct.unpack(">I", head[68:72])[0] == APPLICATION_ID:
            raise StoreError(
                f"{path} is damaged: its first bytes (the SQLite header) were overwritten, so it is not an SQLite "
                "database any more. Open a backup or a recovery copy.",
                path,
                "corrupt",
            )
        raise StoreError(f"{path} is not a StorPlan project (it is not an SQLite database).", path, "not_storplan")
    if len(head) < 100:
        raise StoreError(f"{path} is damaged: it is truncated ({len(head)} bytes).", path, "corrupt")
    size = path.stat().st_size
    if size > MAX_PROJECT_BYTES:
        raise StoreError(
            f"{path} is {size / 2**30:,.1f} GiB, larger than any project StorPlan writes "
            f"({MAX_PROJECT_BYTES // 2**30} GiB at most; 10,000 nodes take a few MB): it is damaged or not a project.",
            path,
            "corrupt",
        )
    (app_id,) = struct.unpack(">I", head[68:72])
    if app_id != APPLICATION_ID:
        raise StoreError(
            f"{path} is an SQLite database, but not a StorPlan project (application id 0x{app_id:08X}).",
            path,
            "not_storplan",
        )
    _check_size(path, head)


def _check_size(path: Path, head: bytes) -> None:
    """A file shorter than its header's page count says was cut off (copy interrupted, full disk elsewhere)."""
    (page_size,) = struct.unpack(">H", head[16:18])
    page_size = 65536 if page_size == 1 else page_size
    change_counter, header_pages = struct.unpack(">II", head[24:32])
    (valid_for,) = struct.unpack(">I", head[92:96])
    size = path.stat().st_size
    if header_pages and change_counter == valid_for and size < header_pages * page_size:
        raise StoreError(
            f"{path} is damaged: it is truncated ({size} of {header_pages * page_size} bytes).", path, "corrupt"
        )


def _newer_message(path: Path, conn: sqlite3.Connection | None, version: int) -> str:
    """Says which StorPlan wrote a newer file; the app version is read only from a real ``meta`` table with that
    column (never from a view, which could run for ever), and ``conn`` None (a schema this SQLite cannot parse)
    leaves it out."""
    saved_by = ""
    try:
        if conn is None:
            raise sqlite3.DatabaseError("no schema")
        kind = conn.execute("SELECT type, sql FROM sqlite_master WHERE name = 'meta'").fetchone()
        plain_table = kind is not None and kind[0] == "table" and "VIRTUAL" not in str(kind[1]).upper()
        columns = [row[0] for row in conn.execute("SELECT name FROM pragma_table_info('meta')")] if plain_table else []
        if "app_version" in columns:
            row = conn.execute("SELECT app_version FROM meta LIMIT 1").fetchone()
            if row is not None and isinstance(row[0], str) and len(row[0]) <= 40:
                saved_by = f" (saved by StorPlan {row[0]})"
    except sqlite3.Error:
        pass
    return (
        f"{path} was written by StorPlan schema version {version}{saved_by}; this StorPlan reads up to "
        f"{SCHEMA_VERSION}. Open it with a newer StorPlan."
    )


def is_read_only(path: Path) -> bool:
    """True when ``path`` or its folder cannot be written (permissions or a read-only medium)."""
    try:
        if hasattr(os, "statvfs") and os.statvfs(path).f_flag & getattr(os, "ST_RDONLY", 1):
            return True
    except OSError:
        pass
    return not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK | os.X_OK))


OPEN_TIME_BUDGET_S = 20.0
"""Longest an open may spend inside SQLite (a 10,000-node project reads in well under a second)."""

MAX_VALUE_BYTES = 32 * 1024 * 1024
"""Longest text value (or row) an open accepts; StorPlan never writes one this long."""

_READ_LIMITS = {
    "SQLITE_LIMIT_LENGTH": MAX_VALUE_BYTES,
    "SQLITE_LIMIT_SQL_LENGTH": 100_000,
    "SQLITE_LIMIT_COLUMN": 100,
    "SQLITE_LIMIT_EXPR_DEPTH": 50,
    "SQLITE_LIMIT_COMPOUND_SELECT": 4,
    "SQLITE_LIMIT_VDBE_OP": 50_000,
    "SQLITE_LIMIT_FUNCTION_ARG": 8,
    "SQLITE_LIMIT_ATTACHED": 0,
    "SQLITE_LIMIT_LIKE_PATTERN_LENGTH": 100,
    "SQLITE_LIMIT_VARIABLE_NUMBER": 100,
    "SQLITE_LIMIT_TRIGGER_DEPTH": 1,
}
"""SQLite limits on a connection that reads a project file (far above what StorPlan writes or queries)."""


class _OutOfTimeError(Exception):
    pass


def _guard(conn: sqlite3.Connection, budget_s: float, *, untrusted: bool = True) -> None:
    """Limits and a time budget for a connection reading a file that may be hostile.

    Every query on ``conn`` is interrupted (``sqlite3.OperationalError: interrupted``) once ``budget_s`` seconds
    have passed since this call; :func:`_open_error` turns that into a message.
    """
    for name, value in _READ_LIMITS.items():
        category = getattr(sqlite3, name, None)
        if category is not None:
            conn.setlimit(category, value)
    deadline = time.monotonic() + budget_s
    conn.set_progress_handler(lambda: time.monotonic() > deadline, 10_000)
    if untrusted:  # the in-memory copy of a checked file runs our own migrations: its schema is ours
        conn.execute("PRAGMA trusted_schema = OFF")  # no functions with side effects from the file's schema
        conn.execute("PRAGMA cell_size_check = ON")  # find damaged pages early, not by crashing later


def _open_error(exc: BaseException, path: Path, budget_s: float) -> StoreError:
    """Translate a failure while reading ``path`` into a message for the user (one source for CLI and GUI)."""
    if isinstance(exc, StoreError):
        return exc
    if isinstance(exc, sqlite3.OperationalError) and "interrupted" in str(exc):
        return StoreError(
            f"{path} could not be read within {budget_s:g} seconds, so StorPlan stopped reading it. A project file "
            "reads in well under a second: this one is damaged or was made to hang StorPlan. Nothing was changed.",
            path,
            "corrupt",
        )
    if isinstance(exc, sqlite3.DataError) or (isinstance(exc, sqlite3.Error) and "too big" in str(exc)):
        return StoreError(
            f"{path} is damaged: a value in it is longer than StorPlan ever writes "
            f"({MAX_VALUE_BYTES // (1024 * 1024)} MiB). Nothing was changed.",
            path,
            "corrupt",
        )
    if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
        return StoreError(f"{path} is damaged (truncated or corrupted): {exc}.", path, "corrupt")
    if isinstance(exc, RecursionError):
        return StoreError(f"{path} is damaged: a value in it is nested too deeply.", path, "corrupt")
    if isinstance(exc, MemoryError):
        return StoreError(f"{path} is damaged: it holds more data than StorPlan ever writes.", path, "corrupt")
    return StoreError(
        f"{path} is damaged: its tables are not what StorPlan expects ({type(exc).__name__}: {exc}).",
        path,
        "corrupt",
    )


def _connect_read_only(path: Path, busy_timeout: float) -> sqlite3.Connection:
    """A read-only connection to ``path`` that creates nothing beside it.

    StorPlan writes rollback-journal files, which SQLite reads ``mode=ro`` without a trace. A file whose header
    says WAL (bytes 18-19 = 2: made so by another program) would make SQLite create ``-wal`` and ``-shm`` files
    beside it even read-only, so it is opened ``immutable=1`` as well: SQLite then reads the main file only, takes
    no lock and creates nothing (a ``-wal`` file some other program left beside it is not read).

    Raises:
        sqlite3.Error: SQLite cannot open it; OSError: it cannot be read.
    """
    with open(path, "rb") as fh:
        head = fh.read(20)
    wal = len(head) == 20 and (head[18] == 2 or head[19] == 2)
    return sqlite3.connect(path.resolve().as_uri() + ("?mode=ro&immutable=1" if wal else "?mode=ro"), uri=True,
                           timeout=busy_timeout, isolation_level=None)


def _header_version(path: Path) -> int:
    with open(path, "rb") as fh:
        head = fh.read(100)
    return struct.unpack(">i", head[60:64])[0] if len(head) >= 64 else 0


def file_format_version(path: Path | str) -> int:
    """The file format a ``.storplan`` file's header states (its schema version, ``PRAGMA user_version``, read from
    the SQLite header's bytes 60-63 without opening the database); 0 for a file too short to hold a header.

    Raises:
        OSError: the file cannot be read.
    """
    return _header_version(Path(path))


def open_project(
    path: Path | str,
    *,
    busy_timeout: float = 2.0,
    read_only_if_locked: bool = False,
    time_budget_s: float = OPEN_TIME_BUDGET_S,
) -> OpenedProject:
    """Open a ``.storplan`` file without changing it.

    Before any query reads a row, the file's header (SQLite, StorPlan's ``application_id``), its schema version
    (``user_version``; a newer one is refused as made by a newer StorPlan) and its schema (exactly the tables and
    columns StorPlan wrote for that version: :func:`models.store.schema.schema_problems`; views, triggers and
    unknown tables are refused by name) are checked. Reading runs under SQLite length limits and a time budget.

    Args:
        path: the file.
        busy_timeout: seconds to wait when another program is writing to the file at this moment.
        read_only_if_locked: when another StorPlan holds the project's lock, open it read-only (``read_only``
            and ``locked_by`` set) instead of raising.
        time_budget_s: seconds SQLite may spend reading before the open is abandoned (``"corrupt"``).

    Returns:
        :class:`OpenedProject`. ``read_only`` is True when the file cannot be saved back in place;
        ``fingerprint`` is the file as it was read (pass it to :func:`save_project` as ``expected_fingerprint``).

    Raises:
        StoreError: with ``reason``:
            ``"not_found"``; ``"not_storplan"`` (empty, random bytes, another SQLite database, a TOML project);
            ``"corrupt"`` (truncated, damaged, a schema StorPlan did not write, too slow to read); ``"newer_version"``
            (names both schema versions); ``"locked"`` (another StorPlan has it open, or a program holds a write
            lock on it); ``"invalid"`` (the stored project fails validation; every problem listed by place).
    """
    path = Path(path)
    _check_header(path)
    locked_by = None
    if (holder := held_by_other(path)) is not None:
        if not read_only_if_locked:
            raise StoreError(
                f"{path} is open in another StorPlan ({holder.describe()}). Close it there, or open it read-only.",
                path,
                "locked",
            )
        locked_by = holder.describe()
    try:
        fingerprint = FileFingerprint.of(path)  # before reading: a change while we read counts as a change
        header_version = _header_version(path)
    except OSError as exc:
        raise StoreError(f"{path}: cannot read the file: {exc.strerror or exc}.", path, "io") from exc
    try:
        conn = _connect_read_only(path, busy_timeout)
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot open the file: {exc}.", path, "io") from exc
    except OSError as exc:
        raise StoreError(f"{path}: cannot read the file: {exc.strerror or exc}.", path, "io") from exc
    try:
        _guard(conn, time_budget_s)
        try:
            conn.execute("BEGIN")  # one read transaction: a consistent view even if someone writes meanwhile
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise StoreError(
                    f"{path} is locked by another program that is writing to it (database is busy). Nothing was "
                    "changed; close the other program or try again in a moment.",
                    path,
                    "locked",
                ) from exc
            raise
        except sqlite3.DatabaseError as exc:
            if header_version > SCHEMA_VERSION:  # a newer StorPlan may use SQL this SQLite cannot parse
                raise StoreError(_newer_message(path, None, header_version), path, "newer_version") from exc
            raise
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(_newer_message(path, conn, version), path, "newer_version")
        if version < 1:
            raise StoreError(f"{path} is damaged: it has no StorPlan schema version.", path, "corrupt")
        problems = schema_problems(conn, version)
        if problems:
            raise StoreError(
                f"{path} is damaged or was altered by another program: {'; '.join(problems)}. StorPlan does not "
                "read it (nothing was changed).",
                path,
                "corrupt",
            )
        problems = [row[0] for row in conn.execute("PRAGMA integrity_check(5)")]
        if problems != ["ok"]:
            raise StoreError(f"{path} is damaged: {'; '.join(problems)}", path, "corrupt")
        source = conn
        if version < SCHEMA_VERSION:
            source = sqlite3.connect(":memory:", isolation_level=None)
            conn.backup(source)
            _guard(source, time_budget_s, untrusted=False)
            source.execute("BEGIN")
            migrate(source, version)
            source.execute("COMMIT")
        try:
            with collector_paused():
                project, snapshot, calibration, meta = codec.read_project(source, str(path))
        finally:
            if source is not conn:
                source.close()
        conn.execute("COMMIT")
    except StoreError:
        raise
    except (sqlite3.Error, LookupError, ValueError, TypeError, RecursionError, MemoryError) as exc:
        raise _open_error(exc, path, time_budget_s) from exc
    finally:
        conn.close()
    return OpenedProject(
        path=path,
        project=project,
        read_only=locked_by is not None or is_read_only(path),
        catalog_snapshot=snapshot,
        app_version=meta["app_version"],
        catalog_version=meta["catalog_version"],
        schema_version=version,
        calibration=calibration,
        saved_at=meta["saved_at"],
        locked_by=locked_by,
        fingerprint=fingerprint,
    )
