"""The Protection results tab: each replication relationship's RPO achieved against the one required, its largest
transfer and its time, the bandwidth that meets the RPO, the baseline, the destination's capacity and runway, then
each workload's verdict when a site is lost (MetroCluster switchover, a stretched cluster's site failure).

The figures are ``models.present.protection_panel.protection_panel`` of the active scenario, computed on the
panel's task runner (never on the GUI thread) whenever the project changes while the tab is shown (the newest
result wins), as the Cost and carbon tab does.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QLabel,
    QScrollArea,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.gui.results._common import FAIL, PASS, WARNING, html_escape
from app.gui.results.fitting_table import FittingTable
from app.gui.results.on_show import ComputedOnShow

RPO_COLUMN = 5
"""The relationships table's "RPO achieved" column (coloured by its verdict)."""


def protection_job(_state, project, catalog=None):
    """The Protection tab's content for ``project`` (runs on the panel's runner; ``catalog``: the document's base
    catalog)."""
    from models.present.protection_panel import protection_panel

    return protection_panel(project, catalog)


def _fill(table: _ProtectionTable, rows: list[list[str]]) -> None:
    """Header from ``rows[0]``, one table row per following row; each cell's text is its tooltip; the columns share
    the tab's width (:meth:`_ProtectionTable.fit_columns`)."""
    table.clear()
    table.setColumnCount(len(rows[0]))
    table.setHorizontalHeaderLabels(rows[0])
    table.setRowCount(len(rows) - 1)
    for r, cells in enumerate(rows[1:]):
        for c, text in enumerate(cells):
            item = QTableWidgetItem(text)
            item.setToolTip(text)
            table.setItem(r, c, item)
    table.fit_columns()


class _ProtectionTable(FittingTable):
    """A Protection table: its columns share the tab's width, a long cell wrapped rather than cut (REVIEW46: at 1366
    px the relationships' last columns and the site-loss verdict lay past the edge, reached by scrolling sideways),
    and the table exactly as tall as its header and rows."""

    def fit_columns(self) -> None:
        """:meth:`FittingTable.fit_columns`, then the table's height to its wrapped header and rows."""
        super().fit_columns()
        header = self.horizontalHeader().sizeHint().height()
        height = header + self.verticalHeader().length() + 2 * self.frameWidth() + 2
        if self.height() != height:
            self.setFixedHeight(height)


def _table() -> _ProtectionTable:
    table = _ProtectionTable(0, 0)
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    table.verticalHeader().hide()
    table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # the columns share the width
    table.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)  # the tab's width, not the table's
    return table


class ProtectionView(ComputedOnShow):
    """The Protection tab of a ``ProjectDocument`` (see module).

    Attributes:
        panel: the ``models.present.protection_panel.ProtectionPanel`` shown (None before the first result);
        relationships, sites: the two tables; summary: the verdicts in a line; notes: the sentences.
    """

    sig_shown = Signal()
    """A new result was drawn."""

    JOB_NAME = "protection and DR"
    _job = staticmethod(protection_job)

    def __init__(self, document, parent: QWidget | None = None) -> None:
        super().__init__(document, "protection", parent)
        self.setObjectName("protectionView")
        self.panel = None
        self.summary = QLabel("Computing…")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.relationships = _table()
        self.relationships.setObjectName("protectionRelationships")
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.notes.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.sites_title = QLabel("<b>When a site is lost</b>")
        self.sites = _table()
        self.sites.setObjectName("protectionSites")
        self.site_notes = QLabel()
        self.site_notes.setWordWrap(True)
        self.site_notes.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        body = QWidget()
        column = QVBoxLayout(body)
        column.addWidget(self.summary)
        self.relationships_title = QLabel("<b>Replication relationships</b>")
        column.addWidget(self.relationships_title)
        column.addWidget(self.relationships)
        column.addWidget(self.notes)
        column.addWidget(self.sites_title)
        column.addWidget(self.sites)
        column.addWidget(self.site_notes)
        column.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # the notes wrap instead
        scroll.setWidget(body)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll)
        document.sig_project_changed.connect(self._project_changed)
        document.sig_project_replaced.connect(self._project_changed)

    def _done(self, ok: bool, result) -> None:
        if not ok:
            self.summary.setText(f"<span style='color:{FAIL}'>Protection not computed: "
                                 f"{html_escape(str(result))}</span>")
            return
        self.show_panel(result)

    def show_panel(self, panel) -> None:
        """Draw ``panel`` (a ``models.present.protection_panel.ProtectionPanel``)."""
        self.panel = panel
        parts = []
        for label, met in panel.rpo_met:
            colour, word = ((PASS, "RPO met") if met else (FAIL, "RPO missed")) if met is not None else \
                (WARNING, "no RPO stated")
            parts.append(f"{html_escape(label)}: <b style='color:{colour}'>{word}</b>")
        parts += [f"<b style='color:{FAIL}'>{html_escape(m)}</b>" for m in panel.misses]
        parts += [f"<span style='color:{FAIL}'>{html_escape(p)}</span>" for p in panel.problems]
        if not panel.rpo_met:
            parts.insert(0, "No replication relationship: drag from one storage system to another on the canvas "
                            "to draw one.")
        self.summary.setText("<br>".join(parts))
        _fill(self.relationships, panel.relationships)
        self.relationships.setVisible(len(panel.relationships) > 1)
        self.relationships_title.setVisible(len(panel.relationships) > 1)
        for row, (_, met) in enumerate(panel.rpo_met):
            item = self.relationships.item(row, RPO_COLUMN)
            if item is not None and met is not None:
                item.setForeground(QColor(PASS if met else FAIL))
        self.notes.setText("<br>".join(html_escape(s) for s in panel.sentences))
        _fill(self.sites, panel.site_rows)
        has_sites = len(panel.site_rows) > 1
        self.sites.setVisible(has_sites)
        site_text = [*panel.requirement, *(r[:1].upper() + r[1:] for r in panel.site_reasons)]
        if not has_sites:
            site_text.append("No system of this design has two sites (MetroCluster, a stretched vSAN cluster): "
                             "losing a site stops its service.")
        self.site_notes.setText("<br>".join(html_escape(s) for s in site_text))
        self.sig_shown.emit()

    def wait(self) -> None:
        """Wait for the computation under way and draw its result (tests and scripts)."""
        self.runner.wait()


__all__ = ["ProtectionView", "protection_job"]
