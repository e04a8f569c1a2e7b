"""``faro-shoe run``: the service. Camera to deal to case-keeper, display and journal."""

from __future__ import annotations

import argparse
import logging
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from shoe.config import DEFAULT_CONFIG_PATH

if TYPE_CHECKING:
    from shoe.service import Output, ShoeState

EPILOG = f"""\
examples:
  faro-shoe run --config {DEFAULT_CONFIG_PATH}
  faro-shoe run --config ./config.toml        # a laptop: camera.source = "sim"

In a terminal it draws the live case and the last turns; under systemd (or with its output
piped) it logs one plain line per event instead. The example config, with every key
explained, is shoe/data/config.example.toml. A bad value stops the start with exit status 2
and one line naming the key. SIGTERM stops cleanly; SIGHUP reloads the config.
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run", help="run the shoe: read cards, keep the case, announce turns",
        description="Run the shoe service: reads each card the box exposes, runs the deal, "
                    "drives the case-keeper and the display, and journals every card.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--config", type=Path, default=DEFAULT_CONFIG_PATH,
                        help=f"the TOML config (default {DEFAULT_CONFIG_PATH})")
    parser.add_argument("--plain", action="store_true",
                        help="log plain lines even in a terminal (no live screen)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hardware.systemd import is_under_systemd
    from shoe import compose
    from shoe import config as config_module

    config = config_module.load(args.config)
    compose.check(config)
    live = sys.stdout.isatty() and not is_under_systemd() and not args.plain
    if live:  # the live screen owns the terminal: the log goes beside the journals
        config.state_dir.mkdir(parents=True, exist_ok=True)
        log_path = config.state_dir / "faro-shoe.log"
        print(f"faro-shoe run: logging to {log_path}", file=sys.stderr)
        setup_logging(open(log_path, "a", encoding="utf-8"))  # noqa: SIM115 - process-long
    else:
        setup_logging(sys.stdout)

    def outputs() -> list[Output]:
        return [LivePanel(sys.stdout) if live else compose.LogOutput()]

    service = compose.assemble(config, outputs, reload=lambda: config_module.load(args.config))
    return service.run()


def setup_logging(stream: TextIO, level: int = logging.INFO) -> None:
    """Plain lines, no colour: systemd's journal adds the time and the unit itself."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)


class LivePanel:
    """The live screen of a terminal: the bead frame, the display's screen, the last turns.

    Draws from its own thread (a slow terminal must not hold up the camera).
    """

    def __init__(self, stream: TextIO, *, turns: int = 8, title: str = "faro-shoe") -> None:
        from hardware.terminal import wants_colour
        from shoe.service import Latest

        self.stream = stream
        self.turns = turns
        self.title = title
        self.colour = wants_colour(stream)
        self._lock = threading.Lock()
        self._state: ShoeState | None = None
        self._screen: tuple[str, str] | None = None
        self._lines: list[str] = []
        self._worker: Latest[str] = Latest(self._draw, "terminal")

    def update(self, state: ShoeState) -> None:
        from shoe.describe import describe

        with self._lock:
            self._state = state
            if not state.redraw:
                self._lines.extend(describe(e) for e in state.new)
            else:
                self._lines = [describe(e) for e in state.events[-self.turns:]]
            del self._lines[:-self.turns]
        self._worker.put(self.frame())

    def show_screen(self, top: str, bottom: str) -> None:
        """What the serial display shows now (the demo decodes it from the port's bytes)."""
        with self._lock:
            self._screen = (top, bottom)
        self._worker.put(self.frame())

    def frame(self) -> str:
        """The whole screen as text."""
        from hardware.terminal import render_case

        with self._lock:
            state, screen, lines = self._state, self._screen, list(self._lines)
        out = [self.title]
        if state is not None:
            held = f"  CHECK CARD {state.flag.exposure + 1}" if state.flag else ""
            done = "  FINISHED" if state.finished else "  VOID" if state.voided else ""
            alert = f"  {state.alert}" if state.alert else ""
            out.append(f"deal {state.deal_id}: {state.exposed} of 52 cards{held}{done}{alert}")
            out.append("")
            case_lines = render_case(state.case, colour=self.colour).splitlines()
        else:
            case_lines = []
        if screen is not None:
            box = ["┌" + "─" * 20 + "┐", f"│{screen[0]:<20}│", f"│{screen[1]:<20}│",
                   "└" + "─" * 20 + "┘"]
            width = max((len(_strip(line)) for line in case_lines), default=0) + 3
            for i, line in enumerate(box):
                if i < len(case_lines):
                    pad = width - len(_strip(case_lines[i]))
                    case_lines[i] = case_lines[i] + " " * pad + line
                else:
                    case_lines.append(" " * width + line)
        out.extend(case_lines)
        out.append("")
        out.extend(lines)
        return "\n".join(out)

    def _draw(self, text: str) -> None:
        self.stream.write("\x1b[H\x1b[2J" + text + "\n")
        self.stream.flush()

    def close(self) -> None:
        self._worker.close()


def _strip(text: str) -> str:
    """Text without ANSI colour codes, for measuring its width."""
    import re

    return re.sub(r"\x1b\[[0-9;]*m", "", text)

