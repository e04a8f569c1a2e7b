"""The rules never import hardware or vision libraries (STYLE.md: rules without I/O)."""

from __future__ import annotations

import subprocess
import sys

BLOCKED = ["gpiozero", "serial", "cv2", "picamera2", "numpy"]

PROBE = f"""
import sys
for name in {BLOCKED!r}:
    sys.modules[name] = None  # any import of it now raises ImportError
import shoe, shoe.cards, shoe.deal, shoe.events, shoe.settings, shoe.describe, shoe.cardfile
import casekeeper, casekeeper.case, casekeeper.cuesheet
import shoe.cli
shoe.cli.build_parser()  # every command registers without its heavy libraries
from shoe.cards import shuffled_deck
from shoe.deal import Deal
from casekeeper.case import Case
Case.from_events(Deal.from_cards(shuffled_deck(1)).events)
print("ok")
"""


def test_rules_and_cli_import_with_hardware_and_vision_libraries_blocked() -> None:
    result = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
