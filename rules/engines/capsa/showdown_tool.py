"""The Capsa showdown tool: score three-row hands given as cards (issue 3)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engines.capsa.parsing import _cards
from rules.engines.capsa.play import _detect_natural
from rules.engines.capsa.state import CARDS_PER_HAND, GAME, MAX_PLAYERS, MIN_PLAYERS
from rules.engines.capsa_config import build_config
from rules.engines.capsa_scoring import (
    SeatHand,
    build_settlement,
    describe_seat,
    evaluate_seat,
    seat_units,
    settle_pairs,
)
from rules.engines.cards import Card
from rules.engines.errors import (
    ConfigError,
    DuplicateCard,
    IllegalAction,
    RuleViolation,
    UnknownEvent,
    WrongCardCount,
)
from rules.engines.evaluators.capsa import (
    ROW_NAMES,
    ROW_SIZES,
    ROWS,
)
from rules.engines.messages import gettext_noop
from rules.engines.money import format_cents
from rules.engines.showdown import parse_seat


def _malformed(message: str, **kwargs: Any) -> RuleViolation:
    """A malformed showdown document: the dispatcher's ``MalformedShowdown`` when it exists."""
    try:
        from rules.engines.showdown import MalformedShowdown
    except ImportError:  # pragma: no cover
        return UnknownEvent(message, **kwargs)
    return MalformedShowdown(message, **kwargs)


def _group_ranking(keys: Mapping[int, int]) -> list[list[int]]:
    try:
        from rules.engines.showdown import group_ranking
    except ImportError:  # pragma: no cover
        group_ranking = None  # type: ignore[assignment]
    if group_ranking is not None:
        return group_ranking(keys)
    groups: dict[int, list[int]] = {}
    for s, k in keys.items():
        groups.setdefault(k, []).append(s)
    return [sorted(groups[k]) for k in sorted(groups, reverse=True)]


#: Keys a seat's hand may carry in a showdown document.
SHOWDOWN_HAND_KEYS = frozenset({*ROWS, "cards", "surrender"})


def showdown(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Compare the shown Capsa hands of 2-4 seats and settle them pairwise (issue 3, A.3-A.11).

    Input::

        {"game": "capsa_susun",
         "hands": {"1": {"front": "5c 5d 4c", "middle": "9s 9h 9d Qs Qh", "back": "Ks Kh Kd Kc 2s"},
                   "2": {"front": ..., "middle": ..., "back": ..., "surrender": true},   # optional flag
                   "3": {"cards": "13 cards"}},          # a natural holder shows 13 cards, no setting
         "config": {"preset": "western_1_6", "unit_value": "1.00", "pair_stakes": {"1-2": "100.00"}}}

    ``config`` takes the deal engine's keys (A.12, presets A.10); ``unit_value`` is optional here.
    Pair keys are ``"a-b"`` with seat numbers. With naturals enabled, a seat whose 13 cards make a
    natural is settled as the natural (as the engine does under ``natural_declaration=auto``).

    Output::

        {"game": "capsa_susun", "method": "2-4", "ranking_by": "net_units",
         "ranking": [[1], [3], [2], [4]],   # by each seat's net units for the deal, best first; ties grouped
         "seats": {"1": {"status": "valid"|"fouled"|"surrendered"|"natural", "fouled": bool,
                         "foul_reason": str|None, "natural": str|None,
                         "category": {"front": "pair", ...}, "rows": {"front": "Pair of Fives, kickers 4"},
                         "description": "front: ... / middle: ... / back: ...",
                         "cards": {"front": "5d 5c 4c", ...}, "royalties": {"middle": 2},
                         "units": 10, "amounts": "10.00"}},   # amounts only where stakes are given
         "pairs": [{"seats": [1, 2], "kind": "rows", "rows": {"front": 1, "middle": 1, "back": "tie"},
                    "units": {"1": 4, "2": -4}, "royalties": {...}, "multiplier": 1}],
         "fouled": [4]}

    ``amounts`` is the seat's net money result before the house fee (EUR string); ``"fee"`` is added
    per seat when the config has ``unit_value``/``pair_stakes`` covering every pair.

    Raises :class:`InvalidCard` (not a card), :class:`DuplicateCard` (a card twice, in one hand or
    across hands), :class:`WrongCardCount` (a row that is not 3/5/5 cards), :class:`ConfigError`
    (bad config), ``MalformedShowdown`` of :mod:`rules.engines.showdown` (malformed document),
    :class:`IllegalAction` (13 cards shown without a setting that make no natural).
    """
    if not isinstance(doc, Mapping):
        raise _malformed("the showdown document must be an object with 'hands'")
    raw_hands = doc.get("hands")
    if not isinstance(raw_hands, Mapping) or not raw_hands:
        raise _malformed("the showdown document needs 'hands': {seat: {front, middle, back}}")
    raw_config = doc.get("config")
    if raw_config is not None and not isinstance(raw_config, Mapping):
        raise ConfigError("config", gettext_noop("must be an object of Capsa Susun keys (A.12)"))
    config = build_config(raw_config or {}, require_unit_value=False)
    if not (MIN_PLAYERS <= len(raw_hands) <= MAX_PLAYERS):
        raise WrongCardCount(gettext_noop("Capsa Susun compares 2 to 4 hands, not %(n_raw_hands)s (A.2)", n_raw_hands=len(raw_hands)), rule="A.2")
    hands: dict[int, SeatHand] = {}
    owner: dict[int, int] = {}
    for raw_seat, raw in raw_hands.items():
        seat = parse_seat(raw_seat)
        if seat in hands:
            raise _malformed(f"seat {seat} is given twice", seat=seat)
        if isinstance(raw, (str, list)):
            raw = {"cards": raw}
        if not isinstance(raw, Mapping):
            raise _malformed(f"seat {seat}: a hand is {{front, middle, back}} or {{cards}}", seat=seat)
        unknown = sorted(str(k) for k in raw if k not in SHOWDOWN_HAND_KEYS)
        if unknown:
            raise _malformed(f"seat {seat}: unknown key {unknown[0]!r}; a hand has front, middle, back (or cards) "
                             "and optionally surrender", seat=seat)
        if not isinstance(raw.get("surrender", False), bool):
            raise _malformed(f"seat {seat}: \"surrender\" must be true or false, got {raw['surrender']!r}", seat=seat)
        if "cards" in raw and any(r in raw for r in ROWS):
            raise _malformed(f"seat {seat}: give either the 13 \"cards\" of a natural or the front, middle and back "
                             "of a setting, not both", seat=seat)
        rows: dict[str, tuple[int, ...]] | None = None
        if "cards" in raw:
            cards = _cards(raw, "cards", seat, "show")
            if len(cards) != CARDS_PER_HAND:
                raise WrongCardCount(gettext_noop("seat %(seat)s: a hand has 13 cards, %(n_cards)s given (A.2)", seat=seat, n_cards=len(cards)), seat=seat,
                                     rule="A.2")
        else:
            rows = {}
            for row in ROWS:
                row_cards = _cards(raw, row, seat, "show")
                if len(row_cards) != ROW_SIZES[row]:
                    raise WrongCardCount(gettext_noop("seat %(seat)s: the %(row)s needs %(row_size)s cards, %(n_row_cards)s given (A.2)", seat=seat, row=ROW_NAMES[row], row_size=ROW_SIZES[row], n_row_cards=len(row_cards)), seat=seat, rule="A.2")
                rows[row] = tuple(row_cards)
            cards = [Card(c) for row in ROWS for c in rows[row]]
        for c in cards:
            if c in owner:
                where = (gettext_noop("twice in its hand") if owner[c] == seat else gettext_noop("also in seat %(owner)s's hand", owner=owner[c]))
                raise DuplicateCard(gettext_noop("seat %(seat)s: %(card)s is %(where)s", seat=seat, card=Card(c), where=where), seat=seat, rule="A.2",
                                    extra={"card": str(Card(c))})
            owner[c] = seat
        natural = _detect_natural(config, cards)
        if rows is None and natural is None:
            raise IllegalAction(gettext_noop("seat %(seat)s shows 13 cards without a setting, but they make no natural (A.8)", seat=seat),
                                seat=seat, rule="A.8")
        surrendered = bool(raw.get("surrender", False))
        hands[seat] = evaluate_seat(config, seat, rows=rows, natural=natural, cards=cards, surrendered=surrendered)
    seats = sorted(hands)
    pairs = settle_pairs(config, hands)
    units = seat_units(pairs, seats)
    has_stakes = config.unit_value is not None or all(
        any(k == (a, b) for k, _ in config.pair_stakes) for i, a in enumerate(seats) for b in seats[i + 1:])
    money = None
    if has_stakes:
        money = build_settlement(config, pairs, seats)
    seats_out: dict[str, Any] = {}
    for s in seats:
        info = describe_seat(config, hands[s])
        info["units"] = units[s]
        if money is not None:
            info["amounts"] = format_cents(money.awards[s] - money.contributions[s])
            info["fee"] = format_cents(money.fees[s])
        seats_out[str(s)] = info
    return {
        "game": GAME,
        "method": config.method,
        "ranking_by": "net_units",
        "ranking": _group_ranking(units),
        "seats": seats_out,
        "pairs": [p.as_dict() for p in pairs],
        "fouled": [s for s in seats if hands[s].status == "fouled"],
    }
