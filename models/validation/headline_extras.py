"""What ``storplan validate``'s headline adds to the seed cases' and ramps' counts, computed once for every place
that shows the headline (the command line, the report's Model validation section, the GUI Validation tab): the
leave-one-platform-out summaries held to the out-of-sample targets, and the band coverage measured on every
out-of-sample point (the cases' and ramps' leave-one-out points and the platforms left out).

A list of outcomes that carries them is a :class:`BundledOutcomes` (a plain list with an ``extras`` attribute), so
a view handed the bundled run shows the same headline as the command line, and a view handed other outcomes (a
test's) shows theirs alone.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from models.catalog import Catalog
from models.validation.band_coverage import coverage_lines, holdout_points, write_table
from models.validation.cross_validation import CrossValidation
from models.validation.platform_holdout import (
    HoldoutCheck,
    compute_platform_holdout,
    holdout_line,
    holdout_of,
    holdout_targets,
    platform_holdout,
    write_platform_holdout,
)
from models.validation.runner import CaseOutcome
from models.validation.summary import Headline, TargetLine, headline


@dataclass(frozen=True)
class HeadlineExtras:
    """The headline's additions: ``targets`` (the platforms-left-out summaries, :class:`TargetLine`), ``lines``
    (the band coverage lines, printed among the out-of-sample ones) and ``holdout`` (the leave-one-platform-out
    line ``storplan validate`` prints after the ramps)."""

    targets: tuple[TargetLine, ...]
    lines: tuple[str, ...]
    holdout: str


def headline_extras(cv: CrossValidation | None) -> HeadlineExtras:
    """The additions for the bundled catalog and the stored (or recomputed) cross-validation ``cv`` (None: no
    leave-one-out results; the coverage line says so). Replays the published cases once per calibrated platform
    (about 2 s)."""
    held = platform_holdout()
    return HeadlineExtras(holdout_targets(held), tuple(coverage_lines(cv, holdout_points(held))),
                          holdout_line(checks=held))


class BundledOutcomes(list):
    """The bundled validation run: its outcomes (a list of ``CaseOutcome``) and :attr:`extras`."""

    def __init__(self, outcomes: Iterable[CaseOutcome], extras: HeadlineExtras | None) -> None:
        super().__init__(outcomes)
        self.extras = extras


def full_headline(outcomes: Sequence[CaseOutcome]) -> tuple[Headline, tuple[str, ...]]:
    """The headline of ``outcomes`` with their extras when they carry them (:class:`BundledOutcomes`), and the
    lines to print among the out-of-sample ones, indented under them like the target lines (empty without
    extras)."""
    head = headline(outcomes)
    extras = getattr(outcomes, "extras", None)
    if extras is None:
        return head, ()
    return dataclasses.replace(head, targets=head.targets + extras.targets), tuple(f"  {line}" for line in extras.lines)


def write_discrepancy_table(cv: CrossValidation, catalog: Catalog | None = None,
                            checks: Sequence[HoldoutCheck] | None = None) -> str:
    """Estimate the bands' model-discrepancy table from ``cv``'s leave-one-out points and the platforms left out
    (each calibrated platform of ``catalog``, default the bundled one, on the hardware relation from the others;
    ``checks``: their :func:`platform_holdout`, when already computed) and write it beside the cross-validation
    results. Returns the path written, as text.

    Raises:
        ValueError: too few points; OSError: cannot write."""
    checks = platform_holdout(catalog) if checks is None else checks
    return str(write_table(cv, extra=holdout_points(checks)))


def write_validation_tables(cv: CrossValidation, catalog: Catalog) -> list[str]:
    """``storplan calibrate --write``'s last step: the platforms left out of ``catalog`` (the catalog just
    written) computed afresh and stored (``resources/validation/platform_holdout.toml``, read back by
    :func:`platform_holdout` while its digests match), then the bands' model-discrepancy table from ``cv`` and
    them (:func:`write_discrepancy_table`). Returns the paths written, as text.

    Raises:
        ValueError: too few points; OSError: cannot write."""
    checks = compute_platform_holdout(catalog)
    return [str(write_platform_holdout(holdout_of(catalog, checks))), write_discrepancy_table(cv, catalog, checks)]
