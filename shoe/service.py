"""The service's main loop: frames in, the deal in the middle, journal and outputs out.

One thread runs the loop. Each pass it answers whatever is waiting (signals, the control
socket, buttons), looks at one camera frame, hands any new exposure to the deal, journals
the call (fsynced) and then tells the outputs. Outputs return at once: each slow device has
its own thread and shows the latest whole state (see :class:`shoe.parts.Latest`), so the
camera never waits on a display or a servo. After a healthy pass the loop pings the systemd
watchdog.

Signal handlers only write a byte to a socketpair that the loop selects on: SIGTERM and
SIGINT stop cleanly (journal flushed, STOPPING sent), SIGHUP reloads the config.
"""

from __future__ import annotations

import logging
import selectors
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

from casekeeper import Case
from shoe import journal as journal_module
from shoe.cards import Card, FaroError
from shoe.config import Config
from shoe.control import ControlServer, Inbox, Reply
from shoe.deal import Deal, DealStateError, IllegalCorrectionError
from shoe.describe import describe
from shoe.events import DeckStarted, Event, to_json
from shoe.journal import Journal, ReadRecord

# The parts the loop talks to live in shoe.parts; they stay importable from here, where the
# composition root, the commands and the tests have always found them.
from shoe.parts import (
    CameraTroubleError,
    Exposure,
    Eyes,
    Latest,
    Notifier,
    Output,
    Parts,
    ShoeState,
)

__all__ = [
    "CameraTroubleError",
    "Exposure",
    "Eyes",
    "Latest",
    "Notifier",
    "Output",
    "Parts",
    "Service",
    "ShoeState",
    "open_deal",
]

log = logging.getLogger("faro-shoe")


def open_deal(config: Config) -> tuple[Journal, Deal]:
    """The deal in progress from the newest journal, replayed, or a new one."""
    try:
        record = journal_module.latest(config.journal_dir)
    except journal_module.JournalError:
        newest = journal_module.journal_paths(config.journal_dir)[-1]
        if b"\n" in newest.read_bytes():
            raise  # damage past the header is no power cut's doing: a person must look
        # A power cut while the new deal's header was written: no card was in it yet.
        newest.rename(newest.with_suffix(".torn"))
        log.warning("%s: a new deal's header was cut off; set aside", newest.name)
        record = journal_module.latest(config.journal_dir)
    if record is not None:
        deal = record.deal()
        if not (deal.is_finished or deal.is_voided):
            log.info("resuming deal %s: %d cards exposed%s", record.deal_id, deal.exposed,
                     ", a read held" if deal.flag else "")
            return Journal.resume(record), deal
    journal = Journal.new(config.journal_dir, config.settings)
    log.info("new deal %s", journal.deal_id)
    return journal, Deal(config.settings)


Rebuild = Callable[[Config, Deal], Parts]
Reload = Callable[[], Config]


class Service:
    """The loop. ``rebuild`` builds parts from a config (on SIGHUP, from ``reload``)."""

    def __init__(self, config: Config, journal: Journal, deal: Deal, parts: Parts,
                 notifier: Notifier, inbox: Inbox, *, control: ControlServer | None = None,
                 reload: Reload | None = None, rebuild: Rebuild | None = None,
                 stop_when_finished: bool = False, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.config = config
        self.journal = journal
        self.deal = deal
        self.parts = parts
        self.notifier = notifier
        self.inbox = inbox
        self.control = control
        self._reload = reload
        self._rebuild = rebuild
        self._stop_when_finished = stop_when_finished
        self._clock = clock
        self._stopping = False
        self._alert: str | None = None  # the camera's trouble, shown on the outputs
        self._box_closed = False  # between turns: the operator closed the box
        # The next exposure may be the last accepted card, still lying in view: true after a
        # (re)start, a camera reopen and a re-read, until the first exposure comes.
        self._card_in_view = True
        self._dealt_while_held: list[Exposure] = []
        self._held_why: str | None = None  # why the camera's read now held is (Exposure.why)
        self._last_ping = float("-inf")
        self._selector = selectors.DefaultSelector()
        self._selector.register(inbox, selectors.EVENT_READ, "inbox")
        if control is not None:
            self._selector.register(control, selectors.EVENT_READ, "control")

    # -- running ----------------------------------------------------------------------------

    def run(self) -> int:
        """Run until stopped; returns the exit status."""
        self._install_signals()
        self._publish((), redraw=True)
        self.notifier.ready(self._status_line())
        log.info("ready: deal %s, %d cards exposed", self.journal.deal_id, self.deal.exposed)
        try:
            while not self._stopping:
                idle = self.parts.eyes.ended or self._alert is not None or self._is_done()
                self._answer_waiting(timeout=0.05 if idle else 0.0)
                if not self._stopping and not self.parts.eyes.ended:
                    self._look()
                self._healthy_pass()
                if self._stop_when_finished and self._is_done():
                    break
        finally:
            self._shut_down()
        return 0

    def stop(self) -> None:
        self._stopping = True

    def _is_done(self) -> bool:
        return self.deal.is_finished or self.deal.is_voided

    def _install_signals(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return  # the demo's or a test's thread: the caller stops it with stop()
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(signum, self.inbox.signal)

    def _answer_waiting(self, timeout: float) -> None:
        for key, _ in self._selector.select(timeout):
            if key.data == "control" and self.control is not None:
                self.control.serve_one(self.handle)
            elif key.data == "inbox":
                signals, ops = self.inbox.drain()
                for signum in signals:
                    self._on_signal(signum)
                for op, args in ops:
                    reply = self.handle({"op": op, **args}, source="button")
                    if not reply.get("ok"):
                        log.warning("%s: %s", op, reply.get("error"))

    def _on_signal(self, signum: int) -> None:
        if signum == signal.SIGHUP:
            self.reload()
        else:
            log.info("stopping on %s", signal.Signals(signum).name)
            self._stopping = True

    def _look(self) -> None:
        try:
            exposures = self.parts.eyes.look()
        except CameraTroubleError as exc:
            if self._alert is None:
                log.error("camera: %s; reopening it", exc)
                self._alert = "CAMERA LOST"
                self.notifier.status(f"camera lost: {exc}")
                self._publish(())
            return
        if self._alert is not None:
            log.info("camera: frames again")
            self._card_in_view = True
            self._alert = None
            self.notifier.status(self._status_line())
            self._publish((), redraw=True)
        if self._box_closed:
            return  # hands over the box while bets are placed are not cards
        for exposure in exposures:
            self._expose(exposure)

    def _healthy_pass(self) -> None:
        interval = self.notifier.watchdog_interval
        now = self._clock()
        if interval and now - self._last_ping >= interval / 4:
            self.notifier.watchdog()
            self._last_ping = now

    def _shut_down(self) -> None:
        self.notifier.stopping()
        log.info("stopping: journal %s flushed", self.journal.path.name)
        self.journal.close()
        self.parts.close()
        if self.control is not None:
            self.control.close()
        self._selector.close()

    # -- the deal ---------------------------------------------------------------------------

    def _expose(self, exposure: Exposure) -> None:
        reading = exposure.reading
        if self._is_done():
            log.warning("a card showed after the deal ended; ignored (start a new deck)")
            return
        in_view, self._card_in_view = self._card_in_view, False
        cards = self.deal.cards
        if in_view and exposure.sure and cards and reading.card == cards[-1]:
            # The last card accepted, still in the window after a restart or a reopen.
            log.info("%s is still in view", reading.card.code if reading.card else "?")
            return
        if self.deal.flag is not None:
            # The dealer went on while CHECK CARD showed: keep the read, in order, for when
            # the held one is resolved, rather than lose a card.
            log.warning("a card showed while card %d is held; it follows once that is resolved",
                        self.deal.flag.exposure + 1)
            self._dealt_while_held.append(exposure)
            return
        events = self.deal.expose(reading.card, sure=exposure.sure)
        self._record(events, "camera", ReadRecord(reading.card, reading.confidence))
        # Why the camera's read is held, for the operator: glare over the card sends them to
        # the lamp, where correcting card after card would not help.
        self._held_why = exposure.why if self.deal.flag is not None else None
        if self.deal.flag is not None and self._held_why:
            log.warning("card %d held: %s", self.deal.flag.exposure + 1, self._held_why)

    def _reread(self) -> None:
        """The card in view is to be read again: what the camera saw meanwhile is void."""
        self.parts.eyes.reread()
        self._card_in_view = True
        if self._dealt_while_held:
            log.warning("%d card(s) seen while a card was held are dropped; deal them again "
                        "or correct them", len(self._dealt_while_held))
            self._dealt_while_held.clear()

    def _follow_held(self) -> None:
        """Cards seen while a read was held, taken now that it is resolved (one may hold again)."""
        while self._dealt_while_held and self.deal.flag is None and not self._is_done():
            self._expose(self._dealt_while_held.pop(0))

    def _record(self, events: list[Event], source: str, read: ReadRecord | None = None) -> None:
        """Journal the deal's last call (on disk before anything else hears of it), then tell."""
        action = self.deal.last_action
        assert action is not None  # a call was just made
        self.journal.append(action, events, source=source, read=read)
        self._publish(tuple(events))

    def handle(self, request: dict[str, Any], source: str = "control") -> Reply:
        """Do one operator request (control socket or button); the reply says how it went."""
        op = request.get("op")
        try:
            if op == "status":
                return {"ok": True, "message": self._status_line(), "state": self._state_json()}
            if op == "new_deck":
                return self._new_deck()
            if op == "close_box":
                self._box_closed = not self._box_closed
                if not self._box_closed:
                    self._reread()
                log.info("box %s by %s", "closed" if self._box_closed else "open", source)
                self._publish((), redraw=True)
                return {"ok": True, "message": "box closed" if self._box_closed else "box open"}
            if op == "beam":
                self.parts.eyes.beam(float(request["t"]))
                return {"ok": True}
            if op == "correct":
                events = self.deal.correct(Card.parse(str(request.get("card"))))
            elif op == "confirm":
                events = self.deal.confirm()
            elif op == "undo":
                events = self.deal.undo()
                self._reread()
            elif op == "void":
                events = self.deal.void()
            else:
                return {"ok": False, "error": f"unknown request {op!r}", "kind": "bad_input"}
        except (IllegalCorrectionError, ValueError) as exc:
            return {"ok": False, "error": str(exc), "kind": "bad_input"}
        except DealStateError as exc:
            return {"ok": False, "error": str(exc), "kind": "refused"}
        self._record(events, source)
        message = "; ".join(describe(e, symbols=False) for e in events) or "done"
        log.info("%s by %s: %s", op, source, message)
        self._follow_held()
        return {"ok": True, "message": message, "state": self._state_json()}

    def _new_deck(self) -> Reply:
        if not self._is_done() and self.deal.exposed:
            return {"ok": False, "kind": "refused",
                    "error": f"deal {self.journal.deal_id} is in progress with "
                             f"{self.deal.exposed} cards; void it first"}
        self.journal.close()
        self.journal = Journal.new(self.config.journal_dir, self.config.settings)
        self.deal = Deal(self.config.settings)
        self._reread()
        log.info("new deal %s", self.journal.deal_id)
        self._publish((DeckStarted(self.config.settings.variant),))
        return {"ok": True, "message": f"new deal {self.journal.deal_id}",
                "state": self._state_json()}

    def reload(self) -> None:
        """SIGHUP: read the config again; a bad one is reported and the old one kept."""
        if self._reload is None or self._rebuild is None:
            return
        self.notifier.reloading()
        try:
            config = self._reload()
        except FaroError as exc:
            log.error("reload refused, keeping the running config: %s", exc)
            self.notifier.ready(self._status_line())
            return
        # The old parts let go of their pins, ports and camera before the new ones claim them.
        self.parts.close()
        try:
            self.parts = self._rebuild(config, self.deal)
        except FaroError as exc:
            log.error("reload refused, back to the running config: %s", exc)
            self.parts = self._rebuild(self.config, self.deal)
        else:
            self.config = config
            if config.settings != self.deal.settings:
                log.info("the new deal settings apply from the next deck")
            log.info("config reloaded from %s", config.source)
        self._publish((), redraw=True)
        self.notifier.ready(self._status_line())

    # -- telling the outputs ----------------------------------------------------------------

    def _publish(self, new: tuple[Event, ...], *, redraw: bool = False) -> None:
        events = tuple(self.deal.events)
        if redraw and not new:
            new = (self.deal.flag.event,) if self.deal.flag else events[-1:]
        state = ShoeState(
            deal_id=self.journal.deal_id, events=events, new=new,
            case=Case.from_events(events), flag=self.deal.flag, exposed=self.deal.exposed,
            finished=self.deal.is_finished, voided=self.deal.is_voided,
            alert=self._alert or ("BOX CLOSED" if self._box_closed else None),
            redraw=redraw,
        )
        for output in self.parts.outputs:
            try:
                output.update(state)
            except Exception:  # one broken output must not stop the deal
                log.exception("output %r failed", output)

    def _status_line(self) -> str:
        why = f": {self._held_why}" if self.deal.flag and self._held_why else ""
        held = f", exposure {self.deal.flag.exposure} held{why}" if self.deal.flag else ""
        done = " (finished)" if self.deal.is_finished else " (void)" if self.deal.is_voided else ""
        return f"deal {self.journal.deal_id}: {self.deal.exposed} cards{held}{done}"

    def _state_json(self) -> dict[str, Any]:
        flag = self.deal.flag
        last = self.deal.events[-1]
        return {
            "deal": self.journal.deal_id,
            "exposed": self.deal.exposed,
            "finished": self.deal.is_finished,
            "voided": self.deal.is_voided,
            "held": to_json(flag.event) if flag else None,
            "held_why": self._held_why if flag else None,
            "last": to_json(last),
            "camera": self._alert or "ok",
        }
