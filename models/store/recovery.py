"""Autosave copies that survive a crash, and finding them again at the next start.

Each open project has a key (any string the app chooses, e.g. a uuid per document window). An autosave writes
``<key>.storplan`` (the normal file format, saved atomically) and then a small ``<key>.json`` beside it naming the
original file, the project name, the time and the writing process. After a crash, :meth:`RecoveryStore.pending`
lists the copies whose process is gone; a clean save or close calls :meth:`RecoveryStore.clear_for`.
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
from models.store.records import Calibration, OpenedProject, StoreError


@dataclass(frozen=True)
class RecoveryItem:
    """One recovery copy.

    Attributes:
        path: the recovery ``.storplan`` file (open it with :func:`models.store.open_project`).
        original_path: the file the user was editing, or None for a project never saved.
        saved_at: when the copy was written (ISO 8601, UTC).
        name: the project's name.
        key: the key the app wrote it under.
    """

    path: Path
    original_path: Path | None
    saved_at: str
    name: str
    key: str


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
    ) -> Path:
        """Write (or overwrite) the recovery copy of one open project, atomically.

        Args:
            project_key: the app's key for the open project (stable while it stays open).
            project: the current, unsaved state.
            original_path: the project's file, if it has one.
            catalog, calibration: as for :func:`models.store.save_project`.

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
            item = RecoveryItem(
                path=data_path,
                original_path=Path(original) if original else None,
                saved_at=str(info.get("saved_at", "")),
                name=str(info.get("name", data_path.stem)),
                key=str(info.get("key", data_path.stem)),
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
