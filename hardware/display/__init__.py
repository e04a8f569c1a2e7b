"""The turn display: what the 2×20 screen says, each model's bytes, and the port writer.

- :mod:`.layout`: ``Screen`` (two 20-character lines) and ``screen_for(event)``;
- encoders, pure functions of an event or Screen: :mod:`.cd5220`, :mod:`.escpos`,
  :mod:`.serlcd`, :mod:`.matrix_orbital`, and the ``$PFARO`` sentence stream :mod:`.pfaro`;
- :mod:`.models`: the registry by config name (``model_named("serlcd")``);
- :mod:`.writer`: ``DisplayWriter(url, model)``, a thread that owns the port.

Build one from the config::

    writer = open_writer(config.display.model, config.display.port, config.display.baudrate)
    writer.announce(deal.expose(card))  # never blocks; one screen per batch of events
    writer.show(event)                  # or one event (or Screen) at a time
    writer.status.connected
    writer.close()
"""

from .encoding import DisplayModel
from .layout import InvalidScreenError, Screen, pattern_screens, screen_for, screen_for_batch
from .models import MODELS, DisplayConfigError, PortURLError, UnknownDisplayModelError, model_named
from .pfaro import BadChecksumError, InvalidSentenceError
from .writer import DisplayWriter, WriterStatus, check_port_url, open_writer

__all__ = [
    "MODELS",
    "BadChecksumError",
    "DisplayConfigError",
    "DisplayModel",
    "DisplayWriter",
    "InvalidScreenError",
    "InvalidSentenceError",
    "PortURLError",
    "Screen",
    "UnknownDisplayModelError",
    "WriterStatus",
    "check_port_url",
    "model_named",
    "open_writer",
    "pattern_screens",
    "screen_for",
    "screen_for_batch",
]
