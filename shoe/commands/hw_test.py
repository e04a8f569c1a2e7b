"""``faro-shoe hw-test``: the commissioning check of a freshly wired shoe.

Tries every part the config names, one after the other, and reports each: a missing or
miswired part is reported and the check goes on to the next. Ends with a table; exit 1 if
any part failed.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shoe.config import DEFAULT_CONFIG_PATH

EPILOG = f"""\
examples:
  faro-shoe hw-test --config {DEFAULT_CONFIG_PATH}
  faro-shoe hw-test --config ./config.toml --seconds 20     # more time to press buttons

What it does, part by part:
  keeper    moves each servo through its five positions (or walks the LEDs), rank by rank
  display   writes the test pattern to the display
  buttons   prints each press (and each break of the slot's beam) for --seconds
  camera    reads frames for two seconds and shows the frame rate; with a card in the
            box, says whether the light's glare shows part of its face white (print there
            goes unread: angle or dim the light)
Parts the config leaves out are listed as "not fitted". Exit status 1 if any part failed.
"""


@dataclass(frozen=True, slots=True)
class PartResult:
    part: str
    status: str  # "ok", "FAILED" or "not fitted"
    detail: str


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "hw-test", help="check every wired part: servos/LEDs, display, buttons, camera",
        description="Commissioning check: exercises each part the config names and reports "
                    "every one, working or not.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--config", type=Path, default=DEFAULT_CONFIG_PATH,
                        help=f"the config to test (default {DEFAULT_CONFIG_PATH})")
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="how long to watch the buttons (default 5; Ctrl-C ends it)")
    parser.add_argument("--step", type=float, default=0.3,
                        help="pause between servo positions or LEDs, in seconds (default 0.3)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, pin_factory: Any = None) -> int:
    from shoe import config as config_module

    config = config_module.load(args.config)
    checks: list[tuple[str, bool, Callable[[], str]]] = [
        ("keeper", config.keeper.driver != "none",
         lambda: _keeper(config, args.step, pin_factory)),
        ("display", config.display.model != "none" or bool(config.display.pfaro_port),
         lambda: _display(config)),
        ("buttons", bool(config.buttons.fitted()),
         lambda: _buttons(config, args.seconds, pin_factory)),
        ("camera", True, lambda: _camera(config)),
    ]
    results = []
    for part, fitted, check in checks:
        if not fitted:
            results.append(PartResult(part, "not fitted", "not in the config"))
            continue
        print(f"-- {part}", flush=True)
        try:
            results.append(PartResult(part, "ok", check()))
        except KeyboardInterrupt:
            results.append(PartResult(part, "ok", "stopped with Ctrl-C"))
        except Exception as exc:  # every part is reported, whatever broke the one before
            results.append(PartResult(part, "FAILED", f"{type(exc).__name__}: {exc}"))
            print(f"   {part} FAILED: {exc}", flush=True)
    print()
    print(f"{'part':<8} {'result':<10} detail")
    for r in results:
        print(f"{r.part:<8} {r.status:<10} {r.detail}")
    return 1 if any(r.status == "FAILED" for r in results) else 0


def _keeper(config: Any, step: float, pin_factory: Any) -> str:
    from casekeeper import Case, Mark, Placed
    from shoe import compose
    from shoe.cards import Card, Rank, Suit

    keeper = compose.build_keeper(config, pin_factory)
    suits = list(Suit)
    try:
        for rank in Rank:
            for gone in range(5):
                placed = tuple(Placed(i, Card(rank, suits[i]), Mark.LOSER, None)
                               for i in range(gone))
                keeper.show(Case(config.settings.variant, placed))
                # Servos move in the background from the latest target; let each position
                # be reached before the next, or a busy Pi would skip some of them.
                settle = getattr(keeper, "wait", None)
                if settle is not None:
                    settle(5.0)
                time.sleep(step)
            print(f"   {rank.code:>2}: positions 0-4", flush=True)
        keeper.show(Case.empty(config.settings.variant))
        time.sleep(step)
    finally:
        keeper.close()
    return f"{config.keeper.driver}: 13 ranks through 0-4 cards gone"


def _display(config: Any) -> str:
    from hardware.display import pattern_screens
    from shoe import compose

    writers = compose.build_display(config)
    notes = []
    try:
        for writer in writers:
            if not writer.wait_connected(3.0):
                raise RuntimeError(f"{writer.url}: cannot open the port "
                                   f"({writer.status.last_error or 'not there'})")
            for screen in pattern_screens():
                writer.show(screen)
            if not writer.wait_idle(5.0):
                raise RuntimeError(f"{writer.url}: the test pattern was not written in 5 s")
            notes.append(f"{writer.model.name} on {writer.url}: test pattern written")
    finally:
        for writer in writers:
            writer.close()
    return "; ".join(notes)


def _buttons(config: Any, seconds: float, pin_factory: Any) -> str:
    from shoe import compose
    from shoe.control import Inbox

    inbox = Inbox()
    inputs = compose.build_buttons(config, inbox, pin_factory)
    seen: list[str] = []
    print(f"   press the buttons (watching for {seconds:g} s, Ctrl-C to end early)", flush=True)
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            time.sleep(0.05)
            for op, extra in inbox.drain()[1]:
                seen.append(op)
                when = f" at t={extra['t']:.3f}" if "t" in extra else ""
                print(f"   {op}{when}", flush=True)
    finally:
        for part in inputs:
            part.close()
        inbox.close()
    fitted = ", ".join(config.buttons.fitted())
    return f"{fitted}; {len(seen)} presses seen" + (f" ({', '.join(seen)})" if seen else "")


def _camera(config: Any, seconds: float = 2.0) -> str:
    from shoe import compose

    camera = compose.open_camera(config, reconnect=False)
    frames, last = 0, None
    try:
        start = time.monotonic()
        while time.monotonic() - start < seconds and (frame := camera.read()) is not None:
            frames, last = frames + 1, frame
        elapsed = time.monotonic() - start
    finally:
        camera.close()
    if last is None:
        raise RuntimeError(f"{config.camera.source}: no frames in {seconds:g} s")
    width, height = last.image.shape[1], last.image.shape[0]
    return (f"{config.camera.source}: {frames / elapsed:.1f} fps, {width}x{height} frames; "
            f"{_light_on_card(last.image)}")


def _light_on_card(image: Any) -> str:
    """What the light does to the card in view: glare that shows its face white hides the
    print there on every frame (docs/READER.md, With a profile, Learning)."""
    from vision.light import face_shown_white, glare_note

    white = face_shown_white(image)
    if white is None:
        return "no card in view to judge the light by"
    return glare_note(white) or "the card in view shows no glare white"
