"""Random legal Capsa deals for demos and property tests."""

from __future__ import annotations

import random as _random_module
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from rules.core.seats import clockwise_after
from rules.engines.capsa.hand import apply
from rules.engines.capsa.play import _detect_natural
from rules.engines.capsa.state import CARDS_PER_HAND, _surrender_order, new_hand
from rules.engines.capsa_config import CapsaConfig
from rules.engines.capsa_scoring import (
    evaluate_seat,
)
from rules.engines.cards import Card, format_cards
from rules.engines.evaluators.capsa import (
    ROWS,
    evaluate_five,
)


def _sensible_setting(cards: Sequence[int], config: CapsaConfig) -> dict[str, tuple[int, ...]]:
    """Greedy: the best back from the 13 cards, the best middle from the other 8, the rest in front."""
    ev = evaluate_five
    wheel = config.wheel_rank
    back = max(combinations(cards, 5), key=lambda c: ev(c, wheel_rank=wheel))
    rest = [c for c in cards if c not in back]
    middle = max(combinations(rest, 5), key=lambda c: ev(c, wheel_rank=wheel))
    front = tuple(c for c in rest if c not in middle)
    return {"front": front, "middle": middle, "back": back}


def _row_text(cards: Sequence[int]) -> str:
    return format_cards([Card(c) for c in cards])


def random_deal(
    config: CapsaConfig,
    seats: Mapping[int, int],
    button: int,
    rng: _random_module.Random,
    *,
    foul_rate: float = 0.25,
    surrender_rate: float = 0.1,
    misdeal_rate: float = 0.0,
) -> list[dict[str, Any]]:
    """A legal random event list for one deal (for simulators, demos and property tests).

    Shuffles with the injected ``rng``; deals 13 cards each one at a time clockwise from the button's
    left; sets each hand sensibly (greedy best back, then middle) or, with probability ``foul_rate``,
    at random (often fouled); declares optional naturals, announces royalties, surrenders with
    probability ``surrender_rate`` and reveals. Drives the engine, so the events always replay.
    """
    deck = list(range(52))
    rng.shuffle(deck)
    order = clockwise_after(list(seats), button)
    dealt: dict[int, list[int]] = {s: [] for s in order}
    for i in range(CARDS_PER_HAND * len(order)):
        dealt[order[i % len(order)]].append(deck[i])
    state = new_hand(config, seats, button=button)
    events: list[dict[str, Any]] = []

    def push(event: dict[str, Any]) -> None:
        nonlocal state
        state = apply(state, event)
        events.append(event)

    for s in order:
        push({"type": "deal", "seat": s, "cards": _row_text(sorted(dealt[s]))})
    if misdeal_rate and rng.random() < misdeal_rate and not state.naturals:
        push({"type": "misdeal", "reason": "faulty deck"})
        return events
    while state.phase == "set":
        for s in [x for x in order if x not in state.naturals and x not in state.settings
                  and x not in state.timed_out]:
            cards = list(state.hands[s])
            if (config.natural_declaration == "optional" and config.naturals_enabled
                    and _detect_natural(config, cards) and rng.random() < 0.8):
                push({"type": "declare_natural", "seat": s})
                continue
            if config.setting_time_limit_s and config.unset_on_timeout_is_foul and rng.random() < 0.03:
                push({"type": "timeout", "seat": s})
                continue
            if rng.random() < foul_rate:
                rng.shuffle(cards)
                rows = {"front": tuple(cards[:3]), "middle": tuple(cards[3:8]), "back": tuple(cards[8:])}
            else:
                rows = _sensible_setting(cards, config)
            push({"type": "set", "seat": s, **{r: _row_text(rows[r]) for r in ROWS}})
            if config.royalties_require_declaration:
                hand = evaluate_seat(config, s, rows=state.settings[s])
                for row in hand.detected_royalties:
                    if rng.random() < 0.8:
                        push({"type": "declare_royalty", "seat": s, "row": row})
    while state.phase == "surrender":
        due = next(s for s in _surrender_order(state) if s not in state.decisions)
        push({"type": "surrender" if rng.random() < surrender_rate else "play", "seat": due})
    push({"type": "reveal"})
    return events
