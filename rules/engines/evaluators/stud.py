"""Seven Card Stud hand evaluation: the best five of 5, 6 or 7 cards (spec §2, R2.1-R2.6).

The 5-card ranking comes from phevaluator (a well-kept C evaluator, DESIGN.md "rules/"). Our
:class:`~rules.engines.cards.Card` ints *are* phevaluator card ids (``rank_index * 4 + suit_index``),
so the cards go in untranslated. phevaluator answers a rank from 1 (royal flush) to 7,462 (7-5-4-3-2
offsuit); we turn it round so that:

* a **higher key is a stronger hand** and **equal keys tie** (suits never break a tie, R2.5);
* keys run from :data:`KEY_MIN` (1, seven-five high) to :data:`KEY_MAX` (7,462, royal flush);
* the category can be read off the key alone (:func:`category_of`), categories occupy
  contiguous key ranges in the order of R2.1.

Public API:

* :func:`stud_key` - one hand of 5-7 cards -> int key (validated).
* :func:`stud_keys` - many hands -> list of keys (validated in bulk; the fast path for simulations).
* :func:`evaluate_stud` - one hand -> :class:`StudHand` (category, key, the five cards that play,
  a description such as ``"Straight, five high"`` or ``"Full house, kings full of sevens"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain, combinations, starmap

from phevaluator import _pheval

from rules.engines.cards import CARDS, Card, check_no_duplicates
from rules.engines.errors import InvalidCard, RuleViolation, WrongCardCount
from rules.engines.messages import gettext_noop

__all__ = [
    "CATEGORY_NAMES",
    "CATEGORY_LABELS",
    "KEY_MAX",
    "KEY_MIN",
    "StudHand",
    "category_of",
    "category_rank",
    "evaluate_stud",
    "stud_key",
    "stud_keys",
]

#: Hand categories from strongest to weakest (R2.1; the royal flush is the ace-high straight flush).
CATEGORY_NAMES: tuple[str, ...] = (
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
    "two_pair",
    "one_pair",
    "high_card",
)

#: Human labels for the categories (used in descriptions).
CATEGORY_LABELS: dict[str, str] = {
    "straight_flush": "Straight flush",
    "four_of_a_kind": "Four of a kind",
    "full_house": "Full house",
    "flush": "Flush",
    "straight": "Straight",
    "three_of_a_kind": "Three of a kind",
    "two_pair": "Two pair",
    "one_pair": "One pair",
    "high_card": "High card",
}

#: phevaluator's worst rank (7-5-4-3-2 offsuit); its best is 1 (royal flush).
_PH_WORST = 7462
#: key = _KEY_FLIP - phevaluator rank, so that higher is stronger.
_KEY_FLIP = _PH_WORST + 1
#: The weakest possible key (seven-five-four-three-two, no flush) and the strongest (royal flush).
KEY_MIN = 1
KEY_MAX = _PH_WORST

#: The lowest phevaluator rank (= best) of each category is 1 + the number of distinct 5-card hands
#: in the stronger categories: 10 straight flushes, 156 quads, 156 full houses, 1,277 flushes,
#: 10 straights, 858 trips, 858 two pairs, 2,860 pairs, 1,277 high cards (7,462 in all).
_CATEGORY_SIZES = (10, 156, 156, 1277, 10, 858, 858, 2860, 1277)


def _key_floors() -> tuple[tuple[int, str], ...]:
    floors = []
    worst_rank = 0
    for name, size in zip(CATEGORY_NAMES, _CATEGORY_SIZES):
        worst_rank += size
        floors.append((_KEY_FLIP - worst_rank, name))  # lowest key of this category
    return tuple(floors)


#: (lowest key of the category, category), strongest category first.
_KEY_FLOORS = _key_floors()
assert _KEY_FLOORS[-1][0] == KEY_MIN

_EVALUATORS = {5: _pheval.evaluate_5cards, 6: _pheval.evaluate_6cards, 7: _pheval.evaluate_7cards}
_EV5 = _pheval.evaluate_5cards
_EV7 = _pheval.evaluate_7cards
_VALID_IDS = frozenset(range(52))
_VALID_ID_BYTES = bytes(range(52))
#: Rank words for the descriptions ("Straight, five high"), marked so that the edge translates them.
_RANK_WORDS = {
    "2": gettext_noop("two"), "3": gettext_noop("three"), "4": gettext_noop("four"), "5": gettext_noop("five"),
    "6": gettext_noop("six"), "7": gettext_noop("seven"), "8": gettext_noop("eight"), "9": gettext_noop("nine"),
    "T": gettext_noop("ten"), "J": gettext_noop("jack"), "Q": gettext_noop("queen"), "K": gettext_noop("king"),
    "A": gettext_noop("ace"),
}
_RANK_PLURAL_WORDS = {
    "2": gettext_noop("twos"), "3": gettext_noop("threes"), "4": gettext_noop("fours"), "5": gettext_noop("fives"),
    "6": gettext_noop("sixes"), "7": gettext_noop("sevens"), "8": gettext_noop("eights"), "9": gettext_noop("nines"),
    "T": gettext_noop("tens"), "J": gettext_noop("jacks"), "Q": gettext_noop("queens"), "K": gettext_noop("kings"),
    "A": gettext_noop("aces"),
}
_ROYAL_FLUSH = gettext_noop("Royal flush")


def category_of(key: int) -> str:
    """Return the category name (one of :data:`CATEGORY_NAMES`) of a stud key.

    Raises ``ValueError`` for an int outside ``KEY_MIN..KEY_MAX``.
    """
    if not KEY_MIN <= key <= KEY_MAX:
        raise ValueError(f"{key!r} is not a stud key ({KEY_MIN}..{KEY_MAX})")
    for floor, name in _KEY_FLOORS:
        if key >= floor:
            return name
    raise AssertionError("unreachable")  # pragma: no cover


def category_rank(category: str) -> int:
    """Strength of a category as an int: 8 straight flush ... 0 high card (R2.1)."""
    return len(CATEGORY_NAMES) - 1 - CATEGORY_NAMES.index(category)


def _check_ids(cards: Sequence[int]) -> None:
    """Raise :class:`InvalidCard` for the first entry that is not an int card id 0..51."""
    for c in cards:
        if isinstance(c, bool) or not isinstance(c, int) or c not in _VALID_IDS:
            raise InvalidCard(gettext_noop("%(c)s is not a card (expected a card id 0..51)", c=repr(c)), extra={"token": repr(c)})


def _invalid_or_duplicate(cards: Sequence[int]) -> None:
    """Raise the precise error for a hand that failed the fast validity check."""
    _check_ids(cards)
    check_no_duplicates([CARDS[c] for c in cards], where="in one hand")


def _wrong_count(n: int) -> WrongCardCount:
    return WrongCardCount(
        gettext_noop("a stud hand has 5 to 7 cards, got %(n)s (R2.2)", n=n), rule="R2.2", extra={"count": n}
    )


def stud_key(cards: Sequence[int]) -> int:
    """Return the key of the best five of ``cards`` (5, 6 or 7 :class:`Card` / card ids 0..51).

    Higher key = stronger hand; equal keys = exactly equal five-card hands, which split (R2.4, R2.5).
    Raises :class:`WrongCardCount` (not 5-7 cards), :class:`InvalidCard` (not a card id) and
    :class:`DuplicateCard` (a card twice).
    """
    n = len(cards)
    evaluate = _EVALUATORS.get(n)
    if evaluate is None:
        raise _wrong_count(n)
    if len(_VALID_IDS.intersection(cards)) != n:
        _invalid_or_duplicate(cards)
    try:
        return _KEY_FLIP - evaluate(*cards)  # type: ignore[no-any-return]  # phevaluator is untyped
    except TypeError:  # e.g. 5.0: equal to a card id but not an int
        _invalid_or_duplicate(cards)
        raise


def stud_keys(hands: Sequence[Sequence[Card]], *, validate: bool = True) -> list[int]:
    """Return :func:`stud_key` for every hand, in order; the batch path for simulations and showdowns.

    ``hands`` is a sequence of hands of 5-7 card ids each (lengths may be mixed). The whole batch is
    validated first (one error for the first bad hand, naming its index in ``extra["hand"]``); with
    ``validate=False`` only the card ids' range is checked (cheap; keeps the C evaluator in bounds) and
    duplicate cards inside a hand are the caller's responsibility - use it for hands dealt from a deck.

    Raises :class:`WrongCardCount`, :class:`InvalidCard`, :class:`DuplicateCard`.
    """
    if not isinstance(hands, list | tuple):
        hands = list(hands)
    lengths = set(map(len, hands))
    if lengths == {7}:
        n = 7
    elif lengths and lengths <= {5, 6, 7}:
        n = 0  # mixed
    else:
        for i, hand in enumerate(hands):
            if len(hand) not in _EVALUATORS:
                err = _wrong_count(len(hand))
                err.extra["hand"] = i
                raise err
        return []  # no hands at all
    # Every entry must be an int card id 0..51: one C-level pass over the whole batch (bytes() refuses
    # non-ints and ints outside 0..255; translate() deletes the valid ids, so nothing may be left).
    try:
        bad = bool(bytes(chain.from_iterable(hands)).translate(None, _VALID_ID_BYTES))
    except (TypeError, ValueError):
        bad = True
    if validate and not bad:
        # ... and distinct within each hand.
        distinct = map(len, map(set, hands))
        bad = set(distinct) != {7} if n == 7 else list(distinct) != list(map(len, hands))
    if bad:
        _raise_first_bad(hands, validate)
    try:
        if n == 7:
            return [_KEY_FLIP - r for r in starmap(_EV7, hands)]
        evaluators = _EVALUATORS
        return [_KEY_FLIP - evaluators[len(h)](*h) for h in hands]
    except TypeError:  # e.g. 5.0: equal to a card id but not an int
        _raise_first_bad(hands, True)
        raise


def _raise_first_bad(hands: Sequence[Sequence[Card]], validate: bool) -> None:
    """Find the first bad hand (slow path, only after the fast checks failed) and raise for it."""
    for i, hand in enumerate(hands):
        try:
            if validate:
                _invalid_or_duplicate(hand)
            else:
                _check_ids(hand)
        except RuleViolation as err:
            err.extra["hand"] = i
            raise
    raise AssertionError("validation failed but no bad hand found")  # pragma: no cover


@dataclass(frozen=True)
class StudHand:
    """The evaluation of one stud hand (R2.1-R2.6).

    Attributes:
        category: one of :data:`CATEGORY_NAMES` (``"straight_flush"`` ... ``"high_card"``).
        key: comparable int, higher = stronger, equal = tie (same as :func:`stud_key`).
        best_five: the five cards that play, ordered as a dealer reads them: groups first (quads,
            trips, pairs, by size then rank), then kickers high to low; straights from the top card
            down (the wheel as 5-4-3-2-A).
        description: e.g. ``"Royal flush"``, ``"Straight, five high"``,
            ``"Full house, kings full of sevens"``, ``"Two pair, jacks and nines, ace kicker"``.
    """

    category: str
    key: int
    best_five: tuple[Card, ...]
    description: str

    @property
    def best_five_text(self) -> str:
        """The five cards that play as text, ``"Ks Kh Kd 7c 7h"``."""
        return " ".join(str(c) for c in self.best_five)


def _order_five(five: Sequence[int], category: str) -> tuple[Card, ...]:
    counts: dict[int, int] = {}
    for c in five:
        counts[c >> 2] = counts.get(c >> 2, 0) + 1
    ordered = sorted(five, key=lambda c: (counts[c >> 2], c >> 2, c & 3), reverse=True)
    if category in ("straight", "straight_flush") and (ordered[0] >> 2) == 12 and (ordered[1] >> 2) == 3:
        ordered = ordered[1:] + ordered[:1]  # the wheel: 5-4-3-2-A (R2.3)
    return tuple(CARDS[c] for c in ordered)


def _describe(category: str, five: tuple[Card, ...]) -> str:
    """The croupier's words for a stud hand (``"Two pair, kings and fives, ace kicker"``): an English
    :class:`~rules.engines.messages.Message` the edge renders in the reader's language (``"Zwei Paare, ..."``)."""
    ranks = [c.rank_char for c in five]
    word = _RANK_WORDS
    plural = _RANK_PLURAL_WORDS
    if category == "straight_flush":
        if ranks[0] == "A":
            return _ROYAL_FLUSH
        return gettext_noop("Straight flush, %(rank)s high", rank=word[ranks[0]])
    if category == "four_of_a_kind":
        return gettext_noop("Four of a kind, %(rank)s, %(kicker)s kicker", rank=plural[ranks[0]], kicker=word[ranks[4]])
    if category == "full_house":
        return gettext_noop("Full house, %(three)s full of %(two)s", three=plural[ranks[0]], two=plural[ranks[3]])
    if category == "flush":
        return gettext_noop("Flush, %(rank)s high (%(ranks)s)", rank=word[ranks[0]], ranks="-".join(ranks))
    if category == "straight":
        return gettext_noop("Straight, %(rank)s high", rank=word[ranks[0]])
    if category == "three_of_a_kind":
        return gettext_noop("Three of a kind, %(rank)s", rank=plural[ranks[0]])
    if category == "two_pair":
        return gettext_noop("Two pair, %(high)s and %(low)s, %(kicker)s kicker", high=plural[ranks[0]],
                            low=plural[ranks[2]], kicker=word[ranks[4]])
    if category == "one_pair":
        return gettext_noop("One pair, %(rank)s", rank=plural[ranks[0]])
    return gettext_noop("High card, %(rank)s (%(ranks)s)", rank=word[ranks[0]], ranks="-".join(ranks))


def evaluate_stud(cards: Sequence[Card]) -> StudHand:
    """Evaluate the best five of 5-7 stud cards (R2.2): category, key, the five cards that play, a description.

    When several five-card choices are equally strong (e.g. a kicker available in two suits) the
    choice with the highest cards by id (rank, then suit c < d < h < s) is shown; it never changes the key.
    Raises :class:`WrongCardCount`, :class:`InvalidCard`, :class:`DuplicateCard` as :func:`stud_key`.
    """
    key = stud_key(cards)
    target = _KEY_FLIP - key
    best: tuple[int, ...] | None = None
    for five in combinations(sorted(int(c) for c in cards), 5):
        if _EV5(*five) == target:
            candidate = tuple(sorted(five, reverse=True))
            if best is None or candidate > best:
                best = candidate
    assert best is not None
    category = category_of(key)
    ordered = _order_five(best, category)
    return StudHand(category=category, key=key, best_five=ordered, description=_describe(category, ordered))

