"""The $PFARO sentence stream: NMEA checksums, the 82-byte limit, and parse round trips."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.display import pfaro
from hardware.display.layout import Screen
from shoe.cards import FULL_DECK, Card, Rank
from shoe.deal import Deal
from shoe.events import (
    EVENT_TYPES,
    CallKind,
    CallWindow,
    CardCorrected,
    CardFlagged,
    CardWithdrawn,
    DeckFinished,
    DeckStarted,
    DeckVoided,
    Event,
    FlagReason,
    Hock,
    LastTurn,
    Loser,
    Pocket,
    Soda,
    Turn,
)
from shoe.settings import Variant

from .conftest import events

card = Card.parse
TEN = (card("10H"), card("10S"), card("10D"), card("10C"))


def test_checksum_matches_the_textbook_gga_sentence() -> None:
    # The classic NMEA 0183 example, whose checksum (*47) is published with it.
    body = "GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
    assert pfaro.checksum(body) == "47"
    assert pfaro.checksum("GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W") \
        == "6A"


def test_a_turn_sentence_has_its_fields_and_checksum() -> None:
    line = pfaro.encode(Turn(3, card("QH"), card("QS"), split=True))
    assert line == b"$PFARO,TURN,3,QH,QS,1*62\r\n"
    body = line[1:line.index(b"*")]
    xor = 0
    for byte in body:
        xor ^= byte
    assert f"{xor:02X}".encode() == line[-4:-2]


#: The longest value of every event type: tens everywhere, the last exposures, odds 99:99.
LONGEST: list[Event | Screen] = [
    DeckStarted(Variant.STUSS),
    Soda(card("10H")),
    Loser(26, card("10H")),
    Turn(26, card("10H"), card("10S"), split=True),
    LastTurn(25, card("10H"), card("10S"), split=True),
    CallWindow((Rank.TEN, Rank.TEN, Rank.TEN), CallKind.THREE_OF_A_KIND, 1, None),
    CallWindow((Rank.TEN, Rank.TEN, Rank.KING), CallKind.PLAIN, 6, (99, 99)),
    Hock(card("10C")),
    Pocket(TEN),
    DeckFinished((None,) * 52, 26),
    CardFlagged(51, card("10H"), FlagReason.FIFTH_OF_RANK, 50),
    CardFlagged(51, card("10H"), FlagReason.UNSURE, None),
    CardCorrected(51, card("10H"), card("10S")),
    CardWithdrawn(51, card("10H"), held=True),
    DeckVoided(52),
    Screen("W" * 20, "W" * 20),
]


def test_every_sentence_type_at_its_longest_fits_82_bytes() -> None:
    kinds = set()
    for item in LONGEST:
        line = pfaro.encode(item)
        assert len(line) <= pfaro.MAX_LENGTH, line
        kinds.add(pfaro.parse(line).kind)
    assert len(kinds) == len(EVENT_TYPES) + 1  # one sentence type per event type, and TXT


@given(events)
def test_every_event_gives_one_printable_sentence_that_round_trips(event: Event) -> None:
    line = pfaro.encode(event)
    assert len(line) <= pfaro.MAX_LENGTH
    assert line.endswith(b"\r\n") and line.count(b"$") == 1
    assert all(0x20 <= b <= 0x7E for b in line[:-2])
    decoded = pfaro.decode(pfaro.parse(line))
    if isinstance(event, DeckFinished):  # the stream carries its counts, not its 52 cards
        assert decoded == DeckFinished((), event.splits)
    else:
        assert decoded == event


def test_a_whole_deal_round_trips_through_the_stream() -> None:
    deal = Deal.from_cards(FULL_DECK)
    for event in deal.events:
        decoded = pfaro.decode(pfaro.parse(pfaro.encode(event)))
        assert isinstance(decoded, DeckFinished) or decoded == event


def test_a_screen_travels_as_txt_with_letters_and_no_delimiters() -> None:
    line = pfaro.sentence(Screen("A♠ 1,2*3", "$!"))
    assert line.startswith("$PFARO,TXT,AS 1 2 3,*")
    assert pfaro.decode(pfaro.parse(line)) == Screen("AS 1 2 3", "")


def test_a_bad_checksum_is_a_clear_error_naming_both_sums() -> None:
    with pytest.raises(pfaro.BadChecksumError, match="bad checksum 00, the line sums to 62"):
        pfaro.parse("$PFARO,TURN,3,QH,QS,1*00\r\n")


@pytest.mark.parametrize("line", [
    "PFARO,TURN,3,QH,QS,1*62",  # no $
    "$PFARO,TURN,3,QH,QS,1",  # no checksum
    "$GPGGA,1*5A",  # not ours
    "$PFARO,TURN,3,QH,QS,1*6",  # one hex digit
    "$PFARO," + "X" * 80 + "*00",  # too long
])
def test_malformed_lines_are_invalid_sentences(line: str) -> None:
    with pytest.raises(pfaro.InvalidSentenceError):
        pfaro.parse(line)


def test_well_formed_sentences_with_wrong_fields_are_invalid() -> None:
    body = "PFARO,TURN,3,QH"
    with pytest.raises(pfaro.InvalidSentenceError, match="expected 4 fields"):
        pfaro.decode(pfaro.parse(f"${body}*{pfaro.checksum(body)}"))
    body = "PFARO,SODA,ZZ"
    with pytest.raises(pfaro.InvalidSentenceError, match="bad fields"):
        pfaro.decode(pfaro.parse(f"${body}*{pfaro.checksum(body)}"))
    body = "PFARO,WHAT,1"
    with pytest.raises(pfaro.InvalidSentenceError, match="unknown sentence type"):
        pfaro.decode(pfaro.parse(f"${body}*{pfaro.checksum(body)}"))


def test_lower_case_checksums_are_accepted() -> None:
    assert pfaro.parse("$PFARO,VOID,7*" + pfaro.checksum("PFARO,VOID,7").lower()).kind == "VOID"


def test_every_example_in_the_protocol_page_parses_with_its_checksum() -> None:
    page = Path(__file__).parents[3] / "docs" / "PROTOCOL.md"
    examples = [line for line in page.read_text().splitlines()
                if line.startswith("$PFARO,") and "<" not in line]
    assert len(examples) >= 15
    for line in examples:
        item = pfaro.decode(pfaro.parse(line))
        assert pfaro.sentence(item) == line or isinstance(item, DeckFinished)


_FIELD_TEXT = st.text(alphabet=st.sampled_from("0123456789AJQKSHDCFLPRTUV:- "), max_size=6)


@given(st.sampled_from(["NEW", "SODA", "LOSE", "TURN", "LAST", "CALL", "HOCK", "POCKET", "END",
                        "FLAG", "FIX", "UNDO", "VOID", "TXT", "ZZZ"]),
       st.lists(_FIELD_TEXT, max_size=8))
def test_any_checksummed_line_decodes_or_is_an_invalid_sentence(
        kind: str, fields: list[str]) -> None:
    body = ",".join(["PFARO", kind, *fields])
    with contextlib.suppress(pfaro.InvalidSentenceError):
        pfaro.decode(pfaro.parse(f"${body}*{pfaro.checksum(body)}\r\n"))


@given(st.binary(max_size=100))
def test_garbage_bytes_never_crash_the_parser(line: bytes) -> None:
    with contextlib.suppress(pfaro.InvalidSentenceError):
        pfaro.parse(line)
