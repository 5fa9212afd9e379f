"""A Capsa Susun player's 13 cards as a whole: whether a setting fouls (A.4), and the naturals (A.8: three
flushes, three straights, six pairs, dragon and clean dragon) as keys that compare like row keys."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
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
    return setting_foul_of_keys(middle, back, kf, km, kb, wheel_rank=wheel_rank, suit_order=suit_order,
                                flush_compare=flush_compare, allow_equal_rows=allow_equal_rows)


def setting_foul_of_keys(
    middle: Sequence[int],
    back: Sequence[int],
    kf: tuple[int, ...],
    km: tuple[int, ...],
    kb: tuple[int, ...],
    *,
    wheel_rank: str = "low",
    suit_order: str | None = None,
    flush_compare: str = "ranks_then_suit",
    allow_equal_rows: bool = True,
) -> str | None:
    """:func:`setting_foul` (A.4) for a setting of the right sizes whose row keys ``kf``, ``km``, ``kb``
    (front, middle, back: :func:`~rules.engines.evaluators.capsa.rows.evaluate_three` and
    ``evaluate_five``) are already known, so a caller that also scores the rows evaluates them once.
    ``middle`` and ``back`` are the cards (the suit options of A.3 read them); same options and answers
    (``wheel_rank`` as the keys were made with, A.3: the reason names a straight by its real top card)."""
    if suit_order is None:  # no suit option: the same-size comparison is the keys' own (equal sizes, A.3)
        mid_vs_back = (km > kb) - (km < kb)
    else:
        mid_vs_back = compare_row_keys(middle, km, back, kb, suit_order=suit_order, flush_compare=flush_compare)
    front_vs_mid = compare_keys(kf, km)
    if mid_vs_back > 0:
        return gettext_noop("the middle (%(middle)s) beats the back (%(back)s)", middle=describe_key(km, wheel_rank=wheel_rank),
                            back=describe_key(kb, wheel_rank=wheel_rank))
    if front_vs_mid > 0:
        return gettext_noop("the front (%(front)s) beats the middle (%(middle)s)", front=describe_key(kf, wheel_rank=wheel_rank),
                            middle=describe_key(km, wheel_rank=wheel_rank))
    if not allow_equal_rows:
        if mid_vs_back == 0:
            return gettext_noop("the middle equals the back (%(row)s) and equal rows are a foul here", row=describe_key(km, wheel_rank=wheel_rank))
        if front_vs_mid == 0:
            return gettext_noop("the front equals the middle (%(row)s) and equal rows are a foul here", row=describe_key(kf, wheel_rank=wheel_rank))
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
    return _three_straights_from_counts(counts, wheel_rank)


#: Rank counts packed three bits a rank (rank 2 in the lowest three bits), so that taking a straight's ranks
#: off a hand is one subtraction and "holds every rank of it" one mask test (A.8 three straights).
_RANK_BITS = 3
_RANK_LOWS = sum(1 << _RANK_BITS * i for i in range(13))  # the lowest bit of every rank's field
_RANK_FIELDS = (1 << _RANK_BITS * 13) - 1


def _packed(ranks: Sequence[int]) -> int:
    return sum(1 << _RANK_BITS * (r - 2) for r in ranks)


def _held(packed: int) -> int:
    """The lowest bit of every rank field of ``packed`` that is not zero (the ranks held)."""
    return (packed | packed >> 1 | packed >> 2) & _RANK_LOWS


#: Each 3-card straight's packed counts -> its index in :data:`_THREE_STRAIGHTS`.
_THREE_STRAIGHT_BY_PACKED = {_packed(f): fi for fi, f in enumerate(_THREE_STRAIGHTS)}
#: Per ``wheel_rank``: each 5-card straight of :data:`_FIVE_STRAIGHTS` as (packed ranks, straight ordinal).
_FIVE_STRAIGHTS_PACKED: dict[str, tuple[tuple[int, int], ...]] = {}
_WHEEL_HELD = _packed(_FIVE_STRAIGHTS[0])  # A-2-3-4-5: one of each rank


def _fives_within(held: int, wheel_rank: str) -> list[tuple[int, int]]:
    """The 5-card straights (packed ranks, ordinal under ``wheel_rank``) whose ranks are all ``held``
    (:func:`_held`): the wheel, then each run of five ranks held, found by shifting ``held`` onto itself."""
    fives = _FIVE_STRAIGHTS_PACKED.get(wheel_rank)
    if fives is None:
        fives = _FIVE_STRAIGHTS_PACKED[wheel_rank] = tuple(
            (_packed(f), straight_ordinal(f[-1] if f[0] != 14 else 5, wheel_rank=wheel_rank)) for f in _FIVE_STRAIGHTS)
    found = [fives[0]] if held & _WHEEL_HELD == _WHEEL_HELD else []
    starts = held & held >> 3 & held >> 6 & held >> 9 & held >> 12  # the lowest rank of each run of five
    while starts:
        low = starts & -starts
        found.append(fives[low.bit_length() // _RANK_BITS + 1])  # the run from rank field i is straight i + 1
        starts ^= low
    return found


def _three_straights_from_counts(counts: Sequence[int], wheel_rank: str) -> tuple[int, ...] | None:
    """:func:`three_straights_key` from the rank counts (index = rank, every count at most 3)."""
    packed = 0
    for r in range(2, 15):
        packed |= counts[r] << _RANK_BITS * (r - 2)
    return _three_straights_packed(packed, wheel_rank)


def _three_straights_packed(packed: int, wheel_rank: str) -> tuple[int, ...] | None:
    """:func:`three_straights_key` from the packed rank counts (every count at most 3): of every way to
    take a 5-card back and a 5-card middle straight off the counts that leaves a 3-card straight, the
    largest ``(back ordinal, middle ordinal, front index)`` (A.8)."""
    fronts = _THREE_STRAIGHT_BY_PACKED
    best: tuple[int, ...] | None = None
    for back, back_ordinal in _fives_within(_held(packed), wheel_rank):
        rest = packed - back
        for middle, middle_ordinal in _fives_within(_held(rest), wheel_rank):
            fi = fronts.get(rest - middle)
            if fi is not None:
                key = (back_ordinal, middle_ordinal, fi)
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


#: The suit profiles (cards per suit, largest first) of 13 cards that split into three flushes (A.8):
#: with one of these, :func:`three_flushes_split` always finds a split, and with no other.
_THREE_FLUSH_PROFILES = ([13], [10, 3], [8, 5], [5, 5, 3])
#: The same profiles over all four suits (the counts of 13 cards per suit, largest first, zeros kept).
_THREE_FLUSH_SUITS = [p + [0] * (4 - len(p)) for p in _THREE_FLUSH_PROFILES]
_SUIT_SHIFT = _RANK_BITS * 13
#: Card -> its rank's and its suit's unit in one packed count: the rank fields as in
#: :func:`_three_straights_packed`, then a 4-bit field per suit (13 cards fit both).
_NATURAL_UNITS = tuple((1 << _RANK_BITS * (c >> 2)) | (1 << _SUIT_SHIFT + 4 * (c & 3)) for c in range(52))


def natural_names(cards: Sequence[int], *, six_pairs_definition: str = "strict") -> set[str]:
    """The names of the naturals 13 distinct cards make (A.8): the keys of :func:`naturals_made`, read
    from the rank and suit counts alone, without building the keys (what detecting a natural at the
    deal needs). ``six_pairs_definition`` as there; ``wheel_rank`` and the singleton option change keys,
    never whether a natural is made."""
    made: set[str] = set()
    n = len(cards)
    if n != 13:  # the general count below (and no natural but by its rules) for any other number
        made.update(naturals_made(cards, six_pairs_definition=six_pairs_definition))
        return made
    total = sum(map(_NATURAL_UNITS.__getitem__, cards))
    ranks = total & _RANK_FIELDS
    suit_counts = total >> _SUIT_SHIFT
    suits = sorted((suit_counts & 15, suit_counts >> 4 & 15, suit_counts >> 8 & 15, suit_counts >> 12), reverse=True)
    if suits in _THREE_FLUSH_SUITS:
        made.add("three_flushes")
    held = _held(ranks)
    distinct = held.bit_count()
    three_or_more = (ranks >> 2 | ranks & ranks >> 1) & _RANK_LOWS  # ranks held 3 or 4 times
    if not (ranks >> 2) & _RANK_LOWS and _three_straights_packed(ranks, "low") is not None:  # no rank 4 times
        made.add("three_straights")
    if six_pairs_definition == "strict":
        if distinct == 7 and not three_or_more:  # 13 cards in 7 ranks, none thrice: six pairs and a single
            made.add("six_pairs")
    elif sum(((ranks >> _RANK_BITS * i) & 7) // 2 for i in range(13)) == 6:
        made.add("six_pairs")
    if distinct == 13:
        made.add("dragon")
        if suits[0] == 13:
            made.add("clean_dragon")
    return made


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
