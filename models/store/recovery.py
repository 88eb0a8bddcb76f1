"""Autosave copies that survive a crash, and finding them again at the next start.

Each open project has a key (any string the app chooses, e.g. a uuid per document window). An autosave writes
``<key>.storplan`` (the normal file format, saved atomically) and then a small ``<key>.json`` beside it naming the
original file (and its fingerprint as the app last opened or saved it, so recovery can tell a file saved again after
the copy: :meth:`RecoveryItem.original_on_disk`), the project name, the time and the writing process. After a crash,
:meth:`RecoveryStore.pending` lists the copies whose process is gone; a clean save or close calls
:meth:`RecoveryStore.clear_for`.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import socket
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from models.atomic import write_bytes_atomic
from models.catalog import Catalog
from models.project.model import Project
from models.store.files import open_project, save_project
from models.store.lock import pid_alive, read_small_file
from models.store.records import Calibration, FileFingerprint, OpenedProject, StoreError


@dataclass(frozen=True)
class RecoveryItem:
    """One recovery copy.

    Attributes:
        path: the recovery ``.storplan`` file (open it with :func:`models.store.open_project`).
        original_path: the file the user was editing, or None for a project never saved.
        saved_at: when the copy was written (ISO 8601, UTC).
        name: the project's name.
        key: the key the app wrote it under.
        original_fingerprint: the original file as the window had opened or last saved it when the copy was
            written (None: there was no file then, or the copy predates this record).
        fingerprint_recorded: the copy's record holds ``original_fingerprint`` (copies of older StorPlans do not).
    """

    path: Path
    original_path: Path | None
    saved_at: str
    name: str
    key: str
    original_fingerprint: FileFingerprint | None = None
    fingerprint_recorded: bool = False

    def original_on_disk(self) -> tuple[FileFingerprint | None, str | None]:
        """What saving the recovered project over its original file must expect, and whether that file was
        saved after this copy was written.

        Returns:
            ``(expected, saved_after)``: ``expected`` is the fingerprint the next save checks the file against
            (``models.store.save_project``'s ``expected_fingerprint``; None: no file there now, nothing to
            lose); ``saved_after`` is when the file on disk was modified (ISO 8601, UTC) if its content is newer
            than the copy (saved again after the crash, or by someone else), else None. Then the save asks
            before overwriting that newer work.
        """
        if self.original_path is None:
            return None, None
        try:
            current = FileFingerprint.of(self.original_path)
        except OSError:
            return None, None  # unreadable now: the save itself says why it cannot write
        if current is None:
            return None, None
        when = datetime.fromtimestamp(current.mtime_ns / 1e9, UTC).isoformat(timespec="seconds")
        if self.fingerprint_recorded:
            if self.original_fingerprint is not None and self.original_fingerprint.same_content(current):
                return current, None
            # a file that was not there when the copy was written, or other content: newer work
            expected = self.original_fingerprint or FileFingerprint(current.size_bytes, 0, "")
            return expected, when
        # an older StorPlan's copy (no fingerprint): a file modified after the copy is newer work
        try:
            copied = datetime.fromisoformat(self.saved_at)
        except ValueError:
            copied = None
        if copied is not None and current.mtime_ns / 1e9 <= copied.timestamp():
            return current, None
        return FileFingerprint(current.size_bytes, 0, ""), when


def _file_stem(key: str) -> str:
    readable = re.sub(r"[^A-Za-z0-9_-]+", "_", key)[:40]
    return f"{readable}-{hashlib.sha1(key.encode('utf-8')).hexdigest()[:10]}"


def _same_file(a: Path, b: Path) -> bool:
    return os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b))


class RecoveryStore:
    """Autosave copies in one folder (default ``user_data_dir() / "recovery"``)."""

    def __init__(self, directory: Path | str | None = None) -> None:
        if directory is None:
            from models.resources import user_data_dir

            directory = user_data_dir() / "recovery"
        self.directory = Path(directory)

    def _paths(self, key: str) -> tuple[Path, Path]:
        stem = _file_stem(key)
        return self.directory / f"{stem}.storplan", self.directory / f"{stem}.json"

    def write(
        self,
        project_key: str,
        project: Project,
        *,
        original_path: Path | str | None = None,
        catalog: Catalog | None = None,
        calibration: Calibration | None = None,
        original_fingerprint: FileFingerprint | None = None,
    ) -> Path:
        """Write (or overwrite) the recovery copy of one open project, atomically.

        Args:
            project_key: the app's key for the open project (stable while it stays open).
            project: the current, unsaved state.
            original_path: the project's file, if it has one.
            catalog, calibration: as for :func:`models.store.save_project`.
            original_fingerprint: the original file as the app opened or last saved it (recovery then tells
                whether that file was saved again after this copy: :meth:`RecoveryItem.original_on_disk`).

        Returns:
            The recovery file's path.

        Raises:
            StoreError: the recovery folder cannot be written (disk full, read-only, ...).
        """
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"Cannot write a recovery copy to {self.directory}: {exc.strerror or exc}", self.directory, "io"
            ) from exc
        data_path, info_path = self._paths(project_key)
        if data_path.is_symlink():  # recovery copies are plain files of ours: never write through a link
            data_path.unlink()
        save_project(project, data_path, catalog=catalog, calibration=calibration, respect_lock=False)
        info = {
            "key": project_key,
            "original_path": str(Path(original_path).absolute()) if original_path else None,
            "name": project.info.name,
            "saved_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "original_fingerprint": None if original_fingerprint is None else {
                "size_bytes": original_fingerprint.size_bytes, "mtime_ns": original_fingerprint.mtime_ns,
                "sha256": original_fingerprint.sha256},
        }
        old_tmp = info_path.with_name(info_path.name + ".tmp")  # older StorPlans' fixed name: a crash's leftover,
        if os.path.lexists(old_tmp):  # or a link someone planted; removed (unlink never follows a link)
            try:
                old_tmp.unlink()
            except OSError:
                pass
        try:  # a new temporary file under a random name, never a link planted there (models.atomic)
            write_bytes_atomic(info_path, json.dumps(info, ensure_ascii=False).encode("utf-8"), new_mode=0o600)
        except OSError as exc:
            raise StoreError(f"Cannot write {info_path}: {exc.strerror or exc}", info_path, "io") from exc
        return data_path

    def _items(self) -> list[tuple[RecoveryItem, dict]]:
        if not self.directory.is_dir():
            return []
        out = []
        for data_path in sorted(self.directory.glob("*.storplan")):
            if data_path.is_symlink() or not data_path.is_file():
                continue  # StorPlan writes plain files here: a link or anything else is not a recovery copy
            info_path = data_path.with_suffix(".json")
            try:
                info = json.loads(read_small_file(info_path, 1 << 16).decode("utf-8"))
                if not isinstance(info, dict):
                    raise ValueError
            except (OSError, ValueError):
                # the copy is there but its note is not (crash between the two writes): still offer it
                mtime = datetime.fromtimestamp(data_path.stat().st_mtime, UTC)
                info = {"key": data_path.stem, "name": data_path.stem, "saved_at": mtime.isoformat(timespec="seconds")}
            original = info.get("original_path")
            recorded = "original_fingerprint" in info
            fingerprint = None
            raw = info.get("original_fingerprint")
            if isinstance(raw, dict):
                try:
                    fingerprint = FileFingerprint(int(raw["size_bytes"]), int(raw["mtime_ns"]), str(raw["sha256"]))
                except (KeyError, TypeError, ValueError):
                    recorded = False  # a damaged record: judged by the times, as an older copy
            elif raw is not None:
                recorded = False
            item = RecoveryItem(
                path=data_path,
                original_path=Path(original) if original else None,
                saved_at=str(info.get("saved_at", "")),
                name=str(info.get("name", data_path.stem)),
                key=str(info.get("key", data_path.stem)),
                original_fingerprint=fingerprint,
                fingerprint_recorded=recorded,
            )
            out.append((item, info))
        return out

    def pending(self, *, include_live: bool = False) -> list[RecoveryItem]:
        """Recovery copies left by StorPlan processes that are gone (crashed or killed), newest first.

        Args:
            include_live: also list copies of processes still running (this one, or another StorPlan).
        """
        items = []
        for item, info in self._items():
            live = info.get("host") == socket.gethostname() and pid_alive(int(info.get("pid", 0) or 0))
            if include_live or not live:
                items.append(item)
        return sorted(items, key=lambda i: i.saved_at, reverse=True)

    def load(self, item: RecoveryItem) -> OpenedProject:
        """Open a recovery copy (raises StoreError like :func:`models.store.open_project`)."""
        return open_project(item.path)

    def discard(self, item_or_key: RecoveryItem | str) -> None:
        """Delete one recovery copy (by item or by the key it was written under). Missing files are fine."""
        if isinstance(item_or_key, RecoveryItem):
            paths = (item_or_key.path, item_or_key.path.with_suffix(".json"))
        else:
            paths = self._paths(item_or_key)
        for path in paths:
            try:
                path.unlink()
            except FileNotFoundError:
                pass

    def clear_for(self, original_path: Path | str) -> None:
        """Delete every recovery copy of ``original_path`` (after a clean save or close)."""
        for item, _info in self._items():
            if item.original_path is not None and _same_file(item.original_path, Path(original_path)):
                self.discard(item)
