"""Web addresses in the report as links a reader can click, broken across lines only between their parts.

reportlab's ``Paragraph`` breaks lines at spaces and splits a word wider than its column anywhere
(``docs.neta`` / ``pp.com``). An address in a table cell is therefore laid out here: the cell's text is broken
into lines of the column's width at its spaces and, inside an address, after a ``/`` (a part still too long for
a line after a ``.`` or ``-``, and only as a last resort between characters); the lines are joined by ``<br/>``
and every part of an address is an ``<a href>`` to the whole address, so each line of it is clickable.
"""

from __future__ import annotations

import functools
import re
from html import escape, unescape

from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable

from app.report.fonts import BOLD, REGULAR, text_out

LINK_COLOUR = "#1F5FA8"
"""The colour of a link's text (the report's blue)."""
_LINK_FILL = colors.HexColor(LINK_COLOUR)

_URL = re.compile(r"https?://[^\s<>\"]+"
                  r"|(?<![\w@/.:-])(?:[a-z0-9-]+\.)+(?:com|org|net|io|de|gov|edu|info|eu|uk)/[^\s<>\"]*")
"""An address: with its scheme, or a host name with a path (``docs.netapp.com/us-en/ontap/...``)."""
_TAG = re.compile(r"<[^<>]*>")
_TRAILING = ".,;:!?'"


def _address(found: str) -> str:
    """A matched address without the punctuation that ends the sentence or closes a bracket around it."""
    while found and (found[-1] in _TRAILING or (found[-1] == ")" and found.count(")") > found.count("("))):
        found = found[:-1]
    return found


def _href(markup_address: str) -> str:
    """The address as an ``href`` attribute value (markup entities resolved, ``https://`` before a bare host name,
    then quoted for the attribute)."""
    address = unescape(markup_address)
    return escape(address if "://" in address else "https://" + address, quote=True)


def _open(markup_address: str) -> str:
    return f'<a href="{_href(markup_address)}" color="{LINK_COLOUR}">'


def has_address(markup: str) -> bool:
    """True when ``markup`` holds a web address (:data:`_URL`)."""
    return ("http://" in markup or "https://" in markup or "/" in markup) and _URL.search(markup) is not None


def linked(markup: str) -> str:
    """``markup`` (reportlab paragraph markup) with every http(s) address made a link to itself, in the link colour.
    Addresses already inside an ``<a>`` element are left alone."""
    if not has_address(markup) or "<a " in markup:
        return markup
    out, last = [], 0
    for m in _URL.finditer(markup):
        address = _address(m.group(0))
        if not address.split("://", 1)[-1]:
            continue
        out += [markup[last:m.start()], _open(address), address, "</a>"]
        last = m.start() + len(address)
    out.append(markup[last:])
    return "".join(out)


def _address_parts(address: str, width: float, font: str, size: float) -> list[str]:
    """The address in the parts a line may end after: each ``/`` (the scheme stays with the host); a part wider
    than ``width`` points after each ``.`` or ``-``; a part still wider, between characters."""
    parts = re.findall(r"[^/]*/+|[^/]+", address)
    if len(parts) > 1 and parts[0].endswith("://"):
        parts[0:2] = [parts[0] + parts[1]]
    out: list[str] = []
    for part in parts:
        if stringWidth(unescape(part), font, size) <= width:
            out.append(part)
            continue
        for piece in re.findall(r"[^.-]*[.-]+|[^.-]+", part):
            while stringWidth(unescape(piece), font, size) > width and len(piece) > 1:
                cut = len(piece) - 1
                while cut > 1 and stringWidth(unescape(piece[:cut]), font, size) > width:
                    cut -= 1
                if "&" in piece[max(0, cut - 5):cut]:  # never cut inside an entity (&amp;)
                    amp = piece.rfind("&", 0, cut)
                    cut = amp if amp > 0 else cut
                out.append(piece[:cut])
                piece = piece[cut:]
            out.append(piece)
    return out


class _Atom:
    """One unit of a line: text or a tag (``width`` 0); ``brk`` says what comes before it: "space" (a space, a
    line may end there), "soft" (no space, a line may end there) or "" (glued to what comes before)."""

    __slots__ = ("brk", "markup", "url", "width")

    def __init__(self, markup: str, width: float, brk: str, url: str | None = None) -> None:
        self.markup, self.width, self.brk, self.url = markup, width, brk, url


def _atoms(markup: str, width: float, size: float) -> list[_Atom | None]:
    """``markup`` as atoms; None where the markup has a line break (``<br/>``)."""
    atoms: list[_Atom | None] = []
    bold = 0
    pending = ""  # the break before the next text atom

    def font() -> str:
        return BOLD if bold > 0 else REGULAR

    for chunk in re.split(r"(<[^<>]*>|\s+)", markup):
        if not chunk:
            continue
        if chunk.startswith("<"):
            name = chunk.strip("</> ").split(" ")[0].lower()
            if name == "br":
                atoms.append(None)
                pending = ""
                continue
            if name == "b":
                bold += -1 if chunk.startswith("</") else 1
            atoms.append(_Atom(chunk, 0.0, ""))
            continue
        if chunk.isspace():
            pending = "space" if atoms and atoms[-1] is not None else ""
            continue
        last = 0
        for m in _URL.finditer(chunk):
            address = _address(m.group(0))
            if not address.split("://", 1)[-1]:
                continue
            if m.start() > last:
                text = chunk[last:m.start()]
                atoms.append(_Atom(text, stringWidth(unescape(text), font(), size), pending))
                pending = ""
            for i, part in enumerate(_address_parts(address, width, font(), size)):
                atoms.append(_Atom(part, stringWidth(unescape(part), font(), size), pending if i == 0 else "soft",
                                   address))
                pending = ""
            last = m.start() + len(address)
        if last < len(chunk):
            text = chunk[last:]
            atoms.append(_Atom(text, stringWidth(unescape(text), font(), size), pending))
        pending = ""
    return atoms


def _render(line: list[_Atom]) -> str:
    out: list[str] = []
    current: str | None = None
    for atom in line:
        if atom.url != current and current is not None:
            out.append("</a>")
            current = None
        if atom.brk == "space":
            out.append(" ")
        if atom.url is not None and current is None:
            out.append(_open(atom.url))
            current = atom.url
        out.append(atom.markup)
    if current is not None:
        out.append("</a>")
    return "".join(out)


@functools.lru_cache(maxsize=4096)  # a report cites the same sources in many rows
def linked_lines(markup: str, width: float, size: float) -> str:
    """``markup`` (reportlab paragraph markup, regular text with ``<b>``, ``<font>``, ``<i>`` or ``<br/>``) broken
    into lines of at most ``width`` points at ``size`` points of the report's font, its http(s) addresses links
    broken only between their parts (:func:`_address_parts`); the lines joined by ``<br/>``. Markup without an
    address is returned as it is (a paragraph breaks it as before)."""
    if not has_address(markup) or "<a " in markup:
        return markup
    return "<br/>".join(_render(line) for line in _lines(markup, width, size))


@functools.lru_cache(maxsize=4096)
def plain_lines(text: str, width: float, size: float, bold: bool = False
                ) -> tuple[tuple[tuple[str, str | None], ...], ...]:
    """Plain ``text`` (no markup; in bold with ``bold``) broken as :func:`linked_lines` breaks it, each line as
    ``(text, address)`` segments: ``address`` is the link of an address's part, None for other text. For drawing
    without a paragraph (:class:`LinkedText`)."""
    out = []
    markup = escape(text, quote=False)
    for line in _lines(f"<b>{markup}</b>" if bold else markup, width, size):
        segments: list[tuple[str, str | None]] = []
        for atom in line:
            if atom.markup.startswith("<"):
                continue
            piece = (" " if atom.brk == "space" else "") + unescape(atom.markup)
            url = unescape(_href(atom.url)) if atom.url is not None else None
            if atom.brk == "space" and url is not None:
                segments.append((" ", None))
                piece = piece[1:]
            if segments and segments[-1][1] == url:
                segments[-1] = (segments[-1][0] + piece, url)
            else:
                segments.append((piece, url))
        out.append(tuple(segments))
    return tuple(out)


class LinkedText(Flowable):
    """Plain text with web addresses, in lines :func:`plain_lines` laid out, drawn as strings with a link over
    each address part: what a paragraph of :func:`linked_lines` draws, at a fraction of its cost (a large report
    cites the same addresses in hundreds of cells)."""

    def __init__(self, text: str, font: str, size: float, leading: float, colour: object) -> None:
        super().__init__()
        self.text, self.font, self.size, self.leading, self.colour = text, font, size, leading, colour
        self._lines: tuple[tuple[tuple[str, str | None], ...], ...] = ()

    def wrap(self, availWidth, availHeight):
        """Break the text into lines of at most ``availWidth`` points (addresses only after '/', '.' or '-');
        returns (width, height) in points, as reportlab's Flowable.wrap."""
        self._lines = plain_lines(self.text, availWidth, self.size, self.font == BOLD)
        self.width, self.height = availWidth, len(self._lines) * self.leading
        return self.width, self.height

    def draw(self) -> None:
        """Draw the wrapped lines on the flowable's canvas in one text object, each address part with a link to
        its whole address."""
        canv = self.canv
        canv.saveState()  # the text object's colour changes stay inside this flowable
        text = canv.beginText()
        text.setFont(self.font, self.size)
        fill = None
        y = self.height - self.size
        for line in self._lines:
            x = 0.0
            text.setTextOrigin(0.0, y)
            for segment, url in line:
                colour = _LINK_FILL if url else self.colour
                if colour is not fill:
                    text.setFillColor(colour)
                    fill = colour
                text_out(text, segment)
                w = stringWidth(segment, self.font, self.size)
                if url:
                    canv.linkURL(url, (x, y - 0.25 * self.size, x + w, y + self.size), relative=1, thickness=0)
                x += w
            y -= self.leading
        canv.drawText(text)
        canv.restoreState()


def _lines(markup: str, width: float, size: float) -> list[list[_Atom]]:
    """The atoms of ``markup`` in lines of at most ``width`` points (a little slack kept)."""
    room = width - 0.5  # a little slack: the paragraph must not break a line computed here a second time
    space = stringWidth(" ", REGULAR, size)
    lines: list[list[_Atom]] = [[]]
    used = 0.0
    atoms = _atoms(markup, room, size)
    for i, atom in enumerate(atoms):
        if atom is None:
            lines.append([])
            used = 0.0
            continue
        if atom.brk and any(a.width for a in lines[-1]):
            run = atom.width
            for nxt in atoms[i + 1:]:
                if nxt is None or nxt.brk:
                    break
                run += nxt.width
            gap = space if atom.brk == "space" else 0.0
            if used + gap + run > room:
                lines.append([])
                used = 0.0
                atom = _Atom(atom.markup, atom.width, "", atom.url)
        elif atom.brk and not lines[-1]:
            atom = _Atom(atom.markup, atom.width, "", atom.url)
        used += atom.width + (space if atom.brk == "space" else 0.0)
        lines[-1].append(atom)
    return lines
