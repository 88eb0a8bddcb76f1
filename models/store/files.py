"""Saving and opening ``.storplan`` files: atomic saves, read-only opens, clear errors.

Rules this module keeps:

* **Saving is atomic.** The project is written to a temporary file in the target's folder, flushed to disk
  (fsync), and moved onto the target with ``os.replace``; the folder is fsynced too. A crash, a kill or a full
  disk at any point leaves the previous file as it was (a stray ``.<name>.*.saving`` file at worst, cleaned up by a
  later save once it is an hour old).
* **Opening changes nothing on disk.** Files are read through ``file:...?mode=ro`` URIs. A file of an older
  schema version is copied into memory and migrated there; the file on disk is upgraded only by the next save
  (which writes the current schema from scratch), so an older StorPlan can still open it until then.
* **Every failure is a** :class:`StoreError` whose message names the file and says what to do.
"""

from __future__ import annotations

import errno
import os
import secrets
import sqlite3
import struct
import time
import tomllib
from datetime import datetime, timezone
from pathlib import Path

from models.catalog import Catalog, CatalogError
from models.project.model import Project

from . import codec
from .lock import held_by_other
from .records import Calibration, OpenedProject, SnapshotEntry, StoreError
from .schema import APPLICATION_ID, SCHEMA_VERSION, SQLITE_HEADER, migrate
from .snapshot import snapshot_catalog

TEMP_SUFFIX = ".saving"
_STALE_TEMP_SECONDS = 3600
_DISK_FULL_ERRNOS = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}
_READ_ONLY_ERRNOS = {errno.EACCES, errno.EPERM, errno.EROFS}


def installed_app_version() -> str:
    """The installed StorPlan version (``"0.0.0+unknown"`` when it is not installed as a package)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("storplan")
    except PackageNotFoundError:
        return "0.0.0+unknown"


def is_sqlite_file(path: Path | str) -> bool:
    """True when the file starts with the SQLite header (``"SQLite format 3\\0"``)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


# --- saving --------------------------------------------------------------------------------------------------------


def _fsync_path(path: Path, directory: bool = False) -> None:
    if directory and os.name == "nt":
        return  # Windows cannot open a directory for fsync; NTFS journals the rename
    flags = os.O_RDONLY if directory else os.O_RDWR
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove_stale_temps(directory: Path, name: str) -> None:
    now = time.time()
    for stale in directory.glob(f".{name}.*{TEMP_SUFFIX}"):
        try:
            if now - stale.stat().st_mtime > _STALE_TEMP_SECONDS:
                stale.unlink()
        except OSError:
            pass


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
            return StoreError(
                f"Cannot save {path}: the folder or the medium is read-only (or you lack permission to write "
                f"there). {keep} Use Save As to save it elsewhere.",
                path,
                "read_only",
            )
        if exc.errno == errno.ENOENT:
            return StoreError(f"Cannot save {path}: the folder {path.parent} does not exist.", path, "not_found")
        return StoreError(f"Cannot save {path}: {exc.strerror or exc}. {keep}", path, "io")
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
            saved_at=datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
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


def save_project(
    project: Project,
    path: Path | str,
    *,
    catalog: Catalog | None = None,
    app_version: str | None = None,
    calibration: Calibration | None = None,
    respect_lock: bool = True,
    busy_timeout: float = 2.0,
) -> Path:
    """Save a project to a ``.storplan`` file, atomically.

    Args:
        project: the project to save.
        path: the target file; it is created or replaced (a symlink is followed and its target replaced).
        catalog: the catalog the project is evaluated with; the records the project uses are stored with it
            (see :func:`snapshot_catalog`). Pass the :func:`pinned_catalog` of an opened project to keep its
            pinned records. None: the bundled catalog (no snapshot if it cannot be loaded).
        app_version: the StorPlan version to record (default: the installed version).
        calibration: calibration data to store. None stores none: pass ``opened.calibration`` back to keep it.
        respect_lock: refuse when another live StorPlan holds the project's lock (:class:`ProjectLock`).
        busy_timeout: seconds to wait for another program that is writing to the target at the moment.

    Returns:
        The path written (symlinks resolved).

    Raises:
        StoreError: ``reason`` ``"read_only"`` (folder/medium/file not writable), ``"disk_full"``, ``"locked"``
            (another StorPlan has it open, or a program is writing to it), ``"not_found"`` (no such folder),
            ``"invalid"`` (a value cannot be stored) or ``"io"``. In every case the previous file is unchanged and
            the temporary file is removed.
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
    if path.exists():
        _probe_not_being_written(path, busy_timeout)

    if catalog is None:
        from models.catalog import bundled_catalog

        try:
            catalog = bundled_catalog()
        except CatalogError:
            catalog = Catalog([], "")
    snapshot = snapshot_catalog(project, catalog)
    version = app_version if app_version is not None else installed_app_version()

    tmp: Path | None = None
    try:
        tmp = _create_temp(path)
        write_database(
            tmp,
            project,
            snapshot=snapshot,
            calibration=calibration or Calibration(),
            app_version=version,
            catalog_version=catalog.version,
        )
        if path.exists():  # keep the permissions of the file being replaced (new files get 0o666 & ~umask)
            try:
                os.chmod(tmp, path.stat().st_mode & 0o7777)
            except OSError:
                pass
        _fsync_path(tmp)
        os.replace(tmp, path)
        tmp = None
        try:
            _fsync_path(path.parent, directory=True)
        except OSError:
            pass  # the rename happened; some file systems cannot fsync a folder
    except BaseException as exc:
        if tmp is not None:
            try:
                tmp.unlink()
            except OSError:
                pass
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        raise _save_error(exc, path) from exc
    _remove_stale_temps(path.parent, path.name)
    return path


def _create_temp(path: Path) -> Path:
    """An empty new file beside ``path`` (created with mode 0o666 minus the umask, like any new file)."""
    for _attempt in range(100):
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}{TEMP_SUFFIX}")
        try:
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            continue
        return tmp
    raise FileExistsError(errno.EEXIST, "cannot create a temporary file", str(path.parent))


# --- opening -------------------------------------------------------------------------------------------------------


def _looks_like_toml(head: bytes, path: Path) -> bool:
    try:
        text = path.read_text(encoding="utf-8") if len(head) < 4096 else path.read_bytes()[:1 << 20].decode("utf-8")
        tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return head.lstrip().startswith((b"format", b"[project]", b"#"))
    return True


def _check_header(path: Path) -> None:
    """Recognise non-StorPlan files before SQLite sees them (SQLite treats an empty file as an empty database)."""
    try:
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
        raise StoreError(f"{path} is not a StorPlan project (it is not an SQLite database).", path, "not_storplan")
    if len(head) < 100:
        raise StoreError(f"{path} is damaged: it is truncated ({len(head)} bytes).", path, "corrupt")
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


def _newer_message(path: Path, conn: sqlite3.Connection, version: int) -> str:
    try:
        saved_by = f" (saved by StorPlan {codec.read_meta(conn)['app_version']})"
    except Exception:
        saved_by = ""
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


def open_project(path: Path | str, *, busy_timeout: float = 2.0, read_only_if_locked: bool = False) -> OpenedProject:
    """Open a ``.storplan`` file without changing it.

    Args:
        path: the file.
        busy_timeout: seconds to wait when another program is writing to the file at this moment.
        read_only_if_locked: when another StorPlan holds the project's lock, open it read-only (``read_only``
            and ``locked_by`` set) instead of raising.

    Returns:
        :class:`OpenedProject`. ``read_only`` is True when the file cannot be saved back in place.

    Raises:
        StoreError: with ``reason``:
            ``"not_found"``; ``"not_storplan"`` (empty, random bytes, another SQLite database, a TOML project);
            ``"corrupt"`` (truncated or damaged: integrity check or SQLite errors); ``"newer_version"``
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
        conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=busy_timeout,
                               isolation_level=None)  # fmt: skip
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot open the file: {exc}.", path, "io") from exc
    try:
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
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(_newer_message(path, conn, version), path, "newer_version")
        if version < 1:
            raise StoreError(f"{path} is damaged: it has no StorPlan schema version.", path, "corrupt")
        problems = [row[0] for row in conn.execute("PRAGMA integrity_check(5)")]
        if problems != ["ok"]:
            raise StoreError(f"{path} is damaged: {'; '.join(problems)}", path, "corrupt")
        source = conn
        if version < SCHEMA_VERSION:
            source = sqlite3.connect(":memory:", isolation_level=None)
            conn.backup(source)
            source.execute("BEGIN")
            migrate(source, version)
            source.execute("COMMIT")
        try:
            project, snapshot, calibration, meta = codec.read_project(source, str(path))
        finally:
            if source is not conn:
                source.close()
        conn.execute("COMMIT")
    except StoreError:
        raise
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path} is damaged (truncated or corrupted): {exc}.", path, "corrupt") from exc
    except (sqlite3.Error, LookupError, ValueError, TypeError) as exc:
        raise StoreError(
            f"{path} is damaged: its tables are not what StorPlan expects ({type(exc).__name__}: {exc}).",
            path,
            "corrupt",
        ) from exc
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
    )
