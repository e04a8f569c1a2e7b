"""Reader accuracy and speed over simulated camera frames, per deck (held-out and blind decks
marked; blind decks come from kdegames-card-data-kf5, see vision.kdecards).

For each French-suited aisleriot deck: frames of random cards through the camera simulator
(vision.simulator, RIG.md's full range of conditions with --difficulty hard), read

* zero-shot (no setup; standard-indexed decks only, foreign-indexed ones are listed apart,
  or read too with --foreign: a foreign letter must be read as its card or held),
* with a profile learned from a 52-still known-order pass in one session of the rig, then
  read in other light (colour, exposure, glare, noise, JPEG change; the box stays put),
* with a profile, on the pip-only variant (indices painted out) of the held-out decks.

Decks of your own (--deck-dir, a folder of card images named by code) are measured too and
counted apart; bench/fetch_decks.py makes such folders of designs in no Debian package.

The card lies alone in the box unless --thumbs puts the dealer's thumb on a share of them
(its hand then covers part of the card's lower edge). --beyond pushes one condition past
RIG.md's ranges on every frame (blur, noise, angles, dark, colour, small, glare, shake): such
frames may be held, and should never be read wrongly.

A read counts as correct or wrong only when sure (confidence >= ACCEPT_THRESHOLD); otherwise
it is abstained. Rank and suit are counted the same way on their own confidences. The last
columns give the highest confidence of any wrong guess (sure or not) and ms per read on one
core (cv2.setNumThreads(1), one BLAS thread). The machine is shared: timings are noisy.

    .venv/bin/python bench/vision_accuracy.py --quick
    .venv/bin/python bench/vision_accuracy.py --frames 104
"""

from __future__ import annotations

import os

# One core, as on the Pi's per-frame budget: no BLAS thread pool (set before numpy loads).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shoe.cards import FULL_DECK, Card
from vision import corpus
from vision.deckdir import DeckDirError, load_deck_dir
from vision.learn import DarkDeckError, learn_profile
from vision.pip_only import paint_out_deck
from vision.profile import ProfileReader
from vision.reader import CornerReader
from vision.reading import ACCEPT_THRESHOLD, Reader, Reading
from vision.sceneparams import parse_frame_size
from vision.simulator import SceneParams
from vision.stills import Thumb, nearer_edge, render_frame


@dataclass
class Tally:
    n: int = 0
    right: int = 0
    wrong: int = 0
    rank_right: int = 0
    rank_wrong: int = 0
    suit_right: int = 0
    suit_wrong: int = 0
    worst_wrong: float = 0.0
    ms: list[float] = field(default_factory=list)

    def add(self, truth: Card, r: Reading, ms: float) -> None:
        self.n += 1
        self.ms.append(ms)
        if r.card is not None and r.card != truth:
            self.worst_wrong = max(self.worst_wrong, r.confidence)
        if r.is_sure:
            self.right += r.card == truth
            self.wrong += r.card != truth
        if r.rank is not None and r.rank_confidence >= ACCEPT_THRESHOLD:
            self.rank_right += r.rank == truth.rank
            self.rank_wrong += r.rank != truth.rank
        if r.suit is not None and r.suit_confidence >= ACCEPT_THRESHOLD:
            self.suit_right += r.suit == truth.suit
            self.suit_wrong += r.suit != truth.suit

    def merge(self, other: Tally) -> None:
        for name in ("n", "right", "wrong", "rank_right", "rank_wrong", "suit_right",
                     "suit_wrong"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.worst_wrong = max(self.worst_wrong, other.worst_wrong)
        self.ms.extend(other.ms)

    def row(self, label: str) -> str:
        def pct(k: int) -> str:
            return f"{100 * k / max(self.n, 1):.1f}"

        abstained = self.n - self.right - self.wrong
        rank_abst = self.n - self.rank_right - self.rank_wrong
        suit_abst = self.n - self.suit_right - self.suit_wrong
        ms = f"{np.median(self.ms):.1f} / {np.percentile(self.ms, 95):.1f}" if self.ms else "-"
        return (f"| {label} | {self.n} | {pct(self.right)} | {pct(self.wrong)} | {pct(abstained)} "
                f"| {pct(self.rank_right)}/{pct(self.rank_wrong)}/{pct(rank_abst)} "
                f"| {pct(self.suit_right)}/{pct(self.suit_wrong)}/{pct(suit_abst)} "
                f"| {self.worst_wrong:.3f} | {ms} |")


HEADER = ("| deck | frames | correct % | wrong % | abstained % | rank ok/wrong/abst % "
          "| suit ok/wrong/abst % | max conf of a wrong guess | ms/read median / p95 |\n"
          "|---|---|---|---|---|---|---|---|---|")


#: Conditions past RIG.md's ranges (--beyond), drawn anew for each frame: what a reader may
#: meet on a rig built otherwise than RIG.md says. The reader need not read such frames,
#: but must not read them wrongly.
BEYOND: dict[str, Callable[[SceneParams, np.random.Generator], SceneParams]] = {
    # A fixed-focus camera module focused for a metre, 10 cm over the box (hard: 0.2-1.5).
    "blur": lambda p, rng: replace(p, blur_sigma=float(rng.uniform(1.5, 2.6))),
    # A cheap sensor in a dim room through a hard-pressed MJPEG encoder (hard: 1-14, 45+).
    "noise": lambda p, rng: replace(p, noise_sigma=float(rng.uniform(14, 24)),
                                    jpeg_quality=int(rng.integers(25, 50))),
    # A camera mounted askew (hard: ±6 degrees turned, ±10 tilted).
    "angles": lambda p, rng: replace(p, rotation_deg=float(rng.uniform(-10, 10)),
                                     tilt_deg=(float(rng.uniform(-15, 15)),
                                               float(rng.uniform(-15, 15)))),
    # A darker room than the hard range's dimmest (exposure down to 0.45 there).
    "dark": lambda p, rng: replace(p, exposure=float(rng.uniform(0.25, 0.45)),
                                   noise_sigma=float(rng.uniform(8, 16))),
    # Candles (about 1900 K) or a blue sky, the camera's white balance off (hard: 2700-6500 K,
    # at least 20% of the cast removed).
    "colour": lambda p, rng: replace(p, colour_temp_k=float(rng.choice([1900, 2200, 8000, 10000])),
                                     white_balance=0.0),
    # A camera mounted higher: the card fills 35-55% of the frame's height (hard: 55-90%).
    "small": lambda p, rng: replace(p, card_height_frac=float(rng.uniform(0.35, 0.55))),
    # Two broad, full glare spots on a glossy card (hard: up to two, 0.08-0.3 of its width).
    "glare": lambda p, rng: replace(p, glare=tuple(
        (float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 0.9)),
         float(rng.uniform(0.2, 0.45)), float(rng.uniform(0.9, 1.0))) for _ in range(2))),
    # A camera shaken during the exposure (a loose mount, a knock on the table): smeared
    # 4-12 px in any direction (hard: none, the mount is rigid).
    "shake": lambda p, rng: replace(p, shake=(float(rng.uniform(4, 12)),
                                              float(rng.uniform(0, 180)))),
}


def _read_all(reader: Reader, faces: dict[Card, np.ndarray], frames: int, rng: np.random.Generator,
              difficulty: str, base: SceneParams | None = None, misses: str = "",
              repeat: int = 1, thumbs: float = 0.0, beyond: str | None = None,
              frame_size: tuple[int, int] = (640, 480)) -> Tally:
    """Read random frames; with ``misses`` (a label), each read that is not surely right
    is listed on stderr. Each read is timed as the fastest of ``repeat`` (a reading does
    not change from one to the next), in passes over all the frames: a slow spell of the
    shared machine then costs a frame one of its tries, not all of them. A share ``thumbs``
    of the frames has the dealer's thumb on the card; ``beyond`` names a condition of
    BEYOND pushed past the rig's range; the camera makes frames of ``frame_size``."""
    shots = draw_shots(faces, frames, rng, difficulty, base, thumbs, beyond, frame_size)
    fastest = np.full(len(shots), np.inf)
    readings: list[Reading] = []
    for _ in range(repeat):
        readings.clear()
        for i, (_card, frame) in enumerate(shots):
            started = time.perf_counter()
            readings.append(reader.read(frame))
            fastest[i] = min(fastest[i], time.perf_counter() - started)
    tally = Tally()
    for (card, _frame), reading, seconds in zip(shots, readings, fastest, strict=True):
        tally.add(card, reading, seconds * 1000)
        if misses and not (reading.is_sure and reading.card == card):
            verdict = "WRONG" if reading.is_sure else "abstained"
            print(f"    {misses}: {card} read {reading.card} ({verdict}) "
                  f"conf {reading.confidence:.3f} rank {reading.rank} "
                  f"{reading.rank_confidence:.3f} suit {reading.suit} "
                  f"{reading.suit_confidence:.3f}", file=sys.stderr)
    return tally


def draw_shots(faces: dict[Card, np.ndarray], frames: int, rng: np.random.Generator,
               difficulty: str, base: SceneParams | None = None, thumbs: float = 0.0,
               beyond: str | None = None, frame_size: tuple[int, int] = (640, 480)
               ) -> list[tuple[Card, np.ndarray]]:
    """The benchmark's random frames, each with its card (see :func:`_read_all`)."""
    shots = []
    for _ in range(frames):
        card = FULL_DECK[int(rng.integers(52))]
        # With a profile: the same box and camera as the learning pass, other light.
        params = (SceneParams.random(rng, difficulty, frame_size)  # type: ignore[arg-type]
                  if base is None
                  else base.relit(rng, difficulty))  # type: ignore[arg-type]
        params = replace(params, upside_down=bool(rng.random() < 0.5))
        if beyond:
            params = BEYOND[beyond](params, rng)
        # Drawn only when asked for, so that runs without thumbs see the same frames.
        thumb = Thumb.random(rng) if thumbs and rng.random() < thumbs else None
        shots.append((card, render_frame(faces[card], params, rng, thumb=thumb,
                                         offset_px=float(rng.uniform(0, 3)))))
    return shots


def profile_reader(faces: dict[Card, np.ndarray], rng: np.random.Generator,
                    frame_size: tuple[int, int]) -> tuple[ProfileReader, SceneParams, int]:
    """A profile from one known-order pass of 52 stills in one session of the rig."""
    base = SceneParams.random(rng, "normal", frame_size)
    views = [(c, [render_frame(faces[c], replace(base, upside_down=bool(rng.random() < 0.5)),
                               rng)]) for c in FULL_DECK]
    outcome = learn_profile(views)
    return ProfileReader(outcome.profile), base, len(outcome.problems)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="26 frames a deck, fewer decks")
    parser.add_argument("--frames", type=int, default=104, help="frames per deck and mode")
    parser.add_argument("--difficulty", default="hard", choices=["easy", "normal", "hard"])
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--decks", nargs="*", help="only these decks")
    parser.add_argument("--deck-dir", action="append", default=[], metavar="DIR",
                        help="also measure a deck of your own: a folder of card images, one "
                             "per card named by its code (QH.png, 10h.svg; see "
                             "bench/fetch_decks.py), read as a standard-indexed deck and "
                             "counted apart; alone unless --decks names decks too (repeatable)")
    parser.add_argument("--modes", nargs="*", choices=["zero", "profile", "pip-only"],
                        default=["zero", "profile", "pip-only"],
                        help="which readers to measure (default: all three)")
    parser.add_argument("--pip-only-dev", action="store_true",
                        help="measure the pip-only variant of every deck, not only the "
                             "held-out ones")
    parser.add_argument("--foreign", action="store_true",
                        help="read foreign-indexed decks zero-shot too (not what that reader "
                             "is for, but it may be shown one)")
    parser.add_argument("--misses", action="store_true",
                        help="list every read that is not surely right on stderr")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="time each read as the fastest of N passes over all the frames, "
                             "which leaves out most of what else the machine was doing "
                             "(default 1)")
    parser.add_argument("--thumbs", type=float, default=0.0, metavar="SHARE",
                        help="this share (0-1) of the frames has the dealer's thumb on the "
                             "card's middle, as when it lingers on a card come to rest "
                             "(default 0)")
    parser.add_argument("--beyond", choices=sorted(BEYOND),
                        help="push one condition past RIG.md's range on every frame (blur: "
                             "a camera out of focus; noise: a poor sensor and encoder; "
                             "angles: a camera mounted askew; dark: a darker room; colour: "
                             "candles or a blue sky, white balance off; small: a camera "
                             "mounted higher; glare: broad glare on a glossy card; shake: "
                             "the camera moved during the exposure); the reader may abstain "
                             "on such frames, but should never read them wrongly")
    parser.add_argument("--nearer-edge", type=float, default=0.0, metavar="SHARE",
                        help="print each design nearer the card's edge: its face cut by this "
                             "share of its height and width all round and enlarged back to "
                             "the card's size (its rounded corners kept), as a deck whose "
                             "indices stand closer to the edge than these decks' do "
                             "(default 0)")
    parser.add_argument("--frame-size", default="640x480", metavar="WxH",
                        help="the camera's frame size in pixels, the card filling as much of "
                             "its height as at 640x480 (RIG.md: configurable; default "
                             "640x480)")
    parser.add_argument("--stream", metavar="NAME",
                        help="draw every mode's frames from the random stream of this name "
                             "instead of the mode's own: other frames of the same conditions, "
                             "for a survey past the benchmark's (e.g. --stream thumbs)")
    args = parser.parse_args()
    if not 0.0 <= args.thumbs <= 1.0:
        parser.error("--thumbs must be a share between 0 and 1")
    if args.repeat < 1:
        parser.error("--repeat must be 1 or more")
    if not 0.0 <= args.nearer_edge < 0.2:
        parser.error("--nearer-edge must be a share from 0 to under 0.2")
    try:
        frame_size = parse_frame_size(args.frame_size)
    except ValueError as e:
        parser.error(f"--frame-size: {e}")
    cv2.setNumThreads(1)
    frames = 26 if args.quick else args.frames
    decks = [d.name for d in corpus.list_decks()]
    if args.decks or args.deck_dir:
        decks = [d for d in decks if d in (args.decks or [])]
    elif args.quick:
        decks = [d for d in decks if d in corpus.HELD_OUT_DECKS or d in ("anglo", "paris")]
    folders = {}
    for folder in args.deck_dir:
        try:
            folders[Path(folder).name] = load_deck_dir(folder, 350, alpha=True)
        except DeckDirError as e:
            parser.error(str(e))
    zero_shot = CornerReader()
    sections: dict[str, list[str]] = {"zero": [], "profile": []}
    totals = {f"{mode} {group}": Tally() for mode in ("zero", "profile", "pip-only")
              for group in ("dev", "held-out", "blind", "folder", "foreign")}
    for deck in [*decks, *folders]:
        held = deck not in folders and deck in corpus.HELD_OUT_DECKS
        group = ("folder" if deck in folders else "held-out" if held
                 else "blind" if deck in corpus.BLIND_DECKS else "dev")
        label = f"{deck}{'' if group == 'dev' else f' **({group})**'}"
        faces = folders.get(deck) or corpus.render_deck(deck, 350, alpha=True)
        if args.nearer_edge:
            faces = {card: nearer_edge(face, args.nearer_edge) for card, face in faces.items()}

        def rng_for(mode: str, deck: str = deck) -> np.random.Generator:
            # One stream per deck and mode: measuring one mode alone draws the same frames.
            name = args.stream or mode
            return np.random.default_rng([args.seed, sum(map(ord, deck)), sum(map(ord, name))])

        def misses(mode: str, deck: str = deck) -> str:
            return f"{deck} {mode}" if args.misses else ""

        style = "standard" if group == "folder" else corpus.deck_info(deck).index_style
        standard = style == "standard"
        if "zero" in args.modes and (standard or args.foreign):
            t = _read_all(zero_shot, faces, frames, rng_for("zero"), args.difficulty,
                          misses=misses("zero"), repeat=args.repeat, thumbs=args.thumbs,
                          beyond=args.beyond, frame_size=frame_size)
            # Foreign indices are counted apart: the zero-shot reader is not for them.
            sections["zero"].append(t.row(label if standard else f"{label} (foreign)"))
            totals[f"zero {group if standard else 'foreign'}"].merge(t)
        elif "zero" in args.modes:
            sections["zero"].append(f"| {deck} ({style} indices: not zero-shot) "
                                    "| | | | | | | | |")
        # With a profile: the deck as printed, and (held-out decks, or every deck with
        # --pip-only-dev) its pip-only variant; each learned from its own pass.
        learned = [("profile", faces, label)] if "profile" in args.modes else []
        if "pip-only" in args.modes and (held or args.pip_only_dev):
            pip_label = f"{deck} pip-only{label[len(deck):]}"
            learned.append(("pip-only", paint_out_deck(faces), pip_label))
        for mode, shown, row_label in learned:
            rng = rng_for(mode)
            try:
                reader, base, problems = profile_reader(shown, rng, frame_size)
            except DarkDeckError:
                sections["profile"].append(f"| {row_label} (learning refused: dark faces) "
                                           "| | | | | | | | |")
                continue
            t = _read_all(reader, shown, frames, rng, args.difficulty, base, misses(mode),
                          repeat=args.repeat, thumbs=args.thumbs, beyond=args.beyond)
            notes = f" ({problems} learn notes)" if problems else ""
            sections["profile"].append(t.row(f"{row_label}{notes}"))
            totals[f"{mode} {group}"].merge(t)
        print(f"  done {deck}", file=sys.stderr, flush=True)
    print(f"\nAccept threshold {ACCEPT_THRESHOLD}; difficulty {args.difficulty}; "
          f"{frames} frames per deck and mode; seed {args.seed}"
          + (f"; the dealer's thumb on {args.thumbs:.0%} of them" if args.thumbs else "")
          + (f"; {args.beyond} past the rig's range" if args.beyond else "")
          + (f"; designs printed {args.nearer_edge} nearer the edge" if args.nearer_edge
             else "")
          + (f"; frames of {frame_size[0]}x{frame_size[1]}" if frame_size != (640, 480)
             else "")
          + ".\n")
    print("### Zero-shot (no setup)\n\n" + HEADER)
    print("\n".join(sections["zero"]))
    print("\n### With a learned profile\n\n" + HEADER)
    print("\n".join(sections["profile"]))
    print("\n### Totals\n\n" + HEADER)
    for name, t in totals.items():
        if t.n:
            print(t.row(name))


if __name__ == "__main__":
    main()
