"""`faro-shoe history`: past deals from the journal, and any one's cue sheet (text or JSON)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from shoe.cards import FULL_DECK
from shoe.cli import main
from shoe.deal import Deal
from shoe.journal import Journal, ReadRecord
from shoe.settings import Settings


def _journal(directory: Path, cards: int, now: float) -> str:
    deal = Deal()
    j = Journal.new(directory, Settings(), now=now)
    for card in random.Random(now).sample(FULL_DECK, 52)[:cards]:
        events = deal.expose(card)
        j.append(deal.actions[-1], events, source="camera", read=ReadRecord(card, 0.98))
    j.close()
    return j.deal_id


def test_lists_deals_and_prints_a_cue_sheet(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    deals = tmp_path / "deals"
    first = _journal(deals, 52, 1_790_000_000)
    second = _journal(deals, 9, 1_790_000_600)
    assert main(["history", "--state-dir", str(tmp_path)]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in listing[1:]] == [first, second]
    assert "finished" in listing[1] and "in progress" in listing[2]

    assert main(["history", "last", "--state-dir", str(tmp_path), "--json"]) == 0
    sheet = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert sheet["deal"] == second and sheet["exposed"] == 9
    assert sheet["cue_sheet"]["cards_gone"] == 9

    assert main(["history", first, "--state-dir", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "Cue sheet" in text and "52 cards gone" in text


def test_unknown_deal_is_one_line_and_exit_2(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    _journal(tmp_path / "deals", 3, 1_790_000_000)
    assert main(["history", "19991231", "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no deal named '19991231'" in err[0]
