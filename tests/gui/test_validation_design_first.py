"""The Validation tab's words add up and lead with the design shown (GUI review r1 #8): the summary's counts are
the table's (passes + fails = checks, the fails split as the category lines below count them), and the checks of
the design's own models, then of its family, come first (an A70 opened on AFF8080 / SPECsfs2008 misses)."""

from __future__ import annotations

import re

from models.evaluate import evaluate
from models.resources import examples_dir
from models.store import load_any


def _view(qtbot, example: str):
    from app.gui.results import ValidationView

    view = ValidationView()
    qtbot.addWidget(view)
    view.resize(1300, 700)
    view.set_evaluation(evaluate(load_any(examples_dir() / example)))
    view.show()
    qtbot.waitUntil(lambda: not view.running and view.model.rowCount() > 0, timeout=120_000)
    return view


def _case_text(view, row: int) -> str:
    from app.gui.results.validation_view import case_words

    outcome, check = view.row_at(row)
    seed = (check.seed if check is not None else "") or outcome.seed
    return f"{case_words(outcome.case_id, seed)} {seed} {outcome.case_id}".lower()


def test_the_summary_counts_add_up_with_the_category_lines(qtbot):
    view = _view(qtbot, "aff-a70-ns224-oracle-nvmetcp.toml")
    summary = view.summary.text()
    found = re.match(r"Model accuracy: (\d+) of (\d+) table checks pass, (\d+) fail \((\d+) in-sample, (\d+) "
                     r"predictions\)", summary)
    assert found, summary
    passed, total, failing, in_sample, predictions = map(int, found.groups())
    assert passed + failing == total and in_sample + predictions == failing
    lines = view.error_summary.text().splitlines()

    def misses(title: str) -> int:
        line = next(line for line in lines if line.startswith(title))
        ok, of = map(int, re.search(r": (\d+) of (\d+) pass", line).groups())
        return of - ok

    assert misses("In-sample (") == in_sample and misses("Never-fitted predictions") == predictions
    assert "listed first" not in summary  # no count the lines above cannot explain


def test_an_a800_design_lists_its_own_checks_first_then_ontap(qtbot):
    view = _view(qtbot, "a800-oracle-slob-fcp.toml")
    texts = [_case_text(view, row) for row in range(view.model.rowCount())]
    own = [bool(re.search(r"(?<![a-z0-9])a800(?![a-z0-9])", text)) for text in texts]
    assert any(own) and not any(own[own.index(False):])  # every A800 check before any other
    first_other = own.index(False)
    results = [view.model.item(row, 5).text() for row in range(first_other)]
    assert results == sorted(results, key=lambda r: r == "pass")  # failures first within them
    assert view.meaning.text().endswith("The table lists the ONTAP checks first.")


def test_an_e_series_design_lists_the_e_series_checks_before_ontap_misses(qtbot):
    view = _view(qtbot, "ef600-nvme-ddp-oltp-nvmefc.toml")
    texts = [_case_text(view, row) for row in range(view.model.rowCount())]
    family = [bool(re.search(r"(?<![a-z])(ef5|ef6|e-series|santricity)", text)) for text in texts]
    assert any(family) and not any(family[family.index(False):])
    assert "aff8080" not in texts[0]
