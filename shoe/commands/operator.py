"""Operator commands for a running service: correct, undo, confirm, void, new-deck, status.

Each sends one request over the control socket in the state directory (see
:mod:`shoe.control`); only the service's group may use it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from shoe.cards import Card
from shoe.config import DEFAULT_CONFIG_PATH

#: name -> (one-line help, description, examples)
COMMANDS = {
    "correct": ("name the held card (a misread or unsure read)",
                "Name the card the box is holding for a check (a misread or an unsure read).",
                "  faro-shoe correct QH\n  faro-shoe correct 10S --config ./config.toml"),
    "undo": ("take back the held read, or the last card",
             "Take back the held read, or the last card accepted when nothing is held.",
             "  faro-shoe undo"),
    "confirm": ("accept an unsure read as the reader gave it",
                "Accept a held read as the reader gave it (only for an unsure read).",
                "  faro-shoe confirm"),
    "void": ("end the deal in progress where it stands",
             "End the deal in progress where it stands: it settles nothing more.",
             "  faro-shoe void"),
    "new-deck": ("start a new deal (the shuffled deck is in the box)",
                 "Start a new deal: the shuffled deck is in the box.",
                 "  faro-shoe new-deck"),
    "status": ("show the running service's deal",
               "Show the deal in progress: cards exposed, the held read if any, and why the "
               "camera held it (an unsure or unread card; glare that shows the card's face "
               "white, which holds card after card until the lamp is angled or dimmed).",
               "  faro-shoe status --json"),
}


def register(subparsers: argparse._SubParsersAction) -> None:
    for name, (summary, description, examples) in COMMANDS.items():
        parser = subparsers.add_parser(
            name, help=summary, description=description,
            epilog="examples:\n" + examples +
                   "\n\nThe service must be running (faro-shoe run); the command reaches it "
                   "through the control socket in its state directory.",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        if name == "correct":
            parser.add_argument("card", help="the card's code: QH, 10S, TS, 7♦ …")
        parser.add_argument("--config", type=Path, default=None,
                            help=f"the service's config (default {DEFAULT_CONFIG_PATH}), "
                                 "for its state directory")
        parser.add_argument("--socket", type=Path, default=None,
                            help="the control socket itself (instead of --config)")
        parser.add_argument("--json", action="store_true", help="print the reply as JSON")
        parser.set_defaults(func=run, op=name.replace("-", "_"))


def socket_path(config: Path | None, socket: Path | None) -> Path:
    """The control socket named by --socket, or the one in the config's state directory."""
    from shoe import config as config_module

    if socket is not None:
        return socket
    if config is None and not DEFAULT_CONFIG_PATH.exists():
        return config_module.Config().control_socket
    return config_module.load(config or DEFAULT_CONFIG_PATH).control_socket


def run(args: argparse.Namespace) -> int:
    from shoe import control

    extra: dict[str, str] = {}
    if args.op == "correct":
        extra["card"] = Card.parse(args.card).code  # a bad code stops here with exit 2
    path = socket_path(args.config, args.socket)
    try:
        reply = control.request(path, args.op, extra)
    except (control.ServiceRefusedError, control.ControlError) as exc:
        print(f"faro-shoe {args.command}: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(reply, ensure_ascii=False))
    else:
        print(reply.get("message", "done"))
    return 0
