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
    """

    severity: Severity
    message: str
    node_id: str = ""
    field: str = ""
