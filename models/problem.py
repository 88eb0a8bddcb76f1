"""One problem found in a design: its severity and a sentence naming what is wrong and where.

Its own module, below every engine, so that whatever finds a problem (the design's resolution in
``models.design``, the design check in ``models.problems``, the engines) reports the same record;
``models.problems`` re-exports it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a scenario.

    Attributes:
        severity: ``error`` (results would be wrong or missing) or ``warning``.
        message: a sentence naming what is wrong and where.
        node_id: the node (or link / workload) id it concerns, or ``""`` for the whole scenario.
        field: the field of that node (link, workload) whose value is wrong (e.g. ``drive_count``), so an editor
            can show the message next to it; ``""`` when no single field is to blame.
        sources: where the limits or figures the message names come from (the catalog record's citations, as
            written there: a reader shows them through ``models.present.citations.customer_citation``), kept out of
            the one-sentence message for a tooltip, the JSON and the report; ``""`` when it cites nothing.
    """

    severity: Severity
    message: str
    node_id: str = ""
    field: str = ""
    sources: str = ""
