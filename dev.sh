#!/usr/bin/env bash
# Set up what faro-shoe needs on a fresh clone, then run the demo or the tests.
#
#   ./dev.sh demo [DEMO OPTIONS]   the whole rig, simulated, in this terminal
#   ./dev.sh test [PYTEST OPTIONS] lint, type checks and the test suite
#
# It makes a virtual environment in .venv (again whenever pyproject.toml or constraints.txt
# changes), with the package versions the tests last passed with (constraints.txt), and, for
# the tests, installs Debian's card decks and SVG renderer if they are missing.
set -euo pipefail
cd "$(dirname "$0")"

venv=.venv
python=${PYTHON:-python3}

ensure_venv() {
    local stamp="$venv/.installed-$(cat pyproject.toml constraints.txt | sha1sum | cut -c1-12)"
    if [ ! -e "$stamp" ]; then
        echo "dev.sh: setting up $venv (Python packages from pyproject.toml, versions from constraints.txt)..." >&2
        "$python" -m venv "$venv"
        "$venv/bin/python" -m pip install --quiet --upgrade pip
        "$venv/bin/python" -m pip install --quiet -c constraints.txt -e '.[test]'
        rm -f "$venv"/.installed-*
        touch "$stamp"
    fi
}

ensure_card_decks() {
    # The vision tests render real card designs with rsvg-convert: Debian's aisleriot decks,
    # and KDE's (the reader's blind decks, vision/kdecards.py).
    if [ -d /usr/share/aisleriot/cards ] && [ -d /usr/share/carddecks ] \
        && command -v rsvg-convert >/dev/null; then
        return
    fi
    echo "dev.sh: installing gnome-cards-data, kdegames-card-data-kf5 and librsvg2-bin..." >&2
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
        gnome-cards-data kdegames-card-data-kf5 librsvg2-bin
}

case "${1:-}" in
    demo)
        shift
        ensure_venv
        exec "$venv/bin/faro-shoe" demo "$@"
        ;;
    test)
        shift
        ensure_venv
        ensure_card_decks
        "$venv/bin/ruff" check shoe casekeeper vision hardware tools tests bench
        "$venv/bin/mypy"
        exec "$venv/bin/pytest" "$@"
        ;;
    *)
        sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
        exit 2
        ;;
esac
