"""``faro-shoe history``: the deals in the journal, and any one's cue sheet."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from shoe.cards import FaroError
from shoe.config import DEFAULT_CONFIG_PATH

EPILOG = """\
examples:
  faro-shoe history                          # every deal, oldest first
  faro-shoe history 20261122-201500          # that deal's cue sheet
  faro-shoe history last --json              # the newest deal as JSON
  faro-shoe history --state-dir /tmp/faro-demo-x1y2

Deals are found in the state directory of the config (default /etc/faro-shoe/config.toml),
or --state-dir. A deal may be named by its id, a unique prefix of it, or "last".
"""


class UnknownDealError(FaroError, LookupError):
    """No deal in the journal by that name."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "history", help="list past deals, or print one deal's cue sheet",
        description="List the deals in the service's journal, or print one deal's cue sheet.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("deal", nargs="?", help="a deal's id (or a prefix of it, or 'last')")
    parser.add_argument("--config", type=Path, default=None,
                        help=f"the service's config, for its state directory "
                             f"(default {DEFAULT_CONFIG_PATH})")
    parser.add_argument("--state-dir", type=Path, default=None,
                        help="the state directory itself (instead of --config)")
    parser.add_argument("--json", action="store_true", help="JSON instead of text")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from shoe import journal

    directory = _state_dir(args.config, args.state_dir) / "deals"
    paths = journal.journal_paths(directory)
    if args.deal is None:
        rows = [_summary(journal.read(p)) for p in paths]
        if args.json:
            for row in rows:
                print(json.dumps(row, ensure_ascii=False))
        elif not rows:
            print(f"no deals in {directory}")
        else:
            print(f"{'deal':<20} {'started (UTC)':<20} {'cards':>5} {'splits':>6}  status")
            for r in rows:
                print(f"{r['deal']:<20} {r['started']:<20} {r['exposed']:>5} {r['splits']:>6}"
                      f"  {r['status']}")
        return 0
    record = journal.read(_find(paths, args.deal))
    return _print_sheet(record, as_json=args.json)


def _state_dir(config: Path | None, state_dir: Path | None) -> Path:
    from shoe import config as config_module

    if state_dir is not None:
        return state_dir
    if config is None and not DEFAULT_CONFIG_PATH.exists():
        return config_module.DEFAULT_STATE_DIR
    return config_module.load(config or DEFAULT_CONFIG_PATH).state_dir


def _find(paths: list[Path], name: str) -> Path:
    if name == "last" and paths:
        return paths[-1]
    exact = [p for p in paths if p.stem == name]
    matches = exact or [p for p in paths if p.stem.startswith(name)]
    if len(matches) != 1:
        known = ", ".join(p.stem for p in paths[-5:]) or "none"
        what = "no deal" if not matches else f"{len(matches)} deals"
        raise UnknownDealError(f"{what} named {name!r} in the journal (the last: {known})")
    return matches[0]


def _summary(record: Any) -> dict[str, Any]:
    import time

    deal = record.deal()
    status = ("finished" if deal.is_finished else "void" if deal.is_voided
              else "held" if deal.flag else "in progress")
    return {
        "deal": record.deal_id,
        "started": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(record.started)),
        "variant": record.settings.variant.value,
        "exposed": deal.exposed,
        "splits": deal.splits,
        "corrections": sum(e.action.kind.value == "correct" for e in record.entries),
        "status": status,
        "torn": record.torn,
    }


def _print_sheet(record: Any, *, as_json: bool) -> int:
    from casekeeper import Case
    from casekeeper.cuesheet import cue_sheet_json, cue_sheet_text

    case = Case.from_events(record.deal().events)
    summary = _summary(record)
    if as_json:
        print(json.dumps({**summary, "cue_sheet": cue_sheet_json(case)}, ensure_ascii=False))
    else:
        print(f"deal {summary['deal']}, started {summary['started']} UTC, {summary['status']}")
        print(cue_sheet_text(case), end="")
    return 0
