"""Pots: the uncalled bet, main and side pots, and the odd chip, written once for every game (issue 14).

Amounts are integer cents; seats are given by *index* into the caller's sequence (a stud position, the
n-th seat of a Forty-one hand), so the caller maps indices back to its seat numbers.

* :func:`uncalled`: the part of the top wager nobody matched goes back to its owner (stud R10.1,
  Forty-one B.4 step 8).
* :func:`side_pots`: the main pot and the side pots of an all-in (stud R10.1, R10.2, R10.4; Forty-one
  B.4a), dead money (stud antes that are not trimmed, the Forty-one dead blind) in the main pot.
* :func:`split_shares` and :func:`split_high_low`: the odd-chip rule of a shared pot (stud R11.3, Hi-Lo
  HL2.3).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["Layer", "side_pots", "split_high_low", "split_shares", "uncalled"]

#: One pot: (amount in cents, indices of the seats that may win it, ascending).
Layer = tuple[int, tuple[int, ...]]


def uncalled(amounts: Sequence[int]) -> tuple[int, int]:
    """``(index, excess)``: the first index holding the largest amount and how much it exceeds the
    second largest (0 when two hold the top amount, or for fewer than two amounts): the uncalled part of
    the top wager, which goes back to its owner (stud R10.1, Forty-one B.4 step 8)."""
    if len(amounts) < 2:
        return 0, 0
    high = max(amounts)
    if amounts.count(high) > 1:  # the top wager was called
        return amounts.index(high), 0
    return amounts.index(high), high - sorted(amounts)[-2]


def side_pots(amounts: Sequence[int], live: Sequence[bool], cuts: Iterable[int], *, dead: int = 0) -> list[Layer]:
    """The main pot and the side pots, main first, as ``[(amount, eligible indices)]``.

    ``amounts[i]``: what seat ``i`` has in the pots (after uncalled chips went back); ``live[i]``: it may
    still win (not folded); ``cuts``: the levels where a pot ends, i.e. the totals of the live all-in
    seats (stud) or every seat's total (Forty-one: then the pot above the highest cut is empty). Each pot
    holds every seat's chips between two cuts and is open to the live seats that reached the upper cut;
    the chips above the last cut are one pot open to the live seats that put in more (or, if none did,
    as much). Adjacent pots open to the same seats are one pot, and chips nobody live can win go to the
    pot below. ``dead``: money that belongs to the main pot without a level (antes that are not trimmed,
    stud R10.4; the Forty-one dead blind, B.4a); with no pot it is one pot open to every live seat.
    """
    n = len(amounts)
    seats = range(n)
    pots: list[list[Any]] = []
    prev = 0
    for level in sorted(set(cuts)) if cuts else ():
        amount = 0
        eligible = []
        for j in seats:
            a = amounts[j]
            if a > prev:
                amount += (a if a < level else level) - prev
                if a >= level and live[j]:
                    eligible.append(j)
        prev = level
        if amount:
            if pots and (pots[-1][1] == eligible or not eligible):
                pots[-1][0] += amount
            else:
                pots.append([amount, eligible])
    amount = 0
    eligible = []
    for j in seats:
        a = amounts[j]
        if a > prev:
            amount += a - prev
            if live[j]:
                eligible.append(j)
    if amount:
        if not eligible:
            eligible = [j for j in seats if live[j] and amounts[j] >= prev]
        if pots and (pots[-1][1] == eligible or not eligible):
            pots[-1][0] += amount
        else:
            pots.append([amount, eligible])
    if dead:
        if pots:
            pots[0][0] += dead
        else:
            pots.append([dead, [j for j in seats if live[j]]])
    if len(pots) == 1:  # no side pot
        return [(pots[0][0], tuple(pots[0][1]))]
    return [(a, tuple(e)) for a, e in pots]


def split_shares(amount: int, winners: Sequence[int], order: Sequence[int], unit: int) -> list[tuple[int, int]]:
    """A pot shared by ``winners`` as ``[(winner, cents)]`` (ascending winners; stud R11.3): equal shares in
    whole chip units of ``unit`` cents; the odd units one each to the winners in ``order`` (the game's
    odd-chip order: highest card by suit, or clockwise from the dealer's left); a remainder smaller than a
    unit goes to the first in ``order``."""
    if len(winners) == 1:
        return [(winners[0], amount)]
    k = len(winners)
    share = amount // (k * unit) * unit
    rest = amount - share * k
    out = {j: share for j in winners}
    for j in order:
        if rest >= unit:
            out[j] += unit
            rest -= unit
    if rest:
        out[order[0]] += rest
    return [(j, out[j]) for j in sorted(winners)]


def split_high_low(amount: int, unit: int) -> tuple[int, int]:
    """``(high half, low half)`` of a split pot in cents (Hi-Lo HL2.1, HL2.3): the low half is half the pot
    rounded down to a whole chip unit of ``unit`` cents, so an odd chip goes to the high half."""
    low = amount // (2 * unit) * unit
    return amount - low, low
