"""``faro-shoe classify``: name the card in each image, one JSON line per image."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from shoe.cards import FaroError

EXAMPLES = """\
examples:
  faro-shoe classify frame.png
  faro-shoe classify --profile mydeck.profile shots/*.jpg
  faro-shoe classify still.png | jq -r .card

output: one JSON object per image, one per line, in the order given:
  {"image": "frame.png", "card": "QH", "confidence": 0.97}
"card" is null where the reader abstains: no card in view, or its best guess is below the
accept threshold (docs/READER.md); "confidence" is then how sure that guess was.

without --profile the reader needs no setup and reads any deck with standard corner
indices (A K Q J 10-2); with a profile from 'faro-shoe learn' it reads that deck, indices
or not.

exit status: 0 when every image was read (even with abstentions), 2 for bad input (an
unreadable image, a corrupt profile or one from another version).
"""


class UnreadableImageError(FaroError, ValueError):
    """An image file that OpenCV cannot decode."""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "classify", help="name the card in each image (JSON lines)",
        description="Read the card lying in the box in each still image (a BGR frame from "
                    "the box's camera) and print one JSON line per image.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="image files (PNG, JPEG, ...)")
    parser.add_argument("--profile", metavar="P",
                        help="a deck profile from 'faro-shoe learn' (default: zero-shot)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import cv2

    from vision.reader import load_reader

    # OpenCV's own warnings (a file it cannot decode) would add a second line to ours.
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)

    reader = load_reader(args.profile)
    # Check every image first: bad input is one line and exit 2, before any output.
    # (Decoding twice keeps memory flat for thousands of images on a Pi.)
    for path in args.images:
        _load(cv2, path)
    for path in args.images:
        reading = reader.read(_load(cv2, path))
        # Below the accept threshold the reader abstains: no card, and how sure it was.
        card = reading.card.code if reading.card is not None and reading.is_sure else None
        confidence = round(reading.confidence, 4)
        print(json.dumps({"image": path, "card": card, "confidence": confidence}))
        sys.stdout.flush()
    return 0


def _load(cv2: Any, path: str) -> Any:
    frame = cv2.imread(path, cv2.IMREAD_COLOR)
    if frame is None or frame.size == 0:
        raise UnreadableImageError(f"cannot read image {path}")
    return frame
