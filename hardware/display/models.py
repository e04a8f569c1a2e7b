"""The registry of display models, by the names the config and ``display-test`` use."""

from __future__ import annotations

import functools

from hardware.errors import HardwareConfigError, UnknownDriverError

from . import cd5220, escpos, matrix_orbital, pfaro, serlcd
from .encoding import DisplayModel

__all__ = ["MODELS", "DisplayConfigError", "PortURLError", "UnknownDisplayModelError",
           "model_named"]


class DisplayConfigError(HardwareConfigError):
    """A display setting that cannot work; the message names the setting."""


class UnknownDisplayModelError(DisplayConfigError, UnknownDriverError):
    """A display model name that is not in :data:`MODELS`."""


class PortURLError(DisplayConfigError):
    """A port setting that names no serial device or pyserial URL."""


def _screen_model(module: object, name: str, title: str, baud: int, glyphs: bool,
                  settle: float = 0.0) -> DisplayModel:
    return DisplayModel(
        name=name,
        title=title,
        default_baudrate=baud,
        startup=module.startup,  # type: ignore[attr-defined]
        encode=functools.partial(module.encode, glyphs=glyphs),  # type: ignore[attr-defined]
        settle=settle,
    )


def _models(glyphs: bool) -> dict[str, DisplayModel]:
    return {
        "cd5220": _screen_model(cd5220, "cd5220", "CD5220 2×20 VFD pole display", 9600, glyphs),
        "escpos": _screen_model(escpos, "escpos", "Epson ESC/POS customer display", 9600, glyphs),
        "serlcd": _screen_model(serlcd, "serlcd", "HD44780 LCD on a SparkFun SerLCD backpack",
                                9600, glyphs, settle=serlcd.SETTLE),
        "matrix-orbital": _screen_model(matrix_orbital, "matrix-orbital",
                                        "Matrix Orbital LCD/VFD module", 19200, glyphs),
        "pfaro": DisplayModel("pfaro", "$PFARO sentence stream (docs/PROTOCOL.md)", 9600,
                              pfaro.startup, pfaro.encode, keeps_log=True),
    }


#: Every model by name, suits drawn as custom characters where the model can.
MODELS: dict[str, DisplayModel] = _models(glyphs=True)
_LETTER_MODELS = _models(glyphs=False)


def model_named(
    name: str, *, letters: bool = False, setting: str = "display.model"
) -> DisplayModel:
    """The model called ``name``; ``letters``: suits as S H D C instead of custom glyphs.

    Raise DisplayConfigError naming ``setting`` if there is no such model.
    """
    table = _LETTER_MODELS if letters else MODELS
    try:
        return table[name]
    except KeyError:
        raise UnknownDisplayModelError(
            f"{setting}: unknown display model {name!r}; known: {', '.join(MODELS)}"
        ) from None
