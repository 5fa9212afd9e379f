"""Capsa Susun row and natural evaluation (spec A.3, A.4, A.8): pure Python, no library underneath.

Row keys (A.3)
--------------
A row evaluates to a tuple ``(category, tiebreak...)``; a higher key is the stronger row. The 5-card
rows (middle, back) and the 3-card front use **the same category numbers**, so a front can be compared
with a middle: :func:`compare_keys` compares element by element over the length of the shorter tuple,
and rows equal on everything compared are equal.

====  ================  ==================================  =====================
cat   name              5-card tiebreak                     3-card (front)
====  ================  ==================================  =====================
8     straight_flush    (straight ordinal,)                 --
7     four_of_a_kind    (quad rank, kicker)                 --
6     full_house        (trips rank, pair rank)             --
5     flush             (r1..r5) descending                 -- (no front flushes)
4     straight          (straight ordinal,)                 -- (no front straights)
3     three_of_a_kind   (trips rank, k1, k2)                (trips rank,)
2     two_pair          (high pair, low pair, kicker)       --
1     pair              (pair, k1, k2, k3)                  (pair, kicker)
0     high_card         (r1..r5)                            (r1, r2, r3)
====  ================  ==================================  =====================

Ranks inside keys are 2..14 (ace 14; the 2 is the lowest card, A.2). The straight ordinal follows
``wheel_rank`` (A.3): ``"low"``: wheel A-2-3-4-5 = 1, 6-high = 2 ... A-high = 10;
``"second_highest"``: 6-high = 1 ... K-high = 8, wheel = 9, A-high = 10. K-A-2-3-4 is never a straight.

Suits (A.3) break ties only when ``suit_order`` is given (``"SHCD"`` = spades > hearts > clubs >
diamonds) and only between two rows of the **same size** that are equal on every rank: the suit of the
highest-ranked card of the principal group decides (all cards for high card / straight / flush, the 5
of a wheel; the pair, trips or quads otherwise, taking the better suit inside the group; the high pair
of two pair and the trips of a full house). ``flush_compare="suit_first"`` compares flush against flush
by the flush's suit before its ranks (needs ``suit_order``).

Cards are :class:`rules.engines.cards.Card` ints (rank_index * 4 + suit_index, phevaluator ids).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any

from rules.engines.cards import RANKS, SUITS, Card
from rules.engines.messages import gettext_noop

HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH = range(9)

#: Category number -> snake_case name (A.3). ``royal_flush`` is the A-high straight flush (A.3/A.7).
CATEGORY_NAMES = (
    "high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
    "four_of_a_kind", "straight_flush",
)
CATEGORY_BY_NAME = {name: cat for cat, name in enumerate(CATEGORY_NAMES)}
ROYAL_FLUSH = "royal_flush"

WHEEL_RANKS = ("low", "second_highest")
FLUSH_COMPARES = ("ranks_then_suit", "suit_first")
ROW_SIZES = {"front": 3, "middle": 5, "back": 5}
ROWS = ("front", "middle", "back")

_WHEEL = (14, 5, 4, 3, 2)
_SUIT_LETTERS = {"S": "s", "H": "h", "C": "c", "D": "d"}


# --------------------------------------------------------------------------------------------------
# 5-card and 3-card row keys
# --------------------------------------------------------------------------------------------------

def straight_ordinal(top: int, *, wheel_rank: str = "low") -> int:
    """The straight ordinal of a straight whose highest card is ``top`` (5 for the wheel), per A.3."""
    if wheel_rank == "low":
        return 1 if top == 5 else top - 4
    if top == 5:
        return 9
    return 10 if top == 14 else top - 5


def _five_key_from_ranks(ranks: tuple[int, ...], flush: bool, wheel_rank: str) -> tuple[int, ...]:
    counts = Counter(ranks)
    # groups ordered by (count, rank) descending
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(c for _, c in groups)
    distinct = len(counts) == 5
    straight_top = None
    if distinct:
        if ranks[0] - ranks[4] == 4:
            straight_top = ranks[0]
        elif ranks == _WHEEL:
            straight_top = 5
    if straight_top is not None and flush:
        return (STRAIGHT_FLUSH, straight_ordinal(straight_top, wheel_rank=wheel_rank))
    if shape == (4, 1):
        return (FOUR_OF_A_KIND, groups[0][0], groups[1][0])
    if shape == (3, 2):
        return (FULL_HOUSE, groups[0][0], groups[1][0])
    if flush:
        return (FLUSH, *ranks)
    if straight_top is not None:
        return (STRAIGHT, straight_ordinal(straight_top, wheel_rank=wheel_rank))
    if shape == (3, 1, 1):
        return (THREE_OF_A_KIND, groups[0][0], groups[1][0], groups[2][0])
    if shape == (2, 2, 1):
        return (TWO_PAIR, groups[0][0], groups[1][0], groups[2][0])
    if shape == (2, 1, 1, 1):
        return (PAIR, groups[0][0], groups[1][0], groups[2][0], groups[3][0])
    return (HIGH_CARD, *ranks)


def _build_five_table_fast(wheel_rank: str) -> dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...] | None]]:
    """Every rank multiset of five cards (at most four of a rank): 6,175 entries."""
    table: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...] | None]] = {}

    def rec(start: int, left: int, acc: list[int]) -> None:
        if left == 0:
            ranks = tuple(sorted(acc, reverse=True))
            plain = _five_key_from_ranks(ranks, False, wheel_rank)
            flush = _five_key_from_ranks(ranks, True, wheel_rank) if len(set(ranks)) == 5 else None
            table[ranks] = (plain, flush)
            return
        for r in range(start, 15):
            if acc.count(r) < 4:
                acc.append(r)
                rec(r, left - 1, acc)
                acc.pop()

    rec(2, 5, [])
    return table


_FIVE_TABLES: dict[str, dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...] | None]]] = {}


def _five_table(wheel_rank: str) -> dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...] | None]]:
    table = _FIVE_TABLES.get(wheel_rank)
    if table is None:
        if wheel_rank not in WHEEL_RANKS:
            raise ValueError(f"wheel_rank must be one of {WHEEL_RANKS}, not {wheel_rank!r}")
        table = _FIVE_TABLES[wheel_rank] = _build_five_table_fast(wheel_rank)
    return table


def evaluate_five(cards: Sequence[int], *, wheel_rank: str = "low") -> tuple[int, ...]:
    """Key of a 5-card row (middle or back), A.3. ``cards``: five distinct card ints.

    Straights and flushes count; the straight ordinal follows ``wheel_rank``.
    """
    c0, c1, c2, c3, c4 = cards
    ranks = tuple(sorted(((c0 >> 2) + 2, (c1 >> 2) + 2, (c2 >> 2) + 2, (c3 >> 2) + 2, (c4 >> 2) + 2), reverse=True))
    plain, flush = _five_table(wheel_rank)[ranks]
    if flush is not None and (c0 & 3) == (c1 & 3) == (c2 & 3) == (c3 & 3) == (c4 & 3):
        return flush
    return plain


def evaluate_three(cards: Sequence[int]) -> tuple[int, ...]:
    """Key of a 3-card front, A.3: trips ``(3, r)``, pair ``(1, pair, kicker)``, else ``(0, r1, r2, r3)``.

    Straights and flushes do not count in the front [house].
    """
    a, b, c = sorted(((x >> 2) + 2 for x in cards), reverse=True)
    if a == c:
        return (THREE_OF_A_KIND, a)
    if a == b:
        return (PAIR, a, c)
    if b == c:
        return (PAIR, b, a)
    return (HIGH_CARD, a, b, c)


def row_key(cards: Sequence[int], *, wheel_rank: str = "low") -> tuple[int, ...]:
    """Key of a row of 3 (front) or 5 (middle/back) cards; raises ``ValueError`` for other sizes."""
    if len(cards) == 5:
        return evaluate_five(cards, wheel_rank=wheel_rank)
    if len(cards) == 3:
        return evaluate_three(cards)
    raise ValueError(f"a Capsa row has 3 or 5 cards, not {len(cards)}")


def compare_keys(a: Sequence[int], b: Sequence[int]) -> int:
    """Compare two row keys over the length of the shorter one (A.3): 1 if ``a`` is stronger, -1, or 0."""
    n = min(len(a), len(b))
    x, y = tuple(a[:n]), tuple(b[:n])
    return (x > y) - (x < y)


# --------------------------------------------------------------------------------------------------
# Suits (A.3 options)
# --------------------------------------------------------------------------------------------------

def parse_suit_order(order: str | None) -> dict[int, int] | None:
    """``"SHCD"`` -> ``{suit_index: strength}`` (higher is stronger); ``None`` stays ``None``.

    Raises ``ValueError`` unless ``order`` is a permutation of the letters S, H, C, D.
    """
    if order is None:
        return None
    text = str(order).upper()
    if sorted(text) != sorted("SHCD"):
        raise ValueError(f"suit_order must list S, H, C and D once each, strongest first (e.g. 'SHCD'), not {order!r}")
    return {SUITS.index(_SUIT_LETTERS[ch]): 3 - i for i, ch in enumerate(text)}


def _top_card(cards: Sequence[int]) -> int:
    """The highest-ranked card of a row without rank groups (the 5 of a wheel), A.3."""
    ranks = sorted(((c >> 2) + 2 for c in cards), reverse=True)
    top = 5 if len(cards) == 5 and tuple(ranks) == _WHEEL else ranks[0]
    return next(c for c in cards if (c >> 2) + 2 == top)


def _principal_strength(cards: Sequence[int], key: Sequence[int], strength: dict[int, int]) -> int:
    cat = key[0]
    if cat in (PAIR, TWO_PAIR, THREE_OF_A_KIND, FULL_HOUSE, FOUR_OF_A_KIND):
        return max(strength[c & 3] for c in cards if (c >> 2) + 2 == key[1])
    return strength[_top_card(cards) & 3]


def compare_rows(
    a: Sequence[int],
    b: Sequence[int],
    *,
    wheel_rank: str = "low",
    suit_order: str | None = None,
    flush_compare: str = "ranks_then_suit",
) -> int:
    """Compare two rows of cards (A.3): 1 if ``a`` is stronger, -1 if ``b`` is, 0 for equal rows.

    Rows of different sizes (front against middle) compare by rank keys only. Between rows of the
    same size, ``suit_order`` breaks a full rank tie and ``flush_compare="suit_first"`` decides flush
    against flush by suit first.
    """
    ka, kb = row_key(a, wheel_rank=wheel_rank), row_key(b, wheel_rank=wheel_rank)
    return compare_row_keys(a, ka, b, kb, suit_order=suit_order, flush_compare=flush_compare)


def compare_row_keys(
    a: Sequence[int],
    ka: Sequence[int],
    b: Sequence[int],
    kb: Sequence[int],
    *,
    suit_order: str | None = None,
    flush_compare: str = "ranks_then_suit",
) -> int:
    """:func:`compare_rows` for rows whose keys are already known (same options)."""
    strength = parse_suit_order(suit_order) if suit_order else None
    if (
        strength is not None and flush_compare == "suit_first" and len(a) == len(b) == 5
        and ka[0] == FLUSH and kb[0] == FLUSH
    ):
        sa, sb = strength[a[0] & 3], strength[b[0] & 3]
        if sa != sb:
            return 1 if sa > sb else -1
    result = compare_keys(ka, kb)
    if result or strength is None or len(a) != len(b):
        return result
    pa, pb = _principal_strength(a, ka, strength), _principal_strength(b, kb, strength)
    return (pa > pb) - (pa < pb)


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
# Names and descriptions
# --------------------------------------------------------------------------------------------------

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


__all__ = [
    "CATEGORY_NAMES", "NATURALS", "ROWS", "ROW_SIZES", "compare_keys", "compare_row_keys", "compare_rows",
    "describe_key", "evaluate_five", "evaluate_three", "hand_name", "natural_key", "naturals_made",
    "parse_suit_order", "row_key", "setting_foul", "straight_ordinal",
]
