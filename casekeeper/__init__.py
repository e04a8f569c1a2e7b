"""The case-keeper: thirteen wires of four beads, and the cue sheet, built from the deal's events.

Pure rules: no hardware here. Drivers in :mod:`hardware` show a :class:`Case` whole.
"""

from casekeeper.case import Case, Mark, Placed

__all__ = ["Case", "Mark", "Placed"]
