"""The fixed-limit betting round's arithmetic, written once for every game (issue 14).

What a wager *is* (a full bet or raise, or a short all-in), when a round is capped, and who still has
to act are the same questions in stud and in Forty-one; the engines keep their own state (stud by
position in lists, Forty-one by seat in dicts) and their own messages, and ask these functions. Amounts
are integer cents.

* :func:`is_full_wager`: a wager to ``to`` is *full* (it counts for the cap and reopens the betting for
  players who have acted) when it is at least one unit over the last full wager; an all-in for less is
  full under ``short_allin_rule = "half_bet"`` when it adds at least half a unit (stud R6.5, R10.3;
  Forty-one B.4a). The two rule sheets measure that half unit from different levels, which is a rule,
  not an accident: stud from the **current bet** (what the all-in adds over the amount to call),
  Forty-one from the **last full wager** (``half_from``).
* :func:`is_capped`: the cap of raises in a round (stud R6.2, R7.3; Forty-one B.4 step 6); ``None``
  means no cap (stud R6.3 heads-up, Forty-one ``raise_cap_heads_up = null``).
* :func:`must_act`: whether a seat still has to act before the round closes (stud R6.6; Forty-one
  B.4 steps 3-7, B.4a).

Spread limit (stud R7) has no second implementation to share: only stud deals it.

Pure Python, no Django.
"""

from __future__ import annotations

__all__ = ["is_capped", "is_full_wager", "must_act"]


def is_full_wager(to: int, *, last_full: int, half_from: int, unit: int, short_allin_rule: str) -> bool:
    """Whether a wager to ``to`` (the seat's round total, cents) is a full bet or raise.

    ``last_full``: the round total of the last full wager (0 before any); ``unit``: the smallest full
    increment (split limit: the street's unit; stud R6.1, Forty-one B.4 step 3); ``half_from``: the level
    the half-unit test of a short all-in is measured from (stud: the current bet, R6.5/R10.3; Forty-one:
    ``last_full``, B.4a); ``short_allin_rule``: ``"half_bet"`` (half a unit or more is full) or
    ``"full_bet"`` (only a full unit). Raises nothing.
    """
    return to - last_full >= unit or (short_allin_rule == "half_bet" and 2 * (to - half_from) >= unit)


def is_capped(raises: int, cap: int | None) -> bool:
    """Whether ``raises`` raises (the opening bet not counted) have reached ``cap`` (``None``: no cap).

    Stud R6.2/R7.3 (one bet and ``raise_cap`` raises), Forty-one B.4 step 6 (``max_raises_per_round``,
    ``raise_cap_heads_up`` with two players in). Raises nothing.
    """
    return cap is not None and raises >= cap


def must_act(*, folded: bool, stack: int, acted: bool, behind: bool) -> bool:
    """Whether a seat must still act in this betting round: it is in the hand (not ``folded``), has chips
    behind (``stack`` cents > 0; an all-in seat never acts again), and either has not acted since the last
    full wager (``acted`` False) or has less in than the current bet (``behind``). Stud R6.6, Forty-one
    B.4 steps 3-7 (which also closes the round when nobody else could call, B.4a: the caller's test).
    Raises nothing.
    """
    return not folded and stack > 0 and (behind or not acted)
