"""Seats: the one version of "the next occupied seat clockwise" and of reading an event's seat (issue 14).

Seats are numbered clockwise (rules README), so clockwise order is ascending seat numbers, wrapping
round. Used for the stud deal order and button (R1.2), the Forty-one forehand and Spitz (B.3, B.4), the
Capsa button (A.5.1) and the tables' button (DESIGN.md tables/). :func:`parse_seat` reads the ``seat``
of every game's events; each game words its own two refusals.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Container, Iterable, Mapping
from typing import Any

__all__ = ["CLOCKWISE_POSITIONS", "clockwise_after", "clockwise_from", "next_clockwise", "parse_seat", "seat_number"]


def clockwise_from(seats: Iterable[int], start: int) -> list[int]:
    """``seats`` clockwise beginning at ``start`` (first if seated; ``start`` need not be among them).
    Seats 1..5 from 4: ``[4, 5, 1, 2, 3]``."""
    return sorted(set(seats), key=lambda s: (s < start, s))


def clockwise_after(seats: Iterable[int], seat: int) -> list[int]:
    """``seats`` clockwise beginning left of ``seat`` (``seat`` itself last, if seated).
    Seats 1..5 after 4: ``[5, 1, 2, 3, 4]``."""
    order = sorted(set(seats))
    k = bisect_right(order, seat)  # the seats above ``seat`` first, then from the lowest round to ``seat``
    return order[k:] + order[:k] if k else order


def next_clockwise(occupied: Iterable[int], current: int) -> int:
    """The first occupied seat clockwise after ``current`` (``current`` need not be occupied); the button,
    forehand or Spitz of the next hand. Raises ``ValueError`` when no seat is occupied."""
    order = clockwise_after(occupied, current)
    if not order:
        raise ValueError("no occupied seat")
    return order[0]


#: ``CLOCKWISE_POSITIONS[n][i]``: with ``n`` seats dealt in, numbered 0..n-1 clockwise (the stud's
#: positions, R1.2), the positions after ``i`` clockwise, ending with ``i`` itself: :func:`clockwise_after`
#: for positions, precomputed for the betting turn.
CLOCKWISE_POSITIONS: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(tuple((i + k) % n for k in range(1, n + 1)) for i in range(n)) for n in range(1, 11)
}


def seat_number(value: object, *, digits: bool = False) -> int | None:
    """The seat number ``value`` holds: an ``int`` (never a ``bool``); with ``digits`` also a string of at
    most six ASCII digits (``"3"``, as Capsa's events may carry it). ``None`` when it holds none."""
    if type(value) is int:
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    if digits and isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 6:
        return int(value)
    return None


def parse_seat(event: Mapping[str, Any], dealt: Container[int], *, not_a_seat: Callable[[], Exception],
               not_dealt: Callable[[int], Exception], digits: bool = False) -> int:
    """The seat of ``event`` (its ``"seat"`` key, read by :func:`seat_number`), which must be one of
    ``dealt``. Raises ``not_a_seat()`` when the key holds no seat number and ``not_dealt(seat)`` for a
    seat not dealt in: each game words its refusals (and picks their ``RuleViolation`` classes)."""
    seat = seat_number(event.get("seat"), digits=digits)
    if seat is None:
        raise not_a_seat()
    if seat not in dealt:
        raise not_dealt(seat)
    return seat
