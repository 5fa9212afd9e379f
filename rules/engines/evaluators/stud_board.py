"""Stud boards: who brings it in on 3rd street and who acts first on 4th-7th street (spec §4, §5).

Cards are :class:`~rules.engines.cards.Card` ints (``rank_index * 4 + suit_index``, suits c<d<h<s),
so "the lowest door card, ace high, clubs lowest" (R4.1) is simply the smallest card int.

Public API:

* :func:`board_key` - 1 to 5 up cards -> int, higher = stronger board (R5.2). Rank groups only:
  quads > full house > trips > two pair > pair > high card; all board cards are kickers. Straights
  and flushes count only with ``counts_straights_flushes`` (config ``board_counts_straights_flushes``)
  and only when five board cards make one (a community card on 7th street, R5.5).
* :func:`board_suit_key` - the suit tie-break of ``high_board_tiebreak=suit`` (R5.3).
* :func:`bring_in_index` - which of several door cards brings it in (R4.1).
* :func:`high_board_index` - which of several boards acts first, ties to the earliest position (R5.3).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = [
    "BOARD_CATEGORIES",
    "board_category",
    "board_key",
    "board_suit_key",
    "bring_in_index",
    "high_board_index",
    "lowest_door_card",
]

#: Board categories from weakest to strongest, as ``board_key`` encodes them (R5.2). Straight,
#: flush and straight flush appear only when straights and flushes count.
BOARD_CATEGORIES: tuple[str, ...] = (
    "high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
    "four_of_a_kind", "straight_flush",
)
_HIGH, _PAIR, _TWO_PAIR, _TRIPS, _STRAIGHT, _FLUSH, _FULL, _QUADS, _SF = range(9)
_SHIFT = 16  # base for packing up to five ranks (0..12) after the category


def _pack(category: int, ranks: Sequence[int]) -> int:
    key = category
    for i in range(5):
        key = key * _SHIFT + (ranks[i] + 1 if i < len(ranks) else 0)
    return key


def _straight_top(rank_set: set[int]) -> int | None:
    """Top rank index of a 5-card straight in ``rank_set`` (exactly 5 distinct ranks), wheel = 3."""
    ranks = sorted(rank_set)
    if len(ranks) != 5:
        return None
    if ranks[4] - ranks[0] == 4:
        return ranks[4]
    if ranks == [0, 1, 2, 3, 12]:
        return 3
    return None


def board_key(cards: Sequence[int], *, counts_straights_flushes: bool = False) -> int:
    """Strength of a board of 1-5 up cards; higher is stronger, equal keys tie (R5.2).

    Ranks only: suits never matter here (the suit tie-break is :func:`board_suit_key`). Within a
    category the rank groups compare first (bigger groups, then higher ranks), then every other board
    card as a kicker, so J-J-9-5 beats J-J-9-2 (B6). Four cards to a straight or a flush count for
    nothing (B3). With ``counts_straights_flushes`` a 5-card straight/flush on board ranks in its
    usual place. Raises ``ValueError`` for 0 or more than 5 cards.
    """
    n = len(cards)
    if not 1 <= n <= 5:
        raise ValueError(f"a board has 1 to 5 up cards, not {n}")
    counts: dict[int, int] = {}
    for c in cards:
        r = c >> 2
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    ranks = [r for r, cnt in groups for _ in range(cnt)]
    top = groups[0][1]
    if top == 4:
        category = _QUADS
    elif top == 3:
        category = _FULL if len(groups) > 1 and groups[1][1] >= 2 else _TRIPS
    elif top == 2:
        category = _TWO_PAIR if len(groups) > 1 and groups[1][1] == 2 else _PAIR
    else:
        category = _HIGH
    if counts_straights_flushes and n == 5 and category == _HIGH:
        straight = _straight_top(set(counts))
        flush = len({c & 3 for c in cards}) == 1
        if straight is not None and flush:
            return _pack(_SF, [straight])
        if flush:
            return _pack(_FLUSH, ranks)
        if straight is not None:
            return _pack(_STRAIGHT, [straight])
    return _pack(category, ranks)


def board_category(key: int) -> str:
    """The category name of a :func:`board_key` value (``"one_pair"`` ...)."""
    return BOARD_CATEGORIES[key // _SHIFT**5]


def board_suit_key(cards: Sequence[int]) -> tuple[int, ...]:
    """Suit tie-break for ``high_board_tiebreak=suit`` (R5.3): the board's cards ordered as
    :func:`board_key` reads them (bigger groups, higher ranks first; within a rank spades first),
    compared card by card, so K♠-9♥ beats K♣-9♦ (B2)."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[c >> 2] = counts.get(c >> 2, 0) + 1
    ordered = sorted(cards, key=lambda c: (counts[c >> 2], c >> 2, c & 3), reverse=True)
    return tuple(c & 3 for c in ordered)


def lowest_door_card(doors: Sequence[int]) -> int:
    """The lowest door card (R4.1): lowest rank, ace high; ties broken c < d < h < s."""
    return min(doors)


def bring_in_index(doors: Sequence[int | None]) -> int:
    """Index of the door card that brings it in (R4.1); ``None`` entries (no door card) are skipped.

    Raises ``ValueError`` if there is no door card at all.
    """
    best: int | None = None
    best_card = 0
    for i, d in enumerate(doors):
        if d is not None and (best is None or d < best_card):
            best, best_card = i, d
    if best is None:
        raise ValueError("no door card to bring it in")
    return best


def high_board_index(
    boards: Sequence[Sequence[int] | None],
    *,
    tiebreak: str = "position",
    counts_straights_flushes: bool = False,
) -> int:
    """Index of the board that acts first (R5.1-R5.3); boards are given in position order (seat 1
    first) and ``None`` entries (folded, skipped) are ignored.

    ``tiebreak="position"`` (default): equal boards go to the earliest index. ``"suit"``: equal boards
    are broken by :func:`board_suit_key`, then position. Raises ``ValueError`` if every board is None.
    """
    best_i = None
    best_key: tuple[Any, ...] = ()
    for i, b in enumerate(boards):
        if b is None:
            continue
        k = board_key(b, counts_straights_flushes=counts_straights_flushes)
        key = (k, board_suit_key(b)) if tiebreak == "suit" else (k,)
        if best_i is None or key > best_key:
            best_i, best_key = i, key
    if best_i is None:
        raise ValueError("no live board")
    return best_i
