r"""Train the corner-index network that vision/indexnet.py runs through cv2.dnn.

Reproducible: fixed seeds, data made here from the dev decks (never the held-out ones) and
from the typefaces Debian ships, the result written to vision/data/index_net.{onnx,json}.

Training needs PyTorch, Pillow and onnx in a separate environment (the firmware needs none
of them), the Debian font packages below, and gnome-cards-data with librsvg2-bin:

    apt-get install fonts-dejavu-core fonts-liberation fonts-freefont-ttf fonts-urw-base35 \
        fonts-noto-core fonts-crosextra-carlito fonts-texgyre
    python3 -m venv /tmp/trainenv
    /tmp/trainenv/bin/pip install torch==2.13.0 pillow onnx opencv-python-headless numpy
    PYTHONPATH=. /tmp/trainenv/bin/python tools/train_index_net.py

``--wider-typefaces`` sets the made-up corners in 298 upright typefaces (131 otherwise, some
slanted) and needs these packages too (a network so trained was measured and not kept:
docs/READER.md, "More typefaces"):

    apt-get install fonts-adf-accanthis fonts-adf-baskervald fonts-adf-berenis \
        fonts-adf-gillius fonts-adf-libris fonts-adf-romande fonts-adf-switzera fonts-adf-tribun \
        fonts-adf-universalis fonts-adf-verana fonts-adf-irianis fonts-century-catalogue \
        fonts-ebgaramond fonts-linuxlibertine fonts-oldstandard fonts-vollkorn \
        fonts-roboto-slab fonts-roboto-unhinted fonts-sil-charis fonts-sil-gentiumplus \
        fonts-crosextra-caladea fonts-goudybookletter fonts-fanwood fonts-quattrocento \
        fonts-lato fonts-open-sans fonts-cabin fonts-cantarell fonts-go fonts-croscore \
        fonts-oxygen fonts-yanone-kaffeesatz fonts-bebas-neue fonts-league-spartan \
        fonts-karla fonts-solide-mirage fonts-arapey fonts-opendin fonts-lindenhill \
        fonts-levien-museum fonts-junction fonts-manrope fonts-tuffy fonts-sil-andika \
        fonts-clear-sans fonts-inter fonts-b612 fonts-averia-serif-gwf \
        fonts-averia-sans-gwf fonts-prociono

Two networks (``--members``) are trained from consecutive seeds and written as one ONNX
network that averages their logits. Three dev decks are kept out of training to fit the
temperatures that make the probabilities honest on designs it has not seen. About 35 minutes
on two cores; ``--data-cache`` keeps the generated patches for another run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shoe.cards import FULL_DECK, Card, Rank, Suit
from tools.augment import (
    font_corner,
    fonts,
    negative_patch,
    photometric,
    rig_shot,
    straightened_view,
)
from tools.suit_shapes import deck_pips
from vision import corpus
from vision.indexnet import (
    CORNER_H,
    CORNER_W,
    PATCH_H,
    PATCH_W,
    RANK_CLASSES,
    SUIT_CLASSES,
    corner_patches,
    normalise_patch,
)
from vision.locate import locate
from vision.quad import corners, quad_from_corners, straighten
from vision.reading import onnx_net
from vision.simulator import SceneParams
from vision.stills import StillCamera

#: Dev decks kept out of training to calibrate the confidence on unseen designs.
CALIBRATION_DECKS = ("bellot", "orell", "dondorf")
NO_RANK = len(RANK_CLASSES) - 1
NO_SUIT = -100  # ignored by the loss
#: The share of made-up corners whose index is turned round where it stands.
UPSIDE_DOWN_SHARE = 0.08
#: The share of made-up views whose outline runs through an index near the card's edge at
#: each end (:func:`tools.augment.straightened_view`).
THROUGH_INDEX = 0.25
#: A simulated frame is learned from only if the card was located this close (pixels, the
#: short edges, which the lips never hide) to where the camera put it: a corner cut from
#: an outline further off may show the box, not the index.
LOCATED_WITHIN = 6.0


def _labels(card: Card) -> tuple[int, int]:
    return RANK_CLASSES.index(card.rank), SUIT_CLASSES.index(card.suit)


def _usable(deck: str, card: Card) -> bool:
    """Cards whose corner shows a standard index: all of a standard deck, the numerals
    (2-10) of a foreign or partial one."""
    style = corpus.deck_info(deck).index_style
    return style == "standard" or Rank.TWO <= card.rank <= Rank.TEN


def deck_samples(decks: list[str], per_card: int, rng: np.random.Generator,
                 negatives_per_card: float = 0.25) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xs, ranks, suits = [], [], []
    for deck in decks:
        faces = corpus.render_deck(deck, 300, alpha=True)
        started = time.monotonic()
        for card in FULL_DECK:
            if not _usable(deck, card):
                continue
            r, s = _labels(card)
            for _ in range(per_card):
                view = photometric(straightened_view(faces[card], rng, THROUGH_INDEX), rng)
                for patch in _corner_patches(view, rng):
                    xs.append(patch)
                    ranks.append(r)
                    suits.append(s)
                if rng.random() < negatives_per_card:
                    xs.append(normalise_patch(negative_patch(view, rng)))
                    ranks.append(NO_RANK)
                    suits.append(NO_SUIT)
        print(f"  {deck}: {time.monotonic() - started:.0f}s", flush=True)
    return np.array(xs, np.float16), np.array(ranks, np.int64), np.array(suits, np.int64)


def pipeline_samples(decks: list[str], sessions: int, rng: np.random.Generator
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Corners as the reader gets them: each card of ``decks`` shot ``sessions`` times by the
    rig's simulated camera (a new box, camera and light each session, normal and hard
    alternately), located and straightened by the firmware's own code. The made-up views of
    :func:`deck_samples` only imitate the locator's errors; here they are its own."""
    xs, ranks, suits = [], [], []
    for deck in decks:
        faces = corpus.render_deck(deck, 300, alpha=True)
        cards = [c for c in FULL_DECK if _usable(deck, c)]
        started, kept = time.monotonic(), 0
        for k in range(sessions):
            camera = StillCamera(SceneParams.random(rng, "hard" if k % 2 else "normal"), rng,
                                 [faces[c] for c in cards])
            truth = quad_from_corners(camera.scene.card_corners()).array()
            for card in cards:
                frame = rig_shot(camera, faces[card], rng)
                quad = locate(frame)
                if quad is None or np.abs(quad.array()[:, 1] - truth[:, 1]).max() > LOCATED_WITHIN:
                    continue
                kept += 1
                r, s = _labels(card)
                for patch in corner_patches(straighten(frame, quad)):
                    xs.append(patch)
                    ranks.append(r)
                    suits.append(s)
        print(f"  {deck} (simulated camera): {kept} of {sessions * len(cards)} frames, "
              f"{time.monotonic() - started:.0f}s", flush=True)
    return np.array(xs, np.float16), np.array(ranks, np.int64), np.array(suits, np.int64)


def _corner_patches(view: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The view's two index corners, half the time cut a little larger or smaller: decks
    print their indices in many sizes."""
    if rng.random() < 0.5:
        return corner_patches(view)
    zoom = rng.uniform(0.88, 1.15)
    return np.stack([normalise_patch(c) for c in corners(view, CORNER_W * zoom,
                                                          CORNER_H * zoom)])


def font_samples(count: int, decks: list[str], rng: np.random.Generator,
                 wider: bool = False) -> tuple[np.ndarray, ...]:
    """Made-up corners: ranks in Debian's typefaces over suits from symbol fonts, drawn
    shapes and the pips of ``decks`` (``wider``: :func:`tools.augment.fonts`)."""
    typefaces, symbol_faces = fonts(wider)
    pips = [deck_pips(corpus.render_deck(deck, 300, alpha=True)) for deck in decks]
    xs, ranks, suits = [], [], []
    for _ in range(count):
        card = FULL_DECK[int(rng.integers(52))]
        # Now and then an index turned round where it stands: no index to read. A 6, 8 or
        # 9 turned round is the 9, 8 or 6 of many typefaces; only its suit, turned too,
        # tells it from a real index, and a diamond turned round is the same diamond.
        upside_down = (rng.random() < UPSIDE_DOWN_SHARE
                       and (card.rank not in (Rank.SIX, Rank.EIGHT, Rank.NINE)
                            or card.suit != Suit.DIAMONDS))
        patch = photometric(font_corner(card, typefaces, symbol_faces, rng, pips,
                                        upside_down=upside_down), rng)
        xs.append(normalise_patch(patch))
        r, s = (NO_RANK, NO_SUIT) if upside_down else _labels(card)
        ranks.append(r)
        suits.append(s)
    return np.array(xs, np.float16), np.array(ranks, np.int64), np.array(suits, np.int64)


def build_model():  # type: ignore[no-untyped-def]
    import torch
    from torch import nn

    class IndexModel(nn.Module):
        def __init__(self) -> None:
            super().__init__()

            def block(cin: int, cout: int) -> nn.Sequential:
                return nn.Sequential(
                    nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(),
                    nn.MaxPool2d(2))

            self.features = nn.Sequential(block(3, 16), block(16, 32), block(32, 64))
            flat = 64 * (PATCH_H // 8) * (PATCH_W // 8)
            self.trunk = nn.Sequential(nn.Flatten(), nn.Dropout(0.3), nn.Linear(flat, 96),
                                       nn.ReLU())
            self.rank = nn.Linear(96, len(RANK_CLASSES))
            self.suit = nn.Linear(96, len(SUIT_CLASSES))

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            h = self.trunk(self.features(x))
            return self.rank(h), self.suit(h)

    return IndexModel()


def ensemble(members: list[Any]):  # type: ignore[no-untyped-def]
    """One network whose logits are the mean of its members' (one ONNX file for cv2.dnn).

    Networks trained from different seeds agree on what they have learned and disagree more
    on shapes unlike any they saw, so the mean is less sure there than either alone.
    """
    import torch
    from torch import nn

    class Ensemble(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.members = nn.ModuleList(members)

        def forward(self, x: torch.Tensor) -> torch.Tensor | tuple[torch.Tensor, ...]:
            outputs = [m(x) for m in self.members]
            if isinstance(outputs[0], tuple):  # a network of several heads: each averaged
                return tuple(torch.stack(head).mean(0) for head in zip(*outputs, strict=True))
            return torch.stack(outputs).mean(0)

    return Ensemble()


def fit_temperature(logits: np.ndarray, labels: np.ndarray) -> float:
    """The temperature that minimises the negative log-likelihood of the true labels."""
    keep = labels >= 0
    logits, labels = logits[keep], labels[keep]
    best_t, best_nll = 1.0, float("inf")
    for t in np.exp(np.linspace(np.log(0.5), np.log(8.0), 60)):
        z = logits / t
        z = z - z.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        nll = float(-logp[np.arange(len(labels)), labels].mean())
        if nll < best_nll:
            best_t, best_nll = float(t), nll
    return best_t


def evaluate(model, calibration):  # type: ignore[no-untyped-def]
    """(rank logits, suit logits, rank accuracy, suit accuracy) on the calibration decks."""
    import torch

    cx, cr, cs = calibration
    model.eval()
    with torch.no_grad():
        rl, sl = model(torch.from_numpy(cx).float())
    keep = cs >= 0
    return (rl.numpy(), sl.numpy(), float((rl.argmax(1).numpy() == cr).mean()),
            float((sl.argmax(1).numpy()[keep] == cs[keep]).mean()))


def _fit_member(x, ranks, suits, calibration, epochs: int, batch: int):  # type: ignore[no-untyped-def]
    """One network trained on the patches, its accuracy on the calibration decks printed."""
    import torch
    from torch import nn

    model = build_model()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = epochs * (len(x) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    rank_loss = nn.CrossEntropyLoss(label_smoothing=0.02)
    suit_loss = nn.CrossEntropyLoss(ignore_index=NO_SUIT, label_smoothing=0.02)
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(x))
        started, total = time.monotonic(), 0.0
        for i in range(len(x) // batch):
            idx = order[i * batch:(i + 1) * batch]
            xb = x[idx].float()
            # Shift a pixel or two: where locating puts the corner is never exact.
            dx, dy = (int(v) for v in torch.randint(-2, 3, (2,)))
            xb = torch.roll(xb, shifts=(dy, dx), dims=(2, 3))
            rl, sl = model(xb)
            loss = rank_loss(rl, ranks[idx]) + suit_loss(sl, suits[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach())
        _, _, rank_acc, suit_acc = evaluate(model, calibration)
        print(f"epoch {epoch + 1}: loss {total / (len(x) // batch):.4f}, calibration decks "
              f"rank {rank_acc:.4f} suit {suit_acc:.4f} ({time.monotonic() - started:.0f}s)",
              flush=True)

    return model


def train(args: argparse.Namespace) -> None:
    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    train_decks = [d for d in corpus.DEV_DECKS if d not in CALIBRATION_DECKS]
    print("training decks:", ", ".join(train_decks), flush=True)
    cache = Path(args.data_cache) if args.data_cache else None
    if cache is not None and cache.is_file():
        with np.load(cache) as data:
            xa, ra, sa, cx, cr, cs = (data[k] for k in ("x", "r", "s", "cx", "cr", "cs"))
    else:
        x1, r1, s1 = deck_samples(train_decks, args.per_card, rng)
        x2, r2, s2 = font_samples(args.font_samples, train_decks, rng, args.wider_typefaces)
        x3, r3, s3 = pipeline_samples(train_decks, args.sessions, rng)
        xa, ra, sa = (np.concatenate(parts) for parts in ((x1, x2, x3), (r1, r2, r3),
                                                          (s1, s2, s3)))
        cx, cr, cs = deck_samples(list(CALIBRATION_DECKS), 6, rng)
        if cache is not None:
            np.savez(cache, x=xa, r=ra, s=sa, cx=cx, cr=cr, cs=cs)
    x, ranks, suits = torch.from_numpy(xa), torch.from_numpy(ra), torch.from_numpy(sa)
    print(f"{len(x)} training patches", flush=True)

    members = []
    for k in range(args.members):
        torch.manual_seed(args.seed + k)
        members.append(_fit_member(x, ranks, suits, (cx, cr, cs), args.epochs, args.batch))
    model = ensemble(members) if len(members) > 1 else members[0]
    rl, sl, rank_acc, suit_acc = evaluate(model, (cx, cr, cs))
    print(f"{len(members)} member(s): calibration decks rank {rank_acc:.4f} suit {suit_acc:.4f}",
          flush=True)
    rank_t = fit_temperature(rl, cr)
    suit_t = fit_temperature(sl, cs)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 3, PATCH_H, PATCH_W)
    torch.onnx.export(model, (dummy,), str(out / "index_net.onnx"), input_names=["patch"],
                      output_names=["rank", "suit"], opset_version=13, dynamo=False,
                      dynamic_axes={"patch": {0: "n"}, "rank": {0: "n"}, "suit": {0: "n"}})
    meta = {"version": 1, "patch_h": PATCH_H, "patch_w": PATCH_W,
            "rank_temperature": rank_t, "suit_temperature": suit_t, "seed": args.seed,
            "members": args.members, "epochs": args.epochs, "sessions": args.sessions,
            "train_decks": train_decks, "calibration_decks": list(CALIBRATION_DECKS),
            "calibration_rank_accuracy": rank_acc, "calibration_suit_accuracy": suit_acc}
    (out / "index_net.json").write_text(json.dumps(meta, indent=1) + "\n")
    # Checked as the firmware runs it: its engine, one patch at a time.
    net = onnx_net(out / "index_net.onnx")
    check = []
    for patch in cx[:4].astype(np.float32):
        net.setInput(patch[None])
        check.append(net.forward("rank").reshape(-1))
    with torch.no_grad():
        ref = model(torch.from_numpy(cx[:4]).float())
    diff = float(np.abs(np.stack(check) - ref[0].numpy()).max())
    print(f"temperatures rank {rank_t:.2f} suit {suit_t:.2f}; cv2.dnn agrees to {diff:.2e}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="vision/data")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--per-card", type=int, default=20)
    parser.add_argument("--font-samples", type=int, default=30000)
    parser.add_argument("--sessions", type=int, default=8,
                        help="times each training card is shot by the simulated camera")
    parser.add_argument("--wider-typefaces", action="store_true",
                        help="set the made-up corners in the wider set of upright typefaces")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--data-cache", help="keep the generated patches in this .npz file")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--members", type=int, default=2,
                        help="networks trained from different seeds, their logits averaged")
    train(parser.parse_args())


if __name__ == "__main__":
    main()
