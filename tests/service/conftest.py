"""Fixtures for the service tests: a scripted stand-in for the camera+vision seam, and
helpers to start `faro-shoe` as a real process."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from shoe.cards import Card
from shoe.service import Exposure, ShoeState
from vision.reading import Reading

REPO = Path(__file__).resolve().parents[2]


def sure(code: str) -> Exposure:
    return Exposure(Reading(Card.parse(code), 0.99), 0.0, True)


def unsure(code: str | None, confidence: float = 0.5) -> Exposure:
    card = Card.parse(code) if code else None
    return Exposure(Reading(card, confidence if card else 0.0), 0.0, False)


class ScriptedEyes:
    """The loop's Eyes seam fed from a list: one exposure per look(), then the end."""

    def __init__(self, exposures: Iterable[Exposure]) -> None:
        self.script = list(exposures)
        self.rereads = 0
        self.beams: list[float] = []
        self.gate = threading.Semaphore(0)  # a test releases one exposure at a time

    @property
    def ended(self) -> bool:
        return not self.script

    def look(self) -> list[Exposure]:
        if not self.gate.acquire(timeout=0.01):
            return []
        return [self.script.pop(0)] if self.script else []

    def release(self, n: int = 1) -> None:
        for _ in range(n):
            self.gate.release()

    def beam(self, t: float) -> None:
        self.beams.append(t)

    def reread(self) -> None:
        self.rereads += 1

    def close(self) -> None:
        pass


class RecordingOutput:
    def __init__(self) -> None:
        self.states: list[ShoeState] = []

    def update(self, state: ShoeState) -> None:
        self.states.append(state)

    def close(self) -> None:
        pass


def cli_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    for key in ("NOTIFY_SOCKET", "INVOCATION_ID", "WATCHDOG_USEC", "WATCHDOG_PID"):
        env.pop(key, None)
    env.update(extra)
    return env


def faro_shoe(*args: str, **kwargs: object) -> subprocess.Popen[str]:
    """Start `faro-shoe ARGS` as a real process (stdout and stderr piped, text)."""
    return subprocess.Popen(
        [sys.executable, "-m", "shoe.cli", *args], cwd=REPO, env=kwargs.pop("env", cli_env()),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs,  # type: ignore[call-overload]
    )


@pytest.fixture
def run_cli() -> Callable[..., subprocess.Popen[str]]:
    """Start `faro-shoe ARGS` as a real process."""
    return faro_shoe


class Seam:
    """What the loop tests build a scripted service from (importlib mode: via a fixture)."""

    ScriptedEyes = ScriptedEyes
    RecordingOutput = RecordingOutput
    sure = staticmethod(sure)
    unsure = staticmethod(unsure)


@pytest.fixture
def seam() -> type[Seam]:
    return Seam


def sim_config(state_dir: Path, seed: int, *, pace: float = 600.0, speed: float = 0.0,
               extra: str = "") -> str:
    """A config for the simulated camera dealing as fast as it can (tests)."""
    return (f'state_dir = "{state_dir}"\n[camera]\nsource = "sim"\nseed = {seed}\n'
            f"pace = {pace}\nspeed = {speed}\n{extra}")


@pytest.fixture
def write_sim_config() -> Callable[..., str]:
    return sim_config


@pytest.fixture
def cli_env_fixture() -> Callable[..., dict[str, str]]:
    return cli_env
