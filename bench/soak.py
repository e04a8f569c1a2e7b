#!/usr/bin/env python3
"""Soak the service as real processes: power cuts, display unplugs, memory, start-to-READY.

    .venv/bin/python bench/soak.py                  # 50 kills, the figures as a table
    .venv/bin/python bench/soak.py --kills 10 --json soak.json

- **power cut**: `faro-shoe run` (simulated camera) is killed with SIGKILL at random moments
  of a deal and started again, until the deal is over; every deal's journal must then hold
  the simulator's 52 cards in order, each once (no card lost, none doubled).
- **display unplugged**: the display's pty is closed mid-deal and a new one put behind the
  same path (as /dev/serial/by-id does on a replug); the screen must come back and the
  journal hold every card.
- **resources**: resident memory of `run` over a whole deal (peak VmHWM and VmRSS) and the
  time from exec to READY=1 on $NOTIFY_SOCKET.

Timings are of this machine under whatever else runs on it; repeat for a steadier figure.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from shoe import control, journal  # noqa: E402
from shoe.cards import Card  # noqa: E402


def truth(seed: int) -> list[Card]:
    """The order the simulated camera deals for ``seed``."""
    from hardware.cameras.simulated import shuffled_deck

    return list(shuffled_deck(seed))


class NotifyListener:
    """A datagram socket standing in for systemd's: collects every message with its time."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / "notify"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(self.path))
        self.sock.settimeout(0.1)
        self.messages: list[tuple[float, str]] = []
        self._lock = threading.Condition()
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop:
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                return
            with self._lock:
                self.messages.append((time.monotonic(), data.decode()))
                self._lock.notify_all()

    def wait_for(self, field_: str, since: float, timeout: float) -> float | None:
        """The time of the first message holding ``field_`` after ``since``."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                for t, text in self.messages:
                    if t >= since and field_ in text.split("\n"):
                        return t
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._lock.wait(left)

    def close(self) -> None:
        self._stop = True
        self.sock.close()


@dataclass
class Service:
    """One `faro-shoe run` process."""

    config: Path
    notify: NotifyListener
    log: Path
    proc: subprocess.Popen[bytes] | None = None
    started: float = 0.0

    def start(self) -> None:
        path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)
        env = dict(os.environ, NOTIFY_SOCKET=str(self.notify.path), WATCHDOG_USEC="5000000",
                   PYTHONPATH=path)
        env.pop("WATCHDOG_PID", None)
        self.started = time.monotonic()
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "shoe.cli", "run", "--config", str(self.config)],
                cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
            )

    def wait_ready(self, timeout: float = 60.0) -> float:
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while (t := self.notify.wait_for("READY=1", self.started, 0.2)) is None:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                tail = self.log.read_text(errors="replace").splitlines()[-5:]
                raise RuntimeError(f"no READY (exit status {self.proc.returncode}): "
                                   + " / ".join(tail))
        return t - self.started

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(30)

    def memory_kb(self) -> dict[str, int]:
        assert self.proc is not None
        out = {}
        with open(f"/proc/{self.proc.pid}/status") as status:
            for line in status:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    out[key] = int(value.split()[0])
        return out


def write_config(directory: Path, seed: int, pace: float, **display: str) -> Path:
    lines = [f'state_dir = "{directory / "state"}"', "[camera]", 'source = "sim"',
             f"seed = {seed}", f"pace = {pace}"]
    if display:
        lines.append("[display]")
        lines += [f'{k} = "{v}"' for k, v in display.items()]
    path = directory / "config.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def current(directory: Path) -> Any:
    return journal.latest(directory / "state" / "deals")


def _finished(directory: Path) -> bool:
    record = current(directory)
    return record is not None and record.deal().is_finished


def resolve_held(directory: Path, cards: list[Card], flags: list[str]) -> None:
    """A read the service holds (the reader unsure) is corrected to the truth, and counted."""
    record = current(directory)
    if record is None:
        return
    deal = record.deal()
    if deal.flag is None:
        return
    flags.append(f"{deal.flag.reason.value} at {deal.flag.exposure}")
    socket_path = directory / "state" / "control.sock"
    # Killed meanwhile: the next start holds the read again and it is corrected then.
    with contextlib.suppress(control.ControlError):
        control.request(socket_path, "correct", {"card": cards[deal.flag.exposure].code})


@dataclass
class DealCheck:
    seed: int
    kills: int
    cards_ok: bool
    exposed: int
    flags: list[str] = field(default_factory=list)
    problem: str = ""


def power_cuts(base: Path, kills_wanted: int, pace: float, seed0: int,
               rng: random.Random) -> dict[str, Any]:
    checks: list[DealCheck] = []
    ready_times: list[float] = []
    kills = 0
    seed = seed0
    while kills < kills_wanted:
        directory = base / f"power-{seed}"
        directory.mkdir()
        notify = NotifyListener(directory)
        config = write_config(directory, seed, pace)
        cards = truth(seed)
        check = DealCheck(seed, 0, False, 0)
        service = Service(config, notify, directory / "service.log")
        while True:
            if _finished(directory):
                break  # finished just before the kill: a new start would begin a new deal
            service.start()
            ready_times.append(service.wait_ready())
            deadline = time.monotonic() + rng.uniform(0.05, 3.0)
            finished = False
            while time.monotonic() < deadline:
                if _finished(directory):
                    finished = True
                    break
                resolve_held(directory, cards, check.flags)
                time.sleep(0.02)
            if finished or kills >= kills_wanted:
                break
            service.kill9()
            kills += 1
            check.kills += 1
        # Let the last run finish the deal without a kill.
        stopped = service.proc is None or service.proc.poll() is not None
        if stopped and not _finished(directory):
            service.start()
            service.wait_ready()
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline and not _finished(directory):
            resolve_held(directory, cards, check.flags)
            time.sleep(0.05)
        if service.proc is not None and service.proc.poll() is None:
            service.stop()
        notify.close()
        record = current(directory)
        deal = record.deal() if record else None
        check.exposed = deal.exposed if deal else 0
        check.cards_ok = deal is not None and list(deal.cards) == cards
        if not check.cards_ok and deal is not None:
            got = [c.code for c in deal.cards]
            want = [c.code for c in cards]
            pairs = enumerate(zip(got, want, strict=False))
            first = next((i for i, (a, b) in pairs if a != b), len(got))
            check.problem = f"first difference at exposure {first}: {got[first:first + 3]} " \
                            f"vs {want[first:first + 3]}"
        checks.append(check)
        print(f"  deal seed {seed}: {check.kills} kills, {check.exposed} cards, "
              f"{'clean' if check.cards_ok else 'WRONG ' + check.problem}"
              f"{', reader flags: ' + '; '.join(check.flags) if check.flags else ''}",
              flush=True)
        seed += 1
    clean = sum(c.kills for c in checks if c.cards_ok)
    return {
        "kills": kills, "kills_in_clean_deals": clean, "deals": len(checks),
        "deals_clean": sum(c.cards_ok for c in checks),
        "reader_flags": sum(len(c.flags) for c in checks),
        "ready_s_median": round(statistics.median(ready_times), 3),
        "ready_s_max": round(max(ready_times), 3),
        "details": [c.__dict__ for c in checks],
    }


def display_unplug(base: Path, pace: float, seed: int) -> dict[str, Any]:
    directory = base / "unplug"
    directory.mkdir()
    link = directory / "display"
    master, slave = os.openpty()
    os.symlink(os.ttyname(slave), link)
    notify = NotifyListener(directory)
    config = write_config(directory, seed, pace, model="pfaro", port=str(link))
    received: list[tuple[float, bytes]] = []
    stop = threading.Event()

    def listen(fd: int) -> None:
        import select

        while not stop.is_set():
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    return
                received.append((time.monotonic(), data))

    service = Service(config, notify, directory / "service.log")
    service.start()
    service.wait_ready()
    listener = threading.Thread(target=listen, args=(master,), daemon=True)
    listener.start()
    cards = truth(seed)
    flags: list[str] = []
    while (rec := current(directory)) is None or rec.deal().exposed < 15:
        resolve_held(directory, cards, flags)
        time.sleep(0.05)
    # Unplug: the far end goes away, the device node with it.
    os.close(master)
    os.close(slave)
    link.unlink()
    unplugged = time.monotonic()
    time.sleep(1.5)
    master, slave = os.openpty()
    os.symlink(os.ttyname(slave), link)
    replugged = time.monotonic()
    listener = threading.Thread(target=listen, args=(master,), daemon=True)
    listener.start()
    deadline = time.monotonic() + 600
    while (rec := current(directory)) is None or not rec.deal().is_finished:
        resolve_held(directory, cards, flags)
        time.sleep(0.05)
        if time.monotonic() > deadline:
            break
    time.sleep(0.5)
    service.stop()
    stop.set()
    notify.close()
    os.close(master)
    os.close(slave)
    after = [t for t, data in received if t > replugged and data]
    record = current(directory)
    return {
        "exposed_at_unplug": "≥15",
        "screen_back_after_s": round(after[0] - replugged, 3) if after else None,
        "bytes_after_replug": sum(len(d) for t, d in received if t > replugged),
        "journal_cards_ok": record is not None and list(record.deal().cards) == cards,
        "unplugged_for_s": round(replugged - unplugged, 2),
        "reader_flags": flags,
    }


def resources(base: Path, pace: float, seed: int, starts: int) -> dict[str, Any]:
    directory = base / "resources"
    directory.mkdir()
    notify = NotifyListener(directory)
    config = write_config(directory, seed, pace)
    ready: list[float] = []
    for _ in range(starts):
        service = Service(config, notify, directory / "service.log")
        service.start()
        ready.append(service.wait_ready())
        service.stop()
    service = Service(config, notify, directory / "service.log")
    service.start()
    service.wait_ready()
    peak = {"VmRSS": 0, "VmHWM": 0}
    cards = truth(seed)
    flags: list[str] = []
    deadline = time.monotonic() + 600
    while (rec := current(directory)) is None or not rec.deal().is_finished:
        for key, value in service.memory_kb().items():
            peak[key] = max(peak[key], value)
        resolve_held(directory, cards, flags)
        time.sleep(0.1)
        if time.monotonic() > deadline:
            break
    peak["VmHWM"] = max(peak["VmHWM"], service.memory_kb()["VmHWM"])
    service.stop()
    notify.close()
    return {
        "ready_s": [round(r, 3) for r in ready],
        "ready_s_median": round(statistics.median(ready), 3),
        "rss_mb_max_sampled": round(peak["VmRSS"] / 1024, 1),
        "rss_mb_peak_hwm": round(peak["VmHWM"] / 1024, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--pace", type=float, default=240.0,
                        help="the simulated dealer's cards per minute (default 240)")
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--starts", type=int, default=5, help="starts timed to READY")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument("--only", choices=["power", "unplug", "resources"], action="append")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    only = set(args.only or ["power", "unplug", "resources"])
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="faro-soak-") as tmp:
        base = Path(tmp)
        if "resources" in only:
            print("resources …", flush=True)
            results["resources"] = resources(base, args.pace, args.seed, args.starts)
            print(f"  {results['resources']}", flush=True)
        if "unplug" in only:
            print("display unplugged …", flush=True)
            results["display_unplug"] = display_unplug(base, args.pace, args.seed + 1)
            print(f"  {results['display_unplug']}", flush=True)
        if "power" in only:
            print(f"power cuts ({args.kills} kills) …", flush=True)
            results["power_cut"] = power_cuts(base, args.kills, args.pace, args.seed + 2, rng)
            summary = {k: v for k, v in results["power_cut"].items() if k != "details"}
            print(f"  {summary}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False))
    power = results.get("power_cut")
    ok = power is None or power["deals_clean"] == power["deals"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
