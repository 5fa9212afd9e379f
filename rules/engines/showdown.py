"""The showdown tool: rank the hands shown at a table, for every game of the registry (issues 3, 14).

One JSON-able document in, one out; pure (no Django), used by ``manage.py showdown`` and by
``POST /api/v1/rules/showdown/``.

Input::

    {"game": "seven_card_stud" | "razz" | "seven_card_stud_hi_lo" | "capsa_susun" | "forty_one",
     "hands": {"1": "As Kd Qs Jc Th 2c 3d", "4": ["Ah", "Kc", ...], ...},   # SEAT -> cards
     "config": {...},          # optional, game-specific (ignored by stud)
     "community": "7d"}        # stud only, optional: the community card of R9 / R2.2

Seats are positive ints, written as JSON object keys (strings such as ``"1"``) or ints. Cards are
a string (``"As Kd"``, ``"AsKd"``, ``"A♠ K♦"``) or a list of card tokens.

Output for seven_card_stud (other games add their own fields)::

    {"game": "seven_card_stud",
     "ranking": [[1], [3, 4], [2]],         # best first; tied seats share a group, ascending
     "seats": {"1": {"category": "straight", "description": "Straight, ace high",
                     "cards": "Ah Kd Qs Jc Th", "key": 5863}, ...}}

Keys of ``"seats"`` are the seat numbers as strings (JSON object keys); seat numbers inside
``"ranking"`` are ints. ``"cards"`` are the five cards that play (R2.2), canonical text.

Errors (all :class:`~rules.engines.errors.RuleViolation`, rendered as exit status 2 / HTTP 400):
:class:`MalformedShowdown` (not an object, missing or empty ``"hands"``, bad seat),
:class:`~rules.engines.errors.ConfigError` (unknown ``"game"``),
:class:`~rules.engines.errors.InvalidCard` (not a card / not in the game's deck),
:class:`~rules.engines.errors.WrongCardCount`, :class:`~rules.engines.errors.DuplicateCard`
(the same card in two hands, or twice in one).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any

from rules.engines.cards import DECK_52, Card, format_cards, parse_cards
from rules.engines.errors import DuplicateCard, RuleViolation, WrongCardCount
from rules.engines.evaluators.stud import evaluate_stud
from rules.engines.messages import gettext_noop, or_list

__all__ = [
    "MalformedShowdown",
    "group_ranking",
    "parse_seat",
    "parse_showdown_hands",
    "require_document",
    "stud_showdown",
]




#: The highest seat number accepted: no table has more seats (tables hold 2-8, Capsa 2-4, Forty-one 3-7);
#: a larger number is a typing error, refused before it reaches ``int()`` (review: "100000", 5000 digits).
MAX_SEAT = 99
_SEAT_TEXT = re.compile(r"[0-9]{1,6}")

#: A stud hand at showdown has 7 cards, or 6 own cards + the community card (R11.2, R2.2): a hand
#: that reaches the showdown was dealt out to 7th street, all-in or not (R10), so no other count is allowed.
STUD_CARD_COUNTS = (7,)


class MalformedShowdown(RuleViolation):
    """A showdown document that is not of the expected shape (not an object, no ``"hands"``, bad seat)."""

    code = "malformed_showdown"


def group_ranking(keys: Mapping[int, Any]) -> list[list[int]]:
    """Order seats by key, best first, grouping equal keys: ``{1: 5, 2: 9, 3: 5} -> [[2], [1, 3]]``.

    ``keys`` maps seat -> a comparable key where **higher is better** (ints, tuples...). Seats inside a
    group are ascending. Equal keys split (R2.5, R11.3).
    """
    ranking: list[list[int]] = []
    previous: Any = None
    for seat, key in sorted(keys.items(), key=lambda item: (_Desc(item[1]), item[0])):
        if ranking and key == previous:
            ranking[-1].append(seat)
        else:
            ranking.append([seat])
            previous = key
    return ranking


class _Desc:
    """Sort helper: reverses the order of any comparable value."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __lt__(self, other: _Desc) -> bool:
        return bool(self.value > other.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Desc) and self.value == other.value

    __hash__ = None  # type: ignore[assignment]


def parse_seat(raw: Any) -> int:
    """Parse a seat number from a JSON key (``"3"``) or int (``3``): ASCII digits, 1 to :data:`MAX_SEAT`.

    Raises :class:`MalformedShowdown` for anything else (``"abc"``, ``"-1"``, ``"0"``, ``"²"``, ``"100000"``).
    """
    if isinstance(raw, bool):
        raw = repr(raw)
    if isinstance(raw, int):
        seat = raw
    elif isinstance(raw, str) and _SEAT_TEXT.fullmatch(raw.strip()):
        seat = int(raw.strip())
    else:
        shown = raw if not isinstance(raw, str) or len(raw) <= 20 else raw[:20] + "..."
        raise MalformedShowdown(gettext_noop("%(shown)s is not a seat number (write 1, 2, ...)", shown=repr(shown)), extra={"seat": str(shown)})
    if seat < 1:
        raise MalformedShowdown(gettext_noop("seat %(seat)s is not a seat number (seats start at 1)", seat=seat), extra={"seat": seat})
    if seat > MAX_SEAT:
        raise MalformedShowdown(gettext_noop("seat %(seat)s is not a seat number (no table has more than %(max_seat)s seats)", seat=seat, max_seat=MAX_SEAT),
                                extra={"seat": seat})
    return seat


def require_document(doc: Any) -> Mapping[str, Any]:
    """Check that ``doc`` is a JSON object with a ``"game"``; raises :class:`MalformedShowdown`."""
    if not isinstance(doc, Mapping):
        raise MalformedShowdown(
            gettext_noop("the showdown document must be a JSON object, got %(type_name)s", type_name=type(doc).__name__),
            extra={"got": type(doc).__name__},
        )
    return doc


def parse_showdown_hands(
    doc: Mapping[str, Any],
    *,
    deck: frozenset[Card] = DECK_52,
    card_counts: Collection[int] | None = None,
    shared: Collection[Card] = (),
    shared_label: str = gettext_noop("the shared cards"),
    game_label: str = "",
    rule: str | None = None,
) -> dict[int, list[Card]]:
    """Parse ``doc["hands"]`` into ``{seat: [Card, ...]}`` (seats ascending), validating it whole.

    Args:
        doc: the showdown document (see module docstring).
        deck: the game's deck; a card outside it raises :class:`InvalidCard` naming token and seat.
        card_counts: allowed numbers of cards per hand (e.g. ``(13,)`` for Capsa); None = any.
        shared: cards that also count for the duplicate check (e.g. a stud community card).
        shared_label: how messages name ``shared``, e.g. ``"the community card"``.
        game_label: used in messages, e.g. ``"a Capsa hand"``.
        rule: the rule a wrong card count breaks (e.g. ``"R11.2"``), named in the message and ``rule``.

    Raises :class:`MalformedShowdown` (missing/empty ``"hands"``, bad seat or card container),
    :class:`InvalidCard`, :class:`WrongCardCount` and :class:`DuplicateCard` (within a hand, across
    hands or with ``shared``), each naming the seat.
    """
    doc = require_document(doc)
    if "hands" not in doc:
        raise MalformedShowdown(gettext_noop("the showdown document has no \"hands\" (write {\"hands\": {\"1\": \"As Kd ...\"}})"),
                                extra={"field": "hands"})
    raw_hands = doc["hands"]
    if isinstance(raw_hands, list):  # also accept [{"seat": 1, "cards": "..."}]
        items = []
        for entry in raw_hands:
            if not isinstance(entry, Mapping) or "seat" not in entry or "cards" not in entry:
                raise MalformedShowdown(gettext_noop("each entry of \"hands\" must be {\"seat\": N, \"cards\": \"...\"}"),
                                        extra={"field": "hands"})
            items.append((entry["seat"], entry["cards"]))
    elif isinstance(raw_hands, Mapping):
        items = list(raw_hands.items())
    else:
        raise MalformedShowdown(gettext_noop("\"hands\" must map each seat to its cards, e.g. {\"1\": \"As Kd ...\"}"),
                                extra={"field": "hands"})
    if not items:
        raise MalformedShowdown(gettext_noop("\"hands\" is empty: give at least one seat and its cards"), extra={"field": "hands"})

    hands: dict[int, list[Card]] = {}
    owner: dict[int, str | int] = {int(c): shared_label for c in shared}
    for raw_seat, raw_cards in items:
        seat = parse_seat(raw_seat)
        if seat in hands:
            raise MalformedShowdown(gettext_noop("seat %(seat)s is given twice", seat=seat), seat=seat)
        if not (isinstance(raw_cards, str) or (
            isinstance(raw_cards, list | tuple) and all(isinstance(t, str) for t in raw_cards)
        )):
            raise MalformedShowdown(gettext_noop("seat %(seat)s: cards must be a string such as \"As Kd\" or a list of cards", seat=seat),
                                    seat=seat)
        try:
            cards = parse_cards(raw_cards, deck=deck, allow_duplicates=True)
        except RuleViolation as err:
            err.seat = seat
            err.message = gettext_noop("seat %(seat)s: %(message)s", seat=seat, message=err.message)
            err.args = (err.message,)
            raise
        if card_counts is not None and len(cards) not in card_counts:
            allowed = or_list([str(n) for n in sorted(card_counts)])
            what = game_label or gettext_noop("a hand")
            raise WrongCardCount(
                gettext_noop("seat %(seat)s shows %(n_cards)s cards; %(what)s has %(allowed)s", seat=seat, n_cards=len(cards), what=what, allowed=allowed)
                if rule is None else
                gettext_noop("seat %(seat)s shows %(n_cards)s cards; %(what)s has %(allowed)s (%(rule)s)", seat=seat,
                             n_cards=len(cards), what=what, allowed=allowed, rule=rule),
                seat=seat, rule=rule, extra={"count": len(cards), "allowed": sorted(card_counts)},
            )
        for card in cards:
            where = owner.get(int(card))
            if where is not None:
                if where == seat:
                    text = gettext_noop("seat %(seat)s shows %(card)s twice", seat=seat, card=card)
                else:
                    text = gettext_noop("card %(card)s appears twice: %(where)s and seat %(seat)s", card=card,
                                        where=where if isinstance(where, str) else gettext_noop("seat %(seat)s", seat=where),
                                        seat=seat)
                raise DuplicateCard(text, seat=seat, extra={"card": str(card)})
            owner[int(card)] = seat
        hands[seat] = cards
    return dict(sorted(hands.items()))


def stud_showdown(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Seven Card Stud showdown (R2.2-R2.6, R11.2): each seat's best five, ranked, ties grouped.

    Each seat shows its 7 cards (R11.2: a hand must have the correct number of cards to win); with ``"community"`` (one card, §9) each seat shows its 6 own cards
    and the community card completes every hand. Raises as :func:`parse_showdown_hands`, and
    :class:`MalformedShowdown` for a community entry that is not exactly one card.
    """
    community: list[Card] = []
    raw_community = doc.get("community")
    if raw_community not in (None, "", []):
        if not isinstance(raw_community, str | list):
            raise MalformedShowdown(gettext_noop("\"community\" must be one card, e.g. \"7d\""), extra={"field": "community"})
        community = parse_cards(raw_community, deck=DECK_52)
        if len(community) != 1:
            raise WrongCardCount(gettext_noop("the community card is one card, got %(n_community)s (R9)", n_community=len(community)),
                                 rule="R2.2", extra={"field": "community", "count": len(community)})
    counts = (6,) if community else STUD_CARD_COUNTS
    label = (gettext_noop("a stud hand with the community card") if community
             else gettext_noop("a stud hand at showdown"))
    hands = parse_showdown_hands(doc, deck=DECK_52, card_counts=counts, shared=community,
                                 shared_label=gettext_noop("the community card"), game_label=label, rule="R11.2")
    keys: dict[int, int] = {}
    seats: dict[str, dict[str, Any]] = {}
    for seat, cards in hands.items():
        hand = evaluate_stud(cards + community)
        keys[seat] = hand.key
        seats[str(seat)] = {
            "category": hand.category,
            "description": hand.description,
            "cards": format_cards(hand.best_five),
            "key": hand.key,
            "shown": format_cards(cards),
        }
    result: dict[str, Any] = {"game": "seven_card_stud", "ranking": group_ranking(keys), "seats": seats}
    if community:
        result["community"] = format_cards(community)
    return result
