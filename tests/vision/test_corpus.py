"""The dev corpus: gnome-cards-data decks rendered to faces, users' deck folders, and the
pip-only variant (vision.pip_only)."""

from __future__ import annotations

import concurrent.futures
import random
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from shoe.cards import FULL_DECK, Card
from vision import corpus, kdecards
from vision.corpus import (
    BLIND_DECKS,
    DEV_DECKS,
    HELD_OUT_DECKS,
    UnknownDeckError,
    list_decks,
    render_card,
    render_deck,
)
from vision.deckdir import DeckDirError, load_deck_dir
from vision.pip_only import PIP_ONLY_DECKS, paint_out_deck, paint_out_indices

Faces = Callable[..., dict[Card, np.ndarray]]


def _red_fraction(face: np.ndarray) -> float:
    b, g, r = (face[:, :, i].astype(int) for i in range(3))
    return float(((r > 150) & (r - g > 60) & (r - b > 60)).mean())


def test_split_is_disjoint_and_covers_standard_and_foreign_decks() -> None:
    installed = {d.name: d for d in list_decks()}
    assert not set(DEV_DECKS) & set(HELD_OUT_DECKS)
    assert set(DEV_DECKS) | set(HELD_OUT_DECKS) <= set(installed)
    held = [installed[n] for n in HELD_OUT_DECKS]
    assert 5 <= len(held) <= 6
    assert sum(d.index_style == "standard" for d in held) >= 3
    assert any(d.index_style == "foreign" for d in held)
    standard = corpus.standard_dev_decks()
    assert len(standard) >= 10 and set(standard) <= set(DEV_DECKS)
    assert all(installed[n].index_style == "standard" for n in standard)
    # ancient_french prints foreign letters; tango_nuevo huge indices, but A K Q J.
    assert "ancient_french" not in standard and "tango_nuevo" in standard
    assert set(PIP_ONLY_DECKS) <= set(installed)
    assert {d.name for d in installed.values() if d.four_colour} == {
        "anglo_modern_4_color", "neoclassical_4_color", "atlasnye_skat"}


def test_blind_decks_come_from_kde_and_are_in_neither_split() -> None:
    installed = {d.name for d in list_decks()}
    assert set(BLIND_DECKS) <= installed
    assert not set(BLIND_DECKS) & (set(DEV_DECKS) | set(HELD_OUT_DECKS))
    assert len(BLIND_DECKS) >= 5


def test_blind_deck_renders_each_card_from_its_own_element(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    queen = render_card("kde-standard", Card.parse("QH"), height=120)
    ten = render_card("kde-standard", Card.parse("10C"), height=120)
    assert queen.shape[0] == ten.shape[0] == 120
    assert 0.6 < queen.shape[1] / 120 < 0.8
    # The queen of hearts has red ink; the ten of clubs none.
    assert _red_fraction(queen) > 0.02
    assert _red_fraction(ten) < 0.001


def test_missing_blind_decks_name_the_debian_package(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    monkeypatch.setattr(kdecards, "KDE_DIR", tmp_path / "none")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert not set(BLIND_DECKS) & {d.name for d in list_decks()}
    with pytest.raises(corpus.CorpusUnavailableError, match="kdegames-card-data-kf5"):
        render_deck("kde-standard", 64)


def test_list_decks_holds_only_french_suited_decks_unless_asked() -> None:
    names = {d.name for d in list_decks()}
    assert "swiss-xvii" not in names
    assert "swiss-xvii" in {d.name for d in list_decks(french_only=False)}
    assert {"anglo", "ancient_french", "tarocco"} <= names


def test_render_card_has_the_height_asked_and_a_card_aspect(dev_deck: dict[Card, np.ndarray]
                                                              ) -> None:
    face = dev_deck[Card.parse("QH")]
    assert face.dtype == np.uint8 and face.shape[2] == 3
    assert face.shape[0] == 350
    assert 0.6 < face.shape[1] / face.shape[0] < 0.75
    # The rounded corner is white outside the card, the middle of the queen is not.
    assert face[0, 0].min() >= 250
    assert face[175, face.shape[1] // 2].min() < 250


def test_render_card_with_alpha_is_transparent_outside_the_rounded_corners(
        deck_faces: Faces) -> None:
    face = deck_faces("anglo", 200, alpha=True)[Card.parse("2S")]
    assert face.shape[2] == 4
    assert face[0, 0, 3] == 0 and face[-1, -1, 3] == 0
    assert face[100, face.shape[1] // 2, 3] == 255


def test_faces_show_the_suit_colour(dev_deck: dict[Card, np.ndarray]) -> None:
    for card in (Card.parse("7H"), Card.parse("7D")):
        assert _red_fraction(dev_deck[card]) > 0.02
    for card in (Card.parse("7S"), Card.parse("7C")):
        assert _red_fraction(dev_deck[card]) < 0.001


def test_render_card_returns_the_card_at_its_place_in_the_theme(dev_deck: dict[Card, np.ndarray]
                                                                 ) -> None:
    # More pips, more ink: the grid slicing puts each rank where it belongs.
    ink = [float((dev_deck[Card.parse(f"{r}S")] < 128).mean()) for r in range(2, 11)]
    assert ink == sorted(ink)


def test_cache_is_used_and_matches_a_fresh_render(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    first = render_deck("simplistic", 120)
    cached = sorted((tmp_path / "faro-shoe" / "cards" / "simplistic" / "120").glob("*.png"))
    assert len(cached) == 52
    # A damaged cache file is rendered again, not returned.
    (tmp_path / "faro-shoe" / "cards" / "simplistic" / "120" / "QH.png").write_bytes(b"junk")
    again = render_card("simplistic", Card.parse("QH"), 120)
    assert np.array_equal(again, first[Card.parse("QH")])


def test_unknown_deck_is_a_clear_error() -> None:
    with pytest.raises(UnknownDeckError, match="no deck named 'nosuch'"):
        render_deck("nosuch", 100)
    with pytest.raises(UnknownDeckError, match="not a deck name"):
        render_deck("../anglo", 100)


def test_missing_rsvg_convert_names_the_debian_package(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(corpus.CorpusUnavailableError, match="librsvg2-bin"):
        render_deck("anglo", 64)


def test_missing_themes_name_the_debian_package(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(corpus, "THEME_DIR", tmp_path / "none")
    with pytest.raises(corpus.CorpusUnavailableError, match="gnome-cards-data"):
        list_decks()


@pytest.mark.slow
def test_every_installed_deck_renders_52_distinct_cards() -> None:
    decks = list_decks(french_only=False)
    # rsvg-convert runs as a subprocess, so threads render two decks at once.
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        rendered = list(pool.map(lambda d: render_deck(d.name, 96), decks))
    for info, faces in zip(decks, rendered, strict=True):
        assert set(faces) == set(FULL_DECK), info.name
        assert {f.shape[0] for f in faces.values()} == {96}, info.name
        assert all(0.55 < f.shape[1] / 96 < 0.8 for f in faces.values()), info.name
        small = {cv2.resize(f, (24, 36), interpolation=cv2.INTER_AREA).tobytes()
                 for f in faces.values()}
        assert len(small) == 52, info.name


def _write_deck_dir(folder: Path, faces: dict[Card, np.ndarray], rng: random.Random) -> None:
    folder.mkdir()
    for card, face in faces.items():
        # Names as people write them: 10H or TH, upper or lower case.
        code = card.code.replace("10", rng.choice(["10", "T"]))
        code = code.lower() if rng.random() < 0.5 else code
        cv2.imwrite(str(folder / f"{code}.png"), face)
    (folder / "back.png").write_bytes(b"not a card, ignored")
    (folder / "README.txt").write_text("my deck")


def test_load_deck_dir_reads_a_folder_of_pngs(tmp_path: Path, deck_faces: Faces) -> None:
    faces = deck_faces("anglo", 200)
    _write_deck_dir(tmp_path / "deck", faces, random.Random(1))
    loaded = load_deck_dir(tmp_path / "deck", height=200)
    assert set(loaded) == set(FULL_DECK)
    for card in FULL_DECK:
        assert np.array_equal(loaded[card], faces[card])


def test_load_deck_dir_renders_svg_cards_and_scales_to_height(tmp_path: Path,
                                                              deck_faces: Faces) -> None:
    faces = deck_faces("anglo", 100)
    _write_deck_dir(tmp_path / "deck", faces, random.Random(2))
    next((tmp_path / "deck").glob("[qQ][hH].png")).unlink()
    (tmp_path / "deck" / "QH.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="63" height="88">'
        '<rect width="63" height="88" rx="4" fill="white"/>'
        '<text x="5" y="20" fill="red" font-size="16">Q</text></svg>')
    loaded = load_deck_dir(tmp_path / "deck", height=150)
    assert {f.shape[0] for f in loaded.values()} == {150}
    assert 0.6 < loaded[Card.parse("QH")].shape[1] / 150 < 0.8
    assert _red_fraction(loaded[Card.parse("QH")]) > 0.001


def test_load_deck_dir_names_the_missing_cards(tmp_path: Path, deck_faces: Faces) -> None:
    faces = deck_faces("anglo", 100)
    _write_deck_dir(tmp_path / "deck", faces, random.Random(3))
    for name in ("7c.png", "7C.png", "AS.png", "as.png"):
        (tmp_path / "deck" / name).unlink(missing_ok=True)
    with pytest.raises(DeckDirError, match=r"lacks 2 card\(s\): AS 7C"):
        load_deck_dir(tmp_path / "deck")


def test_load_deck_dir_rejects_unreadable_and_duplicate_cards(tmp_path: Path,
                                                              deck_faces: Faces) -> None:
    faces = deck_faces("anglo", 100)
    _write_deck_dir(tmp_path / "deck", faces, random.Random(4))
    target = next((tmp_path / "deck").glob("[kK][hH].png"))
    target.write_bytes(b"\x89PNG truncated")
    with pytest.raises(DeckDirError, match="cannot read card image"):
        load_deck_dir(tmp_path / "deck")
    cv2.imwrite(str(target), faces[Card.parse("KH")])
    cv2.imwrite(str(tmp_path / "deck" / "KH.jpg"), faces[Card.parse("KH")])
    with pytest.raises(DeckDirError, match="KH twice"):
        load_deck_dir(tmp_path / "deck")
    with pytest.raises(DeckDirError, match="not a folder"):
        load_deck_dir(tmp_path / "nowhere")


def _corner_ink(face: np.ndarray) -> float:
    h, w = face.shape[:2]
    corner = face[int(0.03 * h): int(0.22 * h), int(0.04 * w): int(0.13 * w)]
    return float((corner.min(axis=2) < 160).mean())


def test_paint_out_indices_removes_the_indices_and_keeps_the_pips(deck_faces: Faces) -> None:
    faces = deck_faces("anglo", 200, alpha=True)
    for code in ("AH", "7D", "10C", "JH", "QS", "KD"):
        face = faces[Card.parse(code)]
        painted = corpus.on_white(paint_out_indices(face))
        before = corpus.on_white(face)
        assert _corner_ink(before) > 0.05, code
        assert _corner_ink(painted) < 0.005, code
        assert _corner_ink(np.rot90(painted, 2)) < 0.005, code
        # The middle of the card (pips, court picture) is untouched.
        h, w = face.shape[:2]
        middle = np.s_[int(0.3 * h): int(0.7 * h), int(0.3 * w): int(0.7 * w)]
        assert np.array_equal(painted[middle], before[middle]), code
        assert painted.shape == before.shape


@pytest.mark.parametrize("deck", ["anglo_modern", "bellot", "berlin", "tigullio"])
def test_paint_out_deck_clears_every_corner_even_where_a_court_picture_touches(
        deck: str, deck_faces: Faces) -> None:
    faces = deck_faces(deck, 200, alpha=True)
    painted = paint_out_deck(faces)
    assert set(painted) == set(FULL_DECK)
    for card in FULL_DECK:
        before, after = corpus.on_white(faces[card]), corpus.on_white(painted[card])
        assert _corner_ink(before) > 0.15, card
        assert _corner_ink(after) < 0.02 and _corner_ink(np.rot90(after, 2)) < 0.02, card
        h, w = after.shape[:2]
        # The pips (and the court picture) further in are untouched.
        middle = np.s_[int(0.25 * h): int(0.75 * h), int(0.2 * w): int(0.8 * w)]
        assert np.array_equal(after[middle], before[middle]), card


def test_period_deck_makes_double_headed_courts_single_headed(deck_faces: Faces) -> None:
    from vision.pip_only import _mirror_similarity, period_deck

    faces = deck_faces("anglo", 200, alpha=True)
    period, plain = period_deck(faces), paint_out_deck(faces)
    for card in FULL_DECK:
        if card.rank < 11:
            assert np.array_equal(period[card], plain[card]), card
            continue
        before, after = _mirror_similarity(plain[card]), _mirror_similarity(period[card])
        assert before is not None and after is not None
        assert before > 0.75 and after < before - 0.2, card
        # Its head is up: the top half of the picture is the original top half, stretched.
        h = period[card].shape[0]
        assert not np.array_equal(period[card][h // 2:], plain[card][h // 2:]), card


def test_period_deck_leaves_courts_that_are_not_double_headed(deck_faces: Faces) -> None:
    from vision.pip_only import period_deck

    faces = deck_faces("simplistic", 200, alpha=True)
    period, plain = period_deck(faces), paint_out_deck(faces)
    assert all(np.array_equal(period[c], plain[c]) for c in FULL_DECK)
