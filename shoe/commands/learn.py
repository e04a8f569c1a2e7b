"""``faro-shoe learn``: a deck profile from one pass of the deck in a known order."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from shoe.cards import Card, FaroError

if TYPE_CHECKING:
    import numpy as np

EXAMPLES = """\
examples:
  faro-shoe learn --order order.txt --out mydeck.profile shots/*.png
  faro-shoe learn --order order.txt --out mydeck.profile --video pass.mp4
  faro-shoe shuffle --seed 3 > order.txt     # then deal the deck in that order

how: put the deck in the order ORDER.txt lists (card codes such as QH, 10S, 2C, one per
line or separated by spaces; '#' starts a comment) and pass it once through the box, taking
one still per card or recording a video. The profile holds the box's window and what each
card looks like, so the reader can then read that deck with or without corner indices
(pip-only period decks, R/D/V or K/D/B letters, unusual typefaces):
  faro-shoe classify --profile mydeck.profile frame.png
  faro-shoe read deal.mp4 --profile mydeck.profile

learning reports every card it could not learn well (not found, or too like another card);
the reader abstains on those. A full 52-card pass is best; fewer cards make a profile that
reads only those. It also says when the light glared on the cards so that part of each face
showed white: the reader cannot see print under such a spot in a deal either, and holds a
card whose difference from another lies there (a six, a seven's extra pip under the spot),
so angle or dim the light and learn again.

exit status: 0 profile written, every card learned; 1 written, but some cards were not
learned; 2 bad input (an unreadable image or video, an ORDER.txt whose count disagrees with
the images or the cards at rest in the video, a repeated card), or a deck printed light on
dark card, which the reader cannot learn (no profile is written).
"""


class LearnInputError(FaroError, ValueError):
    """Images, a video or an order that cannot be learned from."""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "learn", help="learn a deck profile from a known-order pass",
        description="Learn a deck profile from one pass of the deck through the box in a "
                    "known order: 52 stills (one per card, in order) or a video of the pass.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("images", nargs="*", metavar="IMAGE",
                        help="one still per card, in the order of ORDER.txt")
    parser.add_argument("--order", required=True, metavar="ORDER.txt",
                        help="the cards of the pass in order ('-' for standard input)")
    parser.add_argument("--out", required=True, metavar="PROFILE",
                        help="where to write the profile")
    parser.add_argument("--video", metavar="VIDEO",
                        help="a recorded pass instead of stills (any file OpenCV opens)")
    parser.add_argument("--name", default="", help="a name for the deck (default: from --out)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import cv2

    from shoe.cardfile import parse_cards
    from shoe.commands.common import read_text_input
    from shoe.progress import Progress
    from vision.learn import learn_profile
    from vision.light import GLARE_WARNING

    # OpenCV's own warnings (a file it cannot decode) would add a second line to ours.
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)

    order = [p.card for p in parse_cards(read_text_input(args.order), args.order)]
    if not order:
        raise LearnInputError(f"{args.order} lists no cards")
    if args.video and args.images:
        raise LearnInputError("give either images or --video, not both")
    name = args.name or Path(args.out).stem
    if args.video:
        views = _video_views(args.video, order)
    else:
        if len(args.images) != len(order):
            raise LearnInputError(
                f"{args.order} lists {len(order)} cards but {len(args.images)} images were given")
        frames = []
        for path in args.images:
            frame = cv2.imread(path, cv2.IMREAD_COLOR)
            if frame is None or frame.size == 0:
                raise LearnInputError(f"cannot read image {path}")
            frames.append([frame])
        views = list(zip(order, frames, strict=True))
    with Progress(len(views), "learning") as bar:
        outcome = learn_profile(views, name=name, on_card=bar.advance)
    try:
        outcome.profile.save(args.out)
    except OSError as exc:
        raise LearnInputError(f"cannot write {args.out}: {exc}") from None
    learned = int(outcome.profile.learned.sum())
    print(f"learned {learned} of 52 cards into {args.out}", file=sys.stderr)
    for problem in outcome.problems:
        print(f"  {problem}", file=sys.stderr)
    if outcome.glare_clipped >= GLARE_WARNING:
        print(f"  glare showed {outcome.glare_clipped:.0%} of each card's face white: print "
              "there was learned faint or not at all, and cards dealt under this light are "
              "held where it hides what tells them apart; angle or dim the light and learn "
              "again", file=sys.stderr)
    return 0 if learned == 52 else 1


def _video_views(path: str, order: list[Card]) -> list[tuple[Card, list[np.ndarray]]]:
    """(card, resting frames) for each card at rest in the video, in order."""
    from shoe.commands.read import open_video, quiet_video_decoder
    from vision.exposures import iter_rests

    quiet_video_decoder()
    rests = [r for r in iter_rests(open_video(Path(path))) if r.frames]
    if len(rests) != len(order):
        raise LearnInputError(
            f"{len(rests)} cards came to rest in {path} but the order lists {len(order)}")
    return [(card, list(rest.frames)) for card, rest in zip(order, rests, strict=True)]
