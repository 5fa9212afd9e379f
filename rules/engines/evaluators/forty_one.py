"""Forty-one (Einundvierzig) hand evaluation: four cards from the 32-card pack (spec B.2, B.3).

A hand is four :class:`~rules.engines.cards.Card` from :data:`~rules.engines.cards.PIQUET_32`
(7 to A; double-German cards map onto the same ids, B.2). Each hand gets a **key**, a tuple where a
higher key is a better hand::

    key = (category_rank, value, *tiebreak_cards)

* ``category_rank``: position in ``category_order`` (casino default, best first:
  quads > flush4 > trips > flush3 > points; B.3). A category left out of a custom order (the
  traditional preset of B.7) is not recognised; such a hand falls to the next category it qualifies
  for, ending in ``points`` (e.g. a four-card flush then counts as the point value of its suit).
* ``value``: quads and trips -> rank ordinal (7 = 0 ... A = 7, B.3 rule 3); flush4 -> sum of the four
  values (34..41); flush3 -> sum of the suited cards (24..31, the fourth card ignored, F-11); points ->
  the best group sum (B.3 rule 1, 2): every rank group and every suit group (``points_mode =
  "rank_or_suit"``) or only suit groups (``"suit_only"``, B.7); a single card is a group of one.
* ``tiebreak_cards`` (only with ``flush_tiebreak = "highest_card_then_position"``): the rank ordinals
  of the counted cards, highest first (B.3 rule 5). With the default ``"position"`` the key stops at
  the value and equal keys are settled by seat (:func:`rules.core.seats.clockwise_from` the forehand), never split.

Card values (B.2): 7, 8, 9, T face value; J, Q, K 10; A 11.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rules.core.seats import clockwise_from
from rules.engines.cards import GERMAN_RANKS, GERMAN_SUITS, PIQUET_32, RANK_PLURALS, SUIT_TO_SYMBOL, Card
from rules.engines.errors import ConfigError, DuplicateCard, InvalidCard, WrongCardCount
from rules.engines.messages import gettext_noop

__all__ = [
    "CATEGORIES",
    "DEFAULT_CATEGORY_ORDER",
    "FLUSH_TIEBREAKS",
    "POINTS_MODES",
    "FortyOneHand",
    "card_value",
    "evaluate",
    "hand_key",
    "is_forty_one",
    "priority",
    "rank_seats",
    "validate_category_order",
]

#: Category names, best first in the casino order (B.3).
CATEGORIES = ("quads", "flush4", "trips", "flush3", "points")
DEFAULT_CATEGORY_ORDER: tuple[str, ...] = CATEGORIES
POINTS_MODES = ("rank_or_suit", "suit_only")
FLUSH_TIEBREAKS = ("position", "highest_card_then_position")

#: Card value by Card.rank_index (0 = deuce ... 12 = ace); only 5..12 (7..A) occur (B.2).
_VALUE = (0, 0, 0, 0, 0, 7, 8, 9, 10, 10, 10, 10, 11)
#: Rank ordinal 7 = 0 ... A = 7 (B.3 "key" of quads and trips).
_ORDINAL_OFFSET = 5
#: The value of the 41: A + three ten-cards of one suit (B.3 rule 4).
FORTY_ONE = 41

_NAMES = {
    "quads": gettext_noop("four of a kind"),
    "flush4": gettext_noop("four of one suit"),
    "trips": gettext_noop("three of a kind"),
    "flush3": gettext_noop("three of one suit"),
    "points": gettext_noop("point value"),
}
_SUIT_NAMES = {"c": gettext_noop("clubs"), "d": gettext_noop("diamonds"), "h": gettext_noop("hearts"),
               "s": gettext_noop("spades")}
#: The ranks of the 32-card deck in the plural, for "four Aces" (marked so the edge translates them).
_RANK_PLURALS = {"7": gettext_noop("Sevens"), "8": gettext_noop("Eights"), "9": gettext_noop("Nines"),
                 "T": gettext_noop("Tens"), "J": gettext_noop("Jacks"), "Q": gettext_noop("Queens"),
                 "K": gettext_noop("Kings"), "A": gettext_noop("Aces")}


def card_value(card: Card) -> int:
    """The point value of a piquet card: 7-10 face value, J/Q/K 10, A 11 (B.2)."""
    return _VALUE[int(card) >> 2]


def validate_category_order(order: Iterable[str], *, field: str = "category_order") -> tuple[str, ...]:
    """Check a ``category_order`` (B.9): known names, no repeats, ``"points"`` present and last.

    Returns the order as a tuple; raises :class:`ConfigError` naming ``field``.
    """
    if isinstance(order, str) or not isinstance(order, list | tuple):
        raise ConfigError(field, gettext_noop("must be a list of category names, e.g. [\"quads\", \"flush4\", ...]"))
    names = tuple(order)
    for name in names:
        if name not in CATEGORIES:
            raise ConfigError(field, gettext_noop("unknown category %(name)s; known: %(categories)s", name=repr(name), categories=', '.join(CATEGORIES)))
    if len(set(names)) != len(names):
        raise ConfigError(field, gettext_noop("a category is listed twice"))
    if not names or names[-1] != "points":
        raise ConfigError(field, gettext_noop("must end with \"points\" (every hand has a point value, B.3)"))
    return names


@dataclass(frozen=True)
class FortyOneHand:
    """An evaluated Forty-one hand (B.3).

    ``category``: one of :data:`CATEGORIES`; ``value``: see the module docstring; ``key``: comparable,
    higher is better; ``cards``: the cards that count (all four for quads and flush4, the three for
    trips and flush3, the best group for a point value); ``is_41``: four cards of one suit worth 41,
    whatever the category order (B.6).
    """

    category: str
    value: int
    key: tuple[int, ...]
    cards: tuple[Card, ...]
    is_41: bool

    @property
    def description(self) -> str:
        """Croupier text: ``"four Aces"``, ``"four of one suit, 41 (hearts)"``, ``"point value 20"``; an
        English :class:`~rules.engines.messages.Message` that the edge renders in the reader's language."""
        if self.category in ("quads", "trips"):
            rank = _RANK_PLURALS.get(self.cards[0].rank_char) or RANK_PLURALS[self.cards[0].rank_char]
            if self.category == "quads":
                return gettext_noop("four %(rank)s", rank=rank)
            return gettext_noop("three %(rank)s", rank=rank)
        if self.category in ("flush4", "flush3"):
            return gettext_noop("%(name)s, %(value)s (%(suit)s)", name=_NAMES[self.category], value=self.value,
                                suit=_SUIT_NAMES[self.cards[0].suit])
        return gettext_noop("point value %(value)s", value=self.value)

    @property
    def name(self) -> str:
        """The category's English name, ``"three of one suit"``."""
        return _NAMES[self.category]


def _group_key(cards: Sequence[Card]) -> tuple[int, ...]:
    """(sum, rank ordinals high to low) of a group: compares a group by value, then top card (B.3 rule 5)."""
    ordinals = sorted(((int(c) >> 2) - _ORDINAL_OFFSET for c in cards), reverse=True)
    return (sum(_VALUE[int(c) >> 2] for c in cards), *ordinals)


def _analyse(
    cards: Sequence[Card], points_mode: str, order: Sequence[str]
) -> tuple[str, int, tuple[Card, ...], tuple[int, ...]]:
    """Category name, value, counted cards and the card tiebreak of four cards (no validation)."""
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[int, list[Card]] = {}
    for c in cards:
        by_rank.setdefault(int(c) >> 2, []).append(c)
        by_suit.setdefault(int(c) & 3, []).append(c)
    for category in order:
        if category == "quads" and len(by_rank) == 1:
            group = tuple(cards)
            return "quads", (int(group[0]) >> 2) - _ORDINAL_OFFSET, group, ()
        if category == "flush4" and len(by_suit) == 1:
            group = tuple(cards)
            return "flush4", sum(_VALUE[int(c) >> 2] for c in group), group, _group_key(group)[1:]
        if category == "trips":
            for rank, group_list in by_rank.items():
                if len(group_list) >= 3:
                    return "trips", rank - _ORDINAL_OFFSET, tuple(group_list[:3]), ()
        if category == "flush3":
            for group_list in by_suit.values():
                if len(group_list) >= 3:
                    gk = _group_key(group_list)
                    return "flush3", gk[0], tuple(group_list), gk[1:]
        if category == "points":
            groups = list(by_suit.values())
            if points_mode == "rank_or_suit":
                groups += list(by_rank.values())
            best = max(groups, key=_group_key)
            gk = _group_key(best)
            return "points", gk[0], tuple(best), gk[1:]
    raise AssertionError("category_order must end with 'points'")  # pragma: no cover


def _check_cards(cards: Sequence[Card]) -> None:
    if len(cards) != 4:
        raise WrongCardCount(gettext_noop("a Forty-one hand has 4 cards, got %(n_cards)s (B.3)", n_cards=len(cards)), rule="B.3",
                             extra={"count": len(cards)})
    seen = set()
    for c in cards:
        if not isinstance(c, Card) or c not in PIQUET_32:
            raise InvalidCard(gettext_noop("'%(c)s' is not in the 32-card pack (B.2)", c=c), rule="B.2", extra={"token": str(c)})
        if int(c) in seen:
            raise DuplicateCard(gettext_noop("card %(c)s appears twice in one hand", c=c), rule="B.2", extra={"card": str(c)})
        seen.add(int(c))


def evaluate(
    cards: Sequence[Card],
    *,
    points_mode: str = "rank_or_suit",
    category_order: Sequence[str] = DEFAULT_CATEGORY_ORDER,
    flush_tiebreak: str = "position",
) -> FortyOneHand:
    """Evaluate four cards (B.3).

    Args:
        cards: four distinct :class:`Card` of the 32-card pack.
        points_mode, category_order, flush_tiebreak: the B.9 keys (validated by the config builder).

    Raises :class:`WrongCardCount`, :class:`InvalidCard` (not a piquet card), :class:`DuplicateCard`.
    """
    _check_cards(cards)
    category, value, counted, tiebreak = _analyse(cards, points_mode, category_order)
    rank = len(category_order) - 1 - list(category_order).index(category)
    key: tuple[int, ...] = (rank, value)
    if flush_tiebreak == "highest_card_then_position":
        key = key + (tiebreak or _group_key(counted)[1:])
    counted = tuple(sorted(counted, key=lambda c: (-(int(c) >> 2), int(c) & 3)))
    return FortyOneHand(category, value, key, counted, is_forty_one(cards))


def is_forty_one(cards: Sequence[Card]) -> bool:
    """True for four cards of one suit worth 41 (A + three of T J Q K), the hand of the 41 bonus (B.3 rule 4, B.6)."""
    if len(cards) != 4 or len({int(c) & 3 for c in cards}) != 1:
        return False
    return sum(_VALUE[int(c) >> 2] for c in cards) == FORTY_ONE


# --- fast path -----------------------------------------------------------------------------------
# hand_key() is the hot loop for ranking many hands (bench/forty_one_rank.py: all 35,960 hands).
# It gives the same (category_rank, value) as evaluate() for the casino category order, without
# building objects.

_CASINO_RANK = {name: 4 - i for i, name in enumerate(CATEGORIES)}


def hand_key(
    cards: Sequence[Card],
    *,
    points_mode: str = "rank_or_suit",
    category_order: Sequence[str] = DEFAULT_CATEGORY_ORDER,
    flush_tiebreak: str = "position",
) -> tuple[int, ...]:
    """The comparable key of four valid cards (higher is better), without validation (B.3).

    Same result as ``evaluate(cards, ...).key``; uses a fast path for the casino defaults.
    """
    if (flush_tiebreak != "position" or points_mode != "rank_or_suit"
            or tuple(category_order) != DEFAULT_CATEGORY_ORDER):
        category, value, counted, tiebreak = _analyse(cards, points_mode, category_order)
        rank = len(category_order) - 1 - list(category_order).index(category)
        if flush_tiebreak == "highest_card_then_position":
            return (rank, value) + (tiebreak or _group_key(counted)[1:])
        return (rank, value)
    a, b, c, d = (int(x) for x in cards)
    ra, rb, rc, rd = a >> 2, b >> 2, c >> 2, d >> 2
    sa, sb, sc, sd = a & 3, b & 3, c & 3, d & 3
    va, vb, vc, vd = _VALUE[ra], _VALUE[rb], _VALUE[rc], _VALUE[rd]
    if ra == rb == rc == rd:
        return (4, ra - _ORDINAL_OFFSET)
    if sa == sb == sc == sd:
        return (3, va + vb + vc + vd)
    # trips: three equal ranks among four
    if ra == rb == rc or ra == rb == rd:
        return (2, ra - _ORDINAL_OFFSET)
    if ra == rc == rd or rb == rc == rd:
        return (2, rc - _ORDINAL_OFFSET)
    suit_sum = [0, 0, 0, 0]
    suit_cnt = [0, 0, 0, 0]
    suit_sum[sa] += va
    suit_cnt[sa] += 1
    suit_sum[sb] += vb
    suit_cnt[sb] += 1
    suit_sum[sc] += vc
    suit_cnt[sc] += 1
    suit_sum[sd] += vd
    suit_cnt[sd] += 1
    for s in range(4):
        if suit_cnt[s] == 3:
            return (1, suit_sum[s])
    best = max(suit_sum)
    # rank groups (pairs; two pairs do not add, B.3 rule 2)
    if ra == rb and va + vb > best:
        best = va + vb
    if ra == rc and va + vc > best:
        best = va + vc
    if ra == rd and va + vd > best:
        best = va + vd
    if rb == rc and vb + vc > best:
        best = vb + vc
    if rb == rd and vb + vd > best:
        best = vb + vd
    if rc == rd and vc + vd > best:
        best = vc + vd
    return (0, best)


# --- seats and the forehand tie-break --------------------------------------------------------------


def priority(seat: int, seats: Iterable[int], forehand: int) -> int:
    """The seat's tie-break priority: 0 for the forehand's seat, 1 for its left neighbour, ... (B.3)."""
    table = set(seats) | {forehand}
    return clockwise_from(table, forehand).index(seat)


def rank_seats(
    hands: Mapping[int, FortyOneHand],
    forehand: int,
    *,
    table_seats: Iterable[int] = (),
) -> list[int]:
    """Seats best first: by hand key, equal keys by clockwise distance from the forehand (B.3 rule 5).

    ``hands`` maps seat -> evaluated hand; ``table_seats`` may add seats (e.g. folded ones) that only
    anchor the order. Nothing is ever split, so the result is a strict order.
    """
    order = clockwise_from(set(hands) | set(table_seats) | {forehand}, forehand)
    position = {s: i for i, s in enumerate(order)}
    return sorted(hands, key=lambda s: (tuple(-k for k in hands[s].key), position[s]))


def german_description(card: Card) -> str:
    """Double-German name of a card for descriptions (``"Herz Ass"``)."""
    return f"{GERMAN_SUITS[card.suit]} {GERMAN_RANKS[card.rank_char]}"


def symbol_cards(cards: Iterable[Card]) -> str:
    """Cards with suit symbols, as the spec writes them: ``"A♥ 9♥"``."""
    return " ".join(c.rank_char + SUIT_TO_SYMBOL[c.suit] for c in cards)
