"""Short utilisation-axis labels for queueing stations whose full names do not fit: the name is shortened, its
figures never are.

A station's name ends, when it is a limit, with its figures in parentheses: "VM EBS IOPS limit (AWS EC2 m5.4xlarge:
18,750 IOPS EBS-optimized baseline)", "AWS EBS gp3 2 TiB (baseline 3,000 IOPS, 125 MiB/s) IOPS limit (6 disks x
3,000 IOPS)". A label too wide for the axis keeps those figures whole ("18,750 IOPS", "6 disks x 3,000 IOPS") and
shortens only the words before them: their own parenthetical details and a closing "limit" go first, then they are
elided at the end at a word boundary ("VM network…", not "VM netwo…"; the title's tooltip and the axis's name them
whole).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics

MIN_HEAD_CHARS = 12
"""The least room, in average characters, the words before the figures keep (about "VM netwo…"): the label
may then exceed the limit; the figures are never cut."""


ELLIPSIS = "\u2026"
TRAILING_WORDS = frozenset({"a", "and", "at", "by", "for", "in", "of", "on", "or", "per", "the", "to", "with", "x"})
"""Words a shortened label does not end on ("node 1 back-end lanes shared by…" ends "lanes shared…")."""


def elide_words(text: str, metrics: QFontMetrics, limit_px: int, min_words: int = 1) -> str:
    """``text`` cut at a word boundary with "…" so it fits ``limit_px`` ("VM network…", never "VM netwo…"), without
    a trailing connective (:data:`TRAILING_WORDS`); at least its first ``min_words`` words even when they exceed
    the limit. A first word alone wider than the limit is cut inside it (nothing else fits)."""
    if metrics.horizontalAdvance(text) <= limit_px:
        return text
    words = text.split()
    for n in range(len(words) - 1, 0, -1):
        head = words[:n]
        while len(head) > 1 and head[-1].lower() in TRAILING_WORDS:
            head = head[:-1]
        candidate = " ".join(head).rstrip(",;:") + ELLIPSIS
        if metrics.horizontalAdvance(candidate) <= limit_px or n <= min_words:
            return candidate
    return metrics.elidedText(text, Qt.TextElideMode.ElideRight, limit_px)


def _last_group(name: str) -> tuple[str, str] | None:
    """(text before, text inside) of the balanced parenthetical that ends ``name``; None when it ends otherwise."""
    text = name.rstrip()
    if not text.endswith(")"):
        return None
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        if text[i] == ")":
            depth += 1
        elif text[i] == "(":
            depth -= 1
            if depth == 0:
                return text[:i].rstrip(), text[i + 1:-1]
    return None


def _without_groups(text: str) -> str:
    """``text`` with every (balanced) parenthetical removed and its spaces collapsed."""
    out, depth = [], 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
    return " ".join("".join(out).split())


def station_figures(name: str) -> tuple[str, str] | None:
    """(head, figures) of a station name ending in a parenthetical with a number: the figures are that
    parenthetical's text after its last ": ", up to the word after its last number ("18,750 IOPS EBS-optimized
    baseline" gives "18,750 IOPS"). None when the name ends in no figures ("SSDs (node 1)" has figures "node 1")."""
    group = _last_group(name)
    if group is None:
        return None
    head, inside = group
    tail = inside.rsplit(": ", 1)[-1]
    words = tail.split()
    numbered = [i for i, word in enumerate(words) if any(ch.isdigit() for ch in word)]
    if not head or not numbered:
        return None
    return head, " ".join(words[:numbered[-1] + 2])


def station_label(name: str, metrics: QFontMetrics, limit_px: int) -> str:
    """``name`` as it fits ``limit_px`` at ``metrics``: whole when it fits; else its head shortened (its own
    parentheticals dropped, then elided at the end) before its figures in parentheses, kept whole; a name without
    figures loses its parentheticals, then is elided at the end."""
    if metrics.horizontalAdvance(name) <= limit_px:
        return name
    split = station_figures(name)
    if split is None:  # "vSAN storage pools (software path)": the words outside parentheses first
        return elide_words(_without_groups(name) or name, metrics, limit_px)
    head, figures = split
    tail = f" ({figures})"
    room = max(MIN_HEAD_CHARS * metrics.averageCharWidth(), limit_px - metrics.horizontalAdvance(tail))
    short = _without_groups(head) or head
    if short.endswith(" limit") and metrics.horizontalAdvance(short) > room:  # the figures say it is a limit
        short = short[:-len(" limit")]
    # at least two words before the figures ("VM network… (5,000 Mbit/s)", not "VM… (5,000 Mbit/s)")
    return elide_words(short, metrics, room, min_words=2) + tail
