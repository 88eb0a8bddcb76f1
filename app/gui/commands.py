"""Undo commands: thin wrappers that swap project snapshots made by the pure edits.

Every user change is one :class:`ReplaceProjectCommand`: it holds the project snapshot before and after (the
records are frozen, so a snapshot is cheap and safe to share) and asks the document to show one or the other.
The document diffs the two snapshots and emits fine-grained signals; no command touches a view. The one change
that is not the project's is re-pinning a file's catalog records (:class:`RepinCatalogCommand`): it swaps the
document's base catalog the same way.

The edits themselves are pure functions in :mod:`models.project.edits` (project or scenario in, new one out;
Qt-free, tested headless); :class:`~app.gui.document.ProjectDocument` calls them and pushes the result here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

from models.catalog import Catalog
from models.project.model import Project

if TYPE_CHECKING:
    from app.gui.document import ProjectDocument

MERGE_EDIT = 1001
"""Command id of field edits: consecutive edits of the same field of the same record merge (spin-box steps)."""


class ReplaceProjectCommand(QUndoCommand):
    """Swap the document's project between two snapshots.

    ``merge_key`` (e.g. ``("node", "shelf-1", "drive_count")``) makes consecutive commands with the same key
    merge into one undo step.
    """

    def __init__(self, document: ProjectDocument, before: Project, after: Project, text: str,
                 merge_key: tuple | None = None) -> None:
        super().__init__(text)
        self._document = document
        self.before = before
        self.after = after
        self.merge_key = merge_key

    def id(self) -> int:
        """Qt's merge id: field edits share one, so consecutive edits of one field can merge."""
        return MERGE_EDIT if self.merge_key is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt's name
        """Absorb ``other`` when it edits the same field right after this one (spin-box steps)."""
        if not isinstance(other, ReplaceProjectCommand) or other.merge_key != self.merge_key:
            return False
        if other.before is not self.after:
            return False
        self.after = other.after
        return True

    def redo(self) -> None:
        """Show the project after the change."""
        self._document._show(self.after)

    def undo(self) -> None:
        """Show the project before the change."""
        self._document._show(self.before)


class RepinCatalogCommand(QUndoCommand):
    """Swap the document's base catalog (the pinned records) for another one; undo swaps it back.

    ``before`` / ``after``: the base catalogs (None = the default catalog); ``text``: the Edit menu's words.
    """

    def __init__(self, document: ProjectDocument, before: Catalog | None, after: Catalog | None, text: str) -> None:
        super().__init__(text)
        self._document, self._before, self._after = document, before, after

    def redo(self) -> None:
        """Evaluate against the re-pinned catalog."""
        self._document.set_base_catalog(self._after)

    def undo(self) -> None:
        """Evaluate against the catalog pinned before."""
        self._document.set_base_catalog(self._before)
