"""What Help → StorPlan Guide says is what the product does (revhelp56 #2-5, #7-9): Effective is usable × the
data-reduction ratio (Snapshot copies apart), every performance profile kind in the words every view uses, the
sizer's ranking rule as the sizer states it, the validation's measured ramps as ``storplan validate`` counts them,
the p99 curve and SLO and the Ramp peak column by the names on screen, the Cost tab's break-even without a price
book; F1 on every result tab opens its own section, and every menu path the guide names is a menu item."""

from __future__ import annotations

import json
import re
import tomllib

import pytest
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QWidget

from app.gui import help as guide_help
from models.resources import resources_dir


@pytest.fixture(scope="module")
def guide_text(qapp) -> str:
    """The guide as a reader sees it (its plain text, white space collapsed)."""
    doc = QTextDocument()
    doc.setHtml(guide_help.guide_path().read_text(encoding="utf-8"))
    return " ".join(doc.toPlainText().split())


def test_effective_is_usable_times_data_reduction_and_snapshot_copies_are_apart(guide_text, capsys):
    """The guide's formulas against the engine's figures (aff8080-sqlserver-tpce: usable 28.00 TB × 1.6005 =
    44.82 TB effective; the total efficiency ratio 9.46 gives the logical figure including Snapshot copies)."""
    from app import cli
    from app.gui.results.capacity_view import WITH_SNAPSHOTS_CAPTION

    assert "Effective: usable × the data-reduction ratio (compression, compaction, deduplication)" in guide_text
    assert "Effective: usable × the efficiency ratio" not in guide_text
    assert f"{WITH_SNAPSHOTS_CAPTION} (the waterfall's last bar and the workbook's Summary row): usable × the " \
           "total efficiency ratio" in guide_text
    assert cli.main(["evaluate", "aff8080-sqlserver-tpce", "--json"]) == 0
    capacity = json.loads(capsys.readouterr().out)["capacity"]
    usable = capacity["usable_bytes"]
    assert capacity["effective_bytes"] == pytest.approx(usable * capacity["efficiency_ratio"], rel=1e-9)
    assert capacity["effective_with_snapshots_bytes"] == pytest.approx(
        usable * capacity["efficiency_ratio_with_snapshots"], rel=1e-9)
    assert capacity["efficiency_ratio"] == pytest.approx(1.6005, abs=5e-5)  # the data reduction, not 9.46
    assert capacity["efficiency_ratio_with_snapshots"] > 9


def test_every_profile_kind_in_the_words_every_view_uses(guide_text):
    from models.present.profile_words import PROFILE_KIND_MEANINGS, profile_kind_phrase, profile_kinds_legend

    assert len(PROFILE_KIND_MEANINGS) == 4
    for kind in PROFILE_KIND_MEANINGS:
        assert profile_kind_phrase(kind) in guide_text, kind
    assert profile_kinds_legend() in guide_text
    assert "hardware relation only (estimated from its family's calibrated systems)" in guide_text


def _first_clause(priced: bool, rank_on: str) -> str:
    from models.sizing import ranking_rule

    head, sep, _tail = ranking_rule(priced, rank_on).partition(", then the most headroom over the grown targets")
    assert sep and head.startswith("Ranked by ")
    return head.removeprefix("Ranked by ")


def test_the_sizer_ranking_rule_is_the_sizers_own(guide_text):
    """Each rule (no price book, a price book, Rank on TCO) as ``models.sizing.ranking_rule`` states it, the ending
    they share, and what "Rank on" p90 changes."""
    from models.sizing import ranking_rule

    assert f"No price book (the default): by {_first_clause(False, 'p50')}." in guide_text
    assert f"With a price book (File → Import Price Book): by {_first_clause(True, 'p50')}." in guide_text
    assert f"\"Rank on\" TCO (total cost of ownership): by {_first_clause(True, 'tco')}." in guide_text
    assert _first_clause(False, "tco") == _first_clause(True, "tco")
    assert ranking_rule(False, "p90") == ranking_rule(False, "p50")  # p90 changes the check, not the order
    ending = ranking_rule(False).partition(", then the most headroom over the grown targets")[2]
    assert f"Each rule ends the same way: then the most headroom over the grown targets{ending}." in guide_text
    assert "\"Rank on\" p90: the rule above that applies" in guide_text and "P10 max IOPS" in guide_text


RAMP_WORDS = {
    "specstorage2020-swbuild-a900-2node": "AFF A900",
    "specstorage2020-eda-a90-8node": "AFF A90",
    "specsfs2008-fas3140-sata-pam": "SPECsfs2008 FAS3140 ramp",
    "specstorage2020-eda-anf-large-volume": "SPECstorage 2020 EDA ramp of an Azure NetApp Files large volume",
}
"""Each public measured ramp ``storplan validate`` replays -> how the guide names it."""


def test_the_validation_section_names_every_ramp_validate_counts(guide_text):
    ramps = tomllib.loads((resources_dir() / "validation" / "ramps.toml").read_text(encoding="utf-8"))
    ids = {ramp["id"] for ramp in next(v for v in ramps.values() if isinstance(v, list))}
    assert ids == set(RAMP_WORDS)  # a ramp added to validate is named in the guide too
    for words in RAMP_WORDS.values():
        assert words in guide_text, words
    assert "counted in the headline" in guide_text and "outside the pass count" not in guide_text
    assert "published cases and measured ramps together" in guide_text
    cli_source = (resources_dir().parent / "app" / "cli.py").read_text(encoding="utf-8")
    assert "counted in the headline below" in cli_source  # what `storplan validate` prints over the ramps


def test_p99_and_ramp_peak_by_the_names_on_screen(guide_text):
    from app.gui.labels import CHOICE_LABELS, LABELS
    from app.gui.results.performance_view import PerformanceView

    assert "Ramp peak" in PerformanceView.SUMMARY_COLUMNS
    assert "Ramp peak (summary table): the IOPS and storage latency at the end of the closed ramp" in guide_text
    assert f"the requirements' {LABELS['slo_statistic']} (Scenario → Size from Requirements)" in guide_text
    assert "the mean latency (the default) or its 99th percentile (p99)" in guide_text
    assert CHOICE_LABELS["p99"] == "99th percentile (p99)" and CHOICE_LABELS["mean"] == "mean latency"
    assert "p99 curve: the lighter solid line" in guide_text and "\"1 ms p99 SLO\"" in guide_text


def test_cost_break_even_with_and_without_a_price_book(guide_text):
    cost_source = (resources_dir().parent / "app" / "gui" / "results" / "cost_view.py").read_text(encoding="utf-8")
    assert '"This design breaks even if its"' in cost_source  # the column's header without a price book
    assert "with a price book (File → Import Price Book) the month it does; without one, the highest hardware " \
           "price at which it still breaks even over the horizon (\"This design breaks even if its hardware ≤ …\")" \
           in guide_text
    assert "(its hardware needs a price book)" not in guide_text


def test_f1_on_every_result_tab_opens_its_own_section(qtbot, example_window):
    """Cost and carbon, Protection and Compare opened the top of the guide (no section)."""
    win = example_window
    results = win.results
    html = guide_help.guide_path().read_text(encoding="utf-8")
    for page, view_name, section in ((results.cost_tab, "cost_view", "cost"),
                                     (results.protection_tab, "protection_view", "protection")):
        assert guide_help.section_for(page) == section  # before its view is built
        results.setCurrentWidget(page)
        qtbot.waitUntil(lambda view_name=view_name: getattr(results, view_name) is not None, timeout=10_000)
        view = getattr(results, view_name)
        assert guide_help.section_for(view) == section
        inner = view.findChildren(QWidget)
        assert inner and all(guide_help.section_for(child) == section for child in inner)  # focus anywhere in it
        assert f'name="{section}"' in html
    compare = results.compare_view_class()()
    qtbot.addWidget(compare)
    assert guide_help.section_for(compare) == "scenarios"
    for section in ("protection", "scenarios", "importing", "hardware"):
        assert f'name="{section}"' in html and f'href="#{section}"' in html
    for section in set(guide_help.PAGE_SECTIONS.values()) | set(guide_help.PANEL_SECTIONS.values()):
        assert f'name="{section}"' in html, section


def _menu_paths(win) -> dict[str, set[str]]:
    """Top menu (its words) -> every path under it as the guide writes it ("Export → Report (PDF)",
    "Import Price Book"): the ampersands, ellipses and shortcuts dropped."""

    def words(text: str) -> str:
        return text.replace("&", "").removesuffix("…").strip()

    def walk(menu, prefix: str, out: set[str]) -> None:
        for action in menu.actions():
            if action.isSeparator():
                continue
            path = prefix + words(action.text())
            out.add(path)
            if action.menu() is not None:
                walk(action.menu(), path + " → ", out)

    paths: dict[str, set[str]] = {}
    for action in win.menuBar().actions():
        out: set[str] = set()
        if action.menu() is not None:
            walk(action.menu(), "", out)
        paths[words(action.text())] = out
    return paths


def test_every_menu_item_the_guide_names_exists(qtbot, example_window, guide_text):
    """Each "Menu → Item" the guide names (File → Import Environment…, Tools → Catalog Browser…, Scenario →
    Duplicate Scenario, ...) is an item of that menu; the items the guide must cover are all named."""
    win = example_window
    paths = _menu_paths(win)
    claims = re.findall(r"\b(File|Edit|View|Scenario|Tools|Help) → ((?:[A-Z][\w/()]*(?: [\w/()]+)*)(?: → "
                        r"[A-Z][\w/()]*(?: [\w/()]+)*)?)", guide_text)
    assert len(claims) >= 12, claims
    for menu, rest in claims:
        assert menu in paths, menu
        assert any(rest.startswith(path) for path in paths[menu]), (menu, rest, sorted(paths[menu]))
    for menu, item in (("File", "Import Environment"), ("File", "Import Price Book"), ("Tools", "Catalog Browser"),
                       ("Tools", "New / Duplicate Hardware"), ("Tools", "Calibrate from Lab Data"),
                       ("Scenario", "Duplicate Scenario"), ("Scenario", "Compare Scenarios"),
                       ("Scenario", "Size from Requirements"), ("View", "Presentation Mode"), ("View", "Theme")):
        assert item in paths[menu], (menu, item)
        assert f"{menu} → {item}" in guide_text, (menu, item)
