"""The service's configuration: one TOML file, read with tomllib and validated up front.

A bad value stops the start with one line naming the key, the value and what was expected:

>>> parse({"camera": {"source": "webcam"}})
Traceback (most recent call last):
...
shoe.tables.ConfigError: camera.source: expected one of 'sim', 'picamera2', 'v4l2', 'file', \
'images', got 'webcam'

``shoe/data/config.example.toml`` is the commented example; every key has a default, so an
empty file is a valid config (simulated camera, no keeper, no display).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shoe.settings import Settings
from shoe.tables import ConfigError, Pin, Table, resolve

__all__ = [
    "DEFAULT_CONFIG_PATH",
    "DEFAULT_STATE_DIR",
    "ButtonsConfig",
    "CameraConfig",
    "Config",
    "ConfigError",
    "DisplayConfig",
    "KeeperConfig",
    "load",
    "parse",
]

DEFAULT_CONFIG_PATH = Path("/etc/faro-shoe/config.toml")
DEFAULT_STATE_DIR = Path("/var/lib/faro-shoe")

CAMERA_SOURCES = ("sim", "picamera2", "v4l2", "file", "images")
RECORDED_SOURCES = ("file", "images")  # played back from a path, at their own frame size
KEEPER_DRIVERS = ("servo", "pca9685", "shift-register", "ledboard", "ws2812", "terminal", "none")
DISPLAY_MODELS = ("cd5220", "escpos", "serlcd", "matrix-orbital", "pfaro", "none")
BUTTON_NAMES = ("new_deck", "undo", "confirm", "close_box", "void", "break_beam")
BAUDRATES = (1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200)
FRAME_WIDTHS, FRAME_HEIGHTS = (160, 4096), (120, 4096)  # pixels: least and most
RANKS = 13
POSITIONS = 5  # a bead wire shows 0–4 cards gone


@dataclass(frozen=True, slots=True)
class CameraConfig:
    """Where frames come from. ``pace`` is the simulated dealer's cards per minute."""

    source: str = "sim"
    seed: int = 1
    pace: float = 60.0
    device: str = "/dev/video0"
    path: str = ""
    width: int = 640
    height: int = 480
    fps: float = 30.0
    deck_dir: str = ""  # sim only: render this deck's card images instead of built-in faces
    speed: float = 1.0  # sim and recordings: 1 real time, 0 as fast as frames can be made


@dataclass(frozen=True, slots=True)
class KeeperConfig:
    """The case-keeper driver and its wiring.

    ``pins``: 13 servo or LED pins, ace to king (servo, ledboard). ``channels``: 13 PCA9685
    channels. ``pulse_us``: the servos' pulse in µs for 0 and 4 cards gone; ``trim_us``: per
    rank, five offsets in µs, one per position. ``per_step`` servos start moving every
    ``interval`` seconds. Shift register: ``data``, ``clock``, ``latch`` pins (SPI MOSI, SCLK
    and a chip-select) and ``two_colour``.
    """

    driver: str = "none"
    pins: tuple[Pin, ...] = ()
    channels: tuple[int, ...] = ()
    i2c_address: int = 0x40
    pulse_us: tuple[float, float] = (1000.0, 2000.0)
    trim_us: tuple[tuple[float, ...], ...] = ()
    per_step: int = 2
    interval: float = 0.25
    data: Pin = 10
    clock: Pin = 11
    latch: Pin = 8
    two_colour: bool = False
    brightness: float = 0.3  # ws2812: 0-1 of full white


@dataclass(frozen=True, slots=True)
class DisplayConfig:
    """The turn display: its model and port URL, and an optional ``$PFARO`` stream port."""

    model: str = "none"
    port: str = ""
    baudrate: int = 0  # 0: the model's own default
    pfaro_port: str = ""
    pfaro_baudrate: int = 9600


@dataclass(frozen=True, slots=True)
class ButtonsConfig:
    """Operator panel and slot break-beam pins; None where the button is not fitted."""

    new_deck: Pin | None = None
    undo: Pin | None = None
    confirm: Pin | None = None
    close_box: Pin | None = None
    void: Pin | None = None
    break_beam: Pin | None = None
    hold_time: float = 2.0  # destructive actions (new deck, void) need a hold this long
    bounce_time: float = 0.05

    def fitted(self) -> dict[str, Pin]:
        return {n: p for n in BUTTON_NAMES if (p := getattr(self, n)) is not None}


@dataclass(frozen=True, slots=True)
class Config:
    """The whole configuration of one shoe."""

    state_dir: Path = DEFAULT_STATE_DIR
    profile: str = ""  # a deck profile from `faro-shoe learn`; empty: read zero-shot
    settings: Settings = field(default_factory=Settings)
    camera: CameraConfig = field(default_factory=CameraConfig)
    keeper: KeeperConfig = field(default_factory=KeeperConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    source: str = "<defaults>"  # where it was read from, for messages

    @property
    def journal_dir(self) -> Path:
        return self.state_dir / "deals"

    @property
    def control_socket(self) -> Path:
        return self.state_dir / "control.sock"


def load(path: Path | str) -> Config:
    """Read and validate a config file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the config: {exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    return parse(data, source=str(path), base=path.parent)


def parse(data: dict[str, Any], *, source: str = "<config>", base: Path | None = None) -> Config:
    """Validate a TOML table as read by tomllib; relative paths resolve against ``base``."""
    top = Table(data, "")
    state_dir = top.path("state_dir", str(DEFAULT_STATE_DIR), base)
    profile = top.string("profile", "")
    if profile:
        profile = str(resolve(profile, base))
    settings = _settings(top.table("deal"))
    camera = _camera(top.table("camera"), base)
    keeper = _keeper(top.table("keeper"))
    display = _display(top.table("display"))
    buttons = _buttons(top.table("buttons"))
    top.done()
    _check_pins_unique(keeper, buttons)
    return Config(state_dir, profile, settings, camera, keeper, display, buttons, source)


# -- sections ------------------------------------------------------------------------------


def _settings(table: Table) -> Settings:
    known = Settings.__dataclass_fields__
    for name in table.data:
        table.get(name, None)
    table.seen = set(known)
    table.done()
    try:
        return Settings.from_json(dict(table.data))
    except ValueError as exc:
        raise ConfigError(f"deal.{exc}") from None


def _camera(t: Table, base: Path | None) -> CameraConfig:
    source = t.choice("source", "sim", CAMERA_SOURCES)
    t.seen.update(("path", "deck_dir"))  # read below only when given
    cam = CameraConfig(
        source=source,
        seed=t.integer("seed", 1, 0, 2**32 - 1),
        pace=t.number("pace", 60.0, 1.0, 6000.0),
        device=t.string("device", "/dev/video0"),
        path=str(t.path("path", "", base)) if "path" in t.data else "",
        width=t.integer("width", 640, *FRAME_WIDTHS),
        height=t.integer("height", 480, *FRAME_HEIGHTS),
        fps=t.number("fps", 30.0, 1.0, 240.0),
        deck_dir=str(t.path("deck_dir", "", base)) if "deck_dir" in t.data else "",
        speed=t.number("speed", 1.0, 0.0, 100.0),
    )
    t.done()
    if source in RECORDED_SOURCES and not cam.path:
        what = "a video file" if source == "file" else "a folder of images"
        raise ConfigError(f"camera.path: expected {what} for source = {source!r}, got nothing")
    return cam


def _keeper(t: Table) -> KeeperConfig:
    driver = t.choice("driver", "none", KEEPER_DRIVERS)
    needs_pins = driver in ("servo", "ledboard")
    pins = t.pins("pins", RANKS if needs_pins else None)
    if needs_pins and not pins:
        raise ConfigError(f"keeper.pins: expected {RANKS} pins (ace to king) for driver = "
                          f"{driver!r}, got nothing")
    channels = t.int_list("channels", 0, 15, RANKS)
    pulse = t.float_list("pulse_us", [1000.0, 2000.0], 400.0, 2600.0, 2)
    if pulse[0] >= pulse[1]:
        raise ConfigError(f"keeper.pulse_us: expected [min, max] with min < max, got {pulse}")
    trim_raw = t.get("trim_us", [])
    if not isinstance(trim_raw, list) or len(trim_raw) not in (0, RANKS):
        raise ConfigError(
            f"keeper.trim_us: expected {RANKS} lists of {POSITIONS} offsets, got {trim_raw!r}"
        )
    rows = Table({f"trim_us[{i}]": row for i, row in enumerate(trim_raw)}, "keeper.")
    trim = tuple(
        tuple(rows.float_list(f"trim_us[{i}]", [], -300.0, 300.0, POSITIONS))
        for i in range(len(trim_raw))
    )
    keeper = KeeperConfig(
        driver=driver,
        pins=tuple(pins),
        channels=tuple(channels) if channels else tuple(range(RANKS)),
        i2c_address=t.integer("i2c_address", 0x40, 0x03, 0x77),
        pulse_us=(pulse[0], pulse[1]),
        trim_us=trim,
        per_step=t.integer("per_step", 2, 1, 13),
        interval=t.number("interval", 0.25, 0.0, 5.0),
        data=t.pin("data", 10),
        clock=t.pin("clock", 11),
        latch=t.pin("latch", 8),
        two_colour=t.flag("two_colour", False),
        brightness=t.number("brightness", 0.3, 0.01, 1.0),
    )
    t.done()
    return keeper


def _display(t: Table) -> DisplayConfig:
    model = t.choice("model", "none", DISPLAY_MODELS)
    port = t.string("port", "")
    if model != "none" and not port:
        raise ConfigError(f"display.port: expected a port URL or device (like "
                          f"'/dev/serial/by-id/…' or 'socket://host:port') for model = {model!r}, "
                          "got nothing")
    display = DisplayConfig(
        model=model,
        port=port,
        baudrate=t.choice_int("baudrate", 0, (0, *BAUDRATES)),
        pfaro_port=t.string("pfaro_port", ""),
        pfaro_baudrate=t.choice_int("pfaro_baudrate", 9600, BAUDRATES),
    )
    t.done()
    return display


def _buttons(t: Table) -> ButtonsConfig:
    pins = {name: t.pin(name, None) for name in BUTTON_NAMES}
    buttons = ButtonsConfig(
        **pins,
        hold_time=t.number("hold_time", 2.0, 0.0, 10.0),
        bounce_time=t.number("bounce_time", 0.05, 0.0, 1.0),
    )
    t.done()
    return buttons


def _check_pins_unique(keeper: KeeperConfig, buttons: ButtonsConfig) -> None:
    used: dict[str, str] = {}
    claims: list[tuple[str, Pin]] = [(f"buttons.{n}", p) for n, p in buttons.fitted().items()]
    if keeper.driver in ("servo", "ledboard"):
        claims += [(f"keeper.pins[{i}]", p) for i, p in enumerate(keeper.pins)]
    if keeper.driver == "shift-register":
        claims += [(f"keeper.{n}", getattr(keeper, n)) for n in ("data", "clock", "latch")]
    for key, pin in claims:
        name = _pin_key(pin)
        if name in used:
            raise ConfigError(f"{key}: pin {pin!r} is already used by {used[name]}")
        used[name] = key


def _pin_key(pin: Pin) -> str:
    """GPIO17, BCM17 and 17 are the same pin."""
    if isinstance(pin, int):
        return f"GPIO{pin}"
    return pin.upper().replace("BCM", "GPIO")
