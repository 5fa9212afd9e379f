"""Capsa Susun row keys (A.3) and the suit options that break ties (A.3): the keys and their categories
are described in :mod:`rules.engines.evaluators.capsa`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rules.engines.cards import SUITS

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


#: Card -> its rank's unit in a packed rank count (three bits a rank, the 2 lowest): the units of five cards
#: add up to the key of :func:`_five_table_packed`, whatever their order.
_RANK_UNITS = {c: 1 << 3 * (c >> 2) for c in range(52)}
_FIVE_TABLES_PACKED: dict[str, dict[int, tuple[tuple[int, ...], tuple[int, ...] | None]]] = {}


def _five_table_packed(wheel_rank: str) -> dict[int, tuple[tuple[int, ...], tuple[int, ...] | None]]:
    """:func:`_five_table` keyed by the packed rank counts instead of the sorted ranks."""
    table = _FIVE_TABLES_PACKED.get(wheel_rank)
    if table is None:
        table = _FIVE_TABLES_PACKED[wheel_rank] = {
            sum(1 << 3 * (r - 2) for r in ranks): entry for ranks, entry in _five_table(wheel_rank).items()}
    return table


def evaluate_five(cards: Sequence[int], *, wheel_rank: str = "low") -> tuple[int, ...]:
    """Key of a 5-card row (middle or back), A.3. ``cards``: five distinct card ints.

    Straights and flushes count; the straight ordinal follows ``wheel_rank``.
    """
    c0, c1, c2, c3, c4 = cards
    units = _RANK_UNITS
    try:
        plain, flush = _five_table_packed(wheel_rank)[units[c0] + units[c1] + units[c2] + units[c3] + units[c4]]
    except KeyError:  # not five cards of the deck: looked up by the sorted ranks, which names what is wrong
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
    if type(a) is tuple and type(b) is tuple and len(a) == len(b):
        return (a > b) - (a < b)  # the common case (two keys of one size): no slices to build
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
