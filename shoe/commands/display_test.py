"""``faro-shoe display-test``: send a test pattern, or recorded events, to a turn display."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING

from shoe.cards import FaroError

if TYPE_CHECKING:  # pragma: no cover
    from hardware.display.layout import Screen
    from shoe.events import Event

# The names and defaults are repeated from hardware.display.models so that --help stays
# fast (no pyserial import); a test keeps the two in agreement.
MODEL_HELP = {
    "cd5220": "CD5220 2×20 VFD pole display, 9600 8N1",
    "escpos": "Epson ESC/POS customer display (DM-D and 'Epson mode' VFDs), 9600 8N1",
    "serlcd": "HD44780 LCD on a SparkFun SerLCD/OpenLCD backpack, 9600 8N1",
    "matrix-orbital": "Matrix Orbital LCD/VFD module, 19200 8N1",
    "pfaro": "the $PFARO NMEA-style sentence stream (docs/PROTOCOL.md), 9600 8N1",
}

EXAMPLES = """\
models:
{models}

examples:
  faro-shoe display-test --model cd5220 --port /dev/serial/by-id/usb-Prolific-if00-port0
  faro-shoe display-test --model matrix-orbital --port /dev/ttyUSB0 --baud 9600
  faro-shoe display-test --model serlcd --port /dev/ttyAMA0 --letters
  faro-shoe replay deal.txt --json > deal.jsonl
  faro-shoe display-test --model escpos --port /dev/ttyUSB0 --events deal.jsonl --delay 0.5
  faro-shoe display-test --model pfaro --port socket://localhost:7000 --events -

Without --events it sends a test pattern: every printable character, the four suits, both
full lines, then a sample deal (a turn, a split, the call, a held read). With --events it
sends each event of FILE (JSON lines, as 'faro-shoe replay --json' prints them; '-' for
stdin), one every --delay seconds. Each screen is echoed on stdout as it is sent.

exit status: 0 everything was written; 1 the port could not be opened or written;
2 a bad option, an unknown model, a malformed port, or a line of FILE that is not an event
(its line number is named).
"""


def register(sub: argparse._SubParsersAction) -> None:
    models = "\n".join(f"  {name:<15} {text}" for name, text in MODEL_HELP.items())
    parser = sub.add_parser(
        "display-test", help="send a test pattern or recorded events to a turn display",
        description="Check a freshly wired turn display: send it a test pattern, or the "
                    "events of a recorded deal, at a readable pace.",
        epilog=EXAMPLES.format(models=models),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--model", required=True, metavar="MODEL", choices=list(MODEL_HELP),
                        help="the display's command set: " + ", ".join(MODEL_HELP))
    parser.add_argument("--port", required=True, metavar="URL",
                        help="a device (/dev/serial/by-id/…, /dev/ttyUSB0) or a pyserial URL "
                             "(socket://host:port, loop://)")
    parser.add_argument("--events", metavar="FILE",
                        help="send these events (JSON lines; - for stdin) instead of the "
                             "test pattern")
    parser.add_argument("--delay", type=float, default=1.5, metavar="SECONDS",
                        help="pause between screens (default: %(default)s)")
    parser.add_argument("--baud", type=int, metavar="N",
                        help="override the model's baud rate (9600; Matrix Orbital 19200)")
    parser.add_argument("--letters", action="store_true",
                        help="show suits as S H D C instead of custom characters")
    parser.add_argument("--connect-timeout", type=float, default=5.0, metavar="SECONDS",
                        help="give up if the port cannot be opened within this time "
                             "(default: %(default)s)")
    parser.set_defaults(func=run)


class EventFileError(FaroError, ValueError):
    """A line of an --events file that is not a deal event."""


def read_events(name: str) -> list[Event]:
    """The events of a JSON-lines file; blank lines are skipped."""
    from shoe.events import loads

    try:
        if name == "-":
            text = sys.stdin.read()
        else:
            with open(name, encoding="utf-8") as f:
                text = f.read()
    except OSError as exc:
        raise EventFileError(f"--events: cannot read {name}: {exc.strerror}") from None
    source = "<stdin>" if name == "-" else name
    events: list[Event] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            events.append(loads(line))
        except FaroError as exc:
            raise EventFileError(f"{source}:{number}: {exc}") from None
    return events


def sample_items() -> list[Event | Screen]:
    """The test pattern, then a short sample deal."""
    from hardware.display.layout import pattern_screens
    from shoe.cards import Card, Rank
    from shoe.events import CallKind, CallWindow, CardFlagged, DeckStarted, FlagReason, Soda, Turn
    from shoe.settings import Variant

    card = Card.parse
    return [
        *pattern_screens(),
        DeckStarted(Variant.FARO),
        Soda(card("5D")),
        Turn(1, card("10H"), card("KS"), split=False),
        Turn(2, card("QC"), card("QD"), split=True),
        CallWindow((Rank.THREE, Rank.SEVEN, Rank.SEVEN), CallKind.CAT_HOP, 3, (2, 1)),
        CardFlagged(22, card("7H"), FlagReason.DUPLICATE, 4),
    ]


def run(args: argparse.Namespace) -> int:
    from hardware.display.layout import Screen, screen_for
    from hardware.display.models import DisplayConfigError, model_named
    from hardware.display.writer import DisplayWriter

    model = model_named(args.model, letters=args.letters, setting="--model")
    if args.delay < 0:
        raise DisplayConfigError(f"--delay: expected 0 or more seconds, got {args.delay}")
    if args.baud is not None and args.baud <= 0:
        raise DisplayConfigError(f"--baud: expected a positive baud rate, got {args.baud}")
    items: list[Event | Screen] = []
    items += read_events(args.events) if args.events else sample_items()
    writer = DisplayWriter(args.port, model, baudrate=args.baud, setting="--port",
                           queue_size=max(len(items), 1), backoff=(0.2, 1.0))
    try:
        if not writer.wait_connected(args.connect_timeout):
            print(f"faro-shoe display-test: {writer.status.last_error or 'port not opened'}",
                  file=sys.stderr)
            return 1
        errors_at_start = writer.status.errors  # failed opens before the port came up
        print(f"{model.title} on {args.port} at {writer.baudrate} baud", flush=True)
        for index, item in enumerate(items, start=1):
            screen = item if isinstance(item, Screen) else screen_for(item)
            writer.show(item)
            print(f"{index:3}/{len(items)} |{screen.top}|{screen.bottom}|", flush=True)
            if index < len(items):
                time.sleep(args.delay)
        if not writer.wait_idle(max(args.connect_timeout, 1.0)):
            print(f"faro-shoe display-test: not everything was written: "
                  f"{writer.status.last_error or 'the port is stuck'}", file=sys.stderr)
            return 1
    finally:
        writer.close()
    status = writer.status
    if status.errors > errors_at_start:
        print(f"faro-shoe display-test: {status.errors - errors_at_start} port error(s), "
              f"last: {status.last_error}", file=sys.stderr)
        return 1
    return 0
