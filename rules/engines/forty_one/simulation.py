"""Random legal Forty-one hands for demos and property tests (driven by the view)."""

from __future__ import annotations

import random as _random
from collections.abc import Mapping
from typing import Any

from rules.engines.cards import (
    PIQUET_32,
    format_cards,
)
from rules.engines.forty_one.hand import apply
from rules.engines.forty_one.state import CARDS_EXPOSED, CARDS_PER_DEAL, new_hand
from rules.engines.forty_one.view import _expect, _hint, legal_actions
from rules.engines.forty_one_config import FortyOneConfig


def random_hand(
    config: FortyOneConfig,
    seats: Mapping[int, int],
    button: int,
    rng: _random.Random,
    *,
    aggression: float = 0.35,
    fold_rate: float = 0.12,
    max_events: int = 500,
) -> list[dict[str, Any]]:
    """A random legal hand (events only), driven by ``view()``; for demos and property tests.

    ``rng`` is the only source of randomness (STYLE.md). Raises ``RuntimeError`` if the hand does not
    end within ``max_events`` (a bug).
    """
    state = new_hand(config, seats, button=button)
    deck = sorted(PIQUET_32)
    rng.shuffle(deck)
    events: list[dict[str, Any]] = []
    while not state.complete:
        if len(events) >= max_events:
            raise RuntimeError("random_hand: the hand did not end")
        seat = _hint(state)
        expect = _expect(state)
        event: dict[str, Any]
        if expect in ("ante", "blind"):
            event = {"type": expect, "seat": seat}
        elif expect == "deal":
            cards, deck = deck[:CARDS_PER_DEAL], deck[CARDS_PER_DEAL:]
            event = {"type": "deal", "seat": seat, "cards": format_cards(cards)}
        elif expect == "expose":
            assert seat is not None
            event = {"type": "expose", "seat": seat,
                     "cards": format_cards(rng.sample(list(state.hole[seat]), CARDS_EXPOSED))}
        elif expect == "showdown":
            event = {"type": "show", "seat": seat}
        elif expect == "show":
            event = {"type": rng.choice(["show", "show", "muck"]), "seat": seat}
        else:
            actions = {a["type"]: a for a in legal_actions(state)}
            roll = rng.random()
            wager = "bet" if "bet" in actions else "raise" if "raise" in actions else None
            passive = "check" if "check" in actions else "call" if "call" in actions else None
            if roll < fold_rate and "check" not in actions:
                event = {"type": "fold", "seat": seat}
            elif wager and (roll < fold_rate + aggression or passive is None):
                event = {"type": wager, "seat": seat, "to": actions[wager]["min"]}
            else:
                event = {"type": passive or "fold", "seat": seat}
        state = apply(state, event)
        events.append(event)
    return events
