"""PHH (Poker Hand History) for the stud games: read a ``.phh`` file into config + events, write back.

The fixed-limit stud variants are handled: ``F7S`` (Seven Card Stud), ``FR`` (Razz) and ``F7S/8``
(Seven Card Stud Hi-Lo); :func:`rules.registry.game_for_phh_variant` names the game of each. Mapping (data README, spec §14 F):

* 1 PHH chip = 1 cent (the engine unit), so ``chip_unit`` is ``0.01``.
* Config: ``limit_type=split``, ``lower``/``higher`` = ``small_bet``/``big_bet``, ``ante`` = the
  (equal) antes, ``bring_in_mode=partial_with_completion`` with ``bring_in``, ``open_pair_option=off``,
  Taxe 0 (``taxe_amount`` 0), ``ante_trimming`` = ``ante_trimming_status``. These are the US-rules
  settings the recorded hands were played under.
* Players ``p1..pN`` are numbered from the dealer's left: they become table seats 1..N with the
  button on seat N, so seat k is PHH player k.
* Antes are not PHH actions: one ``ante`` event per seat comes first.
* ``d dh pN CARDS`` -> ``deal`` (faces from the street pattern; ``??`` unknown), ``d db C`` ->
  ``deal_community``, ``pN pb`` -> ``bring_in``, ``pN cbr X`` -> ``bet``/``complete``/``raise`` to X
  (which one is read off the replayed state), ``pN cc`` -> ``check``/``call``, ``pN f`` -> ``fold``,
  ``pN sm CARDS`` -> ``show``, ``pN sm`` (no cards) -> ``muck``.

:func:`load_phh` / :func:`loads_phh` return a :class:`PhhHand`; :func:`replay_phh_hand` replays it
through the engine and raises :class:`PhhError` with the action's index and the reason for anything
the engine refuses: a history is never repaired. :func:`dumps_phh` writes a hand (config, seats,
events) back out as PHH text.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules.engines import stud
from rules.engines.errors import RuleViolation, UnknownEvent
from rules.engines.messages import event_name, gettext_noop, or_list
from rules.engines.money import from_cents
from rules.engines.stud.dealing import _deal_named, _on_ante, _on_deal
from rules.engines.stud.engine import _HANDLERS, _apply
from rules.engines.stud.parsing import _CARD_IDS, _fmt, _parse_tokens
from rules.engines.stud_config import StudConfig, build_config
from rules.engines.stud_variant import SEVEN_CARD_STUD, STUD_VARIANTS, StudVariant

__all__ = ["PhhError", "PhhHand", "dumps_phh", "load_phh", "loads_phh", "replay_phh_hand"]

VARIANT = "F7S"
#: The stud games' PHH codes and variants (Seven Card Stud, Razz, Hi-Lo), from the registry.


def _variants() -> dict[str, StudVariant]:
    return {v.phh_variant: v for v in STUD_VARIANTS}


class PhhError(RuleViolation):
    """A PHH file that cannot be read or replayed; ``extra["action_index"]`` names the action (0-based)."""

    code = "phh_error"


@dataclass
class PhhHand:
    """A stud hand read from PHH: raw config keys, seats ``{seat: stack}``, the button, the raw PHH
    action strings, recorded ``finishing_stacks`` (seat -> cents, or None) and the whole TOML table."""

    config: dict[str, Any]
    seats: dict[int, int]
    button: int
    actions: list[str]
    finishing_stacks: dict[int, int] | None
    raw: dict[str, Any] = field(default_factory=dict)
    name: str = ""
    stud_config: StudConfig | None = None
    variant: StudVariant = SEVEN_CARD_STUD

    @property
    def game(self) -> str:
        """The registry name of the hand's game (``seven_card_stud``, ``razz``, ``seven_card_stud_hi_lo``)."""
        return self.variant.game


def loads_phh(text: str, *, name: str = "") -> PhhHand:
    """Parse PHH text. Raises :class:`PhhError` for a variant that is not a stud game (``F7S``, ``FR``,
    ``F7S/8``) or missing/odd fields."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PhhError(gettext_noop("%(value)s: not valid TOML (the TOML parser says: %(exc)s)", value=name or 'PHH', exc=str(exc))) from None
    code = raw.get("variant")
    variants = _variants()
    stud_variant = variants.get(code) if isinstance(code, str) else None
    if stud_variant is None:
        games = or_list([v.label for v in variants.values()])
        raise PhhError(gettext_noop("%(value)s: variant %(variant)s is not %(games)s (%(codes)s)", value=name or "PHH",
                                    variant=repr(code), games=games, codes=", ".join(repr(v) for v in variants)))
    for key in ("antes", "bring_in", "small_bet", "big_bet", "starting_stacks", "actions"):
        if key not in raw:
            raise PhhError(gettext_noop("%(value)s: field '%(key)s' is missing", value=name or 'PHH', key=key))
    _check_fields(raw, name or "PHH")
    stacks = list(raw["starting_stacks"])
    n = len(stacks)
    antes = list(raw["antes"])
    if len(antes) != n or len(set(antes)) != 1:
        nonzero = {a for a in antes if a}
        if len(nonzero) != 1:
            raise PhhError(gettext_noop("%(value)s: antes %(antes)s are not one ante for every player", value=name or 'PHH', antes=antes))
        antes = [nonzero.pop()] * n
    config = {
        "limit_type": "split",
        "lower": str(from_cents(int(raw["small_bet"]))),
        "higher": str(from_cents(int(raw["big_bet"]))),
        "ante": str(from_cents(int(antes[0]))),
        "bring_in_mode": "partial_with_completion",
        "bring_in": str(from_cents(int(raw["bring_in"]))),
        "open_pair_option": "off",
        "taxe_amount": "0",
        "ante_trimming": bool(raw.get("ante_trimming_status", True)),
        "chip_unit": "0.01",
    }
    finishing = raw.get("finishing_stacks")
    return PhhHand(
        config=config,
        seats={k + 1: int(v) for k, v in enumerate(stacks)},
        button=n,
        actions=[str(a) for a in raw["actions"]],
        finishing_stacks=None if finishing is None else {k + 1: int(v) for k, v in enumerate(finishing)},
        raw=raw,
        name=name,
        variant=stud_variant,
    )


def _is_chips(value: Any) -> bool:
    return type(value) is int and value >= 0


def _check_fields(raw: Mapping[str, Any], name: str) -> None:
    """Refuse header fields of the wrong shape with a :class:`PhhError` naming the field (not a traceback)."""
    for key in ("bring_in", "small_bet", "big_bet"):
        if not _is_chips(raw[key]):
            raise PhhError(gettext_noop("%(name)s: field '%(key)s' must be a whole number of chips, got %(raw)s", name=name, key=key, raw=repr(raw[key])))
    for key in ("starting_stacks", "antes", "finishing_stacks"):
        if key not in raw:
            continue
        value = raw[key]
        if not isinstance(value, list) or not all(_is_chips(v) for v in value):
            raise PhhError(gettext_noop("%(name)s: field '%(key)s' must be a list of whole numbers of chips, got %(value)s", name=name, key=key, value=repr(value)))
        if len(value) != len(raw["starting_stacks"]) if key != "starting_stacks" else not value:
            raise PhhError(gettext_noop("%(name)s: field '%(key)s' must have one entry per player", name=name, key=key))
    actions = raw["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise PhhError(gettext_noop("%(name)s: field 'actions' must be a list of action strings, got %(actions)s", name=name, actions=repr(actions)))


def load_phh(path: str | Path) -> PhhHand:
    """Read a ``.phh`` file (see :func:`loads_phh`)."""
    p = Path(path)
    return loads_phh(p.read_text(encoding="utf-8"), name=str(p))


def _split_cards(text: str) -> str:
    """``"QhTcTh"`` -> ``"Qh Tc Th"`` (PHH writes a seat's cards without spaces)."""
    n = len(text)
    if n == 2:
        return text
    if n == 6:  # the 3rd-street deal
        return f"{text[:2]} {text[2:4]} {text[4:]}"
    text = text.strip()
    return " ".join(map(text.__getitem__, _PAIRS[:(len(text) + 1) // 2])) if len(text) <= 2 * len(_PAIRS) else \
        " ".join([text[k:k + 2] for k in range(0, len(text), 2)])


#: The slices of a PHH card text's cards (``"QhTcTh"``: 0-2, 2-4, 4-6 ...), for the seven cards of a show.
_PAIRS = tuple(slice(k, k + 2) for k in range(0, 16, 2))


#: PHH player tokens p1..p8 -> seat (fast path of :func:`_player`).
_PLAYERS = {f"p{k}": k for k in range(1, 9)}


def action_to_event(state: stud.StudState, action: str) -> dict[str, Any]:
    """Translate one PHH action string into an engine event, reading the state where PHH is ambiguous
    (``cbr`` = bet/complete/raise, ``cc`` = check/call). Raises :class:`UnknownEvent` for an action
    that stud does not have."""
    known = _PLAYER_ACTIONS.get(action)
    if known is not None:
        return _player_event(state, *known)
    body = (action.split("#", 1)[0] if "#" in action else action).split()
    if not body:
        raise UnknownEvent(gettext_noop("empty action %(action)s", action=repr(action)))
    actor = body[0]
    verb = body[1] if len(body) > 1 else ""
    if actor == "d":
        if verb == "dh" and len(body) == 4 and body[2].startswith("p"):
            return {"type": "deal", "seat": _PLAYERS.get(body[2]) or _player(body[2]), "cards": _split_cards(body[3])}
        if verb == "db" and len(body) == 3:
            return {"type": "deal_community", "card": body[2]}
        raise UnknownEvent(gettext_noop("dealer action %(action)s is not a stud deal", action=repr(action)))
    seat = _PLAYERS.get(actor) or _player(actor)
    to = None
    if verb == "cbr" and len(body) == 3:
        amount = body[2]
        if not amount.lstrip("-").isdigit():
            raise UnknownEvent(gettext_noop("%(actor)s cannot bet/raise to %(amount)s: PHH amounts are whole numbers of chips", actor=actor, amount=repr(amount)))
        to = int(amount)
    elif verb == "sm" and len(body) > 2 and body[2]:
        return {"type": "show", "seat": seat, "cards": _split_cards(body[2])}
    elif verb not in ("cc", "f", "pb", "sm"):
        raise UnknownEvent(gettext_noop("action %(action)s is not a Seven Card Stud action", action=repr(action)))
    if len(_PLAYER_ACTIONS) >= _PLAYER_ACTIONS_MAX:
        _PLAYER_ACTIONS.clear()
    _PLAYER_ACTIONS[action] = (seat, verb, to)
    return _player_event(state, seat, verb, to)


#: Player actions without cards as read from their text (``"p3 cbr 200000"`` -> ``(3, "cbr", 200000)``):
#: a session's hands repeat a few hundred of them, so each is read once (:func:`action_to_event`).
_PLAYER_ACTIONS: dict[str, tuple[int, str, int | None]] = {}
_PLAYER_ACTIONS_MAX = 4096


def _player_event(state: stud.StudState, seat: int, verb: str, to: int | None) -> dict[str, Any]:
    """The event of a player's action read from PHH (``cc``, ``f``, ``cbr`` to ``to``, ``pb``, ``sm`` without
    cards = muck), typed by the state where PHH is ambiguous."""
    if verb == "cc":
        i = state.pos.get(seat)
        return {"type": "call" if i is not None and state.bet_to > state.sc[i] else "check", "seat": seat}
    if verb == "f":
        return {"type": "fold", "seat": seat}
    if verb == "cbr":
        if state.phase == "bring_in":
            kind = "complete"
        elif state.bet_to == 0:
            kind = "bet"
        elif state.full_to == 0:
            kind = "complete"
        else:
            kind = "raise"
        return {"type": kind, "seat": seat, "to": to}
    if verb == "pb":
        return {"type": "bring_in", "seat": seat}
    return {"type": "muck", "seat": seat}


def _player(token: str) -> int:
    if token[:1] != "p" or not token[1:].isdigit():
        raise UnknownEvent(gettext_noop("%(token)s is not a PHH player (p1, p2, ...)", token=repr(token)))
    return int(token[1:])


#: Built configs by their raw keys: a session's hands share a few limit levels, so each is validated once.
_CONFIGS: dict[tuple[Any, ...], StudConfig] = {}
_CONFIGS_MAX = 256


def _config_for(raw: Mapping[str, Any]) -> StudConfig:
    key = tuple(sorted(raw.items()))
    cfg = _CONFIGS.get(key)
    if cfg is None:
        cfg = build_config(raw)
        if len(_CONFIGS) >= _CONFIGS_MAX:
            _CONFIGS.clear()
        _CONFIGS[key] = cfg
    return cfg


@dataclass
class PhhReplay:
    """Result of :func:`replay_phh_hand`: the final state, the engine events (antes first), the config."""

    state: stud.StudState
    events: list[dict[str, Any]]
    config: StudConfig


def replay_phh_hand(hand: PhhHand) -> PhhReplay:
    """Replay a PHH hand through the engine. Raises :class:`PhhError` naming the action index (0-based
    in the file's ``actions``) and the engine's reason; ante events failing get index -1."""
    cfg = hand.stud_config
    if cfg is None:
        cfg = hand.stud_config = _config_for(hand.config)
    state = stud.new_hand(cfg, hand.seats, button=hand.button, variant=hand.variant)
    events: list[dict[str, Any]] = []
    append = events.append
    for seat in sorted(hand.seats):
        ev: dict[str, Any] = {"type": "ante", "seat": seat}
        try:
            _on_ante(state, ev)  # what _apply does with an ante at the start of a hand
        except RuleViolation as exc:
            raise PhhError(gettext_noop("%(name)s: ante of seat %(seat)s: %(message)s", name=hand.name, seat=seat, message=exc.message), extra={"action_index": -1}) from None
        append(ev)
    n_antes = len(events)
    handlers = _HANDLERS
    player_actions = _PLAYER_ACTIONS
    pos = state.pos
    card_id = _CARD_IDS.get
    try:
        for action in hand.actions:  # each action applied appends its event: the k-th is events[n_antes + k]
            known = player_actions.get(action)
            if known is not None:  # a player's action read before (action_to_event)
                seat, verb, to = known
                ev = _player_event(state, seat, verb, to)
            elif action[:5] == "d dh " and state.phase == "deal" and "#" not in action:
                # Fast path (the common deal, ``d dh pN QhTcTh``): the card ids read off the PHH text
                # directly; anything unusual goes through action_to_event and the deal's full checks.
                player = _PLAYERS.get(action[5:7], 0)  # 0: no seat
                i = pos.get(player)
                if i is not None and action[7:8] == " ":
                    n = len(action)
                    if n == 14:  # the 3rd-street deal
                        a, b, c = action[8:10], action[10:12], action[12:]
                        ids = [card_id(a), card_id(b), card_id(c)]
                        if None not in ids:
                            ev = {"type": "deal", "seat": player, "cards": f"{a} {b} {c}"}
                            if not _deal_named(state, i, ids):
                                _on_deal(state, ev)
                            append(ev)
                            continue
                    elif n == 10:
                        text = action[8:]
                        ids = [card_id(text)]
                        if ids[0] is not None:
                            ev = {"type": "deal", "seat": player, "cards": text}
                            if not _deal_named(state, i, ids):
                                _on_deal(state, ev)
                            append(ev)
                            continue
                ev = action_to_event(state, action)
            else:
                ev = action_to_event(state, action)
            if state.phase == "complete":
                _apply(state, ev)  # raises HandComplete, worded for the croupier
            handlers[ev["type"]](state, ev)  # action_to_event only makes known event types
            append(ev)
    except RuleViolation as exc:
        k = len(events) - n_antes
        action = hand.actions[k]
        raise PhhError(gettext_noop("%(name)s: action %(k)s (%(action)s): %(message)s", name=hand.name, k=k, action=repr(action), message=exc.message),
                       extra={"action_index": k, "action": action}) from None
    state.n_events = len(events)  # the antes and every action, each one event
    return PhhReplay(state=state, events=events, config=cfg)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return "'" + value.replace("'", "") + "'"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as PHH")


def event_to_action(state: stud.StudState, event: Mapping[str, Any]) -> str | None:
    """The PHH action for one engine event (None for events PHH does not record: ante, burn, taxe).

    Raises :class:`UnknownEvent` for floor events (misdeal, card_exposed) PHH cannot express."""
    kind = event["type"]
    if kind in ("ante", "burn", "taxe"):
        return None
    if kind == "deal":
        cards = _parse_tokens(event["cards"])
        return f"d dh p{state.pos[event['seat']] + 1} " + "".join(_fmt(c) for c in cards)
    if kind == "deal_community":
        return "d db " + "".join(_fmt(c) for c in _parse_tokens(event["card"]))
    p = f"p{state.pos[event['seat']] + 1}"
    if kind == "bring_in":
        return f"{p} pb"
    if kind in ("bet", "complete", "raise"):
        return f"{p} cbr {event['to']}"
    if kind in ("call", "check"):
        return f"{p} cc"
    if kind == "fold":
        return f"{p} f"
    if kind == "show":
        i = state.pos[event["seat"]]
        return f"{p} sm " + "".join(_fmt(c) for c, _ in state.cards[i])
    if kind == "muck":
        return f"{p} sm"
    raise UnknownEvent(gettext_noop("%(kind)s events have no PHH form", kind=event_name(kind)))


def dumps_phh(config: StudConfig | Mapping[str, Any], seats: Mapping[int, int], events: Sequence[Mapping[str, Any]],
              *, button: int, extra: Mapping[str, Any] | None = None,
              variant: StudVariant = SEVEN_CARD_STUD) -> str:
    """Write a split-limit stud hand as PHH (``F7S``) text, replaying ``events`` to render each action.

    Players are numbered from the dealer's left (position order). Shown hands list every own card.
    ``finishing_stacks`` is written when the hand is complete. Raises :class:`PhhError` for spread limit
    (PHH's F7S is fixed limit) and whatever the engine raises for a bad event.
    """
    cfg = config if isinstance(config, StudConfig) else build_config(config)
    if not cfg.split:
        raise PhhError(gettext_noop("PHH F7S is fixed limit; a spread-limit hand cannot be written as PHH"))
    state = stud.new_hand(cfg, seats, button=button, variant=variant)
    actions = []
    for event in events:
        _apply(state, event)
        action = event_to_action(state, event)
        if action is not None:
            actions.append(action)
    order = state.seats
    lines = [
        f"variant = {_toml_value(variant.phh_variant)}",
        f"ante_trimming_status = {_toml_value(cfg.ante_trimming)}",
        f"antes = {_toml_value([cfg.ante] * len(order))}",
        f"bring_in = {_toml_value(cfg.bring_in_amount())}",
        f"small_bet = {_toml_value(cfg.lower)}",
        f"big_bet = {_toml_value(cfg.higher)}",
        f"starting_stacks = {_toml_value([seats[s] for s in order])}",
        f"actions = {_toml_value(actions)}",
    ]
    for key, value in (extra or {}).items():
        lines.append(f"{key} = {_toml_value(value)}")
    if stud.is_complete(state):
        lines.append(f"finishing_stacks = {_toml_value(list(state.stack))}")
    return "\n".join(lines) + "\n"
