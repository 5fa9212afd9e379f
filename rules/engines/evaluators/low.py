"""Low hands: ace-to-five (Razz) and eight or better (Seven Card Stud Hi-Lo), and low boards.

Cards are :class:`~rules.engines.cards.Card` ints (``rank_index * 4 + suit_index``, ace = rank index
12). In a low hand the ace is the lowest card (rank value 1); straights and flushes do not count,
pairs do (``docs/rules/razz.md`` RZ2.1-RZ2.3, ``docs/rules/seven_card_stud_hi_lo.md`` HL2.2).

Public API (every key: **lower is better**, comparable only with keys of the same function):

* :func:`ace_to_five_key` - the best ace-to-five low of 5 to 7 cards (Razz showdown, RZ2.2).
* :func:`eight_or_better_key` - the best qualifying low of 5 to 7 cards: five different ranks, all
  eight or lower; ``None`` when the hand has no qualifying low (HL2.2).
* :func:`low_board_key` - a board of 1 to 4 up cards read as a low hand (Razz acting order, RZ5.1).
* :func:`low_card_value` - a card's rank for the Razz bring-in: ace 1 ... king 13 (RZ4.1).
* :func:`describe_low` - ``"7-5-4-2-A"`` for a key of the first two functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

__all__ = [
    "LowKey",
    "ace_to_five_key",
    "describe_low",
    "eight_or_better_key",
    "low_board_key",
    "low_card_value",
]

#: A low key: (shape, ranks). ``shape`` is the rank-group sizes, largest first ((1, 1, 1, 1, 1) = no
#: pair, (2, 1, 1, 1) = one pair ...), which orders the categories by itself when compared as tuples;
#: ``ranks`` are the low rank values (ace 1 ... king 13) in group order, highest first within a size.
LowKey = tuple[tuple[int, ...], tuple[int, ...]]

_LOW_NAMES = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}


def low_card_value(card: int) -> int:
    """The rank of ``card`` in a low game: ace 1, deuce 2 ... king 13 (RZ2.1)."""
    r = card >> 2
    return 1 if r == 12 else r + 2


def _shape_key(values: Sequence[int]) -> LowKey:
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    groups = sorted(counts.items(), key=lambda rc: (-rc[1], -rc[0]))
    return tuple(c for _, c in groups), tuple(r for r, _ in groups)


@lru_cache(maxsize=1 << 16)
def _best_a5(values: tuple[int, ...]) -> LowKey:
    distinct = sorted(set(values))
    if len(distinct) >= 5:  # five different ranks: the lowest five, no pair (the common case)
        return (1, 1, 1, 1, 1), tuple(reversed(distinct[:5]))
    return min(_shape_key(five) for five in combinations(values, 5))


def ace_to_five_key(cards: Sequence[int]) -> LowKey:
    """The best five-card ace-to-five low among ``cards`` (5 to 7 card ints); lower is better (RZ2.2).

    Straights and flushes are ignored; a pair is worse than any no-pair hand, two pair worse than
    one pair, and so on; within a category the highest card decides, then the next (RZ2.3).
    Raises ``ValueError`` for fewer than five cards.
    """
    if len(cards) < 5:
        raise ValueError(f"a low hand needs at least five cards, got {len(cards)}")
    return _best_a5(tuple(sorted(low_card_value(c) for c in cards)))


@lru_cache(maxsize=1 << 14)
def _best_8(values: frozenset[int]) -> LowKey | None:
    low = sorted(v for v in values if v <= 8)
    if len(low) < 5:
        return None
    return (1, 1, 1, 1, 1), tuple(reversed(low[:5]))


def eight_or_better_key(cards: Sequence[int]) -> LowKey | None:
    """The best qualifying low among ``cards`` (5 to 7 card ints): five different ranks of eight or
    lower, ace low, compared highest card first; ``None`` if there is none (HL2.2). Lower is better."""
    if len(cards) < 5:
        raise ValueError(f"a low hand needs at least five cards, got {len(cards)}")
    return _best_8(frozenset(low_card_value(c) for c in cards))


def low_board_key(cards: Sequence[int]) -> LowKey:
    """A board of up cards read as a low hand (RZ5.1): fewer and smaller pairs are better, then the
    highest card, then the next; ace low; straights and flushes ignored. Lower is better."""
    return _shape_key([low_card_value(c) for c in cards])


def describe_low(key: LowKey) -> str:
    """``"7-5-4-2-A"`` (ranks highest first, as a croupier calls a low); pairs repeat their rank."""
    shape, ranks = key
    out: list[str] = []
    for size, r in zip(shape, ranks):
        out.extend([_LOW_NAMES.get(r, str(r))] * size)
    return "-".join(out)
