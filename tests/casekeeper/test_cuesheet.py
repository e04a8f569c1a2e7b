"""The cue sheet of one whole deal, worked out by hand from tests/conftest.py's deal."""

from __future__ import annotations

import csv
import io

from casekeeper.case import Case
from casekeeper.cuesheet import cue_sheet_csv, cue_sheet_json, cue_sheet_text
from shoe.cards import Card
from shoe.deal import Deal

# Worked out by hand: the soda KS; turns 1, 2 (A, 2) and 14, 15 (A, 2 again) are splits;
# 3..10 alternate loser/winner through the hearts, diamonds, clubs and spades; the last
# turn JS loses to QS; the hock is KC.
EXPECTED_SHEET = """\
Cue sheet: faro, 52 cards gone, 4 splits
  A  X X        dead
  2  X X        dead
  3  0 | 0 0    dead
  4  | 0 | |    dead
  5  0 | 0 0    dead
  6  | 0 | |    dead
  7  0 | 0 0    dead
  8  | 0 | |    dead
  9  0 | 0 0    dead
 10  | 0 | |    dead
  J  0 | 0 0    dead
  Q  | 0 | |    dead
  K  • 0 | –    dead
Marks: | winner  0 loser  • soda  – hock  X split
"""


def whole_case(deck: list[Card]) -> Case:
    return Case.from_events(Deal.from_cards(deck).events)


def test_the_hand_checked_deal_gives_its_exact_cue_sheet(hand_checked_deal: list[Card]) -> None:
    assert cue_sheet_text(whole_case(hand_checked_deal)) == EXPECTED_SHEET


def test_a_part_dealt_sheet_shows_only_what_went(hand_checked_deal: list[Card]) -> None:
    sheet = cue_sheet_text(whole_case(hand_checked_deal[:7]))
    assert sheet.splitlines()[0] == "Cue sheet: faro, 7 cards gone, 2 splits"
    assert "  3  0\n  4  |\n  5\n" in sheet
    assert "dead" not in sheet


def test_csv_has_a_row_per_card(hand_checked_deal: list[Card]) -> None:
    rows = list(csv.DictReader(io.StringIO(cue_sheet_csv(whole_case(hand_checked_deal)))))
    assert len(rows) == 52
    assert rows[0] == {"exposure": "0", "card": "KS", "rank": "K", "suit": "S", "mark": "•",
                       "turn": ""}
    assert rows[1]["mark"] == rows[2]["mark"] == "X" and rows[2]["turn"] == "1"
    assert rows[51]["mark"] == "–"


def test_json_holds_the_rows_and_the_cards(hand_checked_deal: list[Card]) -> None:
    sheet = cue_sheet_json(whole_case(hand_checked_deal))
    assert sheet["splits"] == 4 and sheet["cards_gone"] == 52
    assert sheet["ranks"]["K"] == "• 0 | –"
    assert sheet["cards"][50] == {"exposure": 50, "card": "QS", "mark": "|", "turn": 25}
    assert len(sheet["dead"]) == 13
