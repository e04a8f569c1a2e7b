"""What the lamp does to the card in view: glare that shows part of its face white, where
no print can be seen on any frame (docs/READER.md, With a profile, Learning).

`faro-shoe learn` measures it over a pass, `faro-shoe hw-test` on a card left in the box,
and the tracker on the frames of a card it holds, so the operator hears why.

>>> white = face_shown_white(frame)          # doctest: +SKIP
>>> glare_note(white)                        # doctest: +SKIP
"glare shows 6% of the card's face white: print there goes unread; angle or dim the light"
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.descriptors import describe_ink_and_light
from vision.locate import locate
from vision.pairwise import clipped_by_glare
from vision.quad import straighten

__all__ = ["GLARE_WARNING", "face_shown_white", "glare_note", "shown_white"]

#: Glare that clips this share of a card's face white, or more, is worth the user's knowing:
#: half a pip (a pip is some 2% of the face).
GLARE_WARNING = 0.01


def shown_white(lights: Sequence[np.ndarray]) -> float:
    """The share of a card's face that glare showed white on most of its frames, from the
    paper's level on each (vision.descriptors.describe_ink_and_light). Not the ink maps'
    unknown: that takes in the dealer's thumb, and a big pip printed out to the card's
    edge looks like one (tango_nuevo's number cards: 47% of the face)."""
    return float((np.mean([clipped_by_glare(light) for light in lights], axis=0) >= 0.5).mean())


def face_shown_white(frame: np.ndarray) -> float | None:
    """The share of the card's face in a frame that the light shows white, its print unseen
    (as a pass is measured, vision.learn.LearnOutcome.glare_clipped), or None with no card
    in view."""
    quad = locate(frame)
    if quad is None:
        return None
    return shown_white([describe_ink_and_light(straighten(frame, quad))[1]])


def glare_note(white: float | None) -> str | None:
    """What to tell the operator of a card whose face ``white`` glare shows white; None
    under GLARE_WARNING or with no card measured."""
    if white is None or white < GLARE_WARNING:
        return None
    return (f"glare shows {white:.0%} of the card's face white: print there goes unread; "
            "angle or dim the light")
