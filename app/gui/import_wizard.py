"""File > Import Environment...: a wizard from measured environment exports to the project's workloads (issue 31).

Pages: (1) choose files (several at once, mixed sources) or an RVTools CSV export folder, each shown with the
source it was detected as or the one-line reason it cannot be read, and the seconds between ONTAP counter-table
polls (``import-env --interval``); (2) preview: per source, the machines and volumes read, what the reader assumed,
and the rows refused or flagged and why; (3) grouping, statistic, names and the installed controller, with the
resulting workloads and totals, the installed system's measured against predicted latency, and the measured series
saved as the calibration CSV (the selected workload's or the whole collection's); (4) finish: replace or add to the
scenario's workloads, as one undoable command.

The files are read and grouped exactly as ``storplan import-env`` does (:func:`read_sources` follows its code path:
one reader per file, the ONTAP polls of one collection read together; then
:func:`models.importers.workloads.import_environment`), on the wizard's :class:`~app.gui.tasks.TaskRunner` thread:
the GUI thread never waits on the disk. Every text that comes from a file is shown as plain text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSignalBlocker, QSize, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QStyle,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from app.gui.plain_text import plain_label, plain_tooltip, shorten
from app.gui.screen_fit import fit_to_screen
from app.gui.task_process import TaskState
from app.gui.tasks import TaskRunner
from models.catalog import Controller
from models.formatting import fmt_capacity
from models.importers.inventory import Inventory, InventoryError
from models.importers.provenance import rate_words
from models.importers.workloads import ImportedGroup, ImportResult, guest_words, import_environment
from models.project.edits import unique_workload_name
from models.project.model import MAX_WORKLOADS_PER_TARGET, Project

if TYPE_CHECKING:
    from app.gui.document import ProjectDocument

SOURCE_TITLES = {"rvtools": "RVTools", "liveoptics": "Live Optics", "ontap": "ONTAP counters",
                 "azure-migrate": "Azure Migrate"}
GROUPINGS = (("cluster", "Cluster"), ("datastore", "Datastore"), ("tag", "Tag"), ("svm", "SVM"),
             ("aggregate", "Aggregate"))
"""Every grouping's name; the Group by list offers those the loaded files support
(``models.importers.workloads.grouping_choices``)."""
SAME_GROUPING = {"cluster": "svm", "tag": "svm", "datastore": "aggregate", "svm": "cluster", "aggregate": "datastore"}
"""A grouping the loaded files do not offer -> the one that groups them the same way (ONTAP volumes: cluster and
tag mean the SVM, datastore the aggregate)."""
STATS = (("p95", "P95 of each machine (summed)"), ("peak", "Peak of each machine (summed)"))
COUNTER_TABLES_WITHOUT_CLOCK = "counter-table polls carry no clock"
"""The start of the ONTAP reader's note when counter-table polls were read without their interval."""
FILE_FILTER = "Environment exports (*.xlsx *.csv *.json *.txt);;All files (*)"


@dataclass(frozen=True)
class FileEntry:
    """One chosen file: its path, the source it was detected as ("" when unreadable) and the one-line error."""

    path: Path
    kind: str = ""
    error: str = ""


@dataclass(frozen=True)
class ReadResult:
    """What :func:`read_sources` read: one entry per chosen file (in order) and the inventories read."""

    files: tuple[FileEntry, ...]
    inventories: tuple[Inventory, ...]


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return shorten(text)


def read_sources(state: TaskState | None, paths: list[Path], interval_s: float | None = None) -> ReadResult:
    """Detect and read ``paths`` as ``storplan import-env`` does (runs on the task runner's thread).

    Files are grouped by detected source; the ONTAP files are read together (the polls of one collection), every
    other file on its own. A file that cannot be detected or read gets its one-line error and is left out; the
    others are read (an ONTAP read that fails marks the file its error names and reads the others again; an error
    naming none of them marks them all).

    Args:
        state: the task's state (progress and cancel), or None.
        paths: the chosen files; interval_s: seconds between ONTAP counter-table polls (None: from the files).
    """
    from models.importers.registry import detect, nothing_listed, reader

    entries: dict[Path, FileEntry] = {}
    kinds: dict[str, list[Path]] = {}
    for path in paths:
        try:
            if not path.exists():
                raise InventoryError(f"{path.name}: no such file")
            kind = detect(path)
        except (InventoryError, OSError, ValueError) as exc:
            entries[path] = FileEntry(path, "", _one_line(exc))
            continue
        entries[path] = FileEntry(path, kind)
        kinds.setdefault(kind, []).append(path)
    inventories: list[Inventory] = []
    total = max(1, sum(len(v) for v in kinds.values()))
    done = 0
    for kind, group in kinds.items():
        if state is not None and state.is_interruption_requested():
            break
        if kind == "ontap":  # the polls of one collection are read together
            inventories.extend(_read_ontap_group(group, entries, interval_s))
            done += len(group)
        else:
            for path in group:
                try:
                    inventory = reader(kind)(path)
                    if nothing_listed(inventory):  # a header and no row: named with its sheet, not read
                        raise InventoryError(nothing_listed(inventory))
                    inventories.append(inventory)
                except (InventoryError, OSError, ValueError) as exc:
                    entries[path] = FileEntry(path, "", _one_line(exc))
                done += 1
                if state is not None:
                    state.set_progress(done / total)
        if state is not None:
            state.set_progress(done / total)
    return ReadResult(tuple(entries[p] for p in paths), tuple(inventories))


def _read_ontap_group(group: list[Path], entries: dict[Path, FileEntry], interval_s: float | None) -> list[Inventory]:
    """The ONTAP files read together as one collection. A file the error names (the readers' messages start with
    the file's name) gets the error and the others are read again without it; an error naming none of them marks
    them all."""
    from models.importers.ontap import read_ontap

    group = list(group)
    while group:
        try:
            return [read_ontap(*group, interval_s=interval_s)]
        except (InventoryError, OSError, ValueError) as exc:
            message = _one_line(exc)
            named = next((p for p in group if message.startswith(f"{p.name}:")), None)
            if named is None:
                for path in group:
                    entries[path] = FileEntry(path, "", message)
                return []
            entries[named] = FileEntry(named, "", message)
            group.remove(named)
    return []


def _write_text(state: TaskState | None, path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (on the runner's thread)."""
    from models.atomic import write_text_atomic

    write_text_atomic(path, text)


@dataclass(frozen=True)
class TodayResult:
    """The installed system (issue 31, item 6): its design (``scenario``, ``summary``, ``notes``) and per workload
    the measured against the predicted latency at the measured load (``lines``, in words)."""

    scenario: Any
    """the installed design's scenario (None: it could not be built; ``lines`` says why)"""
    summary: str
    notes: tuple[str, ...]
    lines: tuple[str, ...]


def _today(project: Project, result: ImportResult, installed: str) -> TodayResult:
    """The installed design of controller ``installed`` with the imported workloads, and its comparison
    (``models.installed``); runs on the runner's thread."""
    from models.evaluate import project_catalog
    from models.installed import InstalledError, compare_measured, comparison_lines, installed_design

    with_workloads = project.with_scenario(project.scenario.with_changes(workloads=list(result.workloads)))
    try:
        design = installed_design(with_workloads, installed, project_catalog(with_workloads),
                                  groups=result.groups)
    except InstalledError as exc:
        return TodayResult(None, "not evaluated", (), (str(exc),))
    rows = compare_measured(with_workloads.with_scenario(design.scenario), result.groups)
    return TodayResult(design.scenario, design.summary, design.notes, tuple(comparison_lines(rows)))


def _group(state: TaskState | None, inventories: tuple[Inventory, ...], target: str, group_by: str, stat: str,
           keep_names: bool, base: Any, installed: str = "",
           project: Project | None = None) -> tuple[ImportResult, Project | None, TodayResult | None]:
    """``import_environment`` on the runner's thread, and the starting design when the scenario has none.

    With a storage controller in the scenario (``target``), the project's requirements are the base. Without one
    (``target`` ""), the design ``storplan import-env`` starts from is read and used as it does (its controller
    serves the workloads; its requirements with no family or protocol are the base).

    With ``installed`` (a catalog controller id) and ``project`` (the document's), the installed system's design
    serves the imported workloads and its predicted latency is compared with the measured one (:func:`_today`).

    The starting design's hosts and front end are fitted to the data (``models.installed.starting_design``) and it
    serves the imported workloads; its description says where the numbers came from
    (``models.importers.provenance``).

    Returns:
        The import, the starting design's project (None when the scenario's own controller serves it) and the
        installed system (None without ``installed``).
    """
    start: Project | None = None
    if not target:
        from app.gui.project_io import read_project
        from models.importers.workloads import IMPORT_BASE_EXAMPLE
        from models.resources import examples_dir

        start = read_project(examples_dir() / f"{IMPORT_BASE_EXAMPLE}.toml")
        target = next(n.id for n in start.scenario.nodes if n.kind == "controller")
        base = start.requirements.with_changes(families=[], protocols=[])
    result = import_environment(inventories, target, group_by=group_by, stat=stat,  # type: ignore[arg-type]
                                keep_names=keep_names, base=base)
    if start is not None:  # the sample design's hosts and front end fitted to the data's source, as import-env does
        from models.importers.provenance import import_description
        from models.installed import starting_design

        fitted = starting_design(start.with_scenario(start.scenario.with_changes(workloads=list(result.workloads))),
                                 inventories, result.groups)
        start = fitted.project.with_changes(info=fitted.project.info.with_changes(description=import_description(
            inventories, result, group_by,
            f"The design shown is a starting point for sizing, not a recommendation: {fitted.note}.")))
    today = None
    if installed and (start or project) is not None:
        today = _today(start or project, result, installed)  # type: ignore[arg-type]
    return result, start, today


def _table(headers: list[str], stretch: int) -> QTableWidget:
    table = QTableWidget(0, len(headers))
    table.setHorizontalHeaderLabels(headers)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.verticalHeader().setVisible(False)
    table.setWordWrap(False)
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)  # the text column takes the room left
    return table


def _fill(table: QTableWidget, rows: list[list[str]], numeric: frozenset[int] = frozenset()) -> None:
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            item = QTableWidgetItem(text)  # an item's text is never rich text
            item.setToolTip(plain_tooltip(text))
            if c in numeric:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            table.setItem(r, c, item)


class FilesPage(QWizardPage):
    """Page 1: the chosen files, each with its detected source or its one-line error."""

    def __init__(self, wizard: ImportWizard) -> None:
        super().__init__()
        self._wizard = wizard
        self.setTitle("Choose the measured environment")
        self.setSubTitle("RVTools, Live Optics, ONTAP counter polls or Azure Migrate exports; several files at once, "
                         "sources mixed. File names and paths are not kept in the project.")
        self.list = QListWidget()
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setWordWrap(True)  # a long reason wraps rather than running off the side
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.btn_add = QPushButton("Add Files…")
        self.btn_add.clicked.connect(self.choose_files)
        self.btn_folder = QPushButton("Add RVTools CSV Folder…")
        self.btn_folder.setToolTip("A folder of RVTools' CSV export (one file per tab, such as tabvInfo.csv)")
        self.btn_folder.clicked.connect(self.choose_folder)
        self.btn_remove = QPushButton("Remove")
        self.btn_remove.clicked.connect(self.remove_selected)
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setVisible(False)
        self.btn_cancel = QPushButton("Cancel Reading")
        self.btn_cancel.setVisible(False)
        self.btn_cancel.clicked.connect(wizard.cancel_reading)
        buttons = QHBoxLayout()
        buttons.addWidget(self.btn_add)
        buttons.addWidget(self.btn_folder)
        buttons.addWidget(self.btn_remove)
        buttons.addStretch(1)
        buttons.addWidget(self.progress)
        buttons.addWidget(self.btn_cancel)
        self.interval = QDoubleSpinBox()
        self.interval.setRange(0.0, 86_400.0)
        self.interval.setDecimals(0)
        self.interval.setSuffix(" s")
        self.interval.setSpecialValueText("not given")  # 0: the rows carry no clock, their volumes get no rates
        self.interval.setToolTip("ONTAP counter-table polls carry no clock: the seconds between two polls give "
                                 "their rates (REST volume statistics and statistics text carry their own times)")
        self.interval.setKeyboardTracking(False)  # read again once the number is entered, not at every digit
        self.interval.valueChanged.connect(lambda _v: wizard.set_files(list(wizard.paths)))
        self.interval.setMinimumWidth(self.interval.fontMetrics().horizontalAdvance("86,400 s") + 48)
        interval_label = QLabel("ONTAP counter-table poll &interval:")
        interval_label.setBuddy(self.interval)
        self.interval_hint = QLabel()
        self.interval_hint.setTextFormat(Qt.TextFormat.PlainText)
        self.interval_hint.setWordWrap(True)  # a long hint wraps at the wizard's width, never clipped
        interval_row = QHBoxLayout()
        interval_row.addWidget(interval_label)
        interval_row.addWidget(self.interval)
        interval_row.addWidget(self.interval_hint, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(buttons)
        layout.addWidget(self.list)
        layout.addLayout(interval_row)
        self.show_interval_hint()

    def show_interval_hint(self) -> None:
        """Say what the interval is for; when counter-table polls were read without it, say that their volumes have
        no rates until it is given (not greyed)."""
        read = self._wizard.read
        waiting = read is not None and self.interval_s() is None and any(
            n.startswith(COUNTER_TABLES_WITHOUT_CLOCK) for inv in read.inventories for n in inv.notes)
        self.interval_hint.setText("counter-table polls were read: give the seconds between them for their rates"
                                   if waiting else
                                   "the seconds between two counter-table polls (their rows carry no clock)")
        self.interval_hint.setEnabled(waiting)  # greyed unless it asks for something

    def interval_s(self) -> float | None:
        """The seconds between ONTAP counter-table polls (``import-env --interval``), None when not given."""
        value = self.interval.value()
        return value if value > 0 else None

    def choose_files(self) -> None:
        """Ask for files and add them."""
        names, _ = QFileDialog.getOpenFileNames(self, "Import Environment", "", FILE_FILTER)
        if names:
            self._wizard.add_files([Path(n) for n in names])

    def choose_folder(self) -> None:
        """Ask for a folder of RVTools CSV export files and add it."""
        name = QFileDialog.getExistingDirectory(self, "Import Environment: RVTools CSV export folder", "")
        if name:
            self._wizard.add_files([Path(name)])

    def remove_selected(self) -> None:
        """Leave out the selected files."""
        rows = {self.list.row(item) for item in self.list.selectedItems()}
        self._wizard.set_files([p for i, p in enumerate(self._wizard.paths) if i not in rows])

    def show_files(self) -> None:
        """List the files with what is known of them."""
        self.show_interval_hint()
        self.list.clear()
        read = self._wizard.read
        entries = {e.path: e for e in read.files} if read is not None else {}
        for path in self._wizard.paths:
            entry = entries.get(path)
            if entry is None:
                state = "reading…" if self._wizard.task is not None else "not read (reading cancelled)"
                text, tip = f"{path.name}: {state}", ""
            elif entry.error:  # the readers' messages mostly name the file already
                text = entry.error if entry.error.startswith(f"{path.name}:") else f"{path.name}: {entry.error}"
                tip = entry.error
            else:
                text, tip = f"{path.name}: {SOURCE_TITLES.get(entry.kind, entry.kind)}", ""
            item = QListWidgetItem(text)
            item.setToolTip(plain_tooltip(tip or str(path)))
            if entry is not None:  # a mark for every file read or refused (the names stay aligned)
                mark = QStyle.StandardPixmap.SP_MessageBoxWarning if entry.error else \
                    QStyle.StandardPixmap.SP_DialogApplyButton
                item.setIcon(self.style().standardIcon(mark))
            self.list.addItem(item)

    def isComplete(self) -> bool:  # noqa: N802 - Qt's name
        """Next needs at least one file read and no read under way."""
        read = self._wizard.read
        return self._wizard.task is None and read is not None and bool(read.inventories)


class PreviewPage(QWizardPage):
    """Page 2: per source, what was read, and every row refused or flagged with its reason."""

    def __init__(self, wizard: ImportWizard) -> None:
        super().__init__()
        self._wizard = wizard
        self.setTitle("Preview")
        self.setSubTitle("What each source holds, and the rows left out or kept with a warning.")
        self.sources = _table(["Source", "Files", "Machines", "Volumes", "Refused", "Warnings"], 1)
        self.flags = _table(["File", "Sheet", "Row", "Column", "Refused", "Reason"], 5)
        self.flags_label = QLabel()
        self.source_notes = QLabel()
        self.source_notes.setTextFormat(Qt.TextFormat.PlainText)
        self.source_notes.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.sources, 2)
        layout.addWidget(self.source_notes)
        layout.addWidget(self.flags_label)
        layout.addWidget(self.flags, 3)

    def initializePage(self) -> None:  # noqa: N802 - Qt's name
        """Fill the tables from the inventories read."""
        read = self._wizard.read
        inventories = read.inventories if read is not None else ()
        ontap_files = ", ".join(e.path.name for e in (read.files if read is not None else ()) if e.kind == "ontap")

        def files(inv: Inventory) -> str:  # the ONTAP polls of one collection are one inventory
            return ontap_files if inv.source == "ontap" and ontap_files else inv.file

        _fill(self.sources, [[SOURCE_TITLES.get(inv.source, inv.source), files(inv), f"{len(inv.machines):,}",
                              f"{len(inv.volumes):,}", f"{sum(f.refused for f in inv.flags):,}",
                              f"{sum(not f.refused for f in inv.flags):,}"] for inv in inventories],
              frozenset({2, 3, 4, 5}))
        notes = list(dict.fromkeys(f"{SOURCE_TITLES.get(inv.source, inv.source)}: {note}" for inv in inventories
                                   for note in inv.notes))  # two files of one source: their notes once
        self.source_notes.setText("\n".join(shorten(n, 300) for n in notes[:8])
                                  + (f"\n… and {len(notes) - 8} more" if len(notes) > 8 else ""))
        self.source_notes.setVisible(bool(notes))
        flags = [f for inv in inventories for f in inv.flags]
        plain_label(self.flags_label, f"{len(flags):,} row(s) refused or flagged" if flags
                    else "No row was refused or flagged.")
        _fill(self.flags, [[f.file, f.sheet, str(f.row), f.column, "yes" if f.refused else "no (warning)",
                            f.message] for f in flags], frozenset({2}))


class GroupingPage(QWizardPage):
    """Page 3: how machines become workloads, and the workloads that result."""

    def __init__(self, wizard: ImportWizard) -> None:
        super().__init__()
        self._wizard = wizard
        self.setTitle("Workloads")
        self.setSubTitle("Machines and volumes are grouped into workloads. Where a source has series the load is the "
                         "peak of sums over time; where it has only summaries, the sum of each member's P95 or peak.")
        self.group_by = QComboBox()
        for key, text in GROUPINGS:  # until files are read: initializePage offers what they support
            self.group_by.addItem(text, key)
        self.group_note = QLabel()  # what the chosen grouping does to members without its attribute
        self.group_note.setTextFormat(Qt.TextFormat.PlainText)
        self.group_note.setWordWrap(True)
        self.group_note.setVisible(False)
        self._fallbacks: dict[str, str] = {}
        self.stat = QComboBox()
        for key, text in STATS:
            self.stat.addItem(text, key)
        self.keep_names = QCheckBox("Keep the source's names (default: stable pseudonyms)")
        self.installed = QComboBox()
        self.installed.setToolTip("The storage controller the measured environment runs on today: its design is "
                                  "evaluated at the measured load, and the predicted latency is shown beside the "
                                  "measured one")
        self.installed.addItem("Not known", "")
        for record in sorted(wizard.document.catalog.of_kind(Controller), key=lambda c: c.name):
            self.installed.addItem(record.name, record.id)
        form = QFormLayout()
        form.addRow("Group by:", self.group_by)
        form.addRow("", self.group_note)
        form.addRow("Summaries:", self.stat)
        form.addRow("", self.keep_names)
        form.addRow("Installed controller:", self.installed)
        self.warning = QLabel()  # review 57 #1, #7: figures too small (an incomplete export, members without load)
        self.warning.setTextFormat(Qt.TextFormat.PlainText)
        self.warning.setWordWrap(True)
        self.warning_icon = QLabel()
        size = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        self.warning_icon.setPixmap(self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning).pixmap(size))
        self.warning_icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.warning_row = QWidget()
        warning_layout = QHBoxLayout(self.warning_row)
        warning_layout.setContentsMargins(0, 0, 0, 0)
        warning_layout.addWidget(self.warning_icon)
        warning_layout.addWidget(self.warning, 1)
        self.warning_row.setVisible(False)
        self.table = _table(["Workload", "Members", "Load from", "IOPS", "Read %", "I/O size", "Used",
                             "Provisioned"], 2)
        self.table.setWordWrap(True)  # "Load from" wraps in its column (rows grow to it), never elided
        self.totals = QLabel()
        self.totals.setTextFormat(Qt.TextFormat.PlainText)
        self.totals.setWordWrap(True)  # a refusal (nothing measured) is a sentence: wrapped, never clipped
        self.notes = QLabel()
        self.notes.setTextFormat(Qt.TextFormat.PlainText)
        self.notes.setWordWrap(True)
        self.today = QLabel()
        self.today.setTextFormat(Qt.TextFormat.PlainText)
        self.today.setWordWrap(True)
        self.today.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.today.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.today_area = QScrollArea()  # one line per workload: scrolls rather than pushing the table away
        self.today_area.setWidgetResizable(True)
        self.today_area.setFrameShape(QFrame.Shape.NoFrame)
        self.today_area.setWidget(self.today)
        self.today_area.setMaximumHeight(12 * self.today.fontMetrics().lineSpacing())
        self.today_area.setVisible(False)
        self.btn_series = QPushButton("Save Measured Series…")
        self.btn_series.setToolTip("The measured load and latency per poll interval, as the CSV Tools > Calibrate "
                                   "from Lab Data reads: the selected workload's, or the whole collection's when none "
                                   "is selected")
        self.btn_series.clicked.connect(self.save_series)
        self.series_status = QLabel()
        self.series_status.setTextFormat(Qt.TextFormat.PlainText)
        totals_row = QHBoxLayout()
        totals_row.addWidget(self.totals, 1)
        totals_row.addWidget(self.series_status)
        totals_row.addWidget(self.btn_series)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.warning_row)
        layout.addWidget(self.table, 1)
        layout.addLayout(totals_row)
        layout.addWidget(self.notes)
        layout.addWidget(self.today_area)
        self._stat_chosen = False  # the user picked a statistic (kept when the files change)
        self.stat.activated.connect(lambda _i: setattr(self, "_stat_chosen", True))
        self._group_chosen = False  # the user picked a grouping (kept when the files change)
        self.group_by.activated.connect(lambda _i: setattr(self, "_group_chosen", True))
        for combo in (self.group_by, self.stat, self.installed):
            combo.currentIndexChanged.connect(self.regroup)
        self.keep_names.toggled.connect(self.regroup)

    def series_points(self) -> tuple[list[tuple[float, float]], str]:
        """The measured (IOPS, latency ms) per poll interval of the selected workload, or of the whole collection
        when no workload is selected (``import-env --calibration-csv [--calibration-workload]``), and what they
        are of, in words."""
        from models.installed import calibration_points, group_calibration_points

        result, read = self._wizard.imported, self._wizard.read
        rows = {i.row() for i in self.table.selectionModel().selectedRows()} if result is not None else set()
        if result is not None and len(rows) == 1 and (row := rows.pop()) < len(result.groups):
            group = result.groups[row]
            return group_calibration_points(group), f"workload {group.name}"
        return calibration_points(read.inventories if read is not None else ()), "the whole collection"

    def save_series(self) -> None:
        """Ask where, and write the measured series as the calibration CSV (on the runner's thread)."""
        from models.installed import calibration_csv

        points, what = self.series_points()
        if not points:
            self.series_status.setText(f"No measured interval with operations and a latency for {what}")
            return
        name, _ = QFileDialog.getSaveFileName(self, "Save Measured Series", "measured.csv", "CSV files (*.csv)")
        if not name:
            return
        path = Path(name)
        self.series_status.setText("Saving…")
        self._wizard.runner.submit(_write_text, path, calibration_csv(points), name="save measured series",
                                   on_done=lambda ok, value: self.series_status.setText(
                                       f"Saved {len(points)} interval(s) of {what} to {path.name}" if ok else
                                       f"Not saved: {_one_line(value)}"))

    def options(self) -> dict[str, Any]:
        """The chosen grouping, statistic, names and installed controller (``import-env``'s --group-by, --stat,
        --keep-names, --installed)."""
        return {"group_by": self.group_by.currentData(), "stat": self.stat.currentData(),
                "keep_names": self.keep_names.isChecked(), "installed": self.installed.currentData() or ""}

    def initializePage(self) -> None:  # noqa: N802 - Qt's name
        """Offer the groupings the loaded files support, each once (``grouping_choices``), select the installed
        controller the data names (when the catalog holds it and none is chosen), and group with the options
        shown."""
        from models.importers.workloads import default_group_by, grouping_choices

        read = self._wizard.read
        inventories = read.inventories if read is not None else ()
        choices = grouping_choices(inventories)
        chosen = self.group_by.currentData()
        if read is not None and not self._group_chosen:  # the command line's default: an Azure Migrate report
            chosen = default_group_by(inventories)  # by its Environment tag, else by cluster
        keys = [c.key for c in choices]
        if chosen not in keys:  # the same grouping under the name these files give it, else the first
            chosen = SAME_GROUPING.get(chosen) if SAME_GROUPING.get(chosen) in keys else keys[0]
        with QSignalBlocker(self.group_by):
            self.group_by.clear()
            for choice in choices:
                self.group_by.addItem(choice.label, choice.key)
                if choice.fallback:
                    self.group_by.setItemData(self.group_by.count() - 1, choice.fallback, Qt.ItemDataRole.ToolTipRole)
            self.group_by.setCurrentIndex(keys.index(chosen))
        self._fallbacks = {c.key: c.fallback for c in choices}
        self._show_group_note()
        p95 = read is not None and has_p95(read.inventories)
        p95_row = self.stat.findData("p95")
        self.stat.model().item(p95_row).setEnabled(p95)  # type: ignore[attr-defined]
        self.stat.setToolTip("" if p95 else "The files give no P95: each member's peak is summed")
        if not p95 and self.stat.currentData() == "p95":
            with QSignalBlocker(self.stat):
                self.stat.setCurrentIndex(self.stat.findData("peak"))
        elif p95 and not self._stat_chosen:
            with QSignalBlocker(self.stat):
                self.stat.setCurrentIndex(p95_row)
        named = next((inv.controller_model for inv in read.inventories if inv.controller_model), "") if read else ""
        if named and not self.installed.currentData():
            from models.installed import match_controller

            found = match_controller(named, self._wizard.document.catalog)
            if found is not None:
                with QSignalBlocker(self.installed):
                    self.installed.setCurrentIndex(self.installed.findData(found.id))
        self.regroup()

    def _show_group_note(self) -> None:
        """Under Group by: what the chosen grouping does to members without its attribute (hidden when nothing)."""
        note = self._fallbacks.get(self.group_by.currentData(), "")
        self.group_note.setText(note[:1].upper() + note[1:] + "." if note else "")
        self.group_note.setVisible(bool(note))

    def regroup(self) -> None:
        """Group again on the runner's thread."""
        self._show_group_note()
        self._wizard.regroup(**self.options())

    def show_result(self) -> None:
        """Show the workloads, totals and notes (or the reason there are none)."""
        result, error = self._wizard.imported, self._wizard.group_error
        rows = []
        if result is not None:
            for g in result.groups:
                load_from = g.method if not g.needs_preset else "no performance data: capacity only" \
                    if g.used_bytes or g.provisioned_bytes else "no performance data and no capacity"  # review 57 #10
                rows.append([g.name, f"{g.members:,}", load_from,
                             "—" if g.needs_preset else rate_words(g.iops),
                             "—" if g.read_pct is None else f"{g.read_pct:.1f}",
                             "—" if g.block_kib is None else f"{g.block_kib:,.2f} KiB",
                             *((_used_cell(g, self._wizard.capacity(g.used_bytes)),
                                self._wizard.capacity(g.provisioned_bytes))
                               if g.used_bytes or g.provisioned_bytes else ("not given", "not given"))])
        _fill(self.table, rows, frozenset({1, 3, 4, 5, 6, 7}))
        self.table.resizeRowsToContents()
        warnings = [] if result is None or error else warning_lines(result)
        self.warning.setText("\n".join(warnings))
        self.warning_row.setVisible(bool(warnings))
        self.btn_series.setEnabled(result is not None and any(g.series for g in result.groups))
        self.series_status.setText("")
        for r, g in enumerate(result.groups if result is not None else ()):
            if g.notes or g.protocol:  # the group's own notes on its "Load from" cell
                said = list(g.notes) + ([f"protocol {g.protocol}: {g.protocol_source}"] if g.protocol else [])
                self.table.item(r, 2).setToolTip(plain_tooltip("; ".join(said)))
        today = self._wizard.today
        self.today.setText("" if today is None or error else
                           f"Your system today: {today.summary}\n"
                           + (("Measured against predicted latency at the measured load:\n" if today.lines else
                               "No measured load to compare: the files carry no I/O figures") if today.scenario
                              else "")
                           + "\n".join(f"    {line}" for line in today.lines)
                           + ("\nAssumed: " + "; ".join(today.notes) if today.notes else ""))
        self.today_area.setVisible(bool(self.today.text()))
        if error:
            self.totals.setText(error)
            self.notes.setText("")
        elif result is not None:
            refused = self._wizard.nothing_measured()  # said here too, before Next: nothing will be imported
            capacity = (f"{self._wizard.capacity(result.provisioned_bytes)} provisioned, counted as used (the files "
                        "give no used capacity)" if result.capacity_basis == "provisioned" else
                        f"{self._wizard.capacity(result.capacity_bytes)} used "
                        f"({self._wizard.capacity(result.provisioned_bytes)} provisioned)")  # review 55 #1
            load = (f"{rate_words(result.iops)} IOPS, {result.mbps:,.1f} MB/s"
                    if any(not g.needs_preset for g in result.groups) else "load not measured")  # not a measured 0
            if not (result.capacity_bytes or result.provisioned_bytes):
                capacity = "capacity not measured"
            elif result.guest_used_bytes is not None:  # review 57 #2: the sized figure and what the guests hold
                read = self._wizard.read
                capacity = guest_words(result, read.inventories if read is not None else (), self._wizard.capacity)
            self.totals.setText(refused or f"Total: {len(result.workloads)} workload(s), {load}, {capacity}")
            notes = "; ".join(gui_words(n) for n in result.notes)
            self.notes.setText(notes[:1].upper() + notes[1:])
        else:
            self.totals.setText("Grouping…")
            self.notes.setText("")
        self.completeChanged.emit()

    def isComplete(self) -> bool:  # noqa: N802 - Qt's name
        """Next needs workloads grouped with the options shown."""
        imported = self._wizard.imported
        return self._wizard.task is None and imported is not None and bool(imported.workloads)


def _used_cell(group: ImportedGroup, used: str) -> str:
    """The grouping table's Used cell: "not given" where the files give no used capacity (the provisioned size is
    counted: the totals say so), "... (partly provisioned)" where some members' provisioned size is counted
    (review 57 #6: an Azure Migrate report's provisioned disks read as used)."""
    if group.capacity_basis == "provisioned":
        return "not given"
    return f"{used} (partly provisioned)" if group.capacity_basis == "partly provisioned" else used


def warning_lines(result: ImportResult) -> list[str]:
    """What makes the grouped figures too small, one sentence each, for the grouping page: the files listing fewer
    machines or less load than their hosts report (``ImportResult.warnings``, the measured record's), and per
    workload the members without a load where others have one, named (review 57 #1, #7)."""
    lines = [w[:1].upper() + w[1:] + "." for w in result.warnings]
    for g in result.groups:
        if g.unloaded:
            n = len(g.unloaded)
            names = ", ".join(g.unloaded[:5]) + (f" and {n - 5} more" if n > 5 else "")
            noun = g.member_noun + ("s" if g.members != 1 else "")
            lines.append(f"{g.name}: {n} of {g.members:,} {noun} without a load ({names}): their load is missing "
                         f"from its {rate_words(g.iops)} IOPS (the Preview lists the values left out).")
    return lines


def has_p95(inventories: Sequence[Inventory]) -> bool:
    """Whether some machine or volume of ``inventories`` gives a P95 summary (else only peaks can be summed)."""
    return any(f.statistic == "p95" and f.read_iops is not None
               for inv in inventories for member in (*inv.machines, *inv.volumes) for f in member.perf)


_CLI_GROUPING = re.compile(r"\(--group-by (\w+)[^)]*\)")


def gui_words(note: str) -> str:
    """An import note in the wizard's words: the command line's ``--group-by tag`` becomes the grouping choice
    shown above ("Group by: Tag")."""
    titles = {key: text.split(" (")[0] for key, text in GROUPINGS}
    return _CLI_GROUPING.sub(lambda m: f"(Group by: {titles.get(m.group(1), m.group(1))}, above)", note)


def _unbroken(text: str) -> str:
    """A figure and its unit kept on one line when the text wraps ("4.75 TiB" with a no-break space)."""
    return text.replace(" ", "\u00a0")


class FinishPage(QWizardPage):
    """Page 4: replace or add to the scenario's workloads, in one undoable step."""

    def __init__(self, wizard: ImportWizard) -> None:
        super().__init__()
        self._wizard = wizard
        self.setTitle("Import")
        self.setSubTitle("The import is one step: Edit > Undo takes it back.")
        self.replace = QCheckBox("Replace the scenario's workloads (unchecked: add to them)")
        self.replace.setChecked(True)
        self.replace.toggled.connect(self.update_summary)
        self.summary = QLabel()
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.replace)
        layout.addWidget(self.summary)
        layout.addStretch(1)

    def initializePage(self) -> None:  # noqa: N802 - Qt's name
        """Say what the import will do."""
        self.update_summary()

    def update_summary(self) -> None:
        """Describe the change, or why it cannot be made."""
        project, error = self._wizard.imported_project(self.replace.isChecked())
        result = self._wizard.imported
        self.replace.setEnabled(self._wizard.start is None)
        if project is None or result is None:
            self.summary.setText(error)
        else:
            measured = self._wizard.capacity_measured()  # review 57 #3: no capacity is not a measured 0 TiB
            used = f"{_unbroken(self._wizard.capacity(result.capacity_bytes))} used" if measured else \
                "capacity not measured"
            stated = project.requirements.effective_capacity_bytes
            becomes = ("becomes " if measured else "stays ") + (
                _unbroken(self._wizard.capacity(stated)) if stated else "not stated (the workloads' data sets)")
            if self._wizard.start is not None:
                self.summary.setText(
                    f"The scenario has no storage system: the import starts from a sample design serving its "
                    f"{len(result.workloads)} workload(s) ({rate_words(result.iops)}\u00a0IOPS, {used}). "
                    + ("" if measured else f"The requirements' effective capacity {becomes}. ")
                    + "Scenario > Size from Requirements finds the configurations that meet them.")
            else:
                verb = "replace the scenario's workloads with" if self.replace.isChecked() else "add"
                self.summary.setText(
                    f"The import will {verb} {len(result.workloads)} workload(s): {rate_words(result.iops)}\u00a0IOPS "
                    f"and {used}. The requirements' effective capacity {becomes}.")
            if result.warnings:  # review 57 #1: said again where the user commits
                self.summary.setText(self.summary.text() + "\n\nWarning: the files list fewer machines or less load "
                                     "than their own hosts report (an incomplete export, see the Workloads page): "
                                     "these figures are too small.")
        self.completeChanged.emit()

    def isComplete(self) -> bool:  # noqa: N802 - Qt's name
        """Finish needs a project the import can make."""
        return self._wizard.imported_project(self.replace.isChecked())[0] is not None


class ImportWizard(QWizard):
    """File > Import Environment...: measured exports to the scenario's workloads and the project's requirements.

    Args:
        document: the project document the import is pushed to (one undoable command).
    """

    sig_design_imported = Signal()
    """The import was pushed with its starting design (the scenario had no storage system): new nodes to show."""

    def __init__(self, document: ProjectDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Import Environment")
        self.setWizardStyle(QWizard.WizardStyle.ModernStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        self.document = document
        self.runner = TaskRunner(self, "import")
        self.task: Any = None
        self.paths: list[Path] = []
        self.read: ReadResult | None = None
        self.imported: ImportResult | None = None
        self.start: Project | None = None
        self.today: TodayResult | None = None
        """The installed system and its measured against predicted latency (None: no installed controller)."""
        """The starting design when the scenario has no storage controller (as ``storplan import-env``)."""
        self.group_error = ""
        self.files_page = FilesPage(self)
        self.preview_page = PreviewPage(self)
        self.grouping_page = GroupingPage(self)
        self.finish_page = FinishPage(self)
        for page in (self.files_page, self.preview_page, self.grouping_page, self.finish_page):
            self.addPage(page)
        fit_to_screen(self, QSize(980, 640))

    # --- reading ------------------------------------------------------------------------------------------------

    def add_files(self, paths: list[Path]) -> None:
        """Add ``paths`` (duplicates ignored) and read them all again."""
        self.set_files(self.paths + [p for p in paths if p not in self.paths])

    def set_files(self, paths: list[Path]) -> None:
        """Make ``paths`` the chosen files and read them on the runner's thread."""
        self.cancel_reading()
        self.paths = list(dict.fromkeys(paths))
        self.read = None
        self.imported = None
        page = self.files_page
        if self.paths:
            page.progress.setValue(0)
            page.progress.setVisible(True)
            page.btn_cancel.setVisible(True)
            self.task = self.runner.submit(read_sources, list(self.paths), page.interval_s(),
                                           name="read environment files",
                                           on_done=self._read_done,
                                           on_progress=lambda f: page.progress.setValue(round(100 * f)))
        page.show_files()
        page.completeChanged.emit()

    def cancel_reading(self) -> None:
        """Stop the read under way (its result is dropped)."""
        if self.task is not None:
            self.task.cancel()
            self.task = None
        self.files_page.progress.setVisible(False)
        self.files_page.btn_cancel.setVisible(False)
        self.files_page.show_files()
        self.files_page.completeChanged.emit()

    def _read_done(self, ok: bool, value: Any) -> None:
        self.task = None
        self.files_page.progress.setVisible(False)
        self.files_page.btn_cancel.setVisible(False)
        if ok:
            self.read = value
        else:  # not a reader's refusal (those are per file): say it once, for every file
            message = _one_line(value)
            self.read = ReadResult(tuple(FileEntry(p, "", message) for p in self.paths), ())
        self.files_page.show_files()
        self.files_page.completeChanged.emit()

    # --- grouping -----------------------------------------------------------------------------------------------

    def _target(self) -> str:
        return next((n.id for n in self.document.project.scenario.nodes if n.kind == "controller"), "")

    def capacity(self, value: float | None) -> str:
        """A capacity in the project's unit (TB or TiB, never a smaller one beside it: one unit per view)."""
        return fmt_capacity(value, self.document.project.settings.capacity_unit, fixed=True)

    def regroup(self, group_by: str, stat: str, keep_names: bool, installed: str = "") -> None:
        """Group the inventories read with these options on the runner's thread (``installed``: the installed
        controller's catalog id, "" when not known)."""
        if self.task is not None:
            self.task.cancel()
        self.imported = None
        self.start = None
        self.today = None
        self.group_error = ""
        target = self._target()
        if self.read is not None:
            self.task = self.runner.submit(_group, self.read.inventories, target, group_by, stat, keep_names,
                                           self.document.project.requirements, installed, self.document.project,
                                           name="group environment",
                                           on_done=self._grouped)
        self.grouping_page.show_result()

    def _grouped(self, ok: bool, value: Any) -> None:
        self.task = None
        if ok:
            self.imported, self.start, self.today = value
        else:
            self.group_error = _one_line(value)
        self.grouping_page.show_result()

    # --- finishing ----------------------------------------------------------------------------------------------

    def nothing_measured(self) -> str:
        """Why the grouped import measured nothing (no load, no capacity), as a sentence; "" when it measured
        something or nothing is grouped yet. ``storplan import-env``'s rule (``models.importers.workloads.
        nothing_measured``): it writes no project, the wizard imports nothing."""
        from models.importers.workloads import nothing_measured

        if self.imported is None:
            return ""
        refused = nothing_measured(self.read.inventories if self.read is not None else (), self.imported,
                                   "there is nothing to import")
        return refused[:1].upper() + refused[1:] + "." if refused else ""

    def capacity_measured(self) -> bool:
        """Whether the grouped import gives a capacity (used or provisioned): without one, the requirements'
        effective capacity is left as it is and the Finish page says "capacity not measured" (review 57 #3)."""
        result = self.imported
        return result is not None and bool(result.capacity_bytes or result.provisioned_bytes)

    def imported_project(self, replace: bool) -> tuple[Project | None, str]:
        """The project after the import (replacing or adding to the scenario's workloads), or None and why not."""
        result = self.imported
        if result is None:
            return None, self.group_error or "Nothing grouped yet."
        refused = self.nothing_measured()
        if refused:
            return None, refused
        project = self.document.project
        if self.start is not None:  # no storage system in the scenario: the starting design with the workloads
            start = self.start
            installed = self.today.scenario if self.today is not None else None  # the installed system's design
            scenario = installed if installed is not None else start.scenario  # it serves the imported workloads
            info = project.info if project.info.description else project.info.with_changes(
                description=start.info.description)  # where the numbers came from, unless the user wrote one
            requirements = result.requirements if self.capacity_measured() else result.requirements.with_changes(
                effective_capacity_bytes=project.requirements.effective_capacity_bytes)  # not a measured 0
            return start.with_scenario(scenario).with_changes(
                info=info, requirements=requirements, price_book=[],
                measured=self._measured(project, {})), ""
        scenario = project.scenario
        workloads = list(result.workloads)
        # review 57 #3: an import without capacity leaves the stated capacity as it is, replacing or adding
        capacity = result.capacity_bytes if self.capacity_measured() else \
            project.requirements.effective_capacity_bytes or 0
        ids: dict[str, str] = {}
        if not replace:
            taken = {w.id for w in scenario.workloads}
            names = [w.name for w in scenario.workloads]
            renamed = []
            for w in workloads:
                wid, n = w.id, 1
                while wid in taken:
                    n += 1
                    wid = f"{w.id}-{n}"
                taken.add(wid)
                ids[w.id] = wid
                name = unique_workload_name(w.name, names)  # review 57 GUI #1: no two workloads share a name
                names.append(name)
                changes = {k: v for k, v in (("id", wid), ("name", name)) if v != getattr(w, k)}
                renamed.append(w.with_changes(**changes) if changes else w)
            workloads = list(scenario.workloads) + renamed
            if self.capacity_measured():
                capacity += project.requirements.effective_capacity_bytes or 0
        target = self._target()
        if sum(w.target == target for w in workloads) > MAX_WORKLOADS_PER_TARGET:
            return None, (f"{len(workloads)} workloads: a storage system serves at most {MAX_WORKLOADS_PER_TARGET}; "
                          "replace the workloads or group more coarsely")
        requirements = result.requirements.with_changes(effective_capacity_bytes=capacity)
        return project.with_scenario(scenario.with_changes(workloads=workloads)).with_changes(
            requirements=requirements, measured=self._measured(project, ids)), ""

    def _measured(self, project: Project, ids: dict[str, str]) -> list[Any]:
        """The project's measured-environment records with this import's added (``models.importers.measured``):
        the tools, dates, method and assumptions the report cites, per workload under its id in the project
        (``ids``: the imported ids renamed to stay unique; no file name). At the limit of records the oldest is
        dropped."""
        from models.importers.measured import measured_import
        from models.project.model import MAX_MEASURED_IMPORTS

        assert self.imported is not None and self.read is not None
        options = self.grouping_page.options()
        record = measured_import(self.read.inventories, self.imported, options["group_by"], ids)
        return [*project.measured, record][-MAX_MEASURED_IMPORTS:]

    def accept(self) -> None:
        """Push the import as one undoable command and close; :attr:`sig_design_imported` when the import brought
        its starting design (the canvas then shows the whole of it)."""
        project, _ = self.imported_project(self.finish_page.replace.isChecked())
        if project is not None:
            self.document.push(project, "Import Environment")
            if self.start is not None:
                self.sig_design_imported.emit()
        super().accept()

    def done(self, result: int) -> None:
        """Drop any work under way when the wizard closes."""
        self.runner.cancel_all()
        self.task = None
        super().done(result)
