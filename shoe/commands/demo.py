"""``faro-shoe demo``: the whole rig on a laptop, with nothing to set up.

The simulated camera deals a seeded shuffle at a watchable pace; the real reader, deal and
case-keeper logic run on its frames; the bead frame is drawn in the terminal; the serial
display is a pty, whose far end the demo reads and decodes to draw the screen beside the
case; the journal goes to a temporary directory. It ends with the cue sheet.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shoe.cards import FaroError
from shoe.commands.common import add_variant_option, settings_from_args

if TYPE_CHECKING:
    from shoe.service import Output, ShoeState


class DemoOptionError(FaroError, ValueError):
    """A demo option out of range."""

EPILOG = """\
examples:
  faro-shoe demo                               # a whole deal in about a minute and a half
  faro-shoe demo --seed 7 --turns-per-minute 40
  faro-shoe demo --deck-dir ~/my-deck-pngs     # your own deck's card images
  faro-shoe demo --headless --speed 0 > deal.txt   # as fast as the machine can

The display is a pseudo-terminal: the service writes the $PFARO sentence stream to it exactly
as it would to a serial port, and the demo decodes what arrives at the other end.
--deck-dir takes a folder of 52 card images (PNG or SVG) named by card code: AS.png,
10H.svg, QD.png …
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "demo", help="watch the whole rig deal a simulated deck (no setup)",
        description="Run the whole shoe on simulated parts: camera, reader, deal, case, "
                    "display and journal. Ends with the cue sheet.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--seed", type=int, default=1, help="which shuffle to deal (default 1)")
    parser.add_argument("--turns-per-minute", type=float, default=20.0,
                        help="the dealer's pace (default 20: a deal in about 80 s)")
    parser.add_argument("--deck-dir", type=Path, default=None,
                        help="render this folder's card images instead of the built-in faces")
    add_variant_option(parser)
    parser.add_argument("--headless", action="store_true",
                        help="no live screen: one text line per event, for scripts")
    parser.add_argument("--speed", type=float, default=1.0,
                        help="the simulated camera's clock: 1 real time (default), 0 as fast "
                             "as frames can be made (for tests)")
    parser.add_argument("--state-dir", type=Path, default=None,
                        help="keep the journal here (default: a new temporary directory)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from shoe import config as config_module

    if not 0.5 <= args.turns_per_minute <= 6000:
        raise DemoOptionError(f"--turns-per-minute: expected 0.5 to 6000, got "
                              f"{args.turns_per_minute:g}")
    if args.deck_dir is not None and not args.deck_dir.is_dir():
        raise DemoOptionError(f"--deck-dir: no such folder {str(args.deck_dir)!r}")
    settings = settings_from_args(args)
    state_dir = args.state_dir or Path(tempfile.mkdtemp(prefix="faro-demo-"))
    master, slave = os.openpty()
    port = os.ttyname(slave)
    camera: dict[str, Any] = {"source": "sim", "seed": args.seed, "speed": args.speed,
                              "pace": min(args.turns_per_minute * 2, 6000.0)}
    if args.deck_dir is not None:
        camera["deck_dir"] = str(args.deck_dir)
    config = config_module.parse({
        "state_dir": str(state_dir), "camera": camera,
        "display": {"model": "pfaro", "port": port},
        "deal": settings.to_json(),
    }, source="demo")
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    try:
        return _run(config, master, headless=args.headless)
    finally:
        os.close(slave)
        os.close(master)


def _run(config: Any, master: int, *, headless: bool) -> int:
    from casekeeper import Case
    from casekeeper.cuesheet import cue_sheet_text
    from shoe import compose
    from shoe.commands.run import LivePanel

    panel = None if headless else LivePanel(sys.stdout, title="faro-shoe demo (Ctrl-C stops)")
    listener = ScreenListener(master, panel)
    listener.start()

    operator = DemoOperator(config.camera.seed, delay=2.0 if config.camera.speed else 0.0)

    def outputs() -> list[Output]:
        if panel is not None:
            return [panel, operator]
        # Headless: each event as one line on stdout, as soon as it comes.
        return [compose.LogOutput(lambda line: print(line, flush=True)), operator]

    service = compose.assemble(config, outputs, stop_when_finished=True)
    operator.inbox = service.inbox
    status = service.run()
    listener.stop()
    case = Case.from_events(service.deal.events)
    if panel is not None:
        sys.stdout.write("\n")
    print(cue_sheet_text(case), end="")
    print(f"journal: {service.journal.path}")
    print(f"display: {listener.sentences} sentences decoded from the pty, last screen: "
          f"{' | '.join(listener.screen or ('', ''))}")
    return status


class DemoOperator:
    """The demo's operator: when a read is held (CHECK CARD), looks in the box after a
    moment and names the card, as a dealer would with the buttons or `faro-shoe correct`.
    The card comes from the simulator's shuffle; the reader's doubt was real."""

    def __init__(self, seed: int, delay: float) -> None:
        from hardware.cameras.simulated import shuffled_deck

        self.cards = shuffled_deck(seed)
        self.delay = delay
        self.inbox: Any = None
        self._timer: threading.Timer | None = None

    def update(self, state: ShoeState) -> None:
        if state.flag is None or self.inbox is None or self._timer is not None:
            return
        exposure = state.flag.exposure
        card = self.cards[exposure]

        def correct() -> None:
            self._timer = None
            print(f"operator: card {exposure + 1} is {card.code}", flush=True)
            self.inbox.post("correct", card=card.code)

        self._timer = threading.Timer(self.delay, correct)
        self._timer.daemon = True
        self._timer.start()

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()


class ScreenListener:
    """Reads the display's pty from the far end and decodes each ``$PFARO`` sentence into
    the two lines a display shows."""

    def __init__(self, master: int, panel: Any) -> None:
        self.master = master
        self.panel = panel
        self.sentences = 0
        self.screen: tuple[str, str] | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pty listener", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(1.0)

    def _run(self) -> None:
        import select

        from hardware.display import pfaro, screen_for
        from hardware.display.layout import Screen

        buffer = b""
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if not ready:
                continue
            try:
                buffer += os.read(self.master, 4096)
            except OSError:
                return
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                try:
                    item = pfaro.decode(pfaro.parse(line.strip()))
                except pfaro.InvalidSentenceError:
                    continue  # a line cut by a reconnect: the next one redraws
                screen = item if isinstance(item, Screen) else screen_for(item)
                self.sentences += 1
                self.screen = screen.lines
                if self.panel is not None:
                    self.panel.show_screen(*screen.lines)
