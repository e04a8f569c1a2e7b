#!/usr/bin/env python3
"""Whole deals from video: every card read right or flagged, in every deal?

    .venv/bin/python bench/video_deals.py             # 8 deals of 52 cards
    .venv/bin/python bench/video_deals.py --quick     # 4 deals of 16 cards
    .venv/bin/python bench/video_deals.py --learned   # each deck learned first, then read
    .venv/bin/python bench/video_deals.py --blind     # the blind decks (vision.kdecards)
    .venv/bin/python bench/video_deals.py --shake     # each camera shaken (past RIG.md)
    .venv/bin/python bench/video_deals.py --deck-dir ~/decks/kennard   # a deck of your own

Each deal is a seeded shuffle of a dev or a held-out deck, dealt by the camera-in-box
simulator (RIG.md's conditions, "normal" and "hard" sessions) by a fast or a slow dealer,
with or without the slot's break-beam, and written to an MJPG video. The video then goes
through `faro-shoe read`'s own code (open_video, the tracker, the offline deal) with the
zero-shot reader, and each exposure is matched to the simulator's ground truth by time:

- right / flagged / wrong: the card recorded for the exposure (null counts as flagged);
- missed: a card dealt that no exposure matched; doubled: one matched by two or more.

With --learned, each deck is first learned from a simulated pass in a known order under the
same camera and light (what `faro-shoe learn --video` does), and read with its profile.
With --deck-dir, the deals are of folders of card images named by code (a deck of your own,
or bench/fetch_decks.py's designs), each dealt in turn.

Change detection and the whole pipeline (decoding, motion, reads, deal) are timed per frame
on one core (cv2.setNumThreads(1)); peak memory is the ru_maxrss of one `faro-shoe read`
subprocess on the first deal. Figures are of this machine under whatever else runs on it.
"""

from __future__ import annotations

import argparse
import functools
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from shoe.cards import Card, shuffled_deck
from shoe.commands.read import (
    DealRecord,
    load_reader_for,
    open_video,
    quiet_video_decoder,
    read_video,
)
from shoe.settings import Settings
from vision.corpus import BLIND_DECKS, DEV_DECKS, HELD_OUT_DECKS, deck_info, render_deck
from vision.deckdir import DeckDirError, load_deck_dir
from vision.exposures import ExposureTracker, iter_rests
from vision.learn import DarkDeckError, learn_profile
from vision.scene import SceneParams
from vision.sceneparams import parse_frame_size
from vision.simulator import CardTruth, DealTiming, SimulatedShoe, write_video

FPS = 30.0
FAST = DealTiming.fast()
#: A slow table: rests of one to three seconds and now and then a pause for bets.
SLOW = DealTiming(rest_s=(1.0, 3.0), long_pause_p=0.04, long_pause_s=(5.0, 15.0))
#: The learning pass: the user lays each card down and lets it rest a moment.
LEARNING = DealTiming(rest_s=(0.6, 1.0), long_pause_p=0.0)


@dataclass(frozen=True, slots=True)
class Plan:
    number: int
    deck: str
    held_out: bool
    fast: bool
    beam: bool
    difficulty: str
    seed: int
    shaken: bool = False
    folder: Path | None = None  # a deck of card images named by code, not a corpus deck
    frame_size: tuple[int, int] = (640, 480)  # the camera's, in pixels

    def faces(self) -> dict[Card, np.ndarray]:
        if self.folder is not None:
            return _folder_faces(self.folder)
        return render_deck(self.deck, 350, alpha=True)


@functools.cache
def _folder_faces(folder: Path) -> dict[Card, np.ndarray]:
    """A folder's faces, rendered once: each deal of it, and its learning pass, use them."""
    return load_deck_dir(folder, 350, alpha=True)


@dataclass(frozen=True, slots=True)
class Outcome:
    plan: Plan
    cards: int
    right: int
    flagged: int
    wrong: int
    missed: int
    doubled: int
    frames: int
    motion_ms: float
    pipeline_ms: float
    reads_per_card: float
    wrong_detail: tuple[str, ...]


def plans(count: int, seed: int, blind: tuple[str, ...] = (), shaken: bool = False,
          folders: tuple[Path, ...] = (), frame_size: tuple[int, int] = (640, 480)
          ) -> list[Plan]:
    """Dev and held-out decks in turn, or only the ``blind`` ones, or only the ``folders``
    (each in turn, from the first); every mix of dealer pace and beam; ``shaken`` cameras if
    asked."""
    out = []
    for i in range(count):
        held_out = bool(blind or folders) or i % 2 == 1
        decks = blind or (HELD_OUT_DECKS if held_out else DEV_DECKS)
        deck = decks[(seed + (i if blind else i // 2)) % len(decks)]
        folder = folders[i % len(folders)] if folders else None
        fast, beam = [(True, False), (False, True), (True, True), (False, False)][i % 4]
        difficulty = "hard" if i % 3 == 2 else "normal"
        out.append(Plan(i, folder.name if folder else deck, held_out, fast, beam, difficulty,
                        seed * 1000 + i, shaken, folder, frame_size))
    return out


def scene_of(plan: Plan) -> SceneParams:
    """The rig's camera and light for this deal (the learning pass, if any, shares it)."""
    rng = np.random.default_rng(plan.seed)
    params = SceneParams.random(rng, plan.difficulty, plan.frame_size)  # type: ignore[arg-type]
    if plan.shaken:
        # A loose mount shaking through every exposure alike: 6-10 px at an angle of its own.
        shake = np.random.default_rng([plan.seed, 99])
        params = replace(params, shake=(float(shake.uniform(6, 10)),
                                        float(shake.uniform(0, 180))))
    return params


def deal_video(plan: Plan, n_cards: int, folder: Path) -> tuple[Path, list[Card],
                                                                tuple[CardTruth, ...]]:
    faces = plan.faces()
    cards = shuffled_deck(plan.seed)[:n_cards]
    shoe = SimulatedShoe([faces[c] for c in cards], seed=plan.seed, params=scene_of(plan),
                         timing=FAST if plan.fast else SLOW)
    path = folder / f"deal{plan.number}.avi"
    write_video(path, shoe.frames(FPS), FPS)
    return path, cards, shoe.truth


class PassMismatchError(Exception):
    """The learning pass's video shows another number of rests than cards were passed."""


def learned_profile(plan: Plan, folder: Path) -> str:
    """Learn the deck as a user would: one pass in a known order, recorded, then learned
    from its rests (what `faro-shoe learn --video` does). Returns the profile's path."""
    faces = plan.faces()
    order = shuffled_deck(plan.seed + 500)
    shoe = SimulatedShoe([faces[c] for c in order], seed=plan.seed + 500,
                         params=scene_of(plan), timing=LEARNING)
    video = folder / f"pass{plan.number}.avi"
    write_video(video, shoe.frames(FPS), FPS)
    rests = [r for r in iter_rests(open_video(video)) if r.frames]
    if len(rests) != len(order):
        # What `faro-shoe learn --video` refuses too: the order cannot be matched to rests.
        raise PassMismatchError(f"{len(rests)} rests in the learning pass, not {len(order)}")
    outcome = learn_profile(zip(order, (list(r.frames) for r in rests), strict=True),
                            name=plan.deck)
    path = folder / f"deck{plan.number}.faro-profile"
    outcome.profile.save(path)
    return str(path)


def score(plan: Plan, record: DealRecord, cards: list[Card], truth: tuple[CardTruth, ...],
          frames: int, seconds: float) -> Outcome:
    """Match each exposure to the card that showed when it came to rest, and count."""
    matched: dict[int, int] = {}
    right = flagged = wrong = 0
    detail = []
    for k, result in enumerate(record.results[: len(record.cards)]):
        at = result.t_rest if result.t_rest is not None else result.t_done
        index = max(c.index for c in truth if c.shown_at <= at)
        matched[index] = matched.get(index, 0) + 1
        recorded = record.cards[k]
        if recorded is None:
            flagged += 1
        elif recorded == cards[index]:
            right += 1
        else:
            wrong += 1
            detail.append(f"exposure {k} at {at:.2f}s: {recorded.code} for {cards[index].code}")
    stats = record.stats
    assert stats is not None
    return Outcome(
        plan, len(cards), right, flagged, wrong,
        missed=sum(1 for c in truth if c.index not in matched),
        doubled=sum(1 for n in matched.values() if n > 1),
        frames=stats.frames,
        motion_ms=1000 * stats.motion_seconds / max(1, stats.frames),
        pipeline_ms=1000 * seconds / max(1, frames),
        reads_per_card=stats.reads / max(1, len(record.results)),
        wrong_detail=tuple(detail),
    )


def run_deal(plan: Plan, n_cards: int, folder: Path, learned: bool
             ) -> tuple[Outcome, Path, Path | None, str | None]:
    profile = learned_profile(plan, folder) if learned else None
    video, cards, truth = deal_video(plan, n_cards, folder)
    beams = [c.leaves_at for c in truth if c.leaves_at is not None] if plan.beam else []
    beam_file = None
    if plan.beam:
        beam_file = folder / f"deal{plan.number}.beam"
        beam_file.write_text("".join(f"{t:.4f}\n" for t in beams), encoding="utf-8")
    reader, window = load_reader_for(profile)
    tracker = ExposureTracker(reader, window=window, has_beam=plan.beam)
    start = time.perf_counter()
    record = read_video(open_video(video), tracker, Settings(), beams)
    seconds = time.perf_counter() - start
    outcome = score(plan, record, cards, truth, tracker.stats.frames, seconds)
    return outcome, video, beam_file, profile


#: Runs a command and prints its peak resident memory. The command is started from this
#: small process, not from the benchmark: a child's ru_maxrss counts the memory it had
#: before exec, which for a fork of the benchmark is the benchmark's own.
_MEASURE = (
    "import os, subprocess, sys\n"
    "child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, "
    "stderr=subprocess.DEVNULL)\n"
    "_, status, usage = os.wait4(child.pid, 0)\n"
    "print(usage.ru_maxrss, os.waitstatus_to_exitcode(status))\n"
)


def peak_memory(video: Path, beam_file: Path | None, profile: str | None) -> tuple[float, int]:
    """ru_maxrss (MB) and exit status of one `faro-shoe read --json` process."""
    command = [sys.executable, "-m", "shoe.cli", "read", str(video), "--json"]
    if beam_file is not None:
        command += ["--beam", str(beam_file)]
    if profile:
        command += ["--profile", profile]
    out = subprocess.run([sys.executable, "-c", _MEASURE, *command], capture_output=True,
                         text=True, check=True).stdout.split()
    return int(out[0]) / 1024, int(out[1])


def table(outcomes: list[Outcome]) -> str:
    head = ("| deal | deck | dealer | beam | scene | cards | right | flagged | wrong | missed "
            "| doubled | frames | change ms/frame | pipeline ms/frame | reads/card |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for o in outcomes:
        p = o.plan
        group = "folder" if p.folder else "blind" if p.deck in BLIND_DECKS else "held out"
        deck = f"{p.deck} ({group})" if p.held_out else p.deck
        lines.append(
            f"| {p.number} | {deck} | {'fast' if p.fast else 'slow'} | {'yes' if p.beam else 'no'}"
            f" | {p.difficulty} | {o.cards} | {o.right} | {o.flagged} | {o.wrong} | {o.missed}"
            f" | {o.doubled} | {o.frames} | {o.motion_ms:.2f} | {o.pipeline_ms:.2f}"
            f" | {o.reads_per_card:.1f} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="4 deals of 16 cards")
    parser.add_argument("--deals", type=int, help="how many deals (default 8, quick 4)")
    parser.add_argument("--cards", type=int, help="cards per deal (default 52, quick 16)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--learned", action="store_true",
                        help="learn each deck first from a simulated pass, and read with "
                             "its profile (default: the zero-shot reader)")
    parser.add_argument("--blind", action="store_true",
                        help="deal only the blind decks (kdegames-card-data-kf5; zero-shot: "
                             "those with standard indices)")
    parser.add_argument("--shake", action="store_true",
                        help="shake each deal's camera through every exposure (6-10 px, past "
                             "RIG.md's rigid mount): cards may be flagged, never read wrongly")
    parser.add_argument("--deck-dir", action="append", default=[], type=Path, metavar="DIR",
                        help="deal only decks of your own, each in turn: a folder of card "
                             "images, one per card named by its code (QH.png, 10h.svg; see "
                             "bench/fetch_decks.py), read zero-shot as a standard-indexed "
                             "deck unless --learned (repeatable)")
    parser.add_argument("--frame-size", default="640x480", metavar="WxH",
                        help="the camera's frame size in pixels, the card filling as much of "
                             "its height as at 640x480 (RIG.md: configurable; default "
                             "640x480)")
    parser.add_argument("--keep", type=Path, help="keep the videos in this folder")
    args = parser.parse_args()
    try:
        frame_size = parse_frame_size(args.frame_size)
    except ValueError as e:
        parser.error(f"--frame-size: {e}")
    if args.deck_dir and args.blind:
        parser.error("--deck-dir and --blind each choose the decks: give one of them")
    for folder in args.deck_dir:
        try:
            _folder_faces(folder)  # a bad folder is one line, not a traceback
        except DeckDirError as e:
            parser.error(str(e))
    deals = args.deals or (4 if args.quick else 8)
    n_cards = args.cards or (16 if args.quick else 52)
    quiet_video_decoder()
    cv2.setNumThreads(1)
    outcomes: list[Outcome] = []
    first: tuple[Path, Path | None, str | None] | None = None
    with tempfile.TemporaryDirectory(prefix="faro-video-deals-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        # Zero-shot reads standard indices only.
        blind = tuple(d for d in BLIND_DECKS if args.learned
                      or deck_info(d).index_style == "standard") if args.blind else ()
        for plan in plans(deals, args.seed, blind, args.shake, tuple(args.deck_dir),
                          frame_size):
            try:
                outcome, video, beam_file, profile = run_deal(plan, n_cards, folder,
                                                              args.learned)
            except (DarkDeckError, PassMismatchError) as exc:
                print(f"deal {plan.number} ({plan.deck}): not learned: {exc}", file=sys.stderr)
                continue
            outcomes.append(outcome)
            first = first or (video, beam_file, profile)
            print(f"deal {plan.number}: {outcome.right} right, {outcome.flagged} flagged, "
                  f"{outcome.wrong} wrong, {outcome.missed} missed, {outcome.doubled} doubled",
                  file=sys.stderr, flush=True)
        assert first is not None
        rss_mb, status = peak_memory(*first)
    print(table(outcomes))
    total = {k: sum(getattr(o, k) for o in outcomes)
             for k in ("cards", "right", "flagged", "wrong", "missed", "doubled")}
    print()
    print(f"**All deals**: {total['cards']} cards: {total['right']} right, "
          f"{total['flagged']} flagged, {total['wrong']} wrong; {total['missed']} missed and "
          f"{total['doubled']} doubled exposures.")
    motion = np.mean([o.motion_ms for o in outcomes])
    pipeline = np.mean([o.pipeline_ms for o in outcomes])
    reader = "learned profiles" if args.learned else "the zero-shot reader"
    print(f"Reader: {reader}.")
    print(f"Change detection {motion:.2f} ms/frame, whole pipeline {pipeline:.2f} ms/frame "
          f"(one core, {frame_size[0]}×{frame_size[1]}; this machine, shared).")
    print(f"Peak memory of `faro-shoe read` on deal 0: {rss_mb:.0f} MB (exit status {status}).")
    for o in outcomes:
        for line in o.wrong_detail:
            print(f"- deal {o.plan.number} ({o.plan.deck}): {line}")
    return 0 if total["wrong"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
