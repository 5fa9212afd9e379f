"""Seats clockwise: the one version of "the next occupied seat clockwise" (issue 14).

Seats are numbered clockwise (rules README), so clockwise order is ascending seat numbers, wrapping
round. Used for the stud deal order and button (R1.2), the Forty-one forehand and Spitz (B.3, B.4), the
Capsa button (A.5.1) and the tables' button (DESIGN.md tables/).
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["clockwise_after", "clockwise_from", "next_clockwise"]


def clockwise_from(seats: Iterable[int], start: int) -> list[int]:
    """``seats`` clockwise beginning at ``start`` (first if seated; ``start`` need not be among them).
    Seats 1..5 from 4: ``[4, 5, 1, 2, 3]``."""
    return sorted(set(seats), key=lambda s: (s < start, s))


def clockwise_after(seats: Iterable[int], seat: int) -> list[int]:
    """``seats`` clockwise beginning left of ``seat`` (``seat`` itself last, if seated).
    Seats 1..5 after 4: ``[5, 1, 2, 3, 4]``."""
    return sorted(set(seats), key=lambda s: (s <= seat, s))


def next_clockwise(occupied: Iterable[int], current: int) -> int:
    """The first occupied seat clockwise after ``current`` (``current`` need not be occupied); the button,
    forehand or Spitz of the next hand. Raises ``ValueError`` when no seat is occupied."""
    order = clockwise_after(occupied, current)
    if not order:
        raise ValueError("no occupied seat")
    return order[0]
