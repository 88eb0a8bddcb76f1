"""The published-vs-predicted table of ``storplan validate``, computed off the GUI thread.

The tab opens on the command line's headline (``models.validation.summary.headline``): the verdict, then each
category's count (in-sample, definitional arithmetic, yes / no, out-of-sample, never-fitted predictions), passed of
total, with the prediction summaries against their targets; the seed cases and the measured ramps are counted
alike. Failing checks (and cases that could not run) come first in the table and are highlighted. Quantities show
human labels (the identifier stays in the tooltip), and the selected row's category, interpretation, tolerance and
its reason read in a details pane beside the table.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Sequence

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QObject, QRunnable, Qt, QThreadPool, Signal, Slot
from PySide6.QtGui import QColor, QFont, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QTableView,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.gui.results._common import (
    FAIL,
    PASS,
    StaleBanner,
    finite,
    html_escape,
    icon,
    muted_color,
    text_color,
    tint,
)
from app.gui.whole_label import WholeLabel
from models.formatting import fmt_number, fmt_signed_pct
from models.present.case_titles import case_title
from models.present.citations import customer_citation
from models.present.validation import (
    category_text,
    error_text,
    predicted_text,
    published_text,
    quantity_label,
    rule_text,
)
from models.units import CapacityUnit
from models.validation import RAMP_SECTIONS
from models.validation.headline_extras import BundledOutcomes, full_headline
from models.validation.tolerances import tolerance_reason

Runner = Callable[..., Sequence]
"""A function returning ``CaseOutcome`` records (``models.validation.run_validation`` by default). A runner with a
``progress`` parameter is given a function to call with (cases done, cases in all) as it goes (on its thread)."""

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
ROW_ROLE = Qt.ItemDataRole.UserRole + 2
"""On every item: the row's index in :attr:`ValidationView.rows` (the table may be sorted any way)."""

RUNNING_TEXT = "Running the published cases\u2026"
"""The summary while a run is under way (followed by "<done> of <total> cases" once the runner counts)."""

MODEL_ACCURACY = "Model accuracy: "
"""Before the verdict when some count misses its target: the counts are the model's, told as information."""
ACCURACY_TOOLTIP = ("How closely StorPlan's models reproduce the published measurements they were specified from, "
                    "counted as 'storplan validate' counts them (it exits with status 1 while any count misses its "
                    "target). These counts are about the models, not about the design open in this window; every "
                    "failing check is in the table, tinted red.")
"""The summary's tooltip when some count misses its target."""

MARK_WORDS = {"in-sample": "in-sample", "prediction": "prediction", "arithmetic": "arithmetic", "yes / no": "yes / no"}
"""A failing check's Basis column word in the summary's count ("2 in-sample, 16 predictions")."""
PLURAL_MARKS = frozenset({"prediction"})
"""The Basis words that take an s for several checks."""

RESULT_COLUMN = 5
TABLE_ROWS = 5
"""The table keeps at least this many rows on screen when the height is short: the headline above it scrolls
instead (at 1366 x 768 the headline's ~19 lines, each kept whole, left the table one row)."""
HEADLINE_LINES = 3
"""The headline keeps at least this many lines on screen however short the height (it scrolls beyond)."""
FAILED_ROW_TINT = 28
"""Alpha of the red tint across a failing row (the Result cell itself is tinted more strongly)."""


def _default_runner(progress: Callable[[int, int], None] | None = None) -> Sequence:
    """The bundled cases, computed once per process and shared with the PDF report (an export after the tab has
    filled does not replay the cases again); ``progress(done, total)`` after each section of cases."""
    from app.report import validation_outcomes

    outcomes = validation_outcomes(progress)
    if isinstance(outcomes, str):  # the cases could not run: say why in the table
        raise RuntimeError(outcomes)
    return outcomes  # the seed cases and the measured ramps with the headline's extras, as validate counts them


class _Signals(QObject):
    finished = Signal(int, object)
    failed = Signal(int, str)
    progress = Signal(int, int, int)
    """(generation, cases done, cases in all)."""


class _ValidationTask(QRunnable):
    """Runs the validation in the global thread pool and reports back by (queued) signal."""

    def __init__(self, generation: int, runner: Runner, signals: _Signals):
        super().__init__()
        self.generation = generation
        self.runner = runner
        self.signals = signals

    class _GoneError(Exception):
        """The view (and its signals' object) was deleted while the run went on: nobody is left to tell."""

    def _emit(self, signal_name: str, *args) -> None:
        """Emit one of the signals; a deleted signals object (the window closed mid-run) ends the run quietly
        instead of printing a traceback on the console."""
        try:
            getattr(self.signals, signal_name).emit(*args)
        except RuntimeError as exc:  # "Signal source has been deleted" / "Internal C++ object already deleted"
            raise self._GoneError from exc

    def _progress(self, done: int, total: int) -> None:
        self._emit("progress", self.generation, done, total)

    def run(self) -> None:
        """Run the validation; report its outcomes, its failure or nothing (the view is gone) by signal."""
        try:
            try:
                takes_progress = "progress" in inspect.signature(self.runner).parameters
                result = self.runner(progress=self._progress) if takes_progress else self.runner()
                outcomes = result if isinstance(result, BundledOutcomes) else list(result)  # keep the bundled extras
            except self._GoneError:
                raise
            except Exception as exc:  # noqa: BLE001 - a worker thread: any failure is shown in the view, never raised into Qt
                self._emit("failed", self.generation, f"{type(exc).__name__}: {exc}")
                return
            self._emit("finished", self.generation, outcomes)
        except self._GoneError:
            return


def case_words(case_id: str, seed: str) -> str:
    """What the table and its details call a validation case: the published result it replays, in words
    (:func:`models.present.case_titles.case_title`, without an address); its id only when it names no source.
    The id itself is in each row's tooltip."""
    return case_title(case_id, seed, address=False) or case_id


FAMILY_WORDS = {
    "ONTAP": ("aff", "fas", "asa", "ontap", "cloud volumes ontap"),
    "Cloud Volumes ONTAP": ("cloud volumes ontap", "cvo", "ontap", "aff", "fas"),
    "E-Series": ("ef5", "ef6", "e-series", "eseries", "santricity"),
    "vSAN": ("vsan",),
    "managed service": ("azure netapp files", "anf", "netapp volumes", "gcnv"),
    "generic": ("spinning", "fc array"),
}
"""Words that name a family's systems in a validation case's title or id (lower case, each at a word's start)."""

FAMILY_NAMES = {"ONTAP": "ONTAP", "Cloud Volumes ONTAP": "ONTAP", "E-Series": "E-Series", "vSAN": "vSAN",
                "managed service": "managed-service", "generic": "spinning-array"}
"""A family as the Validation tab names its checks ("the ONTAP checks")."""


def design_keys(evaluation) -> tuple[frozenset[str], tuple[str, ...], str]:
    """What ties a validation case to the design shown (a ``models.evaluate.Evaluation``; None: nothing): the
    model tokens of its systems and of the systems their profiles are carried over from ("a70", "a800"), its
    families' words (:data:`FAMILY_WORDS`) and the families in words ("ONTAP")."""
    capacity = evaluation.capacity if evaluation is not None else None
    performance = evaluation.performance if evaluation is not None else None
    names = [s.system_label for s in (capacity.systems if capacity is not None else ())]
    for workload in performance.workloads if performance is not None else ():
        basis = workload.profile_basis
        if basis is not None and basis.sibling:
            from models.catalog import bundled_catalog

            record = bundled_catalog().find(basis.sibling)
            names.append(record.name if record is not None else "")
    tokens = frozenset(word for name in names for word in re.findall(r"[a-z]*\d+[a-z\d]*", name.lower())
                       if len(word) >= 3 and re.search(r"[a-z]", word))
    families = list(dict.fromkeys(s.family for s in (capacity.systems if capacity is not None else ())
                                  if s.family in FAMILY_WORDS))
    words = tuple(dict.fromkeys(w for f in families for w in FAMILY_WORDS[f]))
    named = " and ".join(dict.fromkeys(FAMILY_NAMES[f] for f in families))
    return tokens, words, named


def case_relevance(text: str, tokens: frozenset[str], words: tuple[str, ...]) -> int:
    """0: the case names a model of the design (or the one its profile comes from); 1: a system of its family;
    2: another system. ``text``: the case's title, source and id."""
    low = text.lower()
    if any(re.search(rf"(?<![a-z0-9]){re.escape(t)}(?![a-z0-9])", low) for t in tokens):
        return 0
    if any(re.search(rf"(?<![a-z]){re.escape(w)}", low) for w in words):
        return 1
    return 2


class ValidationView(QWidget):
    """Published vs predicted for every bundled case, with pass/fail and the seed's interpretation.

    The run starts on :meth:`refresh` (and the first time the view is shown); results arrive by queued signal.
    Rows are sorted by Result (failures first, then case order) until the user sorts by another column.

    Signals:
        sig_validation_finished(int, int): a run finished with (checks passed, checks total), seed cases and
            measured ramps together.
    """

    sig_validation_finished = Signal(int, int)
    """A validation run finished: (number of checks passing, number of checks)."""

    COLUMNS = ("Case", "Quantity", "Published", "Predicted", "Error", "Result", "Basis")

    def __init__(self, parent: QWidget | None = None, runner: Runner | None = None,
                 thread_pool: QThreadPool | None = None):
        super().__init__(parent)
        self._runner = runner or _default_runner
        self._pool = thread_pool or QThreadPool.globalInstance()
        self._generation = 0
        self._running = False
        self._signals: _Signals | None = None
        self._splitter_moved = False
        self.outcomes: list = []
        self.rows: list[tuple[object, object | None]] = []
        """(outcome, check) per table row, in case order; check is None for a case that could not run."""
        self.passed = 0
        self.total = 0
        self.failed = 0
        self.headline = None
        """The run's ``models.validation.summary.Headline`` (None before the first run finishes)."""
        self._design: tuple[frozenset[str], tuple[str, ...], str] = (frozenset(), (), "")
        """The design shown, as :func:`design_keys` gives it: its checks are listed first."""
        self.headline_extra: tuple[str, ...] = ()
        """Lines the headline prints among its out-of-sample ones (the band coverage), when the run carries them."""

        self.banner = StaleBanner(self)
        self.summary_icon = QLabel()
        self.summary = QLabel("Validation has not run yet.")
        font = QFont(self.summary.font())
        font.setBold(True)
        self.summary.setFont(font)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary.setWordWrap(True)  # the counts in words wrap on a laptop's dock, never widen the results
        self.refresh_button = QToolButton()
        self.refresh_button.setText("Run again")
        self.refresh_button.setIcon(icon("mdi6.refresh", text_color(self)))
        self.refresh_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.refresh_button.setToolTip("Replay every published case through the engines")
        self.refresh_button.clicked.connect(self.refresh)
        self.progress = QProgressBar()
        """While a run is under way: busy, then the count of published cases run (the summary says it in words)."""
        self.progress.setTextVisible(False)
        self.progress.setMaximumWidth(self.fontMetrics().horizontalAdvance("x" * 24))
        self.progress.hide()
        header = QHBoxLayout()
        header.addWidget(self.summary_icon)
        header.addWidget(self.summary, 1)
        header.addWidget(self.progress)
        header.addWidget(self.refresh_button)
        self.meaning = WholeLabel("")
        """What the checks mean for the design shown (``validation_meaning.design_meaning``; REVIEW43 #10): as tall
        as its text at its width (a fixed height would take a narrow width's many lines)."""
        self.meaning.setObjectName("validationMeaning")
        # its minimum is its text at its width, not its size hint (the text wrapped at ~200 px: six lines)
        self.meaning.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.meaning.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.meaning.hide()
        self.error_summary = WholeLabel("")
        """The headline's lines: each category's count, passed of total, and the prediction summaries with their
        targets (as ``storplan validate`` ends)."""
        self.error_summary.setObjectName("validationHeadline")
        self.error_summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_summary.setWordWrap(True)  # a long line wraps: it never widens the results past a laptop screen
        # its minimum is its text wrapped at its width (a fixed height took the size hint's narrower wrapping: ~2
        # lines more than needed on a laptop); the area it scrolls in is as tall as the room the table's first rows
        # leave it (:meth:`_fit_headline`): whole when there is room, else scrolling
        self.error_summary.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.headline_area = QScrollArea()
        """The headline (:attr:`error_summary`), scrolling when the table's :data:`TABLE_ROWS` rows leave it less
        than its height."""
        self.headline_area.setObjectName("validationHeadlineArea")
        self.headline_area.setWidgetResizable(True)
        self.headline_area.setFrameShape(QFrame.Shape.NoFrame)
        self.headline_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.headline_area.setWidget(self.error_summary)
        self.headline_area.hide()  # shown with the first headline

        self.model = QStandardItemModel(0, len(self.COLUMNS), self)
        self.model.setHorizontalHeaderLabels(list(self.COLUMNS))
        self.model.setSortRole(SORT_ROLE)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setSortingEnabled(True)
        # Failures first: the Result column's sort key is (pass, case order); any header click re-sorts.
        self.table.sortByColumn(RESULT_COLUMN, Qt.SortOrder.AscendingOrder)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        head = self.table.horizontalHeader()
        head.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        head.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        # the Case column names a published report by its title: a fixed width, elided (the whole title is in the
        # tooltip and the details), so the numbers stay in view; the user can widen it
        head.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        head.resizeSection(0, 30 * self.fontMetrics().averageCharWidth())
        self.table.selectionModel().currentRowChanged.connect(self._on_current_row_changed)

        self.details = QTextBrowser()
        self.details.setObjectName("validationDetails")
        self.details.setFrameShape(QFrame.Shape.NoFrame)
        self.details.setOpenLinks(False)
        self.details.setPlaceholderText("Select a row to read how its numbers were derived.")

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(self.details)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.splitterMoved.connect(self._on_splitter_moved)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.banner)
        layout.addLayout(header)
        layout.addWidget(self.meaning)
        layout.addWidget(self.headline_area)
        layout.addWidget(self.splitter, 1)

    # ------------------------------------------------------------------------------------------------ public API

    @property
    def running(self) -> bool:
        """True while a validation run is under way."""
        return self._running

    @Slot()
    def refresh(self) -> None:
        """Start a validation run in the global thread pool; a newer run supersedes an older one's result."""
        self._generation += 1
        self._running = True
        self.summary.setText(RUNNING_TEXT)
        self.progress.setRange(0, 0)  # busy until the first count arrives
        self.progress.show()
        self.refresh_button.setEnabled(False)
        # One signals object per run, owned by its task: if the view is closed mid-run, the task still emits
        # into a live object, and Qt has already dropped the connections to the deleted view.
        signals = _Signals()
        signals.finished.connect(self._on_finished, Qt.ConnectionType.QueuedConnection)
        signals.failed.connect(self._on_failed, Qt.ConnectionType.QueuedConnection)
        signals.progress.connect(self._on_progress, Qt.ConnectionType.QueuedConnection)
        self._signals = signals
        self._pool.start(_ValidationTask(self._generation, self._runner, signals))

    @Slot(object, object)
    def set_evaluation(self, evaluation, capacity_unit: CapacityUnit | str = CapacityUnit.TIB) -> None:
        """The validation replays the bundled published cases, not the project: only the line saying what they
        mean for this design (its platforms fitted or predicted) follows the evaluation."""
        from app.gui.results.validation_meaning import design_meaning

        text = design_meaning(evaluation)
        design = design_keys(evaluation)
        if design != self._design:
            self._design = design
            self._order_rows()
        if text and self._first_count():
            text += f" The table lists the {design[2]} checks first."
        self.meaning.setText(text)
        self.meaning.setVisible(bool(text))
        self._fit_headline()

    def _relevance(self, row: int) -> int:
        """:func:`case_relevance` of table row ``row`` (in :attr:`rows` order) for the design shown."""
        tokens, words, _ = self._design
        if not tokens and not words:
            return 0
        outcome, check = self.rows[row]
        seed = (check.seed if check is not None else "") or outcome.seed
        return case_relevance(f"{case_words(outcome.case_id, seed)} {seed} {outcome.case_id}", tokens, words)

    def _first_count(self) -> int:
        """How many checks of the design's own models or family the table lists first (0: none, or no run yet)."""
        return sum(1 for row in range(len(self.rows)) if self._relevance(row) < 2) if self._design[1] else 0

    def _order_rows(self) -> None:
        """The Result column's sort keys: the design's own models' checks, then its family's, then the others
        (each failures first, in case order), and the table sorted so when it is sorted by Result."""
        if not self.rows or self.model.rowCount() != len(self.rows):
            return
        for table_row in range(self.model.rowCount()):
            item = self.model.item(table_row, RESULT_COLUMN)
            index = int(item.data(ROW_ROLE))
            outcome, check = self.rows[index]
            failed = check is None or not check.passed
            item.setData((self._relevance(index) * 2 + (0 if failed else 1)) * 1_000_000 + index, SORT_ROLE)
        header = self.table.horizontalHeader()
        if header.sortIndicatorSection() == RESULT_COLUMN:
            self.table.sortByColumn(RESULT_COLUMN, header.sortIndicatorOrder())
            self.table.scrollToTop()

    @Slot(bool, str)
    def set_stale(self, stale: bool, message: str = "") -> None:
        """Show or hide the "Results out of date" banner with ``message`` (the headline's room follows)."""
        self.banner.set_stale(stale, message)
        self._fit_headline()

    def row_at(self, table_row: int) -> tuple[object, object | None]:
        """The (outcome, check) shown in a table row, whatever the current sort."""
        return self.rows[self.model.item(table_row, 0).data(ROW_ROLE)]

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        """Start the first validation run when the view is first shown (Qt's hook)."""
        super().showEvent(event)
        if self._generation == 0:
            self.refresh()
        self._fit_headline()

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        """Qt's resize (``event``: a ``QResizeEvent``), then the headline's height fitted again."""
        super().resizeEvent(event)
        self._fit_headline()

    def _table_floor(self) -> int:
        """The table's height with :data:`TABLE_ROWS` rows on screen, px (header, frame and a horizontal scroll bar
        included)."""
        table = self.table
        rows = TABLE_ROWS * table.verticalHeader().defaultSectionSize()
        bar = table.horizontalScrollBar().sizeHint().height()
        return table.horizontalHeader().sizeHint().height() + rows + bar + 2 * table.frameWidth()

    def _fit_headline(self) -> None:
        """The headline whole when the view's height leaves the table :data:`TABLE_ROWS` rows, else as tall as the
        room they leave (at least :data:`HEADLINE_LINES` lines), scrolling beyond."""
        area = self.headline_area
        layout = self.layout()
        if layout is None or not self.error_summary.text():
            return
        margins = layout.contentsMargins()
        width = max(1, self.width() - margins.left() - margins.right())
        full = self.error_summary.heightForWidth(width)
        above = [w for w in (self.banner, self.meaning) if not w.isHidden()]
        used = sum(w.heightForWidth(width) if w.hasHeightForWidth() else w.sizeHint().height() for w in above)
        used += layout.itemAt(1).sizeHint().height()  # the summary line and its button
        spacing = max(0, layout.spacing())
        used += spacing * (len(above) + 2) + margins.top() + margins.bottom()
        room = self.height() - used - self._table_floor()
        floor = HEADLINE_LINES * self.error_summary.fontMetrics().lineSpacing()
        height = max(min(full, floor), min(full, room))
        area.setFixedHeight(max(0, height))
        area.show()

    # -------------------------------------------------------------------------------------------------- internals

    def _on_progress(self, generation: int, done: int, total: int) -> None:
        if generation != self._generation or not self._running or total <= 0:
            return
        self.progress.setRange(0, total)
        self.progress.setValue(min(done, total))
        self.summary.setText(f"{RUNNING_TEXT} {done} of {total} cases")

    def _on_failed(self, generation: int, message: str) -> None:
        if generation != self._generation:
            return
        self._running = False
        self.progress.hide()
        self.refresh_button.setEnabled(True)
        self.rows = []
        self.model.removeRows(0, self.model.rowCount())
        self.details.clear()
        self._set_summary(f"Validation could not run: {message}", "error")

    def _on_finished(self, generation: int, outcomes: list) -> None:
        if generation != self._generation:
            return
        self._running = False
        self.progress.hide()
        self.refresh_button.setEnabled(True)
        # the measured ramps (section "ramp") are listed after the seed cases and counted as they are
        extras = getattr(outcomes, "extras", None)  # the bundled run's platforms left out and band coverage
        outcomes = ([o for o in outcomes if o.section not in RAMP_SECTIONS]
                    + [o for o in outcomes if o.section in RAMP_SECTIONS])
        if extras is not None:  # kept through the reordering: the headline is the command line's and the report's
            outcomes = BundledOutcomes(outcomes, extras)
        self.outcomes = outcomes
        self.rows = []
        for outcome in outcomes:
            if outcome.error:
                self.rows.append((outcome, None))
            self.rows.extend((outcome, check) for check in outcome.checks)
        checks = [check for _, check in self.rows if check is not None]
        self.passed = sum(bool(check.passed) for check in checks)
        self.total = len(checks)
        self.failed = sum(1 for _, check in self.rows if check is None or not check.passed)
        self.headline, self.headline_extra = full_headline(outcomes)

        header = self.table.horizontalHeader()
        column, order = header.sortIndicatorSection(), header.sortIndicatorOrder()
        self.table.setSortingEnabled(False)
        self.model.removeRows(0, self.model.rowCount())
        for index, (outcome, check) in enumerate(self.rows):
            items = self._error_row(outcome) if check is None else self._check_row(check, outcome)
            failed = check is None or not check.passed
            for column_index, item in enumerate(items):
                item.setData(index, ROW_ROLE)
                if failed and column_index != RESULT_COLUMN:
                    item.setBackground(tint(FAIL, FAILED_ROW_TINT))
            # Result sorts the design's own checks first, then its family's, then the rest, each failures first,
            # in case order (seed cases, then ramps): the AFF8080's misses no longer lead on an A70 (review r1 #8)
            items[RESULT_COLUMN].setData((self._relevance(index) * 2 + (0 if failed else 1)) * 1_000_000 + index,
                                         SORT_ROLE)
            self.model.appendRow(items)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(column if 0 <= column < len(self.COLUMNS) else RESULT_COLUMN, order)

        # the headline first, as the command line ends: the verdict, then each category's count and the
        # prediction summaries against their targets (the first line and the verdict line are the heading's)
        verdict = self.headline.verdict()
        ok = self.headline.exit_status == 0 and bool(outcomes)
        # the model's agreement with the published measurements, as validate counts it: information with its counts
        # (a known miss is a finding of the model, not an error of the design or of the run), never hidden
        text = verdict[:1].upper() + verdict[1:] if ok else MODEL_ACCURACY + self._accuracy_words(verdict)
        self._set_summary(text, "ok" if ok else "info")
        self.summary.setToolTip("" if ok else ACCURACY_TOOLTIP)
        lines = self.headline.lines(out_of_sample_extra=self.headline_extra)[1:-1]
        self.error_summary.setText("\n".join(line[:1].upper() + line[1:] for line in lines))
        if self._design[1]:  # the meaning line says whose checks lead the table
            self.set_evaluation_text_refresh()
        self._fit_headline()
        self._fit_splitter()
        if self.model.rowCount():
            # The first row (a failure, if any) becomes current without being selected: its details show and its
            # red tint stays visible under no selection highlight.
            self.table.selectionModel().setCurrentIndex(self.model.index(0, 0),
                                                        QItemSelectionModel.SelectionFlag.NoUpdate)
            self.table.scrollToTop()
        self.sig_validation_finished.emit(self.passed, self.total)

    def _accuracy_words(self, verdict: str) -> str:
        """The summary's counts, adding up: "128 of 146 table checks pass, 18 fail (2 in-sample, 16 predictions) · 4
        prediction summaries miss their target" (the table's rows; the summaries from the headline's verdict)."""
        checks = [check for _, check in self.rows if check is not None]
        failing = [check for check in checks if not check.passed]
        not_run = sum(1 for _, check in self.rows if check is None)
        marks: dict[str, int] = dict.fromkeys(MARK_WORDS, 0)
        for check in failing:
            mark = check.sample_mark or "other"
            marks[mark] = marks.get(mark, 0) + 1
        parts = [f"{n} {MARK_WORDS.get(mark, mark)}{'s' if n != 1 and mark in PLURAL_MARKS else ''}"
                 for mark, n in marks.items() if n]
        # the table's rows (in-sample, arithmetic, yes / no and never-fitted checks): the categories' counts in
        # the lines below add up to these; the out-of-sample count there reruns checks with their case left out
        text = f"{self.passed} of {self.total} table check{'s pass' if self.total != 1 else ' passes'}"
        if failing:
            text += f", {len(failing)} fail{'s' if len(failing) == 1 else ''}"
            text += f" ({', '.join(parts)})" if parts else ""
        if not_run:
            text += f", {not_run} case{'s' if not_run != 1 else ''} could not run"
        summaries = [part for part in verdict.split("; ") if "summar" in part]
        return " \u00b7 ".join([text, *summaries])

    def set_evaluation_text_refresh(self) -> None:
        """The meaning line's last sentence (whose checks lead the table) once a run has filled the table."""
        text = self.meaning.text()
        tail = f" The table lists the {self._design[2]} checks first."
        if text and tail not in text and self._first_count():
            self.meaning.setText(text + tail)

    def _set_summary(self, text: str, state: str) -> None:
        """The summary line and its icon: ``ok`` (every count holds: a green tick), ``info`` (the run finished and
        some counts miss their targets: the counts as information, in the text colour with an information sign) or
        ``error`` (the run could not finish: red)."""
        self.summary.setText(text)
        if state != "info":
            self.summary.setToolTip("")
        color = PASS if state == "ok" else FAIL if state == "error" else muted_color(self)
        self.summary.setStyleSheet(f"color: {FAIL};" if state == "error" else "")
        size = self.fontMetrics().height()
        name = {"ok": "mdi6.check-circle", "error": "mdi6.alert-circle"}.get(state, "mdi6.information-outline")
        self.summary_icon.setPixmap(icon(name, color).pixmap(size, size))

    def _on_splitter_moved(self, *_args) -> None:
        self._splitter_moved = True

    def _fit_splitter(self) -> None:
        """Give the table the width of its columns (up to 70% of the view) and the details pane the rest, unless
        the user has placed the splitter."""
        total = sum(self.splitter.sizes())
        if self._splitter_moved or total <= 0:
            return
        table = self.table
        wanted = sum(max(table.sizeHintForColumn(c), table.horizontalHeader().sectionSizeHint(c))
                     for c in range(self.model.columnCount()))
        wanted += table.verticalScrollBar().sizeHint().width() + 2 * table.frameWidth() + 4
        width = min(wanted, int(total * 0.7))
        self.splitter.setSizes([width, total - width])

    def _on_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            self.details.clear()
            return
        self.details.setHtml(self._details_html(*self.row_at(current.row())))

    def _details_html(self, outcome, check) -> str:
        muted = muted_color(self).name()
        seed = (check.seed if check is not None else "") or outcome.seed
        if check is None:
            parts = [f"<p><b>{html_escape(case_words(outcome.case_id, outcome.seed))}</b>: "
                     f"<span style='color:{FAIL}'><b>could not run</b></span></p>",
                     f"<p>{html_escape(outcome.error)}</p>"]
        else:
            verdict = (f"<span style='color:{PASS}'><b>pass</b></span>" if check.passed
                       else f"<span style='color:{FAIL}'><b>fail</b></span>")
            parts = [
                f"<p><b>{html_escape(quantity_label(check.quantity))}</b><br>"
                f"{html_escape(case_words(check.case_id, seed))}</p>",
                f"<p>Published {html_escape(published_text(check))} \u00b7 predicted "
                f"{html_escape(predicted_text(check))} \u00b7 error {html_escape(error_text(check))} "
                f"\u00b7 {verdict}<br><span style='color:{muted}'>Passes when the prediction is "
                f"{html_escape(rule_text(check))}.</span></p>",
                f"<p><b>Tolerance:</b> {html_escape(tolerance_reason(check, outcome.section) or 'no reason given')}"
                "</p>",
            ]
            if check.interpretation:
                parts.append(f"<p><b>How it was derived:</b> {html_escape(check.interpretation)}</p>")
            else:
                parts.append(f"<p style='color:{muted}'>The number is compared as it is published.</p>")
            why = check.fitted_by or check.arithmetic or "no parameter was set from this number"
            parts.append(f"<p><b>{html_escape(category_text(check))}:</b> {html_escape(why)}</p>")
            if check.out_of_sample is not None:
                oos = check.out_of_sample_error
                held = ("passes" if check.out_of_sample_passed else "fails") + " the same tolerance"
                parts.append(f"<p><b>Out of sample</b> (the case left out of the calibration): predicted "
                             f"{html_escape(fmt_number(check.out_of_sample))}"
                             + (f", error {fmt_signed_pct(oos * 100)}" if oos is not None else "")
                             + f", {held}. {html_escape(check.out_of_sample_note)}</p>")
        if seed:
            parts.append(f"<p style='color:{muted}'>Published in: {html_escape(customer_citation(seed))}</p>")
        return "".join(parts)

    def _item(self, text: str, sort_key=None, align_right: bool = False) -> QStandardItem:
        item = QStandardItem(text)
        item.setData(text if sort_key is None else sort_key, SORT_ROLE)
        if align_right:
            item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return item

    def _result_item(self, passed: bool, text: str) -> QStandardItem:
        color = PASS if passed else FAIL
        item = self._item(text)
        item.setIcon(icon("mdi6.check-circle" if passed else "mdi6.close-circle", color))
        item.setBackground(tint(color, 55))
        font = QFont(self.table.font())
        font.setBold(True)
        item.setFont(font)
        return item

    def _check_row(self, check, outcome) -> list[QStandardItem]:
        label = quantity_label(check.quantity)
        tooltip_lines = [f"<b>{html_escape(label)}</b>",
                         f"{html_escape(case_words(check.case_id, check.seed or outcome.seed))} "
                         f"(case {html_escape(check.case_id)})",
                         f"Passes when the prediction is {html_escape(rule_text(check))}"]
        if check.interpretation:
            tooltip_lines.append(f"<b>How it was derived:</b> {html_escape(check.interpretation)}")
        seed = check.seed or outcome.seed
        if seed:
            tooltip_lines.append(f"<b>Published in:</b> {html_escape(customer_citation(seed))}")
        tooltip = "<br>".join(tooltip_lines)
        error = check.error * 100 if finite(check.error) else float("inf")
        items = [
            self._item(case_words(check.case_id, check.seed or outcome.seed)),
            self._item(label),
            self._item(published_text(check), float(check.published), True),
            self._item(predicted_text(check), float(check.predicted), True),
            self._item(error_text(check), abs(error) if check.kind not in ("range", "expect") else -1.0, True),
            self._result_item(bool(check.passed), "pass" if check.passed else "fail"),
            self._item(check.sample_mark),
        ]
        if not check.passed:
            items[4].setForeground(QColor(FAIL))
        for item in items:
            item.setToolTip(tooltip)
        return items

    def _error_row(self, outcome) -> list[QStandardItem]:
        items = [self._item(case_words(outcome.case_id, outcome.seed)), self._item(outcome.error),
                 self._item("\u2014", 0.0, True), self._item("\u2014", 0.0, True), self._item("\u2014", -1.0, True),
                 self._result_item(False, "not run"), self._item("\u2014")]
        tooltip = (f"<b>{html_escape(case_words(outcome.case_id, outcome.seed))}</b> (case "
                   f"{html_escape(outcome.case_id)})<br>{html_escape(outcome.error)}<br>"
                   f"{html_escape(customer_citation(outcome.seed))}")
        for item in items:
            item.setToolTip(tooltip)
        return items
