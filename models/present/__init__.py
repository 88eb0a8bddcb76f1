"""The presentation layer: everything a person reads that is derived from StorPlan's results.

Qt-free and headless. The GUI's result views and the PDF report only lay out what these functions return, so the
screen and the paper say the same things in the same words:

- :mod:`.waterfall`: the capacity waterfall's bars (kinds, where "Usable" goes);
- :mod:`.verdicts`: meets / does not meet, cautions, and the headline;
- :mod:`.comparison`: scenario comparison rows;
- :mod:`.summary`: the status bar's digest;
- :mod:`.labels`, :mod:`.nodes`: names of RAID levels, vSAN policies, link types and nodes, and node figures;
- :mod:`.bom`: the bill of materials grouped by model;
- :mod:`.validation`: how a validation check reads (published, predicted, error, tolerance); imported on its own
  (``models.present.validation``) so that importing this package does not load the validation cases.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from models.lazy import lazy_exports

if TYPE_CHECKING:  # the names this package offers, for the type checker; at run time each loads on first use
    from models.present.bom import BomRow, bill_of_materials
    from models.present.comparison import ComparisonRow, comparison_rows, yes_no
    from models.present.labels import (
        POLICY_LABEL,
        RAID_LABEL,
        link_label,
        link_name,
        link_tag,
        link_type_label,
        node_name,
        node_names,
        policy_label,
        raid_label,
    )
    from models.present.nodes import drive_size, model_name, node_figures
    from models.present.summary import (
        NO_PROFILE_WORDS,
        PROFILE_KIND_WORDS,
        STATUS_CAPTIONS,
        profile_kind_text,
        profiles_text,
        status_summary,
    )
    from models.present.verdicts import (
        BottleneckSentence,
        Headline,
        Verdict,
        bottleneck_sentence,
        capacity_fits,
        capacity_verdicts,
        evaluation_verdict,
        headline,
        target_cell,
        target_text,
        verdicts,
        workload_verdicts,
    )
    from models.present.waterfall import (
        WaterfallBar,
        build_waterfall,
        same_bytes,
        scenario_waterfall,
        step_kind,
        system_waterfall,
    )

_EXPORTS: dict[str, str] = {
    # bom
    "BomRow": "bom",
    "bill_of_materials": "bom",
    # comparison
    "ComparisonRow": "comparison",
    "comparison_rows": "comparison",
    "yes_no": "comparison",
    # labels
    "POLICY_LABEL": "labels",
    "RAID_LABEL": "labels",
    "link_label": "labels",
    "link_name": "labels",
    "link_tag": "labels",
    "link_type_label": "labels",
    "node_name": "labels",
    "node_names": "labels",
    "policy_label": "labels",
    "raid_label": "labels",
    # nodes
    "drive_size": "nodes",
    "model_name": "nodes",
    "node_figures": "nodes",
    # summary
    "NO_PROFILE_WORDS": "summary",
    "PROFILE_KIND_WORDS": "summary",
    "STATUS_CAPTIONS": "summary",
    "profile_kind_text": "summary",
    "profiles_text": "summary",
    "status_summary": "summary",
    # verdicts
    "BottleneckSentence": "verdicts",
    "Headline": "verdicts",
    "Verdict": "verdicts",
    "bottleneck_sentence": "verdicts",
    "capacity_fits": "verdicts",
    "capacity_verdicts": "verdicts",
    "evaluation_verdict": "verdicts",
    "headline": "verdicts",
    "target_cell": "verdicts",
    "target_text": "verdicts",
    "verdicts": "verdicts",
    "workload_verdicts": "verdicts",
    # waterfall
    "WaterfallBar": "waterfall",
    "build_waterfall": "waterfall",
    "same_bytes": "waterfall",
    "scenario_waterfall": "waterfall",
    "step_kind": "waterfall",
    "system_waterfall": "waterfall",
}
"""Each name this package offers -> the module of this package it comes from. Importing the package loads only
:mod:`.verdicts` (below); ``from models.present import X`` (or ``models.present.X``) loads X's module when first
asked (:func:`__getattr__`), so a command or the first window that needs a few of these modules does not import them
all.
"""

# The function ``verdicts`` shares its name with its module: bound here, after the module is imported, the package's
# ``verdicts`` is the function (as when every name was imported eagerly), never the module.
from models.present.verdicts import (  # noqa: E402
    BottleneckSentence,
    Headline,
    Verdict,
    bottleneck_sentence,
    capacity_fits,
    capacity_verdicts,
    evaluation_verdict,
    headline,
    target_cell,
    target_text,
    verdicts,
    workload_verdicts,
)

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)


__all__ = [
    "NO_PROFILE_WORDS", "POLICY_LABEL", "PROFILE_KIND_WORDS", "RAID_LABEL", "STATUS_CAPTIONS",
    "BomRow", "BottleneckSentence", "ComparisonRow", "Headline",
    "Verdict", "WaterfallBar", "bill_of_materials", "bottleneck_sentence", "build_waterfall", "capacity_fits",
    "capacity_verdicts", "comparison_rows", "drive_size", "evaluation_verdict",
    "headline", "link_label", "link_tag", "link_name", "link_type_label", "model_name", "node_figures", "node_name",
    "node_names", "policy_label",
    "profile_kind_text", "profiles_text", "raid_label", "same_bytes", "scenario_waterfall", "status_summary",
    "step_kind", "system_waterfall", "target_cell", "target_text", "verdicts", "workload_verdicts", "yes_no",
]
