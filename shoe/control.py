"""The control socket: how `faro-shoe correct/undo/confirm/…` reach the running service.

A Unix stream socket in the state directory, mode 0660 and owned by the state directory's
group, so only the service's user and group may use it. One request a connection: the client
sends one JSON line ``{"op": "correct", "card": "QH"}``, the service answers one JSON line
``{"ok": true, "message": "…", "state": {…}}`` or ``{"ok": false, "error": "…", "kind": …}``.

The server side never blocks the service for long: the loop selects on :attr:`ControlServer
.fileno` and calls :meth:`ControlServer.serve_one` when a client is waiting. Buttons (from
gpiozero's threads) and signal handlers reach the loop through an :class:`Inbox`.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import socket
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shoe.cards import FaroError

__all__ = [
    "OPS",
    "BadRequestError",
    "ControlError",
    "ControlServer",
    "Inbox",
    "Reply",
    "ServiceRefusedError",
    "request",
]

#: Operations the service answers.
OPS = ("status", "correct", "confirm", "undo", "void", "new_deck")
MAX_REQUEST = 4096
CLIENT_TIMEOUT = 0.5  # a local client that says nothing for this long is dropped
log = logging.getLogger(__name__)

Reply = dict[str, Any]
Handler = Callable[[dict[str, Any]], Reply]


class ControlError(FaroError, OSError):
    """No service answers on the control socket, or it cannot be used."""


class ServiceRefusedError(FaroError, RuntimeError):
    """The service took the request but could not do it (no read held, deal over …)."""


class ControlServer:
    """The listening socket, created with the permissions that keep it to one group."""

    def __init__(self, path: Path, group_from: Path | None = None) -> None:
        self.path = path
        _remove_stale(path)
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC)
        old_umask = os.umask(0o117)  # bind creates the file: never let it be world-usable
        try:
            self._socket.bind(str(path))
        finally:
            os.umask(old_umask)
        os.chmod(path, 0o660)
        if group_from is not None:
            gid = os.stat(group_from).st_gid
            try:
                os.chown(path, -1, gid)
            except PermissionError:
                log.warning("%s: cannot give the control socket to group %d", path, gid)
        self._socket.listen(8)
        self._socket.setblocking(False)

    def fileno(self) -> int:
        return self._socket.fileno()

    def serve_one(self, handler: Handler) -> None:
        """Accept one waiting client, answer its request with ``handler``; never raises."""
        try:
            client, _ = self._socket.accept()
        except (BlockingIOError, InterruptedError):
            return
        with client:
            client.settimeout(CLIENT_TIMEOUT)
            try:
                request = _receive(client)
            except (OSError, ValueError) as exc:
                log.warning("control: bad request: %s", exc)
                _send(client, {"ok": False, "error": f"bad request: {exc}", "kind": "bad_input"})
                return
            try:
                reply = handler(request)
            except Exception as exc:  # one bad request must not take the service down
                log.exception("control: %s failed", request.get("op"))
                reply = {"ok": False, "error": f"internal error: {exc}", "kind": "failed"}
            with contextlib.suppress(OSError):
                _send(client, reply)

    def close(self) -> None:
        self._socket.close()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()


def request(path: Path, op: str, args: dict[str, Any] | None = None,
            timeout: float = 5.0) -> Reply:
    """Send one request to the service and return its reply (``reply["ok"]`` is True).

    Raises ControlError when no service answers, ServiceRefusedError when it refuses.
    """
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    with sock:
        try:
            sock.connect(str(path))
        except (FileNotFoundError, ConnectionRefusedError):
            raise ControlError(f"no faro-shoe service is listening on {path}") from None
        except PermissionError:
            raise ControlError(
                f"{path}: permission denied; the control socket is for the service's group "
                "(add yourself to it, or use sudo -u)"
            ) from None
        try:
            _send(sock, {"op": op, **(args or {})})
            reply = _receive(sock)
        except (OSError, ValueError) as exc:
            raise ControlError(f"{path}: the service did not answer: {exc}") from None
    if not reply.get("ok"):
        error = str(reply.get("error", "refused"))
        if reply.get("kind") == "bad_input":
            raise BadRequestError(error)
        raise ServiceRefusedError(error)
    return reply


class BadRequestError(FaroError, ValueError):
    """The service said the request itself was wrong (a card that is not a card …)."""


def _send(sock: socket.socket, data: Reply) -> None:
    sock.sendall(json.dumps(data).encode() + b"\n")


def _receive(sock: socket.socket) -> dict[str, Any]:
    buffer = b""
    while not buffer.endswith(b"\n"):
        chunk = sock.recv(MAX_REQUEST)
        if not chunk:
            break
        buffer += chunk
        if len(buffer) > MAX_REQUEST * 16:
            raise ValueError("message too long")
    data = json.loads(buffer)
    if not isinstance(data, dict):
        raise ValueError(f"expected a JSON object, got {buffer[:80]!r}")
    return data


def _remove_stale(path: Path) -> None:
    """A socket left by a killed service is removed; a live one means a second service."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        raise ControlError(f"{path}: exists and is not a socket")
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    with probe:
        try:
            probe.connect(str(path))
        except OSError:
            path.unlink()
            return
    raise ControlError(f"{path}: another faro-shoe service is already running")


class Inbox:
    """Work for the loop from other threads and from signal handlers, behind one fd."""

    def __init__(self) -> None:
        self._read, self._write = socket.socketpair()
        self._read.setblocking(False)
        self._write.setblocking(False)
        self._ops: queue.SimpleQueue[tuple[str, dict[str, Any]]] = queue.SimpleQueue()

    def fileno(self) -> int:
        return self._read.fileno()

    def post(self, op: str, **args: Any) -> None:
        """From any thread (a button's callback): ask the loop to do ``op``."""
        self._ops.put((op, args))
        self._wake(b"\0")

    def signal(self, signum: int, _frame: object = None) -> None:
        """A signal handler: only a byte to the socketpair, nothing that takes a lock."""
        self._wake(bytes([signum]))

    def drain(self) -> tuple[list[int], list[tuple[str, dict[str, Any]]]]:
        signals: list[int] = []
        with contextlib.suppress(BlockingIOError):
            while data := self._read.recv(256):
                signals.extend(b for b in data if b)
        ops = []
        while not self._ops.empty():
            ops.append(self._ops.get_nowait())
        return signals, ops

    def close(self) -> None:
        self._read.close()
        self._write.close()

    def _wake(self, byte: bytes) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            self._write.send(byte)
