"""Between the SQLite file and the readable TOML form (``storplan import`` / ``storplan export``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from models.catalog import Catalog
from models.project import textformat
from models.project.model import Project
from models.store.errors import StoreError
from models.store.snapshot import base_catalog
from models.store.sniff import is_sqlite_file

if TYPE_CHECKING:
    from models.store.files import SavedProject
    from models.store.records import FileFingerprint, SnapshotEntry

# The SQLite side (models.store.files: sqlite3, the codec, the lock) and the store's records are imported by the
# functions that open or save a .storplan file, so reading a TOML project (the default example) loads none of them.


def import_toml(toml_path: Path | str, storplan_path: Path | str, *, catalog: Catalog | None = None) -> Project:
    """Read a TOML project and save it as a ``.storplan`` file (atomically).

    Raises:
        ProjectFormatError: the TOML file cannot be read or is not a valid project (names file and place).
        StoreError: the ``.storplan`` file cannot be written.
    """
    from models.store.files import save_project

    project = textformat.load(toml_path)
    save_project(project, storplan_path, catalog=catalog)
    return project


def save_toml_tracked(project: Project, path: Path | str, *, expected_fingerprint: FileFingerprint | None = None,
                      force: bool = False) -> SavedProject:
    """Save a project as TOML text (``models.project.textformat.dumps``) atomically, refusing to overwrite a file
    that changed on disk since it was opened or last saved: the TOML twin of
    :func:`models.store.save_project_tracked`.

    The content check runs before writing and again just before the rename, under the folder's lock
    (``models.atomic.replace_lock``), so of two processes saving one file with the same expectation exactly one
    succeeds and the other gets :class:`FileChangedOnDiskError`. The temporary file is created exclusively under a
    random name (a symlink planted there is never followed); a symlink at ``path`` itself is replaced, as
    :func:`models.project.textformat.dump` does.

    Args:
        project: the project; path: the TOML file to create or replace.
        expected_fingerprint: the file as it was read (``FileFingerprint.of`` before reading) or last saved
            (this function's ``fingerprint``); None: no check (a new file, Save As).
        force: overwrite even when the file changed (the user chose to).

    Returns:
        :class:`SavedProject`: the path and the fingerprint of the bytes written (the next save's expectation).

    Raises:
        FileChangedOnDiskError: (``reason`` ``"changed_on_disk"``) the file has other content than expected;
            nothing was written.
        StoreError: the file cannot be written (an existing file is unchanged); the message names the file and
            why, as for a ``.storplan`` save.
    """
    from models.atomic import write_text_atomic
    from models.store.files import SavedProject, _save_error, check_unchanged
    from models.store.records import FileFingerprint

    path = Path(path)
    expected = None if force else expected_fingerprint
    check_unchanged(path, expected)
    written: list[FileFingerprint] = []

    def last_check(tmp: Path) -> None:
        fingerprint = FileFingerprint.of(tmp)
        assert fingerprint is not None
        written.append(fingerprint)
        check_unchanged(path, expected)

    try:
        write_text_atomic(path, textformat.dumps(project), before_replace=last_check)
    except OSError as exc:  # words naming the file and its folder, never the temporary file or an errno
        raise _save_error(exc, path) from exc
    return SavedProject(path, written[-1])


def export_toml(
    storplan_path: Path | str, toml_path: Path | str, *, read_only_if_locked: bool = False
) -> Project:
    """Write the TOML form of a ``.storplan`` file (atomically: temporary file + rename).

    The TOML form holds the project itself; the catalog snapshot and calibration data stay in the ``.storplan``.
    With ``read_only_if_locked`` a project another StorPlan holds is read as last saved (see :func:`open_project`).

    Raises:
        StoreError: the ``.storplan`` file cannot be opened, or the TOML file cannot be written; ``"locked"`` when
            ``toml_path`` is the project file itself and another StorPlan holds it.
    """
    from models.store.files import open_project
    from models.store.lock import held_by_other

    if read_only_if_locked and _same_file(storplan_path, toml_path) and held_by_other(storplan_path) is not None:
        raise StoreError(f"Cannot write {toml_path}: it is the project itself, open in another StorPlan. "
                         "The file is unchanged.", toml_path, "locked")
    project = open_project(storplan_path, read_only_if_locked=read_only_if_locked).project
    try:
        textformat.dump(project, toml_path)
    except OSError as exc:
        raise StoreError(f"Cannot write {toml_path}: {exc.strerror or exc}", toml_path, "io") from exc
    return project


def _same_file(a: Path | str, b: Path | str) -> bool:
    """True when ``a`` and ``b`` name one file (``b`` need not exist)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def is_storplan_path(path: Path | str) -> bool:
    """True when ``path`` is to be read as a ``.storplan`` file: its name ends in ``.storplan`` or it starts
    with the SQLite header. Everything else is read as TOML text.

    The app and the command line both decide with this, so a damaged ``.storplan`` file gets the same message
    (from :func:`open_project`) everywhere.
    """
    return Path(path).suffix.lower() == ".storplan" or is_sqlite_file(path)


def load_any(path: Path | str) -> Project:
    """A project from either form: a ``.storplan`` SQLite file (by its name or header) or TOML text.

    Raises:
        StoreError: a ``.storplan`` file that cannot be opened (see :func:`open_project`).
        ProjectFormatError: a text file that is not a valid TOML project.
    """
    if is_storplan_path(path):
        from models.store.files import open_project

        return open_project(path).project
    return textformat.load(path)


@dataclass(frozen=True)
class ProjectFile:
    """A project read from a file with the catalog it evaluates against.

    Attributes:
        project: the project.
        catalog: its base catalog by the one rule (:func:`models.store.snapshot.base_catalog`): a ``.storplan``
            file's pinned records (a :class:`~models.store.snapshot.PinnedCatalog`), then the user's records,
            then the bundled catalog; a TOML project has no pinned records. The project's own records
            (``custom_catalog``) go on top when it is resolved (``models.design.resolve``).
        snapshot: the pinned records as saved, id -> :class:`SnapshotEntry` (empty for TOML).
    """

    project: Project
    catalog: Catalog
    snapshot: Mapping[str, SnapshotEntry] = field(default_factory=dict)
    locked_by: str | None = None


def load_project_file(path: Path | str, *, read_only_if_locked: bool = False) -> ProjectFile:
    """The one loader of a project file for every front door (command line, report, workbook, sizer): the
    project and its base catalog, so a ``.storplan`` file gives the same answer here as in the app.

    Args:
        path: a ``.storplan`` file or a TOML project.
        read_only_if_locked: when another StorPlan holds the ``.storplan`` file (its lock), read it as last
            saved instead of refusing; ``locked_by`` then says who holds it. Reading never touches the lock and
            creates no file beside the project (SQLite opens it ``mode=ro``).

    Raises:
        StoreError: a ``.storplan`` file that cannot be opened (see :func:`open_project`); ``"locked"`` when
            another StorPlan holds it and ``read_only_if_locked`` is False.
        ProjectFormatError: a text file that is not a valid TOML project.
    """
    if is_storplan_path(path):
        from models.store.files import open_project

        opened = open_project(path, read_only_if_locked=read_only_if_locked)
        return ProjectFile(opened.project, base_catalog(opened.catalog_snapshot), dict(opened.catalog_snapshot),
                           opened.locked_by)
    return ProjectFile(textformat.load(path), base_catalog())
