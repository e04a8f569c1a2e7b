"""sd_notify without libsystemd: AF_UNIX datagrams to ``$NOTIFY_SOCKET``.

Outside systemd (no ``$NOTIFY_SOCKET``) every call does nothing and returns False, so the
service runs the same in a terminal. A ``$NOTIFY_SOCKET`` starting with ``@`` names a socket
in the abstract namespace.

>>> notifier = Notifier.from_environment({})
>>> notifier.ready()
False
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping

__all__ = ["Notifier", "is_under_systemd"]


class Notifier:
    """Sends READY=1, STOPPING=1, WATCHDOG=1 and STATUS= to the service manager.

    Call it from the main loop only: a watchdog ping must mean the loop itself is healthy.
    """

    def __init__(self, address: str | None, watchdog_usec: int | None = None) -> None:
        self.address = address
        #: How often the manager expects a ping, in seconds (None: no watchdog).
        self.watchdog_interval = watchdog_usec / 1e6 if watchdog_usec else None
        self._socket: socket.socket | None = None

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Notifier:
        """Read ``$NOTIFY_SOCKET``, ``$WATCHDOG_USEC`` and ``$WATCHDOG_PID``."""
        env = os.environ if environ is None else environ
        usec: int | None = None
        pid = env.get("WATCHDOG_PID")
        if env.get("WATCHDOG_USEC", "").isdigit() and (pid is None or pid == str(os.getpid())):
            usec = int(env["WATCHDOG_USEC"])
        return cls(env.get("NOTIFY_SOCKET") or None, usec)

    def notify(self, *fields: str) -> bool:
        """Send ``KEY=value`` fields in one datagram; False when there is nobody to tell."""
        if not self.address:
            return False
        address = self.address
        if address.startswith("@"):
            address = "\0" + address[1:]
        if self._socket is None:
            self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
        try:
            # Never wait on the manager: a full queue drops this message, it does not stall
            # the main loop (which is what a watchdog ping is meant to prove alive).
            self._socket.sendto("\n".join(fields).encode(), socket.MSG_DONTWAIT, address)
        except OSError:
            # The manager went away, never was, or is not reading: the service goes on.
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        return self.notify("READY=1", *([f"STATUS={status}"] if status else []))

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")

    def reloading(self) -> bool:
        return self.notify("RELOADING=1")

    def watchdog(self) -> bool:
        return self.notify("WATCHDOG=1")

    def status(self, text: str) -> bool:
        return self.notify(f"STATUS={text}")

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None


def is_under_systemd(environ: Mapping[str, str] | None = None) -> bool:
    """True when systemd started this process (a unit sets ``$INVOCATION_ID``)."""
    env = os.environ if environ is None else environ
    return bool(env.get("INVOCATION_ID") or env.get("NOTIFY_SOCKET"))
