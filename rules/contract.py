"""Verify / can / act for every game, and the canonical record of an event (STYLE.md rule 2, issue 14).

Every engine applies events copy-on-apply: ``engine.apply(state, event)`` returns a new state and never
changes the one it was given, or raises a ``RuleViolation`` subclass (with the rule number) and changes
nothing. On top of that one discipline:

* :func:`verify` raises what applying ``event`` would raise, and returns nothing;
* :func:`can` answers the same question with a bool;
* :func:`act` applies it and returns ``(new_state, record)``: the event in canonical form, which replays
  to the same state (cards written ``Ts``, ``??`` for an unknown card, amounts in int cents).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.game_spec import GameSpec
from rules.engines.cards import UNKNOWN_TOKENS, parse_card
from rules.engines.errors import RuleViolation

__all__ = ["CARD_KEYS", "UNKNOWN_TOKENS", "act", "can", "canonical_cards", "canonical_event", "verify"]

#: The event keys that carry cards, in every game (deal, show, burn, exposure, Capsa rows).
CARD_KEYS = ("cards", "card", "front", "middle", "back")


def canonical_cards(value: Any) -> Any:
    """``"as kd ??"`` / ``["A♠", "Kd"]`` -> ``"As Kd ??"``; anything that is not cards in the standard
    notation (German Forty-one names, a malformed value the engine refuses anyway) is returned as given."""
    if isinstance(value, str):
        tokens = value.replace(",", " ").split()
    elif isinstance(value, list | tuple) and all(isinstance(t, str) for t in value):
        tokens = list(value)
    else:
        return value
    out = []
    for token in tokens:
        if token in UNKNOWN_TOKENS:
            out.append("??")
            continue
        try:
            out.append(str(parse_card(token)))
        except RuleViolation:
            return value
    return " ".join(out)


def canonical_event(event: Mapping[str, Any]) -> dict[str, Any]:
    """``event`` with its cards in canonical text (:func:`canonical_cards`); other keys unchanged."""
    out = dict(event)
    for key in CARD_KEYS:
        if key in out:
            out[key] = canonical_cards(out[key])
    return out


def verify(spec: GameSpec, state: Any, event: Mapping[str, Any]) -> None:
    """Raise the ``RuleViolation`` subclass (message, code, rule) that ``event`` breaks now; ``state`` is unchanged."""
    spec.engine.apply(state, event)


def can(spec: GameSpec, state: Any, event: Mapping[str, Any]) -> bool:
    """True if ``event`` is legal now (:func:`verify` would not raise)."""
    try:
        spec.engine.apply(state, event)
    except RuleViolation:
        return False
    return True


def act(spec: GameSpec, state: Any, event: Mapping[str, Any]) -> tuple[Any, dict[str, Any]]:
    """Apply ``event``; return ``(new state, canonical record)``. Raises as :func:`verify` (nothing changes)."""
    record = canonical_event(event)
    return spec.engine.apply(state, record), record
