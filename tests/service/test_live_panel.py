"""The live terminal screen of `run` and the demo: the bead frame, the display, the turns."""

from __future__ import annotations

import io

from casekeeper import Case
from shoe.cards import Card
from shoe.commands.run import LivePanel
from shoe.deal import Deal
from shoe.service import ShoeState


def test_frame_shows_case_display_and_last_turns() -> None:
    deal = Deal.from_cards(Card.parse(c) for c in "5D KH KS 2C 9H".split())
    events = tuple(deal.events)
    state = ShoeState("20261122-201500", events, events[-2:], Case.from_events(events), None,
                      deal.exposed, False, False)
    stream = io.StringIO()
    panel = LivePanel(stream, turns=3)
    panel.update(state)
    panel.show_screen("TURN 1   K♥ K♠", "SPLIT")
    frame = panel.frame()
    panel.close()
    assert "deal 20261122-201500: 5 of 52 cards" in frame
    assert "│TURN 1   K♥ K♠      │" in frame  # the serial display, beside the case
    assert frame.count("├") == 13  # the thirteen wires of the bead frame
    assert "\x1b[" not in frame  # no colour into a file
    assert stream.getvalue().startswith("\x1b[H\x1b[2J")  # drawn from its own thread
