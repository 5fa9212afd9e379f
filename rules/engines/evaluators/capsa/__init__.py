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

A package by concern, every name re-exported here: :mod:`~rules.engines.evaluators.capsa.rows` (row
keys, suits), :mod:`~rules.engines.evaluators.capsa.names` (descriptions),
:mod:`~rules.engines.evaluators.capsa.setting` (fouled settings, naturals).
"""

from __future__ import annotations

from rules.engines.evaluators.capsa.names import (
    NATURAL_NAMES,
    ROW_NAMES,
    describe_key,
    format_row,
    hand_name,
    natural_name,
)
from rules.engines.evaluators.capsa.rows import (
    CATEGORY_BY_NAME,
    CATEGORY_NAMES,
    FLUSH,
    FLUSH_COMPARES,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    ROW_SIZES,
    ROWS,
    ROYAL_FLUSH,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    WHEEL_RANKS,
    compare_keys,
    compare_row_keys,
    compare_rows,
    evaluate_five,
    evaluate_three,
    parse_suit_order,
    row_key,
    straight_ordinal,
)
from rules.engines.evaluators.capsa.setting import (
    NATURALS,
    SIX_PAIRS_DEFINITIONS,
    best_ace_strength,
    is_clean_dragon,
    is_dragon,
    natural_key,
    natural_names,
    naturals_made,
    setting_foul,
    setting_foul_of_keys,
    six_pairs_key,
    three_flushes_split,
    three_straights_key,
)

__all__ = [
    "CATEGORY_BY_NAME",
    "CATEGORY_NAMES",
    "FLUSH",
    "FLUSH_COMPARES",
    "FOUR_OF_A_KIND",
    "FULL_HOUSE",
    "HIGH_CARD",
    "NATURALS",
    "NATURAL_NAMES",
    "PAIR",
    "ROWS",
    "ROW_NAMES",
    "ROW_SIZES",
    "ROYAL_FLUSH",
    "SIX_PAIRS_DEFINITIONS",
    "STRAIGHT",
    "STRAIGHT_FLUSH",
    "THREE_OF_A_KIND",
    "TWO_PAIR",
    "WHEEL_RANKS",
    "best_ace_strength",
    "compare_keys",
    "compare_row_keys",
    "compare_rows",
    "describe_key",
    "evaluate_five",
    "evaluate_three",
    "format_row",
    "hand_name",
    "is_clean_dragon",
    "is_dragon",
    "natural_key",
    "natural_name",
    "natural_names",
    "naturals_made",
    "parse_suit_order",
    "row_key",
    "setting_foul",
    "setting_foul_of_keys",
    "six_pairs_key",
    "straight_ordinal",
    "three_flushes_split",
    "three_straights_key",
]
