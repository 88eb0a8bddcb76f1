"""The main window: palette | canvas | inspector + workloads, results below, menus, toolbar and status bar.

It wires the parts together: the document's changes go to the scene (by the scene's own connections), to the
evaluation worker and to the title; the worker's results go to the results area, the item badges and the
status bar. The File menu's commands call the window's :class:`~app.gui.file_controller.FileController`, which
reports back by signals (it does not import this module); start-up lives in :mod:`app.gui.startup`.

It is one thing, the window's wiring, though over 600 lines: every part it connects (palette, canvas, inspector,
workloads, results, scenarios, compare, file controller, evaluation worker) lives in a module of its own, and
what remains here is which signal goes to which slot and the menus, toolbar and status bar that expose them.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QFont, QFontMetrics, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QFileDialog,
    QFormLayout,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QToolBar,
    QWidget,
)

from app.gui import plain_text, settings, themes, window_layout
from app.gui.busy import EvaluationProgress
from app.gui.canvas.items import NodeItem
from app.gui.canvas.view import TopologyView
from app.gui.document import ProjectDocument
from app.gui.export_actions import SheetExporter
from app.gui.file_controller import FileController
from app.gui.icons import icon
from app.gui.inspector import Inspector
from app.gui.lazy_numpy_docs import defer_numpy_parts
from app.gui.palette import PaletteWidget
from app.gui.presentation import Presentation
from app.gui.project_io import DEFAULT_EXAMPLE, OPEN_FILTERS, read_project
from app.gui.record_form import blocked
from app.gui.results_area import STATUS_CAPTIONS, PlaceholderView, ResultsArea, status_summary
from app.gui.window_layout import RESULTS_HEIGHT_SHARE  # noqa: F401 - the default layout's share, read by tests
from app.gui.worker import EvaluationOutcome, EvaluationWorker
from app.gui.workloads_panel import WorkloadsPanel
from models.formatting import NOT_MET, finite, natural_key
from models.present import NO_PROFILE_WORDS, PROFILE_KIND_WORDS, profiles_text
from models.present.summary import (
    MET_CONDITIONAL,
    MET_WITH_ERRORS,
    PARTLY_UNMEASURED_STATUS,
    UNMEASURED_STATUS,
    profile_kind_text,
    workload_iops_lines,
    worst_workload,
)
from models.present.verdicts import profile_kinds_legend
from models.project.model import Project, capacity_partly_unmeasured, capacity_unmeasured
from models.resources import example_titles, examples_dir
from models.units import format_iops

if TYPE_CHECKING:  # the dialogs load when first opened: none is on the first window (pyqtgraph, calibration)
    from app.gui.calibration_dialog import CalibrationDialog
    from app.gui.catalog_browser import CatalogBrowser
    from app.gui.hardware_editor import HardwareEditor
    from app.gui.help import GuideDialog
    from app.gui.sizer_dialog import SizerDialog

# DEFAULT_EXAMPLE and read_project live in project_io; re-exported for older import sites
ASSUMED_WORDS = PROFILE_KIND_WORDS["assumed"]
ASSUMED_COLOR = "#E69F00"
"""Amber for figures on an uncalibrated profile: the result views' ``WARNING`` colour (``app.gui.results._common``,
which imports pyqtgraph, so it is not imported here before the first paint; a test keeps the two equal); a caution,
not a failure (red stays for failures)."""
MUTED_COLOR = "#6b7280"

__all__ = ["DEFAULT_EXAMPLE", "MainWindow", "read_project", "rich_tooltip"]

LAYOUT_VERSION = 2
"""Version of the dock / toolbar layout saved in the settings (``QMainWindow.saveState(version)``); bump it when the
docks change so that a layout saved by an older build gives way to the default layout instead of squeezing the
new docks."""


def rich_tooltip(lines: list[str]) -> str:
    """A rich-text tooltip of plain-text lines (problem messages, errors): each escaped, so a name with ``<`` or
    ``&`` reads as written and can never inject markup; always marked as rich text, so Qt never shows the
    escapes themselves."""
    return "<p>" + "<br>".join(html.escape(line) for line in lines) + "</p>"


VERDICT_STATUS_WIDTH = 360
"""Pixels the status bar's requirements verdict may take before it is shortened (its tooltip has it all)."""

VERDICT_STATUS_WIDTHS = (VERDICT_STATUS_WIDTH, 240, 130, 0)
"""The verdict's widths in pixels, tried in turn until the key figures fit one row of the status bar (0: only how many
requirements are missed: "3 missed")."""

KEY_FIGURES_MARGIN = 30
"""Pixels of the status bar the key figures leave free (its margins and size grip: 24 px at 1366 x 768)."""

WORKLOAD_NAME_STATUS_WIDTH = 90
"""Pixels the worst workload's name may take beside the status bar's max IOPS figure before it is elided."""


def verdict_status_text(value: str, metrics: QFontMetrics, width: int) -> str:
    """The requirements verdict as the status bar shows it in ``width`` pixels: ``met`` or ``n/a`` as is; a miss
    list as its first miss, shortened at a word boundary, and "+n more" (``missed: DR copy capacity (DR to Azure)``,
    ``missed: OLTP in takeover +2 more``); where not even the first miss's first word fits, how many are missed
    (``3 missed``). A met verdict beside design errors (``met, but 2 design errors``) is shortened at a word, and
    where not even its count fits reads ``met, 2 errors``. The verdict itself always stays: a met verdict too long
    for ``width`` keeps its first words ("met…"), never an empty text (at width 0 "met" read "Requirements:" with
    nothing after it, revhelp56 #1)."""
    from app.gui.status_bar import ELLIPSIS, shorten_at_word

    if value.startswith(MET_WITH_ERRORS):  # "met, but 2 design errors": at least "met, 2 errors", never a bare met
        shown = shorten_at_word(value, metrics, width)
        if len(shown.removesuffix(ELLIPSIS)) <= len(MET_WITH_ERRORS):
            count = value.removeprefix(MET_WITH_ERRORS).split(" ", 1)[0]
            return f"met, {count} error{'s' if count != '1' else ''}"
        return shown
    if not value.startswith("missed: "):
        text = shorten_at_word(value, metrics, width)
        if text.removesuffix(ELLIPSIS).strip():
            return text
        head = value.split(",")[0]  # "met", "n/a", "met" of "met, capacity not measured"
        return head if head == value else head + ELLIPSIS
    misses = [m for m in value.removeprefix("missed: ").split("; ") if m]
    more = f" +{len(misses) - 1} more" if len(misses) > 1 else ""
    room = width - metrics.horizontalAdvance(more)
    text = shorten_at_word(f"missed: {misses[0] if misses else ''}", metrics, room)
    if len(text.removesuffix(ELLIPSIS)) <= len("missed: "):  # not even the miss's first word: how many, whole
        return f"{len(misses)} missed"
    return text + more

FIRST_RUN_LATEST_MS = 500
"""A new window's first evaluation starts at the canvas's first paint, or this many milliseconds after the window
was built if it has not painted by then (a window never shown still gets its results)."""


PANELS_LATEST_MS = 5000
"""The panels of docks behind another tab are built once the first results are drawn, or this many milliseconds
after the window was built (no results came)."""

def balanced_rows(widths: list[int], rows: int) -> list[int]:
    """The row (0-based) of each of ``widths`` (pixels, in reading order) laid out in ``rows`` rows so that the
    widest row is as narrow as it can be; of equally narrow layouts, the one closest to reading order (earlier
    items in earlier rows). Every row gets at least one item while there are enough."""
    from itertools import product

    if rows <= 1 or len(widths) <= 1:
        return [0] * len(widths)
    best: tuple | None = None
    for assignment in product(range(rows), repeat=len(widths)):
        if len(set(assignment)) < min(rows, len(widths)):
            continue
        totals = [sum(w for w, r in zip(widths, assignment, strict=True) if r == row) for row in range(rows)]
        key = (max(totals), assignment)
        if best is None or key < best:
            best = key
    return list(best[1]) if best is not None else [0] * len(widths)

class MainWindow(QMainWindow):
    """StorPlan's main window on one project (``project``, from the file ``path`` if any); see the module docstring."""

    def __init__(self, project: Project | None = None, path: Path | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        from app.gui.status_bar import StatusBar

        self.setStatusBar(StatusBar(self))  # a message too long beside the key figures ends at a word (REVIEW43 #11)
        self.setObjectName("mainWindow")
        self.document = ProjectDocument(project, self)
        self.document.path = Path(path) if path else None
        self.worker = EvaluationWorker(settings.get("evaluation/debounce_ms"), self)
        self.compare_worker = EvaluationWorker(0, self)
        self.last_outcome: EvaluationOutcome | None = None
        # file commands: async open / save, locks, pinned catalog, autosave and recovery, report
        self.files = FileController(self, self.document, self._evaluation_cache, self._new_window,
                                    sizing_cache=self._sizing_cache)
        self._extra_windows: list[MainWindow] = []

        self.view = TopologyView(self.document)
        self.scene = self.view.topology_scene
        self.scene.set_snap(settings.get("canvas/snap_to_grid"), settings.get("canvas/grid_size"))
        self.setCentralWidget(self.view)
        # the catalog and the workloads panels are built when their dock is first shown (a tab behind the
        # inspector is not), at the latest once the first results are drawn, or on first use (``palette_widget``,
        # ``workloads``): ~45 ms of CPU less before the first window when both are behind the inspector
        self._palette: PaletteWidget | None = None
        self._palette_catalog: Any = None
        self.document.sig_project_changed.connect(self._refresh_palette)
        self.inspector = Inspector(self.document)
        self._workloads: WorkloadsPanel | None = None
        self.results = ResultsArea()
        self.results.add_cost_view(self.document)
        self.results.add_protection_view(self.document)
        self.compare_view = None
        self._compare_pair: tuple[str, str] | None = None
        self._compare_asked = False  # the next comparison comes to the front
        self._make_docks()
        self._make_actions()
        self._make_menus()
        self._make_toolbar()
        self._make_status_bar()

        doc = self.document
        doc.sig_project_changed.connect(self._evaluate)
        doc.sig_modified_changed.connect(self._update_title)
        doc.sig_path_changed.connect(self._update_title)
        doc.sig_settings_changed.connect(self._update_title)
        doc.sig_scenarios_changed.connect(self._update_scenarios)
        doc.sig_scenario_switched.connect(self._update_scenarios)
        doc.sig_project_replaced.connect(self._update_scenarios)
        doc.sig_project_replaced.connect(lambda: QTimer.singleShot(0, self.view.fit))
        doc.sig_settings_changed.connect(lambda: self.results.refresh_unit(doc.project.settings.capacity_unit))
        # the key figures in the new capacity unit at once, from the last result (REVIEW43 #12)
        doc.sig_settings_changed.connect(self._render_key_figures)
        self.worker.sig_evaluation_finished.connect(self._show_outcome)
        # the failure states are computed while the Performance tab (which shows them) is the one shown; shown
        # again, it asks for them when the last result lacks them
        self.worker.states_wanted = lambda: self.results.currentWidget() is self.results.performance_view
        self.results.currentChanged.connect(self._states_shown)
        self.evaluation_progress = EvaluationProgress(self.statusBar())
        self.worker.sig_evaluation_started.connect(self.evaluation_progress.started)
        self.worker.sig_evaluation_progress.connect(self.evaluation_progress.progress)
        self.worker.sig_evaluation_finished.connect(self.evaluation_progress.finished)
        self.files.sig_state_changed.connect(self._update_title)
        self.files.sig_recent_changed.connect(self._update_recent_menu)
        doc.sig_project_replaced.connect(self._warm_worker)
        self.compare_worker.sig_evaluation_finished.connect(self._show_compare)
        # the Compare tab follows the document: recomputed after an edit, gone with its scenarios or its project
        doc.sig_project_changed.connect(self._refresh_compare)
        doc.sig_project_replaced.connect(self._drop_compare)
        self.scene.selectionChanged.connect(self._selection_changed)
        self.view.sig_status_message.connect(lambda m: self.statusBar().showMessage(m, 8000))
        self.view.sig_inspect_requested.connect(lambda: (self.inspector_dock.raise_(),
                                                         self.inspector.focus_first_field()))
        self.results.problems_list.sig_problem_activated.connect(self.select_item)

        self._default_layout_applied = False
        # sized for the screen's available geometry, never larger; the results scroll inside their dock where
        # the screen is too small for their charts
        window_layout.scroll_when_small(self.results_dock)
        geometry, state = settings.get("window/geometry"), settings.get("window/state")
        window_layout.place_window(self, restored=not geometry.isEmpty() and self.restoreGeometry(geometry))
        # a layout saved by another layout version (other docks, other defaults) is ignored: default layout
        self._layout_restored = not state.isEmpty() and self.restoreState(state, LAYOUT_VERSION)
        self._update_scenarios()
        self._update_title()
        self._update_recent_menu()
        # The first run starts once the canvas has painted (its thread imports the engines, sharing the GUI's
        # interpreter lock), or after FIRST_RUN_LATEST_MS in a window not painted by then.
        self.worker.request(self.document.project, catalog=self.document.base_catalog, hold=True)
        self.engine_label.setText("evaluating…")
        QTimer.singleShot(FIRST_RUN_LATEST_MS, self, self.worker.release)
        QTimer.singleShot(0, self.view.fit)
        # The result widgets import pyqtgraph (~1.4 s): load them once the canvas has painted.
        self.view.viewport().installEventFilter(self)
        # the panels behind other tabs once the first results are drawn (a zero timer runs after their paint)
        self.worker.sig_evaluation_finished.connect(self._first_results_in)
        QTimer.singleShot(PANELS_LATEST_MS, self, self.build_panels)

    @property
    def palette_widget(self) -> PaletteWidget:
        """The catalog dock's panel (built on first use, see :meth:`_build_panel`)."""
        if self._palette is None:
            self._palette = PaletteWidget(self.document.catalog)
            self._palette_catalog = self.document.catalog
            self._palette.sig_edit_requested.connect(self.show_hardware_editor)
            self._palette.sig_delete_requested.connect(self.delete_own_hardware)
            self._put_in_dock(self.palette_dock, self._palette)
        return self._palette

    @property
    def workloads(self) -> WorkloadsPanel:
        """The workloads dock's panel (built on first use, see :meth:`_build_panel`)."""
        if self._workloads is None:
            self._workloads = WorkloadsPanel(self.document)
            self._put_in_dock(self.workloads_dock, self._workloads)
        return self._workloads

    @staticmethod
    def _put_in_dock(dock: QDockWidget, panel: QWidget) -> None:
        """``panel`` in place of ``dock``'s placeholder (deleted)."""
        placeholder = dock.widget()
        dock.setWidget(panel)
        panel.show()  # a widget set in a dock shown already is not shown with it (QDockWidget.setWidget)
        if placeholder is not None and placeholder is not panel:
            placeholder.deleteLater()

    def _build_panel(self, dock: QDockWidget) -> None:
        """Build the panel of a dock shown (its tab brought to the front, or the dock shown at the start)."""
        if dock is self.palette_dock:
            self.palette_widget  # noqa: B018 - built on first use
        elif dock is self.workloads_dock:
            self.workloads  # noqa: B018

    def build_panels(self) -> None:
        """Build every dock's panel now (those behind another tab are built on first show otherwise): once the
        first results are drawn, before the default dock layout (it sizes the columns for their panels) and
        before presentation mode (it records the widgets' fonts)."""
        self._build_panel(self.palette_dock)
        self._build_panel(self.workloads_dock)

    def _first_results_in(self, _outcome: EvaluationOutcome) -> None:
        """The first results are in: the hidden panels are built after they are drawn (a zero timer runs after the
        paint they asked for), or once the result view shown is installed (:meth:`_install_result_views`)."""
        self.worker.sig_evaluation_finished.disconnect(self._first_results_in)
        if not isinstance(self.results.currentWidget(), PlaceholderView):
            QTimer.singleShot(0, self, self.build_panels)

    def showEvent(self, event) -> None:  # noqa: N802
        """First show: build the panels of the docks shown, apply the default dock layout unless a saved one was
        restored; warm the worker process."""
        super().showEvent(event)
        if not self._default_layout_applied:
            self._default_layout_applied = True
            for dock in (self.palette_dock, self.workloads_dock):
                # shown and not a tab behind another (those are placed outside the window: Qt's own test)
                if dock.isVisible() and dock.geometry().right() >= 0 and dock.geometry().bottom() >= 0:
                    self._build_panel(dock)
            if not self._layout_restored:  # first start, or a layout from another version: the default layout
                QTimer.singleShot(0, self.apply_default_layout)
            QTimer.singleShot(0, self._warm_worker)

    def apply_default_layout(self) -> None:
        """Dock sizes for a first start, for the window's size (``window_layout.dock_sizes``): the results get
        about 45% of the height below the canvas (a readable latency chart), the catalog and the inspector /
        workloads tabs a fifth and about a quarter of the width, the canvas stays usable."""
        self.build_panels()  # the columns' widths follow the panels' sizes
        window_layout.arrange_docks(self, self.palette_dock, self.inspector_dock, self.results_dock,
                                    on_arranged=self.view.fit)
        QTimer.singleShot(0, self.view.fit)  # the canvas changed size: show the whole topology again

    def eventFilter(self, obj, event) -> bool:  # noqa: N802
        """After the canvas's first paint, start the first evaluation and install the result views (they import
        pyqtgraph); numpy, which both import, holds its docstrings and typing aliases (``defer_numpy_parts``)."""
        if event.type() == QEvent.Type.Paint and obj is self.view.viewport():
            obj.removeEventFilter(self)
            defer_numpy_parts()  # numpy is imported from here on: its docstrings and typing aliases wait
            self.worker.release()
            QTimer.singleShot(30, self, lambda: self._install_result_views(current_only=True))
        return super().eventFilter(obj, event)

    def _install_result_views(self, current_only: bool = False) -> None:
        """The real result views in place of their placeholders: at start only the tab shown (the others when
        first shown, see ``ResultsArea.install_result_views``); every one for tests and tools."""
        unit = self.document.project.settings.capacity_unit
        if self.results.install_result_views(unit, current_only):
            capacity_view = self.results.capacity_view
            if hasattr(capacity_view, "sig_unit_changed"):  # the view, not its placeholder
                # the Capacity tab's TB / TiB toggle is the project's capacity unit setting (undoable; the status
                # bar, the inspector and the report follow it)
                capacity_view.sig_unit_changed.connect(lambda value: self.document.set_setting("capacity_unit", value))
                # its "Data reduction..." dialog edits the project's data-reduction bands (one undoable step)
                capacity_view.bands_source = lambda: (list(self.document.project.settings.data_reduction_bands),
                                                      list(self.document.project.scenario.workloads))
                capacity_view.stated_capacity_source = \
                    lambda: self.document.project.requirements.effective_capacity_bytes
                capacity_view.sig_bands_edited.connect(
                    lambda rows: self.document.set_setting("data_reduction_bands", rows))
            if self.last_outcome is not None:
                self._show_outcome(self.last_outcome)
                QTimer.singleShot(0, self, self.build_panels)  # the first results drawn: the hidden panels next

    # --- layout -------------------------------------------------------------------------------------------

    def _dock(self, title: str, name: str, widget: QWidget, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                         | QDockWidget.DockWidgetFeature.DockWidgetClosable
                         | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        self.addDockWidget(area, dock)
        return dock

    def _make_docks(self) -> None:
        self.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.palette_dock = self._dock("Catalog", "paletteDock", QWidget(), Qt.DockWidgetArea.LeftDockWidgetArea)
        self.inspector_dock = self._dock("Inspector", "inspectorDock", self.inspector,
                                         Qt.DockWidgetArea.RightDockWidgetArea)
        self.workloads_dock = self._dock("Workloads", "workloadsDock", QWidget(), Qt.DockWidgetArea.RightDockWidgetArea)
        for dock in (self.palette_dock, self.workloads_dock):
            dock.visibilityChanged.connect(lambda shown, d=dock: self._build_panel(d) if shown else None)
        self.results_dock = self._dock("Results", "resultsDock", self.results, Qt.DockWidgetArea.BottomDockWidgetArea)
        # The inspector and the workloads share the column beside the canvas as tabs: each gets its full height.
        self.tabifyDockWidget(self.inspector_dock, self.workloads_dock)
        self.inspector_dock.raise_()
        self.resizeDocks([self.palette_dock], [290], Qt.Orientation.Horizontal)
        self.resizeDocks([self.inspector_dock], [380], Qt.Orientation.Horizontal)
        self.resizeDocks([self.results_dock], [360], Qt.Orientation.Vertical)

    def _action(self, text: str, slot, shortcut=None, icon_name: str | None = None, tip: str = "") -> QAction:
        action = QAction(text, self)
        if icon_name:
            action.setIcon(icon(icon_name))
        if shortcut is not None:
            action.setShortcuts(QKeySequence.keyBindings(shortcut) if isinstance(shortcut, QKeySequence.StandardKey)
                                else [QKeySequence(shortcut)])
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        if slot is not None:
            action.triggered.connect(slot)
        return action

    def _make_actions(self) -> None:
        SK = QKeySequence.StandardKey
        a = self._action
        self.act_new = a("&New", self.new_project, SK.New, "mdi6.file-outline", "Start an empty project")
        self.act_open = a("&Open…", self.open_dialog, SK.Open, "mdi6.folder-open", "Open a project file")
        self.act_save = a("&Save", self.save, SK.Save, "mdi6.content-save", "Save the project")
        self.act_save_as = a("Save &As…", self.save_as, SK.SaveAs)
        self.act_revert = a("&Revert", self.revert, None, None, "Reload the saved file, dropping changes")
        self.act_close = a("&Close", self.close_project, SK.Close)
        self.act_export = a("&Report (PDF)…", self.export_report, None, "mdi6.file-pdf-box",
                            "Export a PDF sizing report")
        self.sheets = SheetExporter(self, self.document, self._evaluation_cache)
        self.act_export_xlsx = a("&Workbook (XLSX)…", self.sheets.export_xlsx, None, "mdi6.microsoft-excel",
                                 "Export the sizing as an Excel workbook: summary, bill of materials, waterfall, "
                                 "curves, failure states, validation")
        self.act_export_csv = a("&CSV Files…", self.sheets.export_csv, None, "mdi6.file-delimited-outline",
                                "Export the sizing as CSV files, one per sheet")
        self.act_quit = a("&Quit", self.close, SK.Quit)
        self.act_undo = self.document.undo_stack.createUndoAction(self, "&Undo")
        self.act_undo.setShortcuts(QKeySequence.keyBindings(SK.Undo))
        self.act_undo.setIcon(icon("mdi6.undo"))
        self.act_redo = self.document.undo_stack.createRedoAction(self, "&Redo")
        self.act_redo.setShortcuts(QKeySequence.keyBindings(SK.Redo) + [QKeySequence("Ctrl+Y")]
                                   if QKeySequence("Ctrl+Y") not in QKeySequence.keyBindings(SK.Redo)
                                   else QKeySequence.keyBindings(SK.Redo))
        self.act_redo.setIcon(icon("mdi6.redo"))
        self.act_cut = a("Cu&t", self.view.cut_selection, SK.Cut)
        self.act_copy = a("&Copy", self.view.copy_selection, SK.Copy, "mdi6.content-copy")
        self.act_paste = a("&Paste", self.view.paste, SK.Paste, "mdi6.content-paste")
        self.act_delete = a("&Delete", self.view.delete_selection, SK.Delete, "mdi6.delete", "Delete the selection")
        self.act_delete.setShortcuts(QKeySequence.keyBindings(SK.Delete) + [QKeySequence(Qt.Key.Key_Backspace)])
        self.act_select_all = a("Select &All", lambda: [i.setSelected(True) for i in self.scene.items()
                                                        if isinstance(i, NodeItem)], SK.SelectAll)
        for action in (self.act_cut, self.act_copy, self.act_paste, self.act_delete, self.act_select_all):
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.view.addAction(action)
        self.act_connect = a("&Connect", self.view.set_connect_mode, "C", "mdi6.vector-line",
                             "Connect mode: drag from one item to another (or drag an item's right-edge handle)")
        self.act_connect.setCheckable(True)
        self.act_connect.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.view.addAction(self.act_connect)
        self.act_zoom_in = a("Zoom &In", self.view.zoom_in, SK.ZoomIn, "mdi6.magnify-plus")
        self.act_zoom_out = a("Zoom &Out", self.view.zoom_out, SK.ZoomOut, "mdi6.magnify-minus")
        self.act_fit = a("&Fit to View", self.view.fit, "Ctrl+0", "mdi6.fit-to-screen", "Show the whole topology")
        self.act_layout = a("Auto &Layout", self.document.auto_layout, "Ctrl+L", "mdi6.sitemap",
                            "Arrange items left to right: hosts, switches, controllers, shelves")
        self.act_snap = a("&Snap to Grid", self._toggle_snap, None, "mdi6.grid")
        self.act_snap.setCheckable(True)
        self.act_snap.setChecked(self.scene.snap_to_grid)
        self.act_duplicate = a("&Duplicate Scenario", self.duplicate_scenario, None, "mdi6.source-branch",
                               "Copy the current design as a new scenario")
        self.act_compare = a("Co&mpare Scenarios…", self.compare_dialog, None, "mdi6.compare",
                             "Compare two scenarios side by side")

    @property
    def examples_menu(self) -> QMenu:
        """File -> Open Example, its entries made (:meth:`_list_examples`)."""
        self._list_examples()
        return self._examples_menu

    def _list_examples(self) -> None:
        """Make File -> Open Example's entries, once: the projects' names (not their file names) in natural order."""
        if self._examples_listed:
            return
        self._examples_listed = True
        for title, path in sorted(example_titles(), key=lambda item: natural_key(item[0])):
            action = self._examples_menu.addAction(title.replace("&", "&&"))
            action.setToolTip(path.name)
            action.triggered.connect(lambda _=False, p=path: self.open_example(p))

    def _make_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addActions([self.act_new, self.act_open])
        self.recent_menu = file_menu.addMenu("Open &Recent")
        # its entries are made when it is first opened (or read, :attr:`examples_menu`): their titles read every
        # example file, ~7 ms of CPU that the first window never shows
        self._examples_menu = file_menu.addMenu("Open E&xample")
        self._examples_listed = False
        self._examples_menu.aboutToShow.connect(self._list_examples)
        folder = examples_dir()
        self._examples_menu.setEnabled(folder.is_dir() and any(folder.glob("*.toml")))
        file_menu.addSeparator()
        file_menu.addActions([self.act_save, self.act_save_as, self.act_revert, self.act_close])
        file_menu.addSeparator()
        export_menu = file_menu.addMenu(icon("mdi6.export"), "&Export")
        export_menu.addActions([self.act_export, self.act_export_xlsx, self.act_export_csv])
        file_menu.addSeparator()
        self.act_import_prices = QAction(icon("mdi6.currency-usd"), "Import &Price Book…", self)
        self.act_import_prices.setStatusTip("Unit prices by catalog id (CSV), kept in the project: the sizer ranks "
                                            "by cost")
        self.act_import_prices.triggered.connect(lambda: self.show_sizer()._choose_prices())
        file_menu.addAction(self.act_import_prices)
        self.act_import_env = QAction(icon("mdi6.database-import"), "&Import Environment…", self)
        self.act_import_env.setStatusTip("Workloads from RVTools, Live Optics, ONTAP counters or Azure Migrate exports")
        self.act_import_env.triggered.connect(lambda: self.show_import_wizard())
        file_menu.addAction(self.act_import_env)
        file_menu.addSeparator()
        file_menu.addAction(self.act_quit)
        edit = bar.addMenu("&Edit")
        edit.addActions([self.act_undo, self.act_redo])
        edit.addSeparator()
        edit.addActions([self.act_cut, self.act_copy, self.act_paste, self.act_delete, self.act_select_all])
        edit.addSeparator()
        edit.addAction(self.act_connect)
        view = bar.addMenu("&View")
        view.addActions([self.act_zoom_in, self.act_zoom_out, self.act_fit])
        view.addSeparator()
        view.addActions([self.act_snap, self.act_layout])
        view.addSeparator()
        for dock in (self.palette_dock, self.inspector_dock, self.workloads_dock, self.results_dock):
            view.addAction(dock.toggleViewAction())
        view.addSeparator()
        theme_menu = view.addMenu("&Theme")
        group = QActionGroup(self)
        self.theme_actions: dict[str, QAction] = {}
        for name in themes.THEMES:
            action = QAction(name.capitalize(), self, checkable=True)
            action.setChecked(name == themes.current())
            action.triggered.connect(lambda _on, n=name: themes.apply(n))
            group.addAction(action)
            theme_menu.addAction(action)
            self.theme_actions[name] = action
        self.presentation = Presentation(self)
        self.act_presentation = QAction("&Presentation Mode", self, checkable=True)
        self.act_presentation.setShortcut(QKeySequence(Qt.Key.Key_F11))
        self.act_presentation.setStatusTip("Full screen, larger fonts, editing docks hidden (Esc leaves)")
        self.act_presentation.toggled.connect(self.presentation.toggle)
        view.addAction(self.act_presentation)
        self.addAction(self.act_presentation)
        scenario = bar.addMenu("&Scenario")
        scenario.addActions([self.act_duplicate, self.act_compare])
        self.act_size = QAction(icon("mdi6.auto-fix"), "Si&ze from Requirements…", self)
        self.act_size.setStatusTip("Ranked configurations that meet the project's requirements")
        self.act_size.triggered.connect(lambda: self.show_sizer())
        scenario.addAction(self.act_size)
        tools = bar.addMenu("&Tools")
        self.act_catalog_browser = QAction(icon("mdi6.database-search"), "&Catalog Browser…", self)
        self.act_catalog_browser.setStatusTip("Every catalog record with its figures and the source of each number")
        self.act_catalog_browser.triggered.connect(self.show_catalog_browser)
        tools.addAction(self.act_catalog_browser)
        self.catalog_browser: CatalogBrowser | None = None
        self.act_new_hardware = QAction(icon("mdi6.plus-box-outline"), "New / Duplicate &Hardware…", self)
        self.act_new_hardware.setStatusTip("A catalog record of your own, from a copy of an existing one")
        self.act_new_hardware.triggered.connect(lambda: self.show_hardware_editor())
        tools.addAction(self.act_new_hardware)
        self.act_calibrate = QAction(icon("mdi6.chart-bell-curve-cumulative"), "Calibrate from &Lab Data…", self)
        self.act_calibrate.setStatusTip("Fit the project's controller to a measured curve (CSV: iops, latency_ms)")
        self.act_calibrate.triggered.connect(lambda: self.show_calibration())
        tools.addAction(self.act_calibrate)
        help_menu = bar.addMenu("&Help")
        self.act_guide = QAction(icon("mdi6.help-circle-outline"), "StorPlan &Guide", self)
        self.act_guide.setShortcut(QKeySequence(QKeySequence.StandardKey.HelpContents))
        self.act_guide.setStatusTip("Open the guide at the section of the panel you are in (F1)")
        self.act_guide.triggered.connect(self._show_guide_at_focus)
        self.act_about = QAction("&About StorPlan", self)
        self.act_about.triggered.connect(self._show_about)
        help_menu.addActions([self.act_guide, self.act_about])
        self.addAction(self.act_guide)  # F1 works wherever the focus is
        self.guide: GuideDialog | None = None

    def show_sizer(self) -> SizerDialog:
        """Open the sizer on the project's requirements."""
        from app.gui.sizer_dialog import SizerDialog

        dialog = SizerDialog(self.document, self, compare=self.compare, evaluation_cache=self._evaluation_cache)
        dialog.show()
        self._sizer = dialog
        return dialog

    def show_import_wizard(self) -> Any:
        """File > Import Environment...: the wizard from measured exports to the scenario's workloads."""
        from app.gui.import_wizard import ImportWizard

        wizard = ImportWizard(self.document, self)
        wizard.sig_design_imported.connect(lambda: QTimer.singleShot(0, self.view.fit))  # show the whole new design
        wizard.open()
        self._import_wizard = wizard
        return wizard

    def _sizing_cache(self) -> Any:
        """The latest sizer search's result when it belongs to the project and catalog as they are now (the report
        shows it instead of searching again), else None."""
        dialog = getattr(self, "_sizer", None)
        return dialog.result_for(self.document.project, self.document.base_catalog) if dialog is not None else None

    def delete_own_hardware(self, entry_id: str) -> bool:
        """Delete one of the user's own records (asked first; refused while the project uses it); True when
        deleted, and the palette lists the catalog again."""
        from app.gui.hardware_editor import delete_own_record

        entry = self.document.catalog.find(entry_id)
        if entry is None:
            return False
        deleted = delete_own_record(self, entry, self.document.project)
        if deleted:
            self.document.refresh_catalog()
            self.statusBar().showMessage(f"Deleted '{entry_id}' from your catalog", 8000)
        return deleted

    def _refresh_palette(self) -> None:
        """List the catalog again when the project's catalog changed (another project, its own or the user's
        records, a pinned catalog); the search filter is kept."""
        catalog = self.document.catalog
        if self._palette is not None and catalog is not self._palette_catalog:  # not built: built on this catalog
            self._palette_catalog = catalog
            self._palette.set_catalog(catalog)

    def show_calibration(self) -> CalibrationDialog:
        """Open the lab-data calibration for the project's first workload and its controller."""
        from app.gui.calibration_dialog import CalibrationDialog

        dialog = CalibrationDialog(self.document.project, self.document.catalog, self)
        dialog.sig_saved.connect(self._use_calibrated)
        dialog.show()
        return dialog

    def _use_calibrated(self, record_id: str, node_id: str) -> None:
        """A lab fit was saved as the user's own record: read the catalog again (it appears under My hardware) and
        switch the calibrated node to it, one undo step (Undo goes back to the stock record)."""
        from models.project import edits

        self.document.refresh_catalog()
        scenario = self.document.scenario
        if scenario.node(node_id) is None:
            return
        self.document.push_scenario(edits.set_node_fields(scenario, node_id, catalog_id=record_id),
                                    f"Use the lab fit '{record_id}' for {node_id}")
        self.statusBar().showMessage(f"Saved the lab fit as '{record_id}' under My hardware; {node_id} uses it "
                                     "(Undo goes back to the stock record)", 8000)

    def show_hardware_editor(self, start_id: str | None = None) -> HardwareEditor:
        """Open the editor for a record of the user's own (starting from ``start_id``'s copy)."""
        from app.gui.hardware_editor import HardwareEditor

        editor = HardwareEditor(self.document.catalog, start_id, self)
        editor.sig_saved.connect(lambda _id: self.statusBar().showMessage(f"Saved '{_id}' to your catalog: it is in "
                                                                          "the palette under My hardware", 8000))
        editor.sig_saved.connect(lambda _id: self.document.refresh_catalog())
        editor.show()
        return editor

    def show_catalog_browser(self) -> CatalogBrowser:
        """Open (or raise) the catalog browser over the project's catalog."""
        if self.catalog_browser is None:
            from app.gui.catalog_browser import CatalogBrowser

            self.catalog_browser = CatalogBrowser(self.document.catalog, self)
        self.catalog_browser.show()
        self.catalog_browser.raise_()
        return self.catalog_browser

    def show_guide(self, section: str = "") -> GuideDialog:
        """Open (or raise) the guide at ``section``."""
        from app.gui.help import GuideDialog  # the Help menu's dialogs load when first opened, after the first window

        if self.guide is None:
            self.guide = GuideDialog(self)
        self.guide.show_section(section)
        return self.guide

    def _show_guide_at_focus(self) -> None:
        """Help -> StorPlan Guide (F1): the guide at the section of the panel that has the focus."""
        from app.gui.help import focused_section

        self.show_guide(focused_section())

    def _show_about(self) -> None:
        """Help -> About StorPlan."""
        from app.gui.help import show_about

        show_about(self)

    def _make_toolbar(self) -> None:
        tb = QToolBar("Main", self)
        tb.setObjectName("mainToolBar")
        tb.setMovable(False)
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        self.addToolBar(tb)
        tb.addActions([self.act_new, self.act_open, self.act_save])
        tb.addSeparator()
        tb.addActions([self.act_undo, self.act_redo])
        tb.addSeparator()
        tb.addActions([self.act_connect, self.act_delete, self.act_layout, self.act_snap])
        tb.addSeparator()
        tb.addActions([self.act_zoom_out, self.act_zoom_in, self.act_fit])
        tb.addSeparator()
        tb.addWidget(QLabel(" Scenario "))
        self.scenario_combo = QComboBox()
        self.scenario_combo.setObjectName("scenarioCombo")
        self.scenario_combo.setMinimumContentsLength(14)
        self.scenario_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.scenario_combo.setToolTip("The scenario shown and evaluated")
        self.scenario_combo.activated.connect(lambda i: self.document.switch_scenario(self.scenario_combo.itemText(i)))
        tb.addWidget(self.scenario_combo)
        tb.addActions([self.act_duplicate, self.act_compare])
        self.toolbar = tb

    def _make_status_bar(self) -> None:
        bar = self.statusBar()
        self.status_labels: dict[str, QLabel] = {}
        self.engine_label = QLabel()
        self.saved_label = QLabel()
        bar.addPermanentWidget(self.engine_label)
        self._status_container = QWidget()
        from PySide6.QtWidgets import QHBoxLayout, QVBoxLayout

        # the key figures in one row; while presenting (large bold fonts) in two rows, so that on a 1024 px wide
        # projector every caption keeps its value (see set_key_figure_rows)
        self._status_layout = QVBoxLayout(self._status_container)
        self._status_layout.setContentsMargins(0, 0, 0, 0)
        self._status_layout.setSpacing(0)
        self._status_row_layouts: list[QHBoxLayout] = []
        for _ in range(2):
            row = QHBoxLayout()
            row.setContentsMargins(0, 0, 0, 0)
            row.setSpacing(14)
            self._status_layout.addLayout(row)
            self._status_row_layouts.append(row)
        self._status_rows = 1
        bar.addPermanentWidget(self._status_container)
        bar.addPermanentWidget(self.saved_label)

    def set_key_figure_rows(self, rows: int) -> None:
        """Lay the status bar's key figures out in ``rows`` rows (1 normally, 2 while presenting)."""
        self._status_rows = max(1, int(rows))
        self._render_key_figures()
        self._place_key_figures()

    def _place_key_figures(self) -> None:
        """Put the key figure labels into their rows, in reading order within a row, the rows as even in width as
        they can be (:func:`balanced_rows`: on a 1024 px projector the long "Max IOPS @ SLO" figure with its profile
        kind no longer pushes its row's end off the bar)."""
        labels = list(self.status_labels.values())
        rows = self._status_row_layouts[: min(self._status_rows, len(self._status_row_layouts))]
        placed = balanced_rows([label.sizeHint().width() for label in labels], len(rows))
        for label, row_index in zip(labels, placed, strict=True):
            for row in self._status_row_layouts:
                row.removeWidget(label)
            rows[row_index].addWidget(label)
        for row in self._status_row_layouts:
            row.invalidate()

    # --- evaluation ---------------------------------------------------------------------------------------

    def _evaluate(self) -> None:
        self.worker.request(self.document.project, catalog=self.document.base_catalog)
        self.engine_label.setText("evaluating…")

    def _show_outcome(self, outcome: EvaluationOutcome) -> None:
        self.last_outcome = outcome
        unit = self.document.project.settings.capacity_unit
        self.results.show_outcome(outcome, unit)
        evaluation = outcome.evaluation
        if evaluation is not None:
            self.scene.set_problems(evaluation.problems)
        errors = [p for p in evaluation.problems if p.severity == "error"] if evaluation is not None else []
        if outcome.error:
            self.engine_label.setText(f"<span style='color:#d64545'>{html.escape(outcome.error)}</span>")
            self.engine_label.setToolTip(rich_tooltip([outcome.error]))
        elif errors:
            # the figures beside it come from a design with errors: say so where the presenter looks
            self.engine_label.setText(f"<span style='color:#d64545'><b>{len(errors)} design "
                                      f"error{'s' if len(errors) != 1 else ''}</b></span>")
            self.engine_label.setToolTip(rich_tooltip([p.message for p in errors]))
        else:
            self.engine_label.setText("")
            self.engine_label.setToolTip("")
        self._render_key_figures()

    def _render_key_figures(self) -> None:
        """The status bar's key figures from the last good result (the verdict elided at its label's font). With
        several workloads the max IOPS figure is the worst workload's (one that misses its target, else the lowest)
        with "worst of n workloads", every workload in its tooltip; the verdict is its first miss and how many
        more, every miss in its tooltip: at 1366 px the list of every workload cut the figure off (review r1 #10)."""
        outcome = self.last_outcome
        if outcome is None:
            return
        unit = self.document.project.settings.capacity_unit
        evaluation = self.results.last_good
        project = self.document.project
        unknown = capacity_unmeasured(project.scenario.workloads, project.requirements.effective_capacity_bytes)
        # some imported workloads' capacity not measured: the report's caution, short in the verdict, whole in its tip
        from models.present.verdicts import partly_unmeasured_caution  # with the first results, not at start

        partly = None if unknown else partly_unmeasured_caution(capacity_partly_unmeasured(project.scenario.workloads))
        summary = status_summary(evaluation, unit, project.requirements, unknown, partly is not None) \
            if evaluation is not None else {}
        basis = profiles_text(evaluation)  # the profile kind beside max IOPS at the SLO, never only in a popup
        performance = evaluation.performance if evaluation is not None else None
        workloads = list(performance.workloads) if performance is not None else []
        worst = worst_workload(workloads) if len(workloads) > 1 else None
        bold = None
        stale = " (stale)" if outcome.error else ""
        self._key_variants = {}
        for key, value in summary.items():
            label = self.status_labels.get(key)
            if label is None:
                label = self.status_labels[key] = QLabel()
                self._place_key_figures()
            if bold is None:
                bold = QFont(label.font())
                bold.setBold(True)
            caption = STATUS_CAPTIONS.get(key, key)
            variants = [f"{caption}: <b>{html.escape(value)}</b>{stale}"]
            if key == "verdict":  # the first miss and how many more, never widens the window: all in the tooltip
                label.setToolTip(plain_text.plain_tooltip(f"Requirements: {value}" + (
                    f"\n\nCaution: {partly.text}." if partly is not None else "")))
                red = value.startswith("missed")  # the design does not meet its requirements
                # met, with a caution (capacity not measured, design errors beside it): not a plain met
                amber = (value in (UNMEASURED_STATUS, PARTLY_UNMEASURED_STATUS, MET_CONDITIONAL)
                         or value.startswith(MET_WITH_ERRORS))
                variants = []
                for width in VERDICT_STATUS_WIDTHS:
                    shown = html.escape(verdict_status_text(value, QFontMetrics(bold), width))
                    if red:
                        shown = f"<span style='color:#d64545'>{shown}</span>"
                    elif amber:  # the caution colour of the figures on an assumed profile
                        shown = f"<span style='color:{ASSUMED_COLOR}'>{shown}</span>"
                    variants.append(f"{caption}: <b>{shown}</b>{stale}")
            if key == "max_iops_at_slo":
                tooltip: list[str] = []
                if worst is not None:
                    iops = html.escape(format_iops(worst.max_iops_at_slo) if finite(worst.max_iops_at_slo)
                                       else NOT_MET)
                    name = QFontMetrics(label.font()).elidedText(worst.name, Qt.TextElideMode.ElideRight,
                                                                 WORKLOAD_NAME_STATUS_WIDTH)
                    tooltip = ["Max IOPS at the SLO of each workload (the status bar shows the one that misses its "
                               "target, else the lowest):", *workload_iops_lines(workloads), ""]
                    basis = profile_kind_text(worst)
                    heads = [f"<b>{iops}</b> {html.escape(name)}, worst of {len(workloads)} workloads",
                             f"<b>{iops}</b>, worst of {len(workloads)} workloads"]
                else:
                    heads = [f"<b>{html.escape(value)}</b>"]
                # figures on assumed costs (a service's IOPS are its published limits: only its latency floor is
                # assumed, which its words say)
                caution = ((ASSUMED_WORDS in basis and NO_PROFILE_WORDS["service"] not in basis)
                           or NO_PROFILE_WORDS["vSAN"] in basis)
                after = (f" <span style='color:{ASSUMED_COLOR if caution else MUTED_COLOR}'>"
                         f"({html.escape(basis)})</span>") if basis else ""
                if basis:
                    tooltip.append("How the performance profile behind this figure was obtained: "
                                   + profile_kinds_legend() + ".")  # the one set of words (PROFILE_KIND_MEANINGS)
                label.setToolTip(rich_tooltip(tooltip) if tooltip else "")
                variants = [f"{caption}: {head}{after}{stale}" for head in heads]
            self._key_variants[key] = variants
            label.setText(variants[0])
        self._fit_key_figures()
        if self._status_rows > 1:  # the rows balanced for the figures' new widths
            self._place_key_figures()

    def _fit_key_figures(self) -> None:
        """On one row, the richest wording of each key figure that lets every figure fit the status bar: the max
        IOPS figure without the worst workload's name first, then the verdict's first miss shorter (the full texts
        are in their tooltips); the figures' values always stay."""
        variants = getattr(self, "_key_variants", {})
        for key, texts in variants.items():
            label = self.status_labels.get(key)
            if label is not None and label.text() != texts[0]:
                label.setText(texts[0])
        if self._status_rows != 1 or not self.isVisible():
            return
        bar = self.statusBar()

        def needed() -> int:  # the figures' row (14 px apart) and the bar's other labels (6 px apart)
            figures = list(self.status_labels.values())
            others = [w for w in (self.engine_label, self.saved_label) if w.text()]
            return (sum(w.sizeHint().width() for w in figures) + 14 * max(len(figures) - 1, 0)
                    + sum(w.sizeHint().width() + 6 for w in others) + KEY_FIGURES_MARGIN)

        for key in ("max_iops_at_slo", "verdict"):
            label, texts = self.status_labels.get(key), variants.get(key, [])
            index = 0
            while label is not None and index + 1 < len(texts) and needed() > bar.width():
                index += 1
                label.setText(texts[index])

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        """Qt's resize: the status bar's key figures refit to the new width (their shorter variants)."""
        super().resizeEvent(event)
        self._fit_key_figures()

    def _warm_worker(self) -> None:
        """Start the worker process ahead of the first edit when the project is large enough to need it."""
        project = self.document.project
        if self.isVisible() and self.worker.wants_process(project, (project.active_scenario,)):
            self.worker.warm()

    def _states_shown(self, _index: int) -> None:
        """The results tab changed: evaluate again when the Performance tab is shown and the last result has no
        failure states (they were left out while it was hidden)."""
        outcome = self.worker.last_outcome
        if (self.worker.states_wanted() and outcome is not None and outcome.evaluation is not None
                and outcome.evaluation.resilience is None and not self.worker.busy):
            self._evaluate()

    def _evaluation_cache(self) -> dict[str, Any]:
        """The window's latest evaluation, when it belongs to the project as it is now (numbers as on screen)."""
        outcome = self.worker.last_outcome
        if outcome is None or self.worker.busy or outcome.error or outcome.evaluation is None:
            return {}
        if outcome.evaluation.scenario != self.document.project.active_scenario:
            return {}
        return {outcome.evaluation.scenario: outcome.evaluation}

    def _new_window(self) -> FileController:
        """Open another window on an empty project (a second recovered project goes there); its file controller."""
        extra = type(self)(Project())
        extra.show()
        self._extra_windows.append(extra)
        return extra.files

    # --- selection ----------------------------------------------------------------------------------------

    def _selection_changed(self) -> None:
        nodes, links = self.scene.selected_node_ids(), self.scene.selected_link_ids()
        self.inspector.show_selection(nodes, links)
        if nodes or links:
            self.inspector_dock.raise_()  # selecting an item on the canvas shows its properties

    def select_item(self, item_id: str) -> None:
        """Select a node or link (e.g. from the problems list) and bring it into view; a workload id selects it
        in the workloads panel."""
        if item_id in self.scene.node_items or item_id in self.scene.link_items:
            self.scene.select_ids([item_id])
            item = self.scene.node_items.get(item_id) or self.scene.link_items.get(item_id)
            self.view.ensureVisible(item, 60, 60)
            self.inspector_dock.raise_()
        elif self.document.scenario.workload(item_id) is not None:
            self.workloads.select(item_id)
            self.workloads_dock.raise_()

    # --- scenarios ----------------------------------------------------------------------------------------

    def _update_scenarios(self, *_) -> None:
        with blocked(self.scenario_combo):
            self.scenario_combo.clear()
            names = [s.name for s in self.document.project.scenarios]
            self.scenario_combo.addItems(names)
            self.scenario_combo.setCurrentIndex(names.index(self.document.project.active_scenario))
        self.act_compare.setEnabled(len(names) > 1)

    def duplicate_scenario(self) -> str:
        """Scenario → Duplicate: copy the current design as a new scenario and edit it; returns its name."""
        name = self.document.duplicate_scenario()
        self.statusBar().showMessage(f"Now editing scenario '{name}' (a copy).", 5000)
        return name

    def compare_dialog(self) -> None:
        """Scenario → Compare: choose two scenarios and compare them side by side."""
        names = [s.name for s in self.document.project.scenarios]
        if len(names) < 2:
            return
        dialog = QDialog(self)
        dialog.setWindowTitle("Compare scenarios")
        form = QFormLayout(dialog)
        a, b = QComboBox(), QComboBox()
        a.addItems(names)
        b.addItems(names)
        a.setCurrentText(names[0])
        b.setCurrentText(self.document.project.active_scenario if names[0] != self.document.project.active_scenario
                         else names[1])
        form.addRow("Scenario A:", a)
        form.addRow("Scenario B:", b)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(dialog.accept)
        buttons.rejected.connect(dialog.reject)
        form.addRow(buttons)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.compare(a.currentText(), b.currentText())

    def compare(self, name_a: str, name_b: str) -> None:
        """Evaluate two scenarios in the worker and show them side by side."""
        self._compare_pair, self._compare_asked = (name_a, name_b), True
        self.compare_worker.request(self.document.project, (name_a, name_b), catalog=self.document.base_catalog)
        self.statusBar().showMessage(f"Comparing '{name_a}' with '{name_b}'…", 3000)

    def _refresh_compare(self) -> None:
        """After an edit, undo or redo: compare the same two scenarios again (their numbers changed), or close the
        Compare tab when one of them is gone."""
        if self._compare_pair is None:
            return
        names = {s.name for s in self.document.project.scenarios}
        if not set(self._compare_pair) <= names:
            self._drop_compare()
            return
        self.compare_worker.request(self.document.project, self._compare_pair, catalog=self.document.base_catalog)

    def _drop_compare(self) -> None:
        """Close the Compare tab (New, Open, or a compared scenario removed): it showed another design."""
        self._compare_pair = None
        if self.compare_view is not None:
            index = self.results.indexOf(self.compare_view)
            if index >= 0:
                self.results.removeTab(index)
            self.compare_view.deleteLater()
            self.compare_view = None

    def _show_compare(self, outcome: EvaluationOutcome) -> None:
        if self._compare_pair is None:
            return  # a comparison of a project or scenario no longer open
        asked, self._compare_asked = self._compare_asked, False
        unit = self.document.project.settings.capacity_unit
        if self.compare_view is None:
            self.results.install_result_views(unit)
            cls = self.results.compare_view_class()
            view = cls() if cls is not None else PlaceholderView("Compare")
            self.compare_view = view
            self.results.addTab(view, icon("mdi6.compare"), "Compare")
        view = self.compare_view
        if len(outcome.evaluations) == 2 and hasattr(view, "set_evaluations"):
            view.set_evaluations(outcome.evaluations[0], outcome.evaluations[1], unit)
        elif isinstance(view, PlaceholderView):
            rows = []
            for evaluation in outcome.evaluations:
                summary = status_summary(evaluation, unit)
                rows.append(f"<b>{evaluation.scenario}</b>: "
                            + " · ".join(f"{STATUS_CAPTIONS.get(k, k)} {v}" for k, v in summary.items()))
            view.label.setText("<br>".join(rows) + (f"<br><i>{outcome.error}</i>" if outcome.error else ""))
        else:
            view.set_evaluation(outcome.evaluations, unit)
        if asked:  # a comparison asked for is shown; one recomputed after an edit stays where it is
            self.results.setCurrentWidget(view)
            self.results_dock.raise_()

    # --- files --------------------------------------------------------------------------------------------

    def _update_title(self, *_) -> None:
        read_only = " (read-only)" if self.files.read_only else ""
        self.setWindowTitle(f"{self.document.display_name}{read_only}[*] — StorPlan")
        self.setWindowModified(self.document.modified)
        # "saved" only where a file holds the project: an example or a new project has none until Save As
        state = "● unsaved" if self.document.modified else "saved" if self.document.path is not None else "no file yet"
        self.saved_label.setText(state)
        self.saved_label.setToolTip(str(self.document.path) if self.document.path is not None
                                    else "Not saved to a file: File → Save As… keeps it")
        self.saved_label.setStyleSheet("color: #d99a1e;" if self.document.modified else "")
        self.act_revert.setEnabled(self.document.path is not None and self.document.modified)
        self.act_save.setEnabled(not self.files.read_only)

    def maybe_save(self, then=None) -> bool:
        """Ask about unsaved changes: True when it is fine to drop the current project now.

        Answering Save starts the (asynchronous) save and returns False; ``then`` runs once it succeeded (e.g.
        ``self.close`` retries the close, which then finds the project saved).
        """
        if not self.document.modified:
            return True
        answer = self.ask_unsaved()
        if answer == QMessageBox.StandardButton.Save:
            self.files.save(then=then)
            return False
        return answer == QMessageBox.StandardButton.Discard

    def ask_unsaved(self) -> QMessageBox.StandardButton:
        """Save / Discard / Cancel for unsaved changes (tests replace this to answer without a dialog)."""
        return QMessageBox.question(
            self, "Unsaved changes", f"Save changes to {self.document.display_name} before closing?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save)

    def load(self, path: Path | str, wait: bool = False) -> bool:
        """Open a project file in this window (.storplan or .toml; the caller asked about unsaved changes); the
        read runs off the GUI thread unless ``wait`` (see FileController.open_path)."""
        return self.files.open_path(Path(path), wait=wait)

    def open_example(self, path: Path) -> bool:
        """Open a bundled example as a new, unsaved project (saving asks for a place)."""
        if not self.maybe_save(then=lambda: self.open_example(path)):
            return False
        try:
            project = read_project(path)
        except Exception as exc:  # noqa: BLE001
            plain_text.show_warning(self, "Cannot open example", f"{path}\n\n{exc}")
            return False
        self.files.replace(project)
        # the project's title, as the menu lists it (never the file name: "spinning192-sas-analytics")
        title = project.info.name.strip()
        if not title or title == type(project.info).model_fields["name"].default:
            title = path.stem.replace("-", " ")
        self.statusBar().showMessage(f"Opened example “{title}”", 4000)
        return True

    def new_project(self) -> None:
        """File → New: an empty project (after asking about unsaved changes)."""
        if self.maybe_save(then=self.new_project):
            self.files.replace(Project())

    def close_project(self) -> None:
        """File → Close: the same as New (the window stays open on an empty project)."""
        self.new_project()

    def open_dialog(self) -> None:
        """File → Open: choose a project file and open it (after asking about unsaved changes)."""
        if not self.maybe_save(then=self.open_dialog):
            return
        path, _ = QFileDialog.getOpenFileName(self, "Open project", settings.get("files/last_dir"), OPEN_FILTERS)
        if path:
            settings.put("files/last_dir", str(Path(path).parent))
            self.load(path)

    def open_recent(self, path: str) -> None:
        """File → Open Recent: open ``path`` (after asking about unsaved changes)."""
        if self.maybe_save(then=lambda: self.open_recent(path)):
            self.load(path)

    def revert(self) -> None:
        """File → Revert: reload the saved file, dropping the changes (read-only stays read-only), after asking
        (Discard / Cancel) when there are changes: reloading also clears Undo and drops the recovery copy."""
        if self.document.path is None:
            return
        if self.document.modified and not self.ask_revert():
            return
        self.files.open_path(self.document.path, read_only=self.files.read_only)  # read-only stays read-only

    def ask_revert(self) -> bool:
        """Discard / Cancel before File → Revert throws the unsaved changes away (tests replace this)."""
        box = plain_text.message_box(
            self, QMessageBox.Icon.Warning, "Revert to saved",
            f"Discard your changes to {self.document.display_name} and reload the saved file? This cannot be "
            "undone.", QMessageBox.StandardButton.Cancel)
        discard = box.addButton("Discard Changes", QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return box.clickedButton() is discard

    def save(self) -> bool:
        """Start saving to the project's file (Save As when it has none or is read-only); False if cancelled."""
        return self.files.save()

    def save_as(self) -> bool:
        """File → Save As: ask for a path and start saving there; False when cancelled."""
        return self.files.save_as()

    def save_to(self, path: Path) -> bool:
        """Save to ``path`` and wait for the result (scripts and tests; the menu saves in the background)."""
        return self.files.save_sync(Path(path))

    def export_report(self) -> bool:
        """File → Export Report: ask where and write the PDF in the background; False when cancelled."""
        return self.files.export_report()

    def _update_recent_menu(self) -> None:
        self.recent_menu.clear()
        for path in settings.get("files/recent"):
            action = self.recent_menu.addAction(path)
            action.triggered.connect(lambda _=False, p=path: self.open_recent(p))
        self.recent_menu.setEnabled(not self.recent_menu.isEmpty())

    def _toggle_snap(self, on: bool) -> None:
        self.scene.set_snap(on)
        settings.put("canvas/snap_to_grid", on)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        """Close: ask about unsaved changes, finish file work, keep the layout, stop the workers."""
        if not self.maybe_save(then=self.close):
            event.ignore()
            return
        self.files.shutdown()
        self.presentation.leave()  # the kept layout is the working one, never the presentation's
        settings.put("window/geometry", self.saveGeometry())
        settings.put("window/state", self.saveState(LAYOUT_VERSION))
        self.worker.shutdown()
        self.compare_worker.shutdown()
        event.accept()

