"""`faro-shoe demo --headless` deals a whole simulated deck through the real pipeline."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from hardware.cameras.simulated import shuffled_deck
from shoe import journal

pytestmark = pytest.mark.slow


def test_headless_demo_ends_with_the_cue_sheet_and_a_whole_journal(
    tmp_path: Path, run_cli: Any
) -> None:
    proc: subprocess.Popen[str] = run_cli("demo", "--headless", "--seed", "5", "--speed", "0",
                                          "--state-dir", str(tmp_path))
    out, err = proc.communicate(timeout=150)
    assert proc.returncode == 0, err
    assert "Cue sheet" in out
    record = journal.latest(tmp_path / "deals")
    assert record is not None
    deal = record.deal()
    assert deal.is_finished and list(deal.cards) == list(shuffled_deck(5))
    # The display on the pty: the stream was decoded at its far end.
    decoded = [line for line in out.splitlines() if line.startswith("display:")]
    assert decoded and "0 sentences" not in decoded[0]
