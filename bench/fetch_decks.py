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
  (the dev decks' four-colour ones print spades blue and diamonds yellow);
* kennard: Adrian Kennard's design (me.uk/cards), as @letele/playing-cards (CC0) ships it:
  React components, which node (it comes with npm) renders to SVG here. Thin stroked indices
  and a narrow 10.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path

_YOUNESTOUATI = "@younestouati/playing-cards-standard-deck@3.0.0"
_HERUKA = "@heruka_urgyen/react-playing-cards@0.5.0"
_LETELE = "@letele/playing-cards@0.1.0"
_NUMBERED = {"1": "A", "11": "J", "12": "Q", "13": "K"}


def _younestouati_code(stem: str) -> str | None:
    """1s -> AS, 12h -> QH; None for a back or a joker."""
    found = re.fullmatch(r"(\d+)([cdhs])", stem)
    return None if found is None else _NUMBERED.get(found[1], found[1]) + found[2].upper()


def _heruka_code(stem: str) -> str | None:
    """TC -> 10C, QH -> QH; None for a back or a joker (2J)."""
    return stem.replace("T", "10") if re.fullmatch(r"[2-9TAJQK][CDHS]", stem) else None


Extract = Callable[[tarfile.TarFile, Path], None]


def _svg_files(inside: str, code_of: Callable[[str], str | None]) -> Extract:
    """Copy the SVG files of one folder inside the package, each renamed by the card code
    that ``code_of`` makes of its stem (None: not a card face)."""
    def extract(tar: tarfile.TarFile, folder: Path) -> None:
        for member in tar.getmembers():
            path = Path(member.name)
            code = code_of(path.stem) if path.parent.as_posix() == inside else None
            if code is not None and path.suffix == ".svg" and member.isfile():
                source = tar.extractfile(member)
                assert source is not None
                (folder / f"{code}.svg").write_bytes(source.read())
    return extract


#: Renders the bundle's React components (read on stdin) to SVG files in the folder named by
#: its argument, each named by card code: a component named Ca, H10 or Sq is AC, 10H or QS.
#: React is stood in for by a createElement that writes SVG text, its camelCase props
#: (strokeWidth, xlinkHref) back as SVG's attribute names.
_RENDER_REACT = r"""
const fs = require('fs');
const folder = process.argv[1];
const src = fs.readFileSync(0, 'utf8').replace(/^import .*$/mg, '');
const exported = src.match(/^export \{([^}]*)\};?$/m)[1].split(',')
  .map(s => s.trim().split(/\s+as\s+/));
const body = src.replace(/^export .*$/m, '') +
  'return {' + exported.map(([local, name]) => `${name}: ${local}`).join(',') + '};';
const asIs = new Set(['viewBox', 'preserveAspectRatio', 'patternUnits', 'gradientUnits']);
const attr = k => ({className: 'class', xlinkHref: 'xlink:href', xmlnsXlink: 'xmlns:xlink'})[k]
  || (asIs.has(k) ? k : k.replace(/[A-Z]/g, c => '-' + c.toLowerCase()));
const esc = v => String(v).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const React = {createElement(tag, props, ...children) {
  const attrs = Object.entries(props || {})
    .filter(([k, v]) => v != null && !k.startsWith('aria-') && k !== 'title' && k !== 'titleId')
    .map(([k, v]) => ` ${attr(k)}="${esc(v)}"`).join('');
  const inner = children.flat().filter(c => c != null)
    .map(c => typeof c === 'string' ? esc(c) : c.svg).join('');
  return {svg: `<${tag}${attrs}>${inner}</${tag}>`};
}};
const cards = new Function('React', '_extends', body)(React, Object.assign);
for (const [name, component] of Object.entries(cards)) {
  const card = name.match(/^([CDHS])(10|[2-9AJQK])$/i);
  if (card) fs.writeFileSync(`${folder}/${card[2].toUpperCase()}${card[1]}.svg`,
                             component({}).svg);
}
"""


def _react_bundle(tar: tarfile.TarFile, folder: Path) -> None:
    """Render @letele/playing-cards' components to SVG files with node."""
    bundle = tar.extractfile("package/dist/index.esm.js")
    assert bundle is not None
    subprocess.run(["node", "-e", _RENDER_REACT, str(folder)], input=bundle.read(),
                   check=True, capture_output=True)


#: Each folder made: the package (pinned), and how its card faces are got out of it.
SOURCES: dict[str, tuple[str, Extract]] = {
    "younestouati": (_YOUNESTOUATI, _svg_files("package/cards", _younestouati_code)),
    **{f"heruka-{v}": (_HERUKA, _svg_files(f"package/src/images/{v}", _heruka_code))
       for v in ("2color", "2color-bf", "4color", "4color-bf")},
    "kennard": (_LETELE, _react_bundle),
}


def fetch(dest: Path) -> list[Path]:
    """Each SOURCES folder under ``dest``, 52 SVG faces named by code."""
    made = []
    with tempfile.TemporaryDirectory() as tmp:
        tarballs: dict[str, Path] = {}
        for name, (package, extract) in SOURCES.items():
            if package not in tarballs:
                print(f"npm pack {package}", file=sys.stderr, flush=True)
                out = subprocess.run(["npm", "pack", package, "--pack-destination", tmp],
                                     check=True, capture_output=True, text=True)
                tarballs[package] = Path(tmp) / out.stdout.split()[-1]
            folder = dest / name
            folder.mkdir(parents=True, exist_ok=True)
            with tarfile.open(tarballs[package]) as tar:
                extract(tar, folder)
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
        raise SystemExit("npm is needed: it downloads the packages, and its node renders one "
                         "(apt install npm)") from None
    except subprocess.CalledProcessError as e:
        raise SystemExit(f"{e.cmd[0]} failed: {e.stderr.strip()}") from None
    print(" ".join(f"--deck-dir {folder}" for folder in made))


if __name__ == "__main__":
    main()
