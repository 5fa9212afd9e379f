"""Random legal stud hands, for property tests, benchmarks and demos (randomness injected, STYLE.md).

:func:`play_random_hand` drives a hand from ``new_hand`` to the end by picking, at each step, one of
the events :func:`rules.engines.stud.legal_actions` offers (cards from a deck shuffled by the given
``random.Random``; burns are logged with their card). It returns the events, so the same hand can be
replayed, written as PHH or fed to another engine. ``on_step`` (optional) is called with every state.
:func:`random_hand` is the same driver with the shape every engine's generator has
(``forty_one.random_hand``, ``capsa.random_deal``): ``(config, seats, button, rng) -> events``; the
simulator, the API benches and the Django-side tests all use it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from rules.engines import stud
from rules.engines.cards import CARDS
from rules.engines.stud.dealing import _burn_due
from rules.engines.stud_config import StudConfig
from rules.engines.stud_variant import SEVEN_CARD_STUD, StudVariant

__all__ = ["play_random_hand", "random_config", "random_hand"]

#: Guard against a driver bug looping forever (a real hand has well under 200 events).
MAX_EVENTS = 1000


def random_config(rng: random.Random, *, limit_type: str | None = None) -> dict[str, Any]:
    """A random but valid raw config (split 5/10 or spread 10-50, assorted §13 options)."""
    limit_type = limit_type or rng.choice(["split", "spread"])
    raw: dict[str, Any] = {"limit_type": limit_type, "ante": rng.choice(["1", "2", "0.5"])}
    if limit_type == "split":
        raw.update(lower="5", higher="10", open_pair_option=rng.choice(["on", "off"]),
                   open_pair_scope=rng.choice(["any_player", "paired_player_only"]),
                   short_allin_rule=rng.choice(["half_bet", "full_bet"]),
                   short_bring_in=rng.choice(["complete_to_lower_limit", "half_bet_rule"]))
        if rng.random() < 0.5:
            raw.update(bring_in_mode="partial_with_completion", bring_in="2")
    else:
        raw.update(spread_min="10", spread_max="50", spread_min_raise=rng.choice(["table_min", "previous_increment"]),
                   spread_short_allin_reopens=rng.random() < 0.2)
    if rng.random() < 0.5:
        raw.update(taxe_amount=rng.choice(["0", "5"]))
    else:
        raw.update(taxe_mode="percent_with_cap", taxe_percent="5", taxe_cap="3",
                   taxe_from=rng.choice(["main_pot", "pro_rata"]))
    raw.update(
        uncap_heads_up=rng.random() < 0.3, ante_trimming=rng.random() < 0.8,
        burn_before_first_deal=rng.random() < 0.2, use_last_card=rng.random() < 0.8,
        out_of_cards_policy=rng.choice(["community_card", "rrop_reshuffle"]),
        odd_chip_rule=rng.choice(["high_card_by_suit", "first_left_of_dealer"]),
        high_board_tiebreak=rng.choice(["position", "suit"]),
        allin_high_board_opener=rng.choice(["next_clockwise", "next_highest_board"]),
    )
    return raw


def play_random_hand(
    rng: random.Random,
    config: StudConfig | Mapping[str, Any],
    seats: Mapping[int, int],
    *,
    button: int,
    fold_weight: float = 0.15,
    wager_weight: float = 0.35,
    muck_weight: float = 0.3,
    on_step: Callable[[stud.StudState], None] | None = None,
    variant: StudVariant = SEVEN_CARD_STUD,
) -> tuple[stud.StudState, list[dict[str, Any]]]:
    """Play one random legal hand; returns the final state and the events. Raises ``RuntimeError`` if
    the hand has not ended after :data:`MAX_EVENTS` events."""
    state = stud.new_hand(config, seats, button=button, variant=variant)
    deck = list(range(52))
    rng.shuffle(deck)
    burned: list[int] = []
    events: list[dict[str, Any]] = []
    cfg = state.cfg

    def draw() -> int:
        if deck:
            return deck.pop()
        live = [c for c in burned if c not in state.dealt]
        return live.pop(rng.randrange(len(live)))  # R9.3 S = 0 / R9.5: burns scrambled

    def emit(event: dict[str, Any]) -> None:
        nonlocal state
        state = stud.apply(state, event)
        events.append(event)
        if on_step is not None:
            on_step(state)

    while state.phase != "complete":
        if len(events) > MAX_EVENTS:
            raise RuntimeError("random hand did not end")
        legal = stud.legal_actions(state)
        if state.phase == "ante":
            a = legal[0]
            emit({"type": "ante", "seat": a["seat"]})
            continue
        if state.phase == "deal":
            if _burn_due(state) and deck:
                card = deck.pop()
                burned.append(card)
                emit({"type": "burn", "card": str(CARDS[card])})
                continue
            a = legal[0]
            if a["type"] == "deal_community":
                emit({"type": "deal_community", "card": str(CARDS[draw()])})
            else:
                emit({"type": "deal", "seat": a["seat"], "cards": " ".join(str(CARDS[draw()]) for _ in range(a["count"]))})
            continue
        by_type = {a["type"]: a for a in legal}
        if state.phase == "showdown":
            if "muck" in by_type and rng.random() < muck_weight:
                emit({"type": "muck", "seat": by_type["muck"]["seat"]})
            else:
                emit({"type": "show", "seat": by_type["show"]["seat"]})
            continue
        r = rng.random()
        wager = next((a for a in legal if a["type"] in ("bet", "raise", "complete")), None)
        if "bring_in" in by_type:
            if wager is not None and r < wager_weight:
                emit({"type": "complete", "seat": wager["seat"], "to": _pick(rng, wager, cfg)})
            else:
                emit({"type": "bring_in", "seat": by_type["bring_in"]["seat"]})
            continue
        if "fold" in by_type and r < fold_weight:
            emit({"type": "fold", "seat": by_type["fold"]["seat"]})
        elif wager is not None and r < fold_weight + wager_weight:
            emit({"type": wager["type"], "seat": wager["seat"], "to": _pick(rng, wager, cfg)})
        else:
            a = by_type.get("call") or by_type["check"]
            emit({"type": a["type"], "seat": a["seat"]})
    return state, events


def random_hand(
    config: StudConfig | Mapping[str, Any],
    seats: Mapping[int, int],
    button: int,
    rng: random.Random,
    *,
    variant: StudVariant = SEVEN_CARD_STUD,
    **weights: float,
) -> list[dict[str, Any]]:
    """A random legal Seven Card Stud hand as engine events (cents, JSON-able), driven by ``rng`` only.

    ``config`` is a :class:`StudConfig` or its raw dict, ``seats`` ``{seat: stack_cents}``, ``button``
    the dealer-button seat; ``weights`` (``fold_weight``, ``wager_weight``, ``muck_weight``) go to
    :func:`play_random_hand`. Same shape as ``forty_one.random_hand`` / ``capsa.random_deal``. Raises
    ``RuntimeError`` if the hand does not end (a driver bug) and whatever ``stud.new_hand`` raises for a
    bad config or seats (``ConfigError``, ``RuleViolation``).
    """
    return play_random_hand(rng, config, seats, button=button, variant=variant,
                            **weights)[1]  # type: ignore[arg-type]  # weights are the three float weights


def _pick(rng: random.Random, action: Mapping[str, Any], cfg: StudConfig) -> int:
    if action.get("amounts"):
        return int(rng.choice(action["amounts"]))
    lo, hi = int(action["min"]), int(action["max"])
    unit = cfg.chip_unit
    steps = (hi - lo) // unit
    if rng.random() < 0.1 or steps == 0:
        return hi  # the maximum (or an all-in)
    return lo + rng.randint(0, steps) * unit


def stake_unit(config: Mapping[str, Any]) -> int:
    """The largest single bet of a normalised stud config in cents: ``higher`` (split limit) or the
    largest ``spread_max`` (spread limit); the simulator draws stacks in multiples of it."""
    from rules.engines.money import to_cents

    if config.get("limit_type") == "spread":
        top = config["spread_max"]
        values = top if isinstance(top, list | tuple) else [top]
        return max(to_cents(v, field="spread_max") for v in values)
    return to_cents(config["higher"], field="higher")


def _label_amount(value: Any) -> str:
    """``"10.00"`` -> ``"10"``, ``"2.50"`` -> ``"2.50"``: whole euros without cents (labels only)."""
    text = str(value)
    return text[:-3] if text.endswith(".00") else text


def _label_steps(values: Any) -> list[str]:
    """The distinct amounts of a per-street value in street order (a single amount is one step)."""
    steps: list[str] = []
    for value in values if isinstance(values, list | tuple) else [values]:
        text = _label_amount(value)
        if text not in steps:
            steps.append(text)
    return steps


def limit_label(config: Mapping[str, Any]) -> str:
    """The default label of a stud limit version: ``"5/10"`` (split), ``"10-50"`` (spread),
    ``"20-60-100"`` (stepped spread: one minimum, rising maxima)."""
    if config.get("limit_type", "split") == "spread":
        lows, highs = _label_steps(config.get("spread_min")), _label_steps(config.get("spread_max"))
        return "-".join(lows + highs) if len(lows) == 1 else f"{'/'.join(lows)}-{'/'.join(highs)}"
    return f"{'/'.join(_label_steps(config.get('lower')))}/{'/'.join(_label_steps(config.get('higher')))}"
