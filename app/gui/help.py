"""Help → StorPlan Guide (F1) and Help → About StorPlan.

The guide is bundled HTML (``resources/help/guide.html``) shown in a ``QTextBrowser``; F1 opens it at the section of
the panel that has the keyboard focus (:data:`PANEL_SECTIONS`). The About box names the app and catalog versions
and the licences of the libraries and fonts the app bundles, read from the installed packages' metadata.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, QUrl
from PySide6.QtWidgets import QApplication, QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from app.gui.screen_fit import fit_to_screen
from models.resources import resources_dir

PANEL_SECTIONS = {
    "TopologyView": "canvas",
    "Inspector": "inspector",
    "WorkloadsPanel": "workloads",
    "PaletteWidget": "catalog",
    "CapacityView": "capacity",
    "PerformanceView": "performance",
    "ValidationView": "validation",
    "ProblemsList": "problems",
    "CalibrationDialog": "calibration",
    "SizerDialog": "sizer",
    "CostView": "cost",
    "ProtectionView": "protection",
    "CompareView": "scenarios",
    "ImportWizard": "importing",
    "CatalogBrowser": "hardware",
    "HardwareEditor": "hardware",
}
"""Widget class name -> the guide's section for it (F1 walks up from the focused widget to the first match)."""

PAGE_SECTIONS = {"costTab": "cost", "protectionTab": "protection"}
"""Object name -> the guide's section, for the result tabs whose page stands in for a view built when first shown."""

BUNDLED = (("PySide6-Essentials", "Qt for Python (Qt 6 and its bindings)"), ("shiboken6", "Qt for Python's bindings"),
           ("pyqtgraph", "charts"), ("numpy", "arrays"), ("scipy", "fitting"), ("pydantic", "file validation"),
           ("reportlab", "PDF report"), ("openpyxl", "workbook export"), ("qtawesome", "icons"))
"""(distribution, what StorPlan uses it for) listed in the About box: what the app loads and the frozen bundle
ships (test-only libraries such as pypdf are not bundled). PySide6 is installed as its ``PySide6-Essentials``
distribution (pyproject.toml), so that is the name its metadata is read under."""

FONTS = "DejaVu Sans (Bitstream Vera / DejaVu fonts licence, free to bundle; resources/fonts/LICENSE)"
"""The bundled fonts' family and licence (the files are listed from resources/fonts)."""


def fonts_text() -> str:
    """The bundled fonts: :data:`FONTS` and the font files found in resources/fonts (the report embeds them)."""
    files = sorted(p.name for p in (resources_dir() / "fonts").glob("*.ttf"))
    return f"{FONTS}: {', '.join(files)}" if files else FONTS


def guide_path():
    """The bundled guide's file."""
    return resources_dir() / "help" / "guide.html"


def section_for(widget: QWidget | None) -> str:
    """The guide section for ``widget`` or its nearest ancestor in :data:`PANEL_SECTIONS` ("" for the top)."""
    while widget is not None:
        for cls in type(widget).__mro__:
            if cls.__name__ in PANEL_SECTIONS:
                return PANEL_SECTIONS[cls.__name__]
        if widget.objectName() in PAGE_SECTIONS:
            return PAGE_SECTIONS[widget.objectName()]
        widget = widget.parentWidget()
    return ""


class GuideDialog(QDialog):
    """The guide in a browser window; :meth:`show_section` scrolls to a section."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("StorPlan Guide")
        fit_to_screen(self, QSize(760, 640))
        self.browser = QTextBrowser(self)
        self.browser.setOpenExternalLinks(True)
        QVBoxLayout(self).addWidget(self.browser)
        self.browser.setSource(QUrl.fromLocalFile(str(guide_path())))

    def show_section(self, section: str) -> None:
        """Show the guide at ``section`` (an anchor of the page; "" for its top)."""
        url = QUrl.fromLocalFile(str(guide_path()))
        if section:
            url.setFragment(section)
        self.browser.setSource(url)
        if section:
            self.browser.scrollToAnchor(section)
        self.show()
        self.raise_()


def licence_of(distribution: str) -> tuple[str, str]:
    """(version, licence) of an installed distribution from its metadata ("not installed" when absent)."""
    from importlib.metadata import PackageNotFoundError, metadata  # the About box only: not at start-up

    try:
        meta = metadata(distribution)
    except PackageNotFoundError:
        return "not installed", ""
    licence = meta.get("License-Expression") or meta.get("License") or ""
    if not licence or len(licence) > 60:
        classifiers = [c.split(" :: ")[-1] for c in meta.get_all("Classifier") or [] if c.startswith("License ::")]
        licence = ", ".join(classifiers) or (licence.splitlines()[0][:60] if licence else "see its metadata")
    return meta.get("Version", "?"), licence


def about_text(app_version: str, catalog_version: str) -> str:
    """The About box's rich text: versions, then each bundled library with its licence, then the fonts."""
    rows = "".join(f"<tr><td>{name}</td><td>{licence_of(name)[0]}</td><td>{licence_of(name)[1]}</td>"
                   f"<td>{use}</td></tr>" for name, use in BUNDLED)
    return (f"<h3>StorPlan {app_version}</h3><p>Offline storage capacity and performance planner.<br>"
            f"Hardware catalog {catalog_version}.</p>"
            f"<p><b>Bundled libraries</b></p><table cellspacing='4'>"
            f"<tr><th align='left'>Library</th><th align='left'>Version</th><th align='left'>Licence</th>"
            f"<th align='left'>Used for</th></tr>{rows}</table><p><b>Fonts</b>: {fonts_text()}</p>")


class AboutDialog(QDialog):
    """The About window: versions, the hardware catalog's edition, bundled libraries with their licences and the
    fonts, in a browser that scrolls (the library table is taller than a 200% screen allows a message box)."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("About StorPlan")
        self.browser = QTextBrowser(self)
        self.browser.setOpenExternalLinks(True)
        self.browser.setHtml(text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)
        fit_to_screen(self, QSize(620, 560))

    def text(self) -> str:
        """The text shown (HTML), as a message box's ``text()``."""
        return self.browser.toHtml()


def show_about(parent: QWidget) -> AboutDialog:
    """Open the About window (non-modal) and return it."""
    version_file = resources_dir() / "catalog" / "VERSION"
    catalog_version = version_file.read_text().strip() if version_file.exists() else "unknown"
    box = AboutDialog(about_text(licence_of("storplan")[0], catalog_version), parent)
    box.open()
    return box


def focused_section() -> str:
    """The guide section of the widget that has the keyboard focus."""
    return section_for(QApplication.focusWidget())
