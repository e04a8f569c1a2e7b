#!/usr/bin/env python3
"""Latency from a card coming to rest in view to its bytes leaving for the display.

    .venv/bin/python bench/latency.py                   # 30 cards at 60 cards a minute
    .venv/bin/python bench/latency.py --cards 52 --pace 40 --json latency.json

The whole service runs in this process, as `faro-shoe run` builds it: the simulated camera
in real time, the real reader and tracker, the deal, the journal (fsynced), and the display
writer on a pty. For each card that the display announces (soda, each turn's winner, the
hock) the clock starts when the camera delivers the first frame in which that card lies at
rest (the simulator's ground truth) and stops when the announcing ``$PFARO`` sentence
arrives at the pty's far end. The tracker's own share (frames it waits to be sure the card
is still, and the frames it reads) is reported apart from the rest of the way.

The figures are of this machine under whatever else runs on it.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hardware.cameras.simulated import shuffled_deck
from hardware.display import pfaro
from hardware.systemd import Notifier
from shoe import compose
from shoe import config as config_module
from shoe.events import Hock, LastTurn, Soda, Turn


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=30, help="cards to deal (default 30)")
    parser.add_argument("--pace", type=float, default=60.0, help="cards per minute (60)")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()

    master, slave = os.openpty()
    arrivals: list[tuple[float, bytes]] = []
    stop = threading.Event()

    def listen() -> None:
        buffer = b""
        while not stop.is_set():
            try:
                if not select.select([master], [], [], 0.05)[0]:
                    continue
                buffer += os.read(master, 4096)
            except OSError:
                return  # the pty closed at the end
            now = time.monotonic()
            *lines, buffer = buffer.split(b"\n")
            arrivals.extend((now, line.strip()) for line in lines)

    threading.Thread(target=listen, daemon=True).start()
    with tempfile.TemporaryDirectory(prefix="faro-latency-") as tmp:
        config = config_module.parse({
            "state_dir": tmp,
            "camera": {"source": "sim", "seed": args.seed, "pace": args.pace},
            "display": {"model": "pfaro", "port": os.ttyname(slave)},
        })
        order = shuffled_deck(args.seed)
        held: list[int] = []

        class Operator:
            """Names a held card at once (as the demo's operator does): held cards need a
            person, so they are left out of the figures."""

            def update(self, state: Any) -> None:
                if state.flag is not None and state.flag.exposure not in held:
                    held.append(state.flag.exposure)
                    service.inbox.post("correct", card=order[state.flag.exposure].code)

            def close(self) -> None:
                pass

        service = compose.assemble(config, lambda: [Operator()], notifier=Notifier(None),
                                   stop_when_finished=True)
        eyes: Any = service.parts.eyes
        delivered: dict[float, float] = {}  # frame time on the simulator's clock -> arrival
        read = eyes.camera.read

        seen: dict[str, Any] = {}

        def timed_read() -> Any:
            frame = read()
            if frame is not None:
                delivered[frame.t] = time.monotonic()
                seen.setdefault("truth", eyes.camera.inner.truth)
            return frame

        eyes.camera.read = timed_read
        rests: dict[int, tuple[float, float]] = {}  # exposure -> (t_rest, t_done) sim clock
        expose = service._expose

        def noting_expose(exposure: Any) -> None:
            rests[service.deal.exposed] = (exposure.at, time.monotonic())
            expose(exposure)

        service._expose = noting_expose  # type: ignore[method-assign]
        thread = threading.Thread(target=service.run)
        thread.start()
        while thread.is_alive() and service.deal.exposed < args.cards:
            time.sleep(0.05)
        time.sleep(0.5)
        service.stop()
        thread.join(10)
        truth = seen.get("truth")
        cards = service.deal.cards
    stop.set()
    time.sleep(0.1)
    os.close(master)
    os.close(slave)
    if truth is None:
        print("the camera was not running at the end; no ground truth", file=sys.stderr)
        return 1

    frame_times = sorted(delivered)
    rows: list[dict[str, Any]] = []
    for exposure, card in enumerate(cards):
        if exposure in held:
            continue
        t_rest = truth[exposure].rest[0]
        first = next((t for t in frame_times if t >= t_rest), None)
        if first is None:
            continue
        at_rest = delivered[first]
        sentence = _announcing(arrivals, card, after=at_rest)
        if sentence is None:
            continue
        decided = rests.get(exposure, (None, None))[1]
        rows.append({
            "exposure": exposure, "card": card.code,
            "total_ms": round((sentence - at_rest) * 1000, 1),
            "tracker_ms": round((decided - at_rest) * 1000, 1) if decided else None,
            "after_decision_ms": round((sentence - decided) * 1000, 1) if decided else None,
        })
    totals = [r["total_ms"] for r in rows]
    tails = [r["after_decision_ms"] for r in rows if r["after_decision_ms"] is not None]
    summary = {
        "announced_cards": len(rows),
        "total_ms_median": statistics.median(totals) if totals else None,
        "total_ms_p90": _percentile(totals, 0.9),
        "total_ms_max": max(totals) if totals else None,
        "after_decision_ms_median": statistics.median(tails) if tails else None,
        "after_decision_ms_max": max(tails) if tails else None,
        "pace_cards_per_minute": args.pace,
        "held_for_the_operator": len(held),
    }
    for r in rows:
        print(f"{r['exposure']:>3} {r['card']:>4}  rest→bytes {r['total_ms']:>7.1f} ms"
              f"   (tracker {r['tracker_ms']} ms, then {r['after_decision_ms']} ms)")
    print(json.dumps(summary, indent=2))
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "cards": rows}, indent=2))
    return 0


def _announcing(arrivals: list[tuple[float, bytes]], card: Any, after: float) -> float | None:
    """When the sentence announcing ``card`` (soda, a turn's winner, the hock) arrived."""
    for t, line in arrivals:
        if t < after or not line.startswith(b"$PFARO"):
            continue
        try:
            item = pfaro.decode(pfaro.parse(line))
        except pfaro.InvalidSentenceError:
            continue
        if isinstance(item, Soda | Hock) and item.card == card:
            return t
        if isinstance(item, Turn | LastTurn) and item.winner == card:
            return t
    return None


def _percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


if __name__ == "__main__":
    sys.exit(main())
