"""The Forty-one showdown tool: rank the hands of a showdown given as cards (issue 3), German card names
accepted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rules.core.seats import clockwise_from
from rules.engines.cards import (
    PIQUET_32,
    Card,
    format_cards,
)
from rules.engines.errors import (
    DuplicateCard,
    InvalidCard,
    RuleViolation,
    WrongCardCount,
)
from rules.engines.evaluators.forty_one import (
    evaluate,
    rank_seats,
)
from rules.engines.forty_one.parsing import _PIQUET_DECK_MESSAGES, parse_pack_cards
from rules.engines.forty_one.state import GAME, SHOWDOWN_CARDS
from rules.engines.forty_one_config import FortyOneConfig, build_config
from rules.engines.messages import gettext_noop, retemplate


def showdown(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Rank a Forty-one showdown (issue 3; called by ``rules.showdown.run_showdown``).

    Input: ``{"game": "forty_one", "hands": {SEAT: CARDS}, "forehand": SEAT, "config": {...}}``; each hand
    has exactly four cards of the 32-card pack (B.3, B.4b), French text or, with ``config.deck =
    "double_german"``, German names; ``config`` may set ``deck``, ``points_mode``, ``category_order``,
    ``flush_tiebreak`` (B.9; money keys are not needed here and are ignored).

    Output: ``{"game": "forty_one", "ranking": [[seat], ...], "seats": {"SEAT": {"category",
    "description", "cards", "shown", "value", "priority", "is_41"}}, "winner": seat, "forehand": seat}``.
    Forty-one never splits (B.3 rule 5): equal hands are ordered by clockwise distance from the
    forehand's seat, so every ranking group holds exactly one seat. ``"cards"`` are the cards that count.

    Raises :class:`~rules.engines.showdown.MalformedShowdown` (shape, seat, missing forehand),
    :class:`ConfigError`, :class:`InvalidCard`, :class:`WrongCardCount`, :class:`DuplicateCard`.
    """
    from rules.engines.showdown import MalformedShowdown, parse_seat, parse_showdown_hands, require_document

    doc = require_document(doc)
    raw_config = doc.get("config") or {}
    if not isinstance(raw_config, Mapping):
        raise MalformedShowdown(gettext_noop("\"config\" must be an object of Forty-one keys"), extra={"field": "config"})
    options = {k: raw_config[k] for k in ("deck", "points_mode", "category_order", "flush_tiebreak")
               if k in raw_config}
    placeholder = {"ante": "0", "limits": ["1", "1"], "tax_cap": "0", "bonus_41_amount": "0"}
    config = build_config({**placeholder, **options})
    if "forehand" not in doc:
        raise MalformedShowdown(gettext_noop("a Forty-one showdown needs \"forehand\": the Spitz seat decides ties (B.3 rule 5)"),
                                extra={"field": "forehand"})
    forehand = parse_seat(doc["forehand"])
    if config.deck == "double_german":
        hands = _german_hands(doc, config)
    else:
        try:
            hands = parse_showdown_hands(doc, deck=PIQUET_32, card_counts=(SHOWDOWN_CARDS,),
                                         game_label=gettext_noop("a Forty-one hand (B.3)"))
        except InvalidCard as err:
            message = retemplate(err.message, _PIQUET_DECK_MESSAGES)
            if _GERMAN_WORDS.search(str(err.extra.get("token", ""))):
                message = gettext_noop("%(message)s; for German names set \"config\": {\"deck\": \"double_german\"}",
                                       message=message)
            err.message = message
            err.args = (message,)
            raise
    evaluated = {seat: evaluate(cards, **config.evaluator_options) for seat, cards in hands.items()}
    order = rank_seats(evaluated, forehand)
    table = clockwise_from(set(hands) | {forehand}, forehand)
    seats_out = {
        str(seat): {
            "category": hand.category,
            "description": hand.description,
            "cards": format_cards(hand.cards),
            "shown": format_cards(hands[seat]),
            "value": hand.value,
            "priority": table.index(seat),
            "is_41": hand.is_41,
        }
        for seat, hand in evaluated.items()
    }
    return {"game": GAME, "ranking": [[s] for s in order], "seats": seats_out, "winner": order[0],
            "forehand": forehand}


_GERMAN_WORDS = re.compile(r"eichel|laub|gr(ü|ue)n|herz|schellen|unter|ober|k(ö|oe)nig|ass|daus", re.IGNORECASE)


def _german_hands(doc: Mapping[str, Any], config: FortyOneConfig) -> dict[int, list[Card]]:
    from rules.engines.showdown import MalformedShowdown, parse_seat

    raw = doc.get("hands")
    if not isinstance(raw, Mapping) or not raw:
        raise MalformedShowdown(gettext_noop("\"hands\" must map each seat to its cards, e.g. {\"1\": \"Herz Ass, Herz König, ...\"}"),
                                extra={"field": "hands"})
    hands: dict[int, list[Card]] = {}
    owner: dict[int, int] = {}
    for raw_seat, raw_cards in raw.items():
        seat = parse_seat(raw_seat)
        if seat in hands:
            raise MalformedShowdown(gettext_noop("seat %(seat)s is given twice", seat=seat), seat=seat)
        try:
            cards = parse_pack_cards(raw_cards, config)
        except RuleViolation as err:
            err.seat = seat
            err.message = gettext_noop("seat %(seat)s: %(message)s", seat=seat, message=err.message)
            err.args = (err.message,)
            raise
        if len(cards) != SHOWDOWN_CARDS:
            raise WrongCardCount(gettext_noop("seat %(seat)s shows %(n_cards)s cards; a Forty-one hand has 4 (B.3)", seat=seat, n_cards=len(cards)), seat=seat,
                                 extra={"count": len(cards), "allowed": [SHOWDOWN_CARDS]})
        for c in cards:
            if int(c) in owner:
                raise DuplicateCard(gettext_noop("card %(c)s is shown twice: in seat %(owner)s and in seat %(seat)s", c=c, owner=owner[int(c)], seat=seat),
                                    seat=seat, extra={"card": str(c)})
            owner[int(c)] = seat
        hands[seat] = cards
    return dict(sorted(hands.items()))
