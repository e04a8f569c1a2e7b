"""The journal: one fsynced line per call, replayed exactly, a torn last line dropped."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest

from shoe import journal
from shoe.cards import FULL_DECK, Card
from shoe.deal import Deal
from shoe.events import CardCorrected
from shoe.journal import Journal, JournalError, ReadRecord
from shoe.settings import Settings, Variant


def _deal_into(journal_: Journal, deal: Deal, cards: list[Card]) -> None:
    for card in cards:
        events = deal.expose(card)
        journal_.append(deal.actions[-1], events, source="camera", read=ReadRecord(card, 0.97))


def test_replay_brings_back_the_deal_in_progress_exactly(tmp_path: Path) -> None:
    settings = Settings(variant=Variant.STUSS)
    cards = random.Random(7).sample(FULL_DECK, 52)
    deal = Deal(settings)
    j = Journal.new(tmp_path, settings)
    _deal_into(j, deal, cards[:20])
    deal.expose(cards[0])  # a duplicate: held
    j.append(deal.actions[-1], [deal.flag.event] if deal.flag else [], source="camera",
             read=ReadRecord(cards[0], 0.95))
    j.append(*_call(deal, "correct", cards[20]), source="control")
    j.close()

    record = journal.latest(tmp_path)
    assert record is not None and not record.torn
    back = record.deal()
    assert back.cards == deal.cards
    assert back.events == deal.events
    assert back.settings == settings
    assert any(isinstance(e, CardCorrected) for e in record.events)
    assert record.entries[0].read == ReadRecord(cards[0], 0.97)


def _call(deal: Deal, name: str, *args: Card) -> tuple:
    events = getattr(deal, name)(*args)
    return deal.actions[-1], events


@pytest.mark.parametrize("cut", [1, 10, 37])
def test_torn_last_line_is_dropped_with_a_warning_and_cut_on_resume(
    tmp_path: Path, cut: int, caplog: pytest.LogCaptureFixture
) -> None:
    cards = random.Random(3).sample(FULL_DECK, 52)
    j = Journal.new(tmp_path, Settings())
    _deal_into(j, Deal(), cards[:6])
    j.close()
    whole = j.path.read_bytes()
    last_start = whole.rstrip(b"\n").rfind(b"\n") + 1
    j.path.write_bytes(whole[: last_start + cut])  # power cut in the middle of line 7

    with caplog.at_level(logging.WARNING):
        record = journal.read(j.path)
    assert record.torn and "torn" in caplog.text
    assert record.deal().cards == tuple(cards[:5])

    resumed = Journal.resume(record)
    _deal_into(resumed, record.deal(), [])
    deal = record.deal()
    _deal_into(resumed, deal, cards[5:8])
    resumed.close()
    assert journal.read(j.path).deal().cards == tuple(cards[:8])
    assert not journal.read(j.path).torn


def test_nulls_after_a_power_cut_count_as_torn(tmp_path: Path) -> None:
    j = Journal.new(tmp_path, Settings())
    _deal_into(j, Deal(), [Card.parse("5D"), Card.parse("KH")])
    j.close()
    with open(j.path, "ab") as f:
        f.write(b"\0" * 512)
    record = journal.read(j.path)
    assert record.torn and len(record.entries) == 2


def test_damage_before_the_last_line_is_an_error(tmp_path: Path) -> None:
    j = Journal.new(tmp_path, Settings())
    _deal_into(j, Deal(), [Card.parse("5D"), Card.parse("KH"), Card.parse("2C")])
    j.close()
    lines = j.path.read_bytes().split(b"\n")
    lines[2] = lines[2][:5]
    j.path.write_bytes(b"\n".join(lines))
    with pytest.raises(JournalError, match="line 3"):
        journal.read(j.path)


def test_one_file_per_deal_listed_oldest_first(tmp_path: Path) -> None:
    first = Journal.new(tmp_path, Settings(), now=1_700_000_000)
    second = Journal.new(tmp_path, Settings(), now=1_700_000_000)
    third = Journal.new(tmp_path, Settings(), now=1_700_000_100)
    for j in (first, second, third):
        j.close()
    assert journal.journal_paths(tmp_path) == [first.path, second.path, third.path]
    assert second.deal_id.endswith("-2")
