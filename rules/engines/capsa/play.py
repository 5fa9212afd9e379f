"""The Capsa events: the deal, naturals, setting the three rows, timeouts, surrender decisions, royalties,
the reveal and the misdeal (A.3-A.8).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.engines.capsa.parsing import _cards, _seat_of
from rules.engines.capsa.state import (
    CARDS_PER_HAND,
    CapsaState,
    _evolve,
    _expect,
    _expected_words,
    _moved_on,
    _setters,
    _surrender_order,
)
from rules.engines.capsa_config import CapsaConfig
from rules.engines.capsa_scoring import (
    evaluate_seat,
)
from rules.engines.cards import UNKNOWN_TOKENS, Card, format_cards
from rules.engines.errors import (
    DuplicateCard,
    IllegalAction,
    OutOfTurn,
    UnknownEvent,
    WrongCardCount,
)
from rules.engines.evaluators.capsa import (
    ROW_NAMES,
    ROW_SIZES,
    ROWS,
    natural_name,
    natural_names,
    naturals_made,
)
from rules.engines.messages import action_word, gettext_noop


def _detect_natural(config: CapsaConfig, cards: Sequence[int]) -> str | None:
    """The highest natural (by ``natural_precedence``) the 13 cards make, or None (A.8)."""
    if not config.naturals_enabled:
        return None
    made = natural_names(cards, six_pairs_definition=config.six_pairs_definition)  # names only: no keys built
    best = None
    for name in config.natural_precedence:
        if name in made:
            best = name
    return best


def _after_deal(state: CapsaState) -> CapsaState:
    """The setting phase once every seat is dealt, naturals read under ``natural_declaration=auto`` (A.5.2);
    ``state`` is the deal handler's fresh state (:func:`~rules.engines.capsa.state._moved_on`)."""
    naturals: dict[int, str] = {}
    if state.config.natural_declaration == "auto":
        for s in state.seats:
            found = _detect_natural(state.config, state.hands[s])
            if found:
                naturals[s] = found
    state = _moved_on(state, "set", naturals=naturals)  # ``state``: the deal handler's fresh state
    if state.config.natural_declaration == "auto" and len(_setters(state)) < 2:
        return _moved_on(state, "reveal")
    return state


def _after_setting(state: CapsaState) -> CapsaState:
    """The phase after a seat's setting, natural or timeout (A.5.3-4); ``state`` is the handler's fresh
    state (:func:`~rules.engines.capsa.state._moved_on`)."""
    pending = [s for s in _setters(state) if s not in state.settings and s not in state.timed_out]
    if pending:
        return state
    if state.config.surrender_enabled and len(_surrender_order(state)) >= 2:
        return _moved_on(state, "surrender")
    return _moved_on(state, "reveal")


def _on_deal(state: CapsaState, event: Mapping[str, Any]) -> CapsaState:
    seat = _seat_of(state, event, "deal")
    if state.phase != "deal":
        raise IllegalAction(gettext_noop("seat %(seat)s cannot be dealt cards now: the deal is finished (A.5.1)", seat=seat), seat=seat,
                            rule="A.5")
    if seat in state.hands:
        raise IllegalAction(gettext_noop("seat %(seat)s has already been dealt its 13 cards (A.2)", seat=seat), seat=seat, rule="A.2")
    if _unseen_deal(event.get("cards")):
        return _deal_unseen(state, seat)
    cards = _cards(event, "cards", seat, "deal")
    if len(cards) != CARDS_PER_HAND:
        raise WrongCardCount(gettext_noop("seat %(seat)s deal: %(n_cards)s cards logged, a Capsa hand has 13 (A.2); if the player holds the wrong number of cards, log a misdeal (A.5.1)", seat=seat, n_cards=len(cards)),
                             seat=seat, rule="A.2")
    dealt = set(cards)
    for other, held in state.hands.items():
        both = dealt.intersection(held)
        if both:
            card = Card(min(both))
            raise DuplicateCard(gettext_noop("seat %(seat)s deal: %(card)s was already dealt to seat %(other)s (A.2)", seat=seat, card=card, other=other), seat=seat,
                                rule="A.2", extra={"card": str(card)})
    hands = {**state.hands, seat: tuple(sorted(cards))}
    new = _evolve(state, hands=hands)
    if len(hands) == len(state.seats):
        new = _after_deal(new)
    return new


def _unseen_deal(raw: Any) -> bool:
    """A deal logged as 13 unknown cards (``"?? ?? ..."``): the croupier dealt them face down, unseen (A.5.1)."""
    tokens = raw.replace(",", " ").split() if isinstance(raw, str) else raw if isinstance(raw, list | tuple) else ()
    return len(tokens) > 0 and tokens[0] in UNKNOWN_TOKENS and all(t in UNKNOWN_TOKENS for t in tokens)


def _deal_unseen(state: CapsaState, seat: int) -> CapsaState:
    """Record a face-down deal of 13 unseen cards (an empty tuple in ``hands``): the cards become known when
    the seat sets (``set``) or shows its natural (``declare_natural`` with ``cards``), checked against every
    card already seen. Under ``natural_declaration=auto`` the engine reads naturals at the deal, so the
    cards must be named then (A.5.2)."""
    if state.config.naturals_enabled and state.config.natural_declaration == "auto":
        raise IllegalAction(gettext_noop("seat %(seat)s deal: name the 13 cards; naturals are read at the deal at this "
                                         "table (natural_declaration=auto, A.5.2)", seat=seat), seat=seat, rule="A.5")
    hands = {**state.hands, seat: ()}
    new = _evolve(state, hands=hands)
    if len(hands) == len(state.seats):
        new = _after_deal(new)
    return new


def _seen_elsewhere(state: CapsaState, seat: int, cards: Sequence[int], action: str) -> None:
    """Refuse a card of ``seat``'s newly shown hand that was already seen with another seat (A.2)."""
    for other, held in state.hands.items():
        both = set(held) & set(cards) if other != seat else set()
        if both:
            card = Card(min(both))
            raise DuplicateCard(gettext_noop("seat %(seat)s %(action)s: %(card)s was already dealt to seat %(other)s (A.2)",
                                             seat=seat, action=action_word(action), card=card, other=other),
                                seat=seat, rule="A.2", extra={"card": str(card)})


def _require_phase(state: CapsaState, seat: int | None, action: str, phases: tuple[str, ...], rule: str) -> None:
    if state.phase not in phases:
        who = (gettext_noop("seat %(seat)s cannot %(action)s", seat=seat, action=action_word(action)) if seat is not None
               else gettext_noop("no one can %(action)s", action=action_word(action)))
        raise IllegalAction(gettext_noop("%(who)s now: %(expected)s (%(rule)s)", who=who, expected=_expected_words(state), rule=rule),
                            seat=seat, rule=rule, extra={"expect": _expect(state)})


def _on_declare_natural(state: CapsaState, event: Mapping[str, Any]) -> CapsaState:
    seat = _seat_of(state, event, "declare a natural")
    config = state.config
    if not config.naturals_enabled:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot declare a natural: naturals are off at this table (A.8)", seat=seat),
                            seat=seat, rule="A.8")
    if config.natural_declaration == "auto":
        raise IllegalAction(gettext_noop("seat %(seat)s cannot declare a natural: naturals are declared automatically when the cards are dealt (natural_declaration=auto, A.5.2)", seat=seat), seat=seat, rule="A.5")
    _require_phase(state, seat, "declare a natural", ("set",), "A.5.2")
    if seat in state.naturals:
        raise IllegalAction(gettext_noop("seat %(seat)s has already declared %(natural)s", seat=seat, natural=natural_name(state.naturals[seat])), seat=seat, rule="A.5")
    if seat in state.settings:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot declare a natural: it has already set its hand (A.5.2)", seat=seat),
                            seat=seat, rule="A.5")
    if seat in state.timed_out:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot declare a natural: its time to set ran out (A.5.3)", seat=seat), seat=seat,
                            rule="A.5")
    if state.decisions:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot declare a natural after play or surrender was declared (A.5)", seat=seat),
                            seat=seat, rule="A.5")
    cards = state.hands[seat]
    if not cards:  # dealt unseen: the natural is shown now (A.5.2) and checked against every card seen
        shown = _cards(event, "cards", seat, "declare a natural")
        if len(shown) != CARDS_PER_HAND:
            raise WrongCardCount(gettext_noop("seat %(seat)s shows %(n_cards)s cards for its natural; a Capsa hand has 13 "
                                              "(A.2)", seat=seat, n_cards=len(shown)), seat=seat, rule="A.2")
        _seen_elsewhere(state, seat, shown, "declare_natural")
        cards = tuple(sorted(shown))
        state = _evolve(state, hands={**state.hands, seat: cards})
    elif event.get("cards") is not None:
        raise IllegalAction(gettext_noop("seat %(seat)s: its cards are known from the deal; declare the natural "
                                         "without 'cards'", seat=seat), seat=seat, rule="A.5")
    found = _detect_natural(config, cards)
    claimed = event.get("natural")
    made = naturals_made(cards, wheel_rank=config.wheel_rank, six_pairs_definition=config.six_pairs_definition,
                         six_pairs_compare_singleton=config.six_pairs_compare_singleton)
    if claimed is not None and (claimed not in config.natural_precedence or claimed not in made):
        raise IllegalAction(gettext_noop("seat %(seat)s claims %(replace)s, but the cards %(cards)s do not make it (A.8)", seat=seat, replace=natural_name(str(claimed)), cards=format_cards(cards)), seat=seat, rule="A.8")
    if found is None:
        raise IllegalAction(gettext_noop("seat %(seat)s claims a natural, but the cards %(cards)s make none (A.8)", seat=seat, cards=format_cards(cards)),
                            seat=seat, rule="A.8")
    return _after_setting(_evolve(state, naturals={**state.naturals, seat: found}))


def _on_set(state: CapsaState, event: Mapping[str, Any]) -> CapsaState:
    seat = _seat_of(state, event, "set")
    if seat in state.naturals:
        raise IllegalAction(gettext_noop("seat %(seat)s holds a natural (%(replace)s) and does not set (A.5.2)", seat=seat, replace=natural_name(state.naturals[seat])), seat=seat, rule="A.5")
    _require_phase(state, seat, "set", ("set",), "A.5.3")
    if seat in state.settings:
        raise IllegalAction(gettext_noop("seat %(seat)s has already set its hand (A.5.3)", seat=seat), seat=seat, rule="A.5")
    if seat in state.timed_out:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot set: its time ran out and the hand is fouled (A.4)", seat=seat), seat=seat,
                            rule="A.4")
    rows: dict[str, tuple[int, ...]] = {}
    for row in ROWS:
        cards = _cards(event, row, seat, "set")
        if len(cards) != ROW_SIZES[row]:
            raise WrongCardCount(gettext_noop("seat %(seat)s set: the %(row)s needs %(row_size)s cards, %(n_cards)s given (A.2)", seat=seat, row=ROW_NAMES[row], row_size=ROW_SIZES[row], n_cards=len(cards)),
                                 seat=seat, rule="A.2")
        rows[row] = tuple(cards)
    used = [*rows["front"], *rows["middle"], *rows["back"]]
    seen = set(used)
    if len(seen) != len(used):  # a card in two rows: name the first one placed twice
        seen = set()
        for c in used:
            if c in seen:
                raise DuplicateCard(gettext_noop("seat %(seat)s set: %(card)s is placed in two rows", seat=seat, card=Card(c)), seat=seat, rule="A.2",
                                    extra={"card": str(Card(c))})
            seen.add(c)
    if not state.hands[seat]:  # dealt unseen: the setting shows the 13 cards, checked against every card seen
        _seen_elsewhere(state, seat, used, "set")
        state = _evolve(state, hands={**state.hands, seat: tuple(sorted(used))})
    held = set(state.hands[seat])
    foreign = [Card(c) for c in used if c not in held] if not seen <= held else []
    if foreign:
        missing = sorted(held - seen)
        raise IllegalAction(
            gettext_noop("seat %(seat)s set: %(foreign)s %(note)s not in the seat's 13 cards (missing from the setting: %(items)s); a setting uses exactly the seat's 13 cards (A.2)", seat=seat, foreign=format_cards(foreign), note=(gettext_noop("is") if len(foreign) == 1 else gettext_noop("are")), items=format_cards([Card(c) for c in missing])), seat=seat, rule="A.2")
    new = _evolve(state, settings={**state.settings, seat: rows})
    return _after_setting(new)


def _on_timeout(state: CapsaState, event: Mapping[str, Any]) -> CapsaState:
    seat = _seat_of(state, event, "time out")
    config = state.config
    _require_phase(state, seat, "time out", ("set",), "A.5.3")
    if config.setting_time_limit_s is None:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot time out: this table has no setting timer (A.5.3)", seat=seat), seat=seat,
                            rule="A.5")
    if not config.unset_on_timeout_is_foul:
        raise IllegalAction(gettext_noop("seat %(seat)s: an unset hand is not fouled at this table (unset_on_timeout_is_foul=false); the seat must still set (A.4)", seat=seat), seat=seat, rule="A.4")
    if seat in state.naturals or seat in state.settings or seat in state.timed_out:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot time out: it is not waiting to set", seat=seat), seat=seat, rule="A.5")
    return _after_setting(_evolve(state, timed_out=state.timed_out | {seat}))


def _on_decision(state: CapsaState, event: Mapping[str, Any]) -> CapsaState:
    kind = event["type"]
    seat = _seat_of(state, event, kind)
    if kind == "surrender" and not state.config.surrender_enabled:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot surrender: surrender is off at this table (A.9)", seat=seat), seat=seat,
                            rule="A.9")
    _require_phase(state, seat, kind, ("surrender",), "A.5.4")
    order = _surrender_order(state)
    if seat not in order:
        raise IllegalAction(gettext_noop("seat %(seat)s takes no part in the surrender round (it did not set)", seat=seat), seat=seat,
                            rule="A.5")
    if seat in state.decisions:
        raise IllegalAction(gettext_noop("seat %(seat)s has already declared %(decision)s", seat=seat, decision=action_word(state.decisions[seat])), seat=seat, rule="A.5")
    due = next(s for s in order if s not in state.decisions)
    if seat != due:
        raise OutOfTurn(gettext_noop("seat %(seat)s cannot %(kind)s yet: seat %(due)s declares first (clockwise from the dealer's left, A.5.4)", seat=seat, kind=action_word(kind), due=due), seat=seat, rule="A.5")
    decisions = {**state.decisions, seat: kind}
    if len(decisions) == len(order):
        return _evolve(state, decisions=decisions, phase="reveal")
    return _evolve(state, decisions=decisions)


def _on_declare_royalty(state: CapsaState, event: Mapping[str, Any]) -> CapsaState:
    seat = _seat_of(state, event, "announce a royalty")
    row = event.get("row")
    if row not in ROWS:
        raise UnknownEvent(gettext_noop("seat %(seat)s royalty: 'row' must be front, middle or back, got %(row)s", seat=seat, row=repr(row)), seat=seat)
    _require_phase(state, seat, "announce a royalty", ("set", "surrender", "reveal"), "A.5.5")
    if seat not in state.settings:
        raise IllegalAction(gettext_noop("seat %(seat)s cannot announce a royalty before it has set its hand (A.5.5)", seat=seat),
                            seat=seat, rule="A.5")
    if state.decisions.get(seat) == "surrender":
        raise IllegalAction(gettext_noop("seat %(seat)s surrendered and collects no royalties (A.9)", seat=seat), seat=seat, rule="A.9")
    hand = evaluate_seat(state.config, seat, rows=state.settings[seat])
    if row not in hand.detected_royalties:
        raise IllegalAction(gettext_noop("seat %(seat)s announces a royalty in the %(row)s, but %(setting)s earns none (A.7)", seat=seat, row=row, setting=format_cards(state.settings[seat][row])), seat=seat, rule="A.7")
    claims = {**state.royalty_claims, seat: state.royalty_claims.get(seat, frozenset()) | {row}}
    return _evolve(state, royalty_claims=claims)


def _on_reveal(state: CapsaState, event: Mapping[str, Any]) -> CapsaState:
    _require_phase(state, None, "reveal", ("reveal",), "A.5.6")
    return _evolve(state, phase="complete")


def _on_misdeal(state: CapsaState, event: Mapping[str, Any]) -> CapsaState:
    reason = event.get("reason", "misdeal")
    if not isinstance(reason, str):
        raise UnknownEvent(gettext_noop("misdeal: 'reason' must be text, got %(reason)s", reason=repr(reason)))
    if state.phase not in ("deal", "set") or state.decisions:
        raise IllegalAction(gettext_noop("the deal can no longer be declared a misdeal: play or surrender has been declared (A.5.1)"), rule="A.5")
    if state.naturals:
        raise IllegalAction(gettext_noop("the deal can no longer be declared a misdeal: a natural has been declared and paid (A.5.1)"), rule="A.5")
    if reason == "exposed_card" and not state.config.misdeal_on_exposed_card:
        raise IllegalAction(gettext_noop("an exposed card does not void the deal at this table (misdeal_on_exposed_card=false): the card stays with its player (A.5.1)"), rule="A.5")
    return _evolve(state, phase="complete", misdeal=reason)


_HANDLERS = {
    "deal": _on_deal, "declare_natural": _on_declare_natural, "set": _on_set, "timeout": _on_timeout,
    "surrender": _on_decision, "play": _on_decision, "declare_royalty": _on_declare_royalty, "reveal": _on_reveal,
    "misdeal": _on_misdeal,
}
