"""The results area: Capacity | Performance | Validation | Problems tabs, and the status-bar summary.

The result widgets live in ``app.gui.results``; this module imports the one shown on the first event-loop turn
after the window paints (pyqtgraph is slow to import), the others when their tab is first shown, and shows
placeholders until then, so the main window only calls :meth:`ResultsArea.show_outcome`. A new result is drawn in
the tab shown; a hidden tab's charts are drawn when it is shown (an edit pays for one view). The status-bar
summary is ``models.present.status_summary`` (re-exported here for the main window).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QTabWidget, QVBoxLayout, QWidget

from app.gui.icons import icon
from app.gui.plain_text import plain_tooltip
from models.present import STATUS_CAPTIONS, status_summary
from models.units import CapacityUnit

_VIEWS: dict[str, Any] = {}
"""The result widget classes of ``app.gui.results`` imported so far (:func:`load_result_views`), by class name."""


def load_result_views(*names: str) -> None:
    """Import the result widget classes ``names`` ("CapacityView", "PerformanceView", "ValidationView",
    "CompareView"; none: all four) from ``app.gui.results``, each view's module on its own.

    pyqtgraph makes the first of these the slowest import of the app, so the window paints first and installs
    the view shown on the next event-loop turn; the other views' modules (and what only they need, such as the
    validation engine behind the Validation tab) follow when their tab is first shown. An import error
    propagates: it is a broken install, not a missing feature.
    """
    from app.gui import results

    for name in names or ("CapacityView", "PerformanceView", "ValidationView", "CompareView"):
        if name not in _VIEWS:
            _VIEWS[name] = getattr(results, name)


class PlaceholderView(QWidget):
    """Stands in for a result view that is not written yet; shows the key figures as text."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._title = title
        self.label = QLabel(self)
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        self._text = f"{title}: waiting for the first result…"
        self._stale = ""
        self._render()

    def set_evaluation(self, evaluation: Any, capacity_unit: Any = CapacityUnit.TIB) -> None:
        """Show the key figures of ``evaluation`` (``models.present.status_summary``) as text, capacities in
        ``capacity_unit``."""
        summary = status_summary(evaluation, capacity_unit)
        lines = [f"<b>{self._title}</b>"] + [f"{STATUS_CAPTIONS.get(k, k)}: {v}" for k, v in summary.items()]
        self._text = "<br>".join(lines)
        self._render()

    def set_stale(self, stale: bool, message: str = "") -> None:
        """Add (``stale``) or remove the out-of-date line under the figures."""
        self._stale = message if stale else ""
        self._render()

    def _render(self) -> None:
        extra = f"<br><span style='color:#c0392b'>{self._stale}</span>" if self._stale else ""
        self.label.setText(self._text + extra)


def problem_tooltip(problem) -> str:
    """A problem's message and, under it, the sources of the limits it names (``Problem.sources``, as the
    customer reads them: ``customer_citation``, document titles and public addresses, no file names); the list row
    shows the one sentence only."""
    sources = problem.sources
    if not sources:
        return problem.message
    from models.present.citations import customer_citation

    return f"{problem.message}\n\nSources: {customer_citation(sources)}"


class ProblemsList(QListWidget):
    """Topology problems; activating one asks for its item to be selected."""

    sig_problem_activated = Signal(str)
    """The user clicked a problem about this node / link / workload id."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("problemsList")
        # a long message wraps onto more lines at the list's width (never cut off, never a horizontal scroll)
        self.setWordWrap(True)
        self.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.setUniformItemSizes(False)
        self.itemClicked.connect(self._on_clicked)
        self.itemActivated.connect(self._on_clicked)

    def set_problems(self, problems) -> None:
        """List these ``Problem`` records (severity icon, message); none: one line saying there are none."""
        self.clear()
        for problem in problems:
            name = "mdi6.alert-circle" if problem.severity == "error" else "mdi6.alert-outline"
            color = "#d64545" if problem.severity == "error" else "#d99a1e"
            item = QListWidgetItem(icon(name, color), problem.message)
            item.setData(Qt.ItemDataRole.UserRole, problem.node_id)
            item.setToolTip(plain_tooltip(problem_tooltip(problem)))
            self.addItem(item)
        if not problems:
            item = QListWidgetItem(icon("mdi6.check-circle-outline", "#3c9a5f"), "No topology problems")
            item.setData(Qt.ItemDataRole.UserRole, "")  # never read None back (PySide6 6.12 refcount bug)
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.addItem(item)

    def _on_clicked(self, item: QListWidgetItem) -> None:
        node_id = item.data(Qt.ItemDataRole.UserRole)
        if node_id:
            self.sig_problem_activated.emit(node_id)


class ResultsArea(QTabWidget):
    """Owns the result tabs; feed it worker outcomes."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("resultsArea")
        self.setDocumentMode(True)
        self.capacity_view = PlaceholderView("Capacity")
        self.performance_view = PlaceholderView("Performance")
        self.validation_view = PlaceholderView("Validation")
        self.problems_list = ProblemsList()
        self.addTab(self.capacity_view, icon("mdi6.database"), "Capacity")
        self.addTab(self.performance_view, icon("mdi6.chart-bell-curve"), "Performance")
        self.addTab(self.validation_view, icon("mdi6.check-circle-outline"), "Validation")
        self.addTab(self.problems_list, icon("mdi6.alert-outline"), "Problems")
        self.result_views = (self.capacity_view, self.performance_view, self.validation_view)
        self.last_good = None
        self.engine_message = ""
        self._unit: Any = CapacityUnit.TIB
        self._lazy_connected = False
        self._behind: set[int] = set()
        """Tabs (0-2) whose real view was hidden when the last good result came: it is drawn when shown."""
        self.currentChanged.connect(self._catch_up)
        self.currentChanged.connect(lambda _index: self._presenting and self.updateGeometry())

    _presenting = False
    """Presentation mode: the tabs ask for the shown page's minimum height only (see :meth:`minimumSizeHint`)."""

    def set_presenting(self, on: bool, _font=None) -> None:
        """Presentation mode (``app.gui.presentation`` calls it on entering and leaving): while on, the results ask
        for the height of the shown page only, not of the tallest page. The Performance page's presenting chart
        (half the screen) made every page that tall: the capacity waterfall was stretched to it and its
        Effective bar scrolled below the dock's edge (REVIEW54 #9)."""
        if on != self._presenting:
            self._presenting = on
            self.updateGeometry()

    def minimumSizeHint(self):  # noqa: N802 (Qt API)
        """Qt's (the largest page's minimum plus the tab bar), or while presenting the shown page's own."""
        hint = super().minimumSizeHint()
        page = self.currentWidget()
        if self._presenting and page is not None:
            hint.setHeight(self.tabBar().sizeHint().height() + page.minimumSizeHint().height())
        return hint

    def sizeHint(self):  # noqa: N802 (Qt API)
        """Qt's, or while presenting no taller than the shown page's minimum (the dock gives it its height)."""
        hint = super().sizeHint()
        if self._presenting:
            hint.setHeight(self.minimumSizeHint().height())
        return hint

    VIEW_NAMES = ("CapacityView", "PerformanceView", "ValidationView")
    """The result widget class of each of the first three tabs, in tab order."""

    def install_result_views(self, unit: Any = CapacityUnit.TIB, current_only: bool = False) -> bool:
        """Swap the placeholders for the real result widgets (when ``app.gui.results`` exists).

        ``current_only``: only the tab shown (and the Capacity tab) now; each other tab gets its real widget when
        it is first shown, so a start does not build (and feed) charts nobody looks at yet. Until then its
        placeholder shows the key figures as text. False installs every view at once.

        Returns True when this call installed the Capacity view (the caller connects its signals, once); False
        when it was there already.
        """
        self._unit = unit
        wanted = {0, self.currentIndex()} if current_only else {0, 1, 2}
        installed = [self._install_view(index, unit) for index in sorted(wanted & {0, 1, 2})]
        if current_only and not self._lazy_connected:
            self._lazy_connected = True
            self.currentChanged.connect(self._install_shown_view)
        return installed[0]

    def _install_shown_view(self, index: int) -> None:
        if 0 <= index < len(self.VIEW_NAMES):
            self._install_view(index, self._unit)

    def _install_view(self, index: int, unit: Any) -> bool:
        """Put the real widget of tab ``index`` in place of its placeholder and give it the last good result, the
        design errors and the stale message; False when it is already there (or has no class)."""
        old = self.result_views[index]
        if not isinstance(old, PlaceholderView):
            return False
        load_result_views(self.VIEW_NAMES[index])
        cls = _VIEWS.get(self.VIEW_NAMES[index])
        if cls is None:
            return False
        current = self.currentIndex()
        view = cls()
        tab_icon = self.tabIcon(index)
        self.blockSignals(True)  # removing and inserting the current tab must not re-enter currentChanged
        try:
            self.removeTab(index)
            self.insertTab(index, view, tab_icon, self.VIEW_NAMES[index].removesuffix("View"))
            self.setCurrentIndex(current)
        finally:
            self.blockSignals(False)
        old.deleteLater()
        views = list(self.result_views)
        views[index] = view
        self.capacity_view, self.performance_view, self.validation_view = views
        self.result_views = tuple(views)
        banner = getattr(view, "problems_banner", None)
        if banner is not None:
            banner.sig_show_problems.connect(lambda: self.setCurrentWidget(self.problems_list))
        self._behind.discard(index)
        if self.last_good is not None:
            view.set_evaluation(self.last_good, unit)
            self._show_design_errors(self.last_good)
        if self.engine_message:
            view.set_stale(True, self._stale_message())
        return True

    def _stale_message(self) -> str:
        return f"{self.engine_message} — showing the last good result" if self.last_good else self.engine_message

    def _draws_now(self, view: QWidget) -> bool:
        """Whether ``view`` takes a new result now: the tab shown, or a placeholder (its text is cheap); a hidden
        real view (charts) is drawn when its tab is shown (:meth:`_catch_up`), so an edit pays for one view."""
        return view is self.currentWidget() or isinstance(view, PlaceholderView)

    def _catch_up(self, index: int) -> None:
        """The tab ``index`` is shown: draw the last good result in it if it came while the tab was hidden."""
        if index not in self._behind:
            return
        self._behind.discard(index)
        view = self.result_views[index]
        if self.last_good is not None:
            view.set_evaluation(self.last_good, self._unit)
        view.set_stale(bool(self.engine_message), self._stale_message() if self.engine_message else "")

    def _show_design_errors(self, evaluation) -> None:
        errors = [p.message for p in evaluation.problems if p.severity == "error"]
        for view in self.result_views:
            if hasattr(view, "set_design_errors"):
                view.set_design_errors(errors)

    def add_cost_view(self, document) -> None:
        """Add the "Cost and carbon" tab for ``document`` (an ``app.gui.document.ProjectDocument``); its panel
        (``app.gui.results.cost_view.CostView``, pyqtgraph) is built when the tab is first shown."""
        self.cost_tab = QWidget()
        self.cost_tab.setObjectName("costTab")
        self.cost_view = None
        QVBoxLayout(self.cost_tab).setContentsMargins(0, 0, 0, 0)
        self.addTab(self.cost_tab, icon("mdi6.cash-multiple"), "Cost and carbon")

        def shown(index: int) -> None:
            if self.widget(index) is self.cost_tab and self.cost_view is None:
                from app.gui.results.cost_view import CostView

                self.cost_view = CostView(document, self.cost_tab)
                self.cost_tab.layout().addWidget(self.cost_view)
                self.cost_view.refresh()

        self.currentChanged.connect(shown)

    def add_protection_view(self, document) -> None:
        """Add the "Protection" tab for ``document``; its panel (``app.gui.results.protection_view``) is built when
        the tab is first shown."""
        self.protection_tab = QWidget()
        self.protection_tab.setObjectName("protectionTab")
        self.protection_view = None
        QVBoxLayout(self.protection_tab).setContentsMargins(0, 0, 0, 0)
        self.addTab(self.protection_tab, icon("mdi6.shield-sync-outline"), "Protection")

        def shown(index: int) -> None:
            if self.widget(index) is self.protection_tab and self.protection_view is None:
                from app.gui.results.protection_view import ProtectionView

                self.protection_view = ProtectionView(document, self.protection_tab)
                self.protection_tab.layout().addWidget(self.protection_view)
                self.protection_view.refresh()

        self.currentChanged.connect(shown)

    def compare_view_class(self):
        """The CompareView class (imported on first use)."""
        load_result_views("CompareView")
        return _VIEWS.get("CompareView")

    def show_outcome(self, outcome, unit: Any) -> None:
        """Show a worker outcome: new figures, or the last good ones marked stale with the failure message."""
        evaluation = outcome.evaluation
        if evaluation is not None:
            self.problems_list.set_problems(evaluation.problems)
            errors = sum(p.severity == "error" for p in evaluation.problems)
            self.setTabText(3, f"Problems ({len(evaluation.problems)})" if evaluation.problems else "Problems")
            self.setTabIcon(3, icon("mdi6.alert-circle", "#d64545") if errors else icon("mdi6.alert-outline"))
        self.engine_message = outcome.error or ""
        self._unit = unit
        if outcome.error is None and evaluation is not None:
            self.last_good = evaluation
            for index, view in enumerate(self.result_views):
                if self._draws_now(view):
                    view.set_evaluation(evaluation, unit)
                    view.set_stale(False, "")
                    self._behind.discard(index)
                else:
                    self._behind.add(index)
            self._show_design_errors(evaluation)
        else:
            for index, view in enumerate(self.result_views):
                if self._draws_now(view) or index not in self._behind:
                    view.set_stale(True, self._stale_message())

    def refresh_unit(self, unit: Any) -> None:
        """Show the last good result again in another capacity unit (``"TB"`` or ``"TiB"``)."""
        self._unit = unit
        if self.last_good is not None:
            for index, view in enumerate(self.result_views):
                if self._draws_now(view):
                    view.set_evaluation(self.last_good, unit)
                else:
                    self._behind.add(index)
