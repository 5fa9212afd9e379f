"""A Capsa Susun player's 13 cards as a whole: whether a setting fouls (A.4), and the naturals (A.8: three
flushes, three straights, six pairs, dragon and clean dragon) as keys that compare like row keys."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any

from rules.engines.evaluators.capsa.names import ROW_NAMES, describe_key
from rules.engines.evaluators.capsa.rows import (
    ROW_SIZES,
    compare_keys,
    compare_row_keys,
    evaluate_five,
    evaluate_three,
    straight_ordinal,
)
from rules.engines.messages import gettext_noop

# --------------------------------------------------------------------------------------------------
# Setting validity (A.4)
# --------------------------------------------------------------------------------------------------

def setting_foul(
    front: Sequence[int],
    middle: Sequence[int],
    back: Sequence[int],
    *,
    wheel_rank: str = "low",
    suit_order: str | None = None,
    flush_compare: str = "ranks_then_suit",
    allow_equal_rows: bool = True,
) -> str | None:
    """Why a setting is fouled (A.4), or ``None`` when it is valid.

    Valid when back >= middle >= front (strictly greater under ``allow_equal_rows=False``). Middle
    against back is the same-size comparison of A.3 (suit options apply); front against middle is the
    cross-size rank comparison. A row with the wrong number of cards is a foul too.
    """
    for name, row in (("front", front), ("middle", middle), ("back", back)):
        if len(row) != ROW_SIZES[name]:
            return gettext_noop("the %(row)s has %(n_cards)s cards, not %(size)s", row=ROW_NAMES[name], n_cards=len(row),
                                size=ROW_SIZES[name])
    kf, km, kb = evaluate_three(front), evaluate_five(middle, wheel_rank=wheel_rank), evaluate_five(
        back, wheel_rank=wheel_rank)
    mid_vs_back = compare_row_keys(middle, km, back, kb, suit_order=suit_order, flush_compare=flush_compare)
    front_vs_mid = compare_keys(kf, km)
    if mid_vs_back > 0:
        return gettext_noop("the middle (%(middle)s) beats the back (%(back)s)", middle=describe_key(km), back=describe_key(kb))
    if front_vs_mid > 0:
        return gettext_noop("the front (%(front)s) beats the middle (%(middle)s)", front=describe_key(kf), middle=describe_key(km))
    if not allow_equal_rows:
        if mid_vs_back == 0:
            return gettext_noop("the middle equals the back (%(row)s) and equal rows are a foul here", row=describe_key(km))
        if front_vs_mid == 0:
            return gettext_noop("the front equals the middle (%(row)s) and equal rows are a foul here", row=describe_key(kf))
    return None


# --------------------------------------------------------------------------------------------------
# Naturals (A.8)
# --------------------------------------------------------------------------------------------------

NATURALS = ("three_flushes", "three_straights", "six_pairs", "dragon", "clean_dragon")
SIX_PAIRS_DEFINITIONS = ("strict", "pair_count")

# 3-card straights A-2-3 .. Q-K-A as rank triples (A-2-3 lowest); 5-card straights A-5 .. T-A.
_THREE_STRAIGHTS = tuple(((14, 2, 3) if s == 1 else (s, s + 1, s + 2)) for s in range(1, 13))
_FIVE_STRAIGHTS = tuple(((14, 2, 3, 4, 5) if s == 1 else tuple(range(s, s + 5))) for s in range(1, 11))


def _counts(cards: Sequence[int]) -> list[int]:
    counts = [0] * 15
    for c in cards:
        counts[(c >> 2) + 2] += 1
    return counts


def three_straights_key(cards: Sequence[int], *, wheel_rank: str = "low") -> tuple[int, ...] | None:
    """If the 13 cards split into a 3-card straight + two 5-card straights (A.8), the canonical split's
    comparison key ``(back ordinal, middle ordinal, front top)`` (the split maximising back, then
    middle, then front; A-2-3 is the lowest 3-card straight, Q-K-A the highest), else ``None``.
    Rank-level: suits play no part.
    """
    counts = _counts(cards)
    if max(counts) > 3:
        return None  # each of the three straights holds a rank at most once
    return _three_straights_from_counts(tuple(counts), wheel_rank)


#: The rank counts (ranks 2..14) of each 3-card straight -> its index in :data:`_THREE_STRAIGHTS`.
_THREE_STRAIGHT_BY_COUNTS = {
    tuple(1 if r in f else 0 for r in range(2, 15)): fi for fi, f in enumerate(_THREE_STRAIGHTS)
}


@lru_cache(maxsize=65536)
def _three_straights_from_counts(counts: tuple[int, ...], wheel_rank: str) -> tuple[int, ...] | None:
    """:func:`three_straights_key` from the rank counts (index = rank; pure, so cached)."""
    best: tuple[int, ...] | None = None
    fronts = _THREE_STRAIGHT_BY_COUNTS
    for b in _FIVE_STRAIGHTS:
        if not all(counts[r] for r in b):
            continue
        c1 = list(counts)
        for r in b:
            c1[r] -= 1
        for m in _FIVE_STRAIGHTS:
            if not all(c1[r] for r in m):
                continue
            c2 = c1[:]
            for r in m:
                c2[r] -= 1
            fi = fronts.get(tuple(c2[2:]))
            if fi is not None:
                key = (
                    straight_ordinal(b[-1] if b[0] != 14 else 5, wheel_rank=wheel_rank),
                    straight_ordinal(m[-1] if m[0] != 14 else 5, wheel_rank=wheel_rank),
                    fi,
                )
                if best is None or key > best:
                    best = key
    return best


def three_flushes_split(
    cards: Sequence[int], *, wheel_rank: str = "low"
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None:
    """If the 13 cards split into 3 + 5 + 5 one-suited rows (A.8), the canonical arrangement
    ``(front, middle, back)`` that maximises back, then middle, then front; else ``None``.
    """
    by_suit: dict[int, list[int]] = {}
    for c in cards:
        by_suit.setdefault(c & 3, []).append(c)
    profile = sorted((len(v) for v in by_suit.values()), reverse=True)
    if profile not in ([13], [10, 3], [8, 5], [5, 5, 3]):
        return None

    def monochrome_fives(pool: Sequence[int]) -> list[tuple[int, ...]]:
        groups: dict[int, list[int]] = {}
        for c in pool:
            groups.setdefault(c & 3, []).append(c)
        out: list[tuple[int, ...]] = []
        for g in groups.values():
            if len(g) >= 5:
                out.extend(combinations(sorted(g), 5))
        return out

    def splittable(rest: Sequence[int], sizes: tuple[int, ...]) -> bool:
        groups = Counter(c & 3 for c in rest)
        counts = sorted(groups.values(), reverse=True)
        if sizes == (5, 3):
            return counts in ([8], [5, 3])
        return counts == [3]

    all_cards = list(cards)
    best: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None = None
    best_key: tuple[Any, ...] = ()
    backs = [b for b in monochrome_fives(all_cards) if splittable([c for c in all_cards if c not in b], (5, 3))]
    back_keys = [(evaluate_five(b, wheel_rank=wheel_rank), b) for b in backs]
    top = max(k for k, _ in back_keys)
    for kb, b in back_keys:
        if kb != top:
            continue
        rest = [c for c in all_cards if c not in b]
        for m in monochrome_fives(rest):
            front = tuple(c for c in rest if c not in m)
            if not splittable(front, (3,)):
                continue
            key = (kb, evaluate_five(m, wheel_rank=wheel_rank), tuple(sorted(((c >> 2) + 2 for c in front),
                                                                              reverse=True)))
            if best is None or key > best_key:
                best, best_key = (front, m, b), key
    return best


def six_pairs_key(cards: Sequence[int], *, definition: str = "strict", compare_singleton: bool = False
                  ) -> tuple[int, ...] | None:
    """If the 13 cards are six pairs (A.8, ``six_pairs_definition``), the comparison key: the six pair
    ranks descending (quads count as two pairs), then the singleton if ``compare_singleton``; else None.
    """
    counts = _counts(cards)
    if definition == "strict":
        if sorted((c for c in counts if c), reverse=True) != [2, 2, 2, 2, 2, 2, 1]:
            return None
    elif sum(c // 2 for c in counts) != 6:
        return None
    pairs = [r for r in range(14, 1, -1) for _ in range(counts[r] // 2)]
    single = [r for r in range(14, 1, -1) if counts[r] % 2]
    return tuple(pairs) + (tuple(single) if compare_singleton else ())


def is_dragon(cards: Sequence[int]) -> bool:
    """Thirteen distinct ranks 2..A (A.8)."""
    return len({c >> 2 for c in cards}) == 13 and len(cards) == 13


def is_clean_dragon(cards: Sequence[int]) -> bool:
    """A dragon all of one suit (A.8)."""
    return is_dragon(cards) and len({c & 3 for c in cards}) == 1


def natural_key(
    name: str,
    cards: Sequence[int],
    *,
    wheel_rank: str = "low",
    six_pairs_definition: str = "strict",
    six_pairs_compare_singleton: bool = False,
) -> tuple[Any, ...] | None:
    """The same-type comparison key of natural ``name`` for these 13 cards, or ``None`` if the cards
    do not make it (A.8). Equal keys are a tie.

    * three_flushes: (back key, middle key, front ranks) of the canonical arrangement;
    * three_straights: (back ordinal, middle ordinal, front straight index) of the canonical split;
    * six_pairs: pair ranks descending (+ singleton if configured);
    * dragon / clean_dragon: ``()`` (all equal on ranks).
    """
    if name == "three_flushes":
        split = three_flushes_split(cards, wheel_rank=wheel_rank)
        if split is None:
            return None
        front, middle, back = split
        return (evaluate_five(back, wheel_rank=wheel_rank), evaluate_five(middle, wheel_rank=wheel_rank),
                tuple(sorted(((c >> 2) + 2 for c in front), reverse=True)))
    if name == "three_straights":
        return three_straights_key(cards, wheel_rank=wheel_rank)
    if name == "six_pairs":
        return six_pairs_key(cards, definition=six_pairs_definition, compare_singleton=six_pairs_compare_singleton)
    if name == "dragon":
        return () if is_dragon(cards) else None
    if name == "clean_dragon":
        return () if is_clean_dragon(cards) else None
    raise ValueError(f"unknown natural {name!r}; expected one of {NATURALS}")


def naturals_made(
    cards: Sequence[int],
    *,
    wheel_rank: str = "low",
    six_pairs_definition: str = "strict",
    six_pairs_compare_singleton: bool = False,
) -> dict[str, tuple[Any, ...]]:
    """Every natural the 13 cards make, name -> same-type key (A.8). Empty when none."""
    out: dict[str, tuple[Any, ...]] = {}
    for name in NATURALS:
        key = natural_key(name, cards, wheel_rank=wheel_rank, six_pairs_definition=six_pairs_definition,
                          six_pairs_compare_singleton=six_pairs_compare_singleton)
        if key is not None:
            out[name] = key
    return out


def best_ace_strength(cards: Sequence[int], strength: dict[int, int]) -> int:
    """The strength of the best-suited ace among ``cards`` (-1 without an ace): the "strongest Ace" tie
    rule for naturals under a suit order (A.8 [ID], A.10 ``capsa_susun_id``)."""
    aces = [strength[c & 3] for c in cards if (c >> 2) == 12]
    return max(aces) if aces else -1
