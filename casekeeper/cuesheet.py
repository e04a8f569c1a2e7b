"""The cue sheet: the case on paper, in the period notation, and as CSV and JSON.

Marks: ``|`` winner, ``0`` loser, ``•`` soda, ``–`` hock (and stuss's pocket), ``X`` a split
(both cards of the pair, one mark).
"""

from __future__ import annotations

import csv
import io
from typing import Any

from casekeeper.case import Case, Mark, Placed
from shoe.cards import Rank

__all__ = ["cue_sheet_csv", "cue_sheet_json", "cue_sheet_text", "row_marks"]


def row_marks(case: Case, rank: Rank) -> str:
    """One rank's row as written on a period cue sheet: its marks in order, a split once."""
    marks: list[str] = []
    seen_split_turns: set[int | None] = set()
    for placed in _of_rank(case, rank):
        if placed.mark is Mark.SPLIT:
            if placed.turn in seen_split_turns:
                continue
            seen_split_turns.add(placed.turn)
        marks.append(placed.mark.value)
    return " ".join(marks)


def _splits(case: Case) -> int:
    return len({p.turn for p in case.placed if p.mark is Mark.SPLIT})


def cue_sheet_text(case: Case) -> str:
    """The sheet as text, a rank a row, ace to king; dead ranks end with ``dead``."""
    lines = [
        f"Cue sheet: {case.variant.value}, {len(case.placed)} cards gone, "
        f"{_splits(case)} split{'s' if _splits(case) != 1 else ''}"
    ]
    for rank in Rank:
        row = row_marks(case, rank)
        tail = "  dead" if case.is_dead(rank) else ""
        lines.append(f"{rank.code:>3}  {row:<9}{tail}".rstrip())
    lines.append("Marks: | winner  0 loser  • soda  – hock  X split")
    return "\n".join(lines) + "\n"


def cue_sheet_csv(case: Case) -> str:
    """One row per card gone: exposure, card, rank, suit, mark, turn."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["exposure", "card", "rank", "suit", "mark", "turn"])
    for p in case.placed:
        writer.writerow([p.exposure, p.card.code, p.card.rank.code, p.card.suit.code,
                         p.mark.value, "" if p.turn is None else p.turn])
    return out.getvalue()


def cue_sheet_json(case: Case) -> dict[str, Any]:
    """The sheet as JSON values: each rank's row, and every card gone."""
    return {
        "variant": case.variant.value,
        "cards_gone": len(case.placed),
        "splits": _splits(case),
        "dead": [r.code for r in case.dead_ranks],
        "ranks": {r.code: row_marks(case, r) for r in Rank},
        "cards": [
            {"exposure": p.exposure, "card": p.card.code, "mark": p.mark.value, "turn": p.turn}
            for p in case.placed
        ],
    }


def _of_rank(case: Case, rank: Rank) -> list[Placed]:
    return [p for p in case.placed if p.card.rank is rank]

