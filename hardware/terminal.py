"""The bead frame drawn in a terminal: the demo's case-keeper and the status command's view.

Each rank is a wire of four beads. A bead slides left as a card of the rank goes and shows
how it went (``|`` won, ``0`` lost, ``•`` soda, ``–`` hock, ``X`` split); beads still on
the right are cards left in the box.

>>> from casekeeper import Case
>>> print(render_case(Case.empty()).splitlines()[1])
  A ├─ ─ ─ ─ ────── ● ● ● ●┤
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, TextIO

from shoe.cards import Rank

if TYPE_CHECKING:
    from casekeeper import Case, Mark

__all__ = ["TerminalCase", "render_case", "wants_colour"]

_RESET = "\x1b[0m"
_STYLE = {"|": "\x1b[32m", "0": "\x1b[31m", "X": "\x1b[33;1m", "•": "\x1b[2m", "–": "\x1b[2m"}
_BLINK = "\x1b[7;1m"  # reverse video: a terminal's blink attribute is often switched off
_DIM = "\x1b[2m"
_CLEAR = "\x1b[H\x1b[2J"


def wants_colour(stream: TextIO) -> bool:
    """ANSI colour for a terminal, unless ``NO_COLOR`` is set; plain for files and pipes."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _bead(mark: Mark, colour: bool) -> str:
    text = mark.value
    return f"{_STYLE[text]}{text}{_RESET}" if colour else text


def render_case(case: Case, *, colour: bool = False) -> str:
    """The whole frame as text: a header, one line per rank (ace first), the call if open."""
    lines = [f"  faro case · {case.cards_left} cards left"]
    for rank in Rank:
        marks = case.marks(rank)
        gone = len(marks)
        left = " ".join([_bead(m, colour) for m in marks] + ["─"] * (4 - gone))
        right = " ".join(["─"] * gone + ["●"] * (4 - gone))
        label = f"{rank.code:>3}"
        notes = []
        if case.is_dead(rank):
            notes.append("dead")
        if rank in case.blinking:
            notes.append("◀ call" if case.call and rank in case.call.ranks else "◀ split")
        line = f"{label} ├{left} ────── {right}┤"
        if colour and rank in case.blinking:
            line = f"{_BLINK}{label}{_RESET} ├{left} ────── {right}┤"
        elif colour and case.is_dead(rank):
            line = f"{_DIM}{label}{_RESET} ├{left} ────── {right}┤"
        lines.append(line + (f"  {' '.join(notes)}" if notes else ""))
    if case.call is not None:
        ranks = " ".join(r.code for r in case.call.ranks)
        lines.append(f"  call the turn: {ranks} ({case.call.kind.name.lower()})")
    return "\n".join(lines)


class TerminalCase:
    """A case-keeper that redraws the frame on a text stream at each ``show``.

    ``colour``: ``None`` decides from the stream (a tty, and ``NO_COLOR`` unset). On a
    terminal the screen is cleared first so the frame stays in place; on a file or pipe
    each frame is appended, separated by a blank line.
    """

    def __init__(self, stream: TextIO | None = None, *, colour: bool | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdout
        self.colour = wants_colour(self.stream) if colour is None else colour

    def show(self, case: Case) -> None:
        frame = render_case(case, colour=self.colour)
        prefix = _CLEAR if self.colour else ""
        self.stream.write(f"{prefix}{frame}\n" + ("" if self.colour else "\n"))
        self.stream.flush()

    def close(self) -> None:
        """Leaves the stream open: it usually is stdout."""
