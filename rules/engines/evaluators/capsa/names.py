"""Capsa Susun hands and naturals in words (the croupier's and the showdown tool's descriptions of a row key,
in the catalogue's English: ``gettext_noop``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rules.engines.cards import RANKS, Card
from rules.engines.evaluators.capsa.rows import (
    CATEGORY_NAMES,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    PAIR,
    ROYAL_FLUSH,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    straight_ordinal,
)
from rules.engines.messages import gettext_noop

#: Rank names and plurals for the descriptions ("Full house, Nines full of Queens"), marked messages.
_RANK_NAMES = {
    "2": gettext_noop("Two"), "3": gettext_noop("Three"), "4": gettext_noop("Four"), "5": gettext_noop("Five"),
    "6": gettext_noop("Six"), "7": gettext_noop("Seven"), "8": gettext_noop("Eight"), "9": gettext_noop("Nine"),
    "T": gettext_noop("Ten"), "J": gettext_noop("Jack"), "Q": gettext_noop("Queen"), "K": gettext_noop("King"),
    "A": gettext_noop("Ace"),
}
_RANK_PLURALS = {
    "2": gettext_noop("Twos"), "3": gettext_noop("Threes"), "4": gettext_noop("Fours"), "5": gettext_noop("Fives"),
    "6": gettext_noop("Sixes"), "7": gettext_noop("Sevens"), "8": gettext_noop("Eights"), "9": gettext_noop("Nines"),
    "T": gettext_noop("Tens"), "J": gettext_noop("Jacks"), "Q": gettext_noop("Queens"), "K": gettext_noop("Kings"),
    "A": gettext_noop("Aces"),
}
#: The naturals (A.5) by name, in the croupier's words (marked: the edge translates them).
NATURAL_NAMES = {
    "three_flushes": gettext_noop("three flushes"), "three_straights": gettext_noop("three straights"),
    "six_pairs": gettext_noop("six pairs"), "dragon": gettext_noop("dragon"), "clean_dragon": gettext_noop("clean dragon"),
}
#: The rows by name ("royalty in the front row"), marked.
ROW_NAMES = {"front": gettext_noop("front row"), "middle": gettext_noop("middle row"), "back": gettext_noop("back row")}


def natural_name(name: object) -> object:
    """The marked words for a natural's name (``"three_flushes"`` -> "three flushes"); anything else unchanged."""
    return NATURAL_NAMES.get(name, name) if isinstance(name, str) else name


def _rn(rank: int) -> str:
    return _RANK_NAMES[RANKS[rank - 2]]


def _rp(rank: int) -> str:
    return _RANK_PLURALS[RANKS[rank - 2]]


def _rc(rank: int) -> str:
    return RANKS[rank - 2]


def _straight_top(ordinal: int, wheel_rank: str) -> int:
    for top in range(5, 15):
        if straight_ordinal(top, wheel_rank=wheel_rank) == ordinal:
            return top
    raise ValueError(ordinal)


def hand_name(key: Sequence[int], *, wheel_rank: str = "low") -> str:
    """Category name of a key, with ``royal_flush`` for the A-high straight flush (A.3, A.7)."""
    if key[0] == STRAIGHT_FLUSH and _straight_top(key[1], wheel_rank) == 14:
        return ROYAL_FLUSH
    return CATEGORY_NAMES[key[0]]


def describe_key(key: Sequence[int], *, wheel_rank: str = "low") -> str:
    """Readable name of a row key: ``"Full house, Nines full of Queens"``, ``"High card A-K-Q"``; an English
    :class:`~rules.engines.messages.Message` the edge renders in the reader's language."""
    cat = key[0]
    if cat in (STRAIGHT, STRAIGHT_FLUSH):
        top = _straight_top(key[1], wheel_rank)
        if cat == STRAIGHT_FLUSH and top == 14:
            return gettext_noop("Royal flush")
        if cat == STRAIGHT_FLUSH:
            return (gettext_noop("Straight flush, %(rank)s-high (wheel)", rank=_rn(top)) if top == 5
                    else gettext_noop("Straight flush, %(rank)s-high", rank=_rn(top)))
        return (gettext_noop("Straight, %(rank)s-high (wheel)", rank=_rn(top)) if top == 5
                else gettext_noop("Straight, %(rank)s-high", rank=_rn(top)))
    if cat == FOUR_OF_A_KIND:
        return gettext_noop("Four %(rank)s, kicker %(kicker)s", rank=_rp(key[1]), kicker=_rc(key[2]))
    if cat == FULL_HOUSE:
        return gettext_noop("Full house, %(three)s full of %(two)s", three=_rp(key[1]), two=_rp(key[2]))
    if cat == FLUSH:
        return gettext_noop("Flush %(ranks)s", ranks="-".join(_rc(r) for r in key[1:]))
    if cat == THREE_OF_A_KIND:
        kick = key[2:]
        if kick:
            return gettext_noop("Three %(rank)s, kickers %(kickers)s", rank=_rp(key[1]),
                                kickers="-".join(_rc(r) for r in kick))
        return gettext_noop("Three %(rank)s", rank=_rp(key[1]))
    if cat == TWO_PAIR:
        return gettext_noop("Two pair, %(high)s and %(low)s, kicker %(kicker)s", high=_rp(key[1]), low=_rp(key[2]),
                            kicker=_rc(key[3]))
    if cat == PAIR:
        kick = key[2:]
        kickers = "-".join(_rc(r) for r in kick)
        if len(kick) > 1:
            return gettext_noop("Pair of %(rank)s, kickers %(kickers)s", rank=_rp(key[1]), kickers=kickers)
        return gettext_noop("Pair of %(rank)s, kicker %(kickers)s", rank=_rp(key[1]), kickers=kickers)
    return gettext_noop("High card %(ranks)s", ranks="-".join(_rc(r) for r in key[1:]))


def format_row(cards: Sequence[int]) -> str:
    """Canonical text of a row's cards, strongest rank first (``"Kc Ks Kh"``)."""
    counts = Counter(c >> 2 for c in cards)
    return " ".join(str(Card(c)) for c in sorted(cards, key=lambda c: (-counts[c >> 2], -(c >> 2), -(c & 3))))
