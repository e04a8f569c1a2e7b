"""``faro-shoe replay``: deal a known card order through the rules and print the deal."""

from __future__ import annotations

import argparse
import sys

from casekeeper.case import Case
from casekeeper.cuesheet import cue_sheet_text
from shoe.cardfile import PlacedCode, parse_cards
from shoe.commands.common import add_variant_option, read_text_input, settings_from_args
from shoe.deal import DECK_SIZE, Deal
from shoe.describe import describe
from shoe.events import Event, FlagReason, dumps

EXAMPLES = """\
examples:
  faro-shoe shuffle --seed 7 | faro-shoe replay -
  faro-shoe replay deal.txt --json > events.jsonl
  faro-shoe replay --variant stuss --pocket deal.txt

input: card codes in exposure order (soda first), separated by spaces or newlines;
'#' starts a comment. Codes: 10H, TH, 10♥, qs, Q♠ ...

exit status: 0 a whole deck dealt; 1 the deck ended early; 2 a code that is not a card
(with its line and column) or more than 52 cards; 3 a card the deck cannot hold
(a duplicate, or a fifth of a rank): both exposures are named.
"""



def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "replay", help="deal a known card order and print the turns and the cue sheet",
        description="Deal card codes, in the order the box exposed them, through faro's "
                    "rules: print each turn, then the cue sheet.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", metavar="FILE", help="a file of card codes, or - for stdin")
    add_variant_option(parser)
    parser.add_argument("--json", action="store_true",
                        help="print the deal's events as JSON lines (see docs/EVENTS.md)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    source = "<stdin>" if args.file == "-" else args.file
    codes = parse_cards(read_text_input(args.file), source)
    if len(codes) > DECK_SIZE:
        extra = codes[DECK_SIZE]
        print(f"faro-shoe replay: {source}:{extra.line}:{extra.column}: more than "
              f"{DECK_SIZE} cards ({extra.card.code} would be card {DECK_SIZE + 1})",
              file=sys.stderr)
        return 2
    deal = Deal(settings_from_args(args))
    emit(deal.events, args.json)
    for placed in codes:
        events = deal.expose(placed.card)
        emit(events, args.json)
        if deal.flag:
            report_flag(deal, placed, codes, source)
            return 3
    if not args.json:
        print()
        print(cue_sheet_text(Case.from_events(deal.events)), end="")
    if not deal.is_finished:
        print(f"faro-shoe replay: the deck ended early: {deal.exposed} of {DECK_SIZE} cards "
              f"dealt, next would be the {deal.role(deal.exposed).value}", file=sys.stderr)
        return 1
    return 0


def report_flag(deal: Deal, placed: PlacedCode, codes: list[PlacedCode], source: str) -> None:
    """Name the held card and the exposure it clashes with, both with their places."""
    flag = deal.flag
    assert flag is not None and flag.conflict is not None
    first = codes[flag.conflict]
    clash = ("the same card as" if flag.reason is FlagReason.DUPLICATE
             else "a fifth of its rank: the same card as")
    print(f"faro-shoe replay: {source}:{placed.line}:{placed.column}: exposure {flag.exposure} "
          f"({placed.card.code}) is {clash} exposure {flag.conflict} ({first.card.code}, "
          f"line {first.line}, column {first.column})", file=sys.stderr)


def emit(events: list[Event], as_json: bool) -> None:
    for event in events:
        print(dumps(event) if as_json else describe(event))
