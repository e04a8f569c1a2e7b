"""The calls made on a deal, as the journal records them: replaying them rebuilds the deal.

>>> Action.from_json({"action": "expose", "card": "10H", "sure": False})
Action(kind=<ActionKind.EXPOSE: 'expose'>, card=Card.parse('10H'), sure=False)
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

from shoe.cards import Card, FaroError

__all__ = ["Action", "ActionKind", "InvalidActionError"]


class InvalidActionError(FaroError, ValueError):
    """A journal record that is not a deal action."""


class ActionKind(enum.Enum):
    EXPOSE = "expose"
    CORRECT = "correct"
    CONFIRM = "confirm"
    UNDO = "undo"
    VOID = "void"


class Action(NamedTuple):
    """One call made on a deal, as the journal records it.

    A named tuple rather than a dataclass: the deal records one per card, and tuples are cheap.
    """

    kind: ActionKind
    card: Card | None = None
    sure: bool = True

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.kind.value}
        if self.kind in (ActionKind.EXPOSE, ActionKind.CORRECT):
            out["card"] = self.card.code if self.card else None
        if self.kind is ActionKind.EXPOSE and not self.sure:
            out["sure"] = False
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Action:
        try:
            kind = ActionKind(data["action"])
            code = data.get("card")
            card = Card.parse(code) if code is not None else None
            sure = data.get("sure", True)
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidActionError(f"not a deal action: {data!r} ({exc})") from None
        if not isinstance(sure, bool):
            raise InvalidActionError(f"not a deal action: {data!r} (sure must be true or false)")
        return cls(kind, card, sure)
