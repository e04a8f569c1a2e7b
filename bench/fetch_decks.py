"""Fetch card designs that no Debian package holds, as folders of card images named by code,
for the benchmark's --deck-dir: a blind check of the zero-shot reader on decks it has never
seen. Nothing here is committed or installed; ``npm pack`` downloads each package's tarball.

    python bench/fetch_decks.py ~/decks
    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/vision_accuracy.py --modes zero \\
        --deck-dir ~/decks/younestouati --deck-dir ~/decks/heruka-2color

The folders (docs/READER.md, Blind decks):

* younestouati: @younestouati/playing-cards-standard-deck (LGPL-3.0), indices close to the
  edge, number cards with no frame;
* heruka-2color, heruka-2color-bf: @heruka_urgyen/react-playing-cards (MIT), with small and
  with big indices;
* heruka-4color, heruka-4color-bf: the same in four colours, diamonds blue and clubs green
  (the dev decks' four-colour ones print spades blue and diamonds yellow).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

#: Package (pinned), and for each folder made of it: the folder inside the package, and how a
#: file's name there gives the card's code.
_YOUNESTOUATI = "@younestouati/playing-cards-standard-deck@3.0.0"
_HERUKA = "@heruka_urgyen/react-playing-cards@0.5.0"
_NUMBERED = {"1": "A", "11": "J", "12": "Q", "13": "K"}


def _younestouati_code(stem: str) -> str | None:
    """1s -> AS, 12h -> QH; None for a back or a joker."""
    found = re.fullmatch(r"(\d+)([cdhs])", stem)
    return None if found is None else _NUMBERED.get(found[1], found[1]) + found[2].upper()


def _heruka_code(stem: str) -> str | None:
    """TC -> 10C, QH -> QH; None for a back or a joker (2J)."""
    return stem.replace("T", "10") if re.fullmatch(r"[2-9TAJQK][CDHS]", stem) else None


SOURCES = {
    "younestouati": (_YOUNESTOUATI, "package/cards", _younestouati_code),
    **{f"heruka-{v}": (_HERUKA, f"package/src/images/{v}", _heruka_code)
       for v in ("2color", "2color-bf", "4color", "4color-bf")},
}


def fetch(dest: Path) -> list[Path]:
    """Each SOURCES folder under ``dest``, 52 SVG faces named by code."""
    made = []
    with tempfile.TemporaryDirectory() as tmp:
        tarballs: dict[str, Path] = {}
        for name, (package, inside, code_of) in SOURCES.items():
            if package not in tarballs:
                print(f"npm pack {package}", file=sys.stderr, flush=True)
                out = subprocess.run(["npm", "pack", package, "--pack-destination", tmp],
                                     check=True, capture_output=True, text=True)
                tarballs[package] = Path(tmp) / out.stdout.split()[-1]
            folder = dest / name
            folder.mkdir(parents=True, exist_ok=True)
            with tarfile.open(tarballs[package]) as tar:
                for member in tar.getmembers():
                    path = Path(member.name)
                    code = code_of(path.stem) if path.parent.as_posix() == inside else None
                    if code is not None and path.suffix == ".svg" and member.isfile():
                        source = tar.extractfile(member)
                        assert source is not None
                        (folder / f"{code}.svg").write_bytes(source.read())
            count = len(list(folder.glob("*.svg")))
            if count != 52:
                raise SystemExit(f"{folder}: {count} card faces, not 52")
            made.append(folder)
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dest", type=Path, help="folder to make the deck folders in")
    args = parser.parse_args()
    try:
        made = fetch(args.dest.expanduser())
    except FileNotFoundError:
        raise SystemExit("npm is needed: it downloads the packages (apt install npm)") from None
    except subprocess.CalledProcessError as e:
        raise SystemExit(f"npm pack failed: {e.stderr.strip()}") from None
    print(" ".join(f"--deck-dir {folder}" for folder in made))


if __name__ == "__main__":
    main()
