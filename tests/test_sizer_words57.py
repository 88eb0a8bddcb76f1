"""The sizer's words and order explanations (review 57, rev2size57 items 2-8): what a row's performance rests on
(an estimate, no profile of its own for the protocol, a pessimistic case below the target), the ranking rule's
default deployment order, its deciding key among designs equal on every other, its assumed core counts, the short
rule under the price-book button and a max IOPS at the SLO printed at the bound it reaches."""

from __future__ import annotations

import pytest

from models.resources import examples_dir

EXAMPLE = examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml"


def _project_350k():
    """The reviewer's '350K' case: the NVMe/TCP example at a 350,000 IOPS target with no growth."""
    from models.project.textformat import loads

    text = EXAMPLE.read_text(encoding="utf-8")
    assert "target_iops = 250_000.0" in text and "iops_growth_pct_per_year = 30.0" in text
    text = (text.replace("target_iops = 250_000.0", "target_iops = 350_000.0")
            .replace("growth_pct_per_year = 30.0", "growth_pct_per_year = 0.0"))
    return loads(text)


@pytest.fixture(scope="module")
def searched():
    from models.design import resolved_catalog
    from models.sizing import size

    project = _project_350k()
    catalog = resolved_catalog(project, None)
    return project, catalog, size(project, top=5, catalog=catalog)


def test_the_rule_names_the_default_order_the_deciding_key_and_assumed_cores():
    from models.sizing import ranking_rule

    for priced in (False, True):
        rule = ranking_rule(priced)
        assert "where the maker publishes no core count the count is assumed" in rule  # item 6
        assert "the smaller design comes first (the fewest drives or capacity devices" in rule  # item 5b
    assert "(on premises, then HCI, then the cloud where they list none)" in ranking_rule(False)  # item 5a


def test_the_short_rule_under_the_price_book_button_has_every_step_of_the_full_one():
    from models.sizing import ranking_rule, ranking_steps

    for priced, rank_on in ((False, "performance"), (True, "performance"), (False, "tco")):
        full, short = ranking_rule(priced, rank_on), ranking_steps(priced, rank_on)
        assert ("published prices" in full) == ("published prices" in short), (priced, rank_on)
        assert "smaller controller" in short and "headroom" in short and "rack units" in short
    assert "in the cloud the total cost at the providers' published prices" in ranking_steps(False)  # item 4


def test_a_figure_at_its_bound_is_printed_at_the_bound():
    from models.sizing import exact_bound

    assert exact_bound(1199999.2332584332, 1_200_000.0) == 1_200_000.0  # within 1e-6 of the bound: the bound
    assert exact_bound(799999.9999999999, None) == 800_000.0  # floating-point noise
    assert exact_bound(2_398_927.4, 2_400_000.0) == 2_398_927.4  # 4.5e-4 below: the SLO binds, not the bound
    assert exact_bound(1598371.464584345, 1_600_000.0) == 1598371.464584345
    assert exact_bound(None, 5.0) is None


def test_the_350k_rows_say_they_are_estimates_and_that_the_pessimistic_case_misses(searched):
    from models.formatting import fmt_iops
    from models.performance.engine import evaluate_performance

    project, catalog, result = searched
    first = result.candidates[0]
    assert "AFF A30" in first.summary and first.meets
    assert first.max_iops_at_slo == 800_000.0  # not 799999.9999999999
    assert "estimate: no published measurement of this model" in first.basis
    assert "no profile of its own for NVMe/TCP" in first.basis  # item 3's words
    # the P10 edge as storplan evaluate computes it for the same design (its caution's figure)
    wp = evaluate_performance(first.scenario, catalog).workloads[0]
    assert wp.max_iops_at_slo_band_p10 < 350_000
    assert (f"meets on expected figures; the pessimistic case (P10) reaches {fmt_iops(wp.max_iops_at_slo_band_p10)} "
            "IOPS, below the 350K IOPS target") in first.basis
    a50 = next(c for c in result.candidates if "AFF A50" in c.summary)
    assert a50.max_iops_at_slo == 1_200_000.0  # not 1,199,999
    assert "pessimistic case" not in a50.basis  # its P10 reaches the target
    from models.sizing import basis_note

    assert "no published measurement of that model" in basis_note(result.candidates)


def test_the_command_line_prints_the_basis_once_and_in_the_row(searched, capsys, tmp_path):
    from app.cli import main
    from models.project.textformat import dumps

    path = tmp_path / "350k.toml"
    path.write_text(dumps(_project_350k()), encoding="utf-8")
    assert main(["size", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("Basis: ") == 1
    assert "      performance: estimate: no published measurement of this model" in out
    assert "the pessimistic case (P10) reaches" in out
    assert "799999.99" not in out and "1,199,999" not in out


def test_the_design_s_own_vm_type_ranked_with_other_disks_says_the_disks_make_the_difference():
    """cvo-azure-ds4-ha-oltp (item 11): the design (DS4_v2 HA pair, 6 x P30 per node) costs 169,311 USD in Cost and
    footprint, the ranked DS4_v2 HA pair with 2 x P30 per node 130,383 USD: the difference is 8 P30 disks over 36
    months at 0.132 USD per GiB-month (the catalog's Azure Premium SSD price), not the VM or the licence."""
    from app.gui.sizer_dialog import size_and_relate_job
    from models.project.textformat import load

    class _State:
        def set_progress(self, *_): ...

        def is_interruption_requested(self) -> bool:
            return False

    _result, lines, why = size_and_relate_job(_State(), load(examples_dir() / "cvo-azure-ds4-ha-oltp.toml"), 10)
    assert not why
    said = [line for line in lines if "own VM type and licence with other disks" in line]
    assert len(said) == 1, lines
    assert "2 x Azure Premium SSD P30" in said[0] and "this design's 6 x Azure Premium SSD P30" in said[0]
    assert "costs 130,383 USD" in said[0] and "against 169,311 USD for this design" in said[0]
    assert round(169_311.168 - 8 * 1024 * 0.132 * 36) == 130_383  # the 8 disks more make the whole difference


def test_the_row_s_basis_words_are_the_profile_kinds_words_every_view_says():
    from models.present.profile_words import PROFILE_KIND_MEANINGS
    from models.sizing import BASIS_MEANINGS

    assert {k: PROFILE_KIND_MEANINGS[k] for k in BASIS_MEANINGS} == BASIS_MEANINGS
