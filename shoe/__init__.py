"""faro-shoe: the deal by faro's rules, fed one exposed card at a time.

This package holds the pure rules (cards, the deal, events, settings, the journal format)
and, in :mod:`shoe.cli` and :mod:`shoe.commands`, the program around them. Importing it pulls
in no hardware or vision library.
"""

from shoe.cards import FULL_DECK, Card, InvalidCardError, Rank, Suit

__all__ = ["FULL_DECK", "Card", "InvalidCardError", "Rank", "Suit"]
