"""Verify / can / act for every game and every action, and the canonical record of an event (STYLE.md
rule 2, issue 14).

Every engine applies events copy-on-apply: ``engine.apply(state, event)`` returns a new state and never
changes the one it was given, or raises a ``RuleViolation`` subclass (with the rule number) and changes
nothing. On top of that one discipline, for any game (``spec``: its :class:`~rules.core.game_spec.GameSpec`):

* :func:`act` reads the event with the game's one parser (:mod:`rules.engines.events`: one field check, one
  seat check), applies its **canonical record** and returns ``(new_state, record)``: cards ``"Ts"``, ``??``
  for an unknown card, amounts in int cents; the record replays to the same state. The hand service
  stores that record, never the request;
* :func:`verify` raises what :func:`act` would raise, and returns nothing; :func:`can` answers with a bool;
* per action, :func:`contract_for` gives ``verify_<action>``, ``can_<action>`` and ``act_<action>`` taking
  the event's fields as keywords (``contract_for(spec).can_raise(state, seat=3, to=2000)``).

A refused event is reported in the engine's own words for what was sent (its message, code and rule),
whether the parser or the engine found the fault first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.core.game_spec import GameSpec
from rules.engines.errors import RuleViolation
from rules.engines.events import Event, EventCatalogue, canonical_cards

__all__ = ["GameContract", "act", "can", "canonical_cards", "catalogue", "config_of", "contract_for", "parse",
           "record", "verify"]


def catalogue(spec: GameSpec) -> EventCatalogue:
    """The game's event catalogue (every registered game has one; ``tests/rules/test_contract.py``)."""
    events = spec.events
    if not isinstance(events, EventCatalogue):
        raise LookupError(f"game {spec.name} declares no event types")
    return events


def config_of(state: Any) -> Any:
    """The engine config a state holds (``config`` or ``cfg``), or ``None``."""
    return getattr(state, "config", None) or getattr(state, "cfg", None)


def parse(spec: GameSpec, event: Mapping[str, Any] | Event, *, context: Any = None) -> Event:
    """The typed event of a wire event (an :class:`Event` is returned as it is). ``context``: the engine
    config or a state (Forty-one's double-German pack reads German card names). Raises ``UnknownEvent``."""
    if isinstance(event, Event):
        return event
    return catalogue(spec).parse(event, context=context)


def record(spec: GameSpec, event: Mapping[str, Any] | Event, *, context: Any = None) -> dict[str, Any]:
    """The canonical record of ``event`` (:mod:`rules.engines.events`); raises as :func:`parse`."""
    return parse(spec, event, context=context).record()


def act(spec: GameSpec, state: Any, event: Mapping[str, Any] | Event) -> tuple[Any, dict[str, Any]]:
    """Apply ``event`` (a wire dict or a typed :class:`Event`); return ``(new state, canonical record)``.

    Raises the ``RuleViolation`` subclass (message, code, rule) the event breaks; ``state`` is unchanged.
    """
    engine = spec.engine
    try:
        typed = parse(spec, event, context=config_of(state))
    except RuleViolation:
        engine.apply(state, event)  # the engine's own words for what was sent (it refuses what the parser does)
        raise
    rec = typed.record()
    try:
        return engine.apply(state, rec), rec
    except RuleViolation:
        if isinstance(event, Mapping) and rec != event:
            engine.apply(state, event)  # ... and the words for the event as sent, not its record
        raise


def verify(spec: GameSpec, state: Any, event: Mapping[str, Any] | Event) -> None:
    """Raise the ``RuleViolation`` subclass (message, code, rule) :func:`act` would raise; ``state`` is unchanged."""
    act(spec, state, event)


def can(spec: GameSpec, state: Any, event: Mapping[str, Any] | Event) -> bool:
    """True if ``event`` is legal now (:func:`verify` would not raise)."""
    try:
        act(spec, state, event)
    except RuleViolation:
        return False
    return True


class GameContract:
    """One game's actions as methods: for every event type ``<kind>`` of its catalogue,
    ``verify_<kind>(state, **fields)`` (raises), ``can_<kind>(state, **fields)`` (bool) and
    ``act_<kind>(state, **fields)`` (``(new state, record)``), as :func:`verify`, :func:`can`, :func:`act`
    with ``{"type": kind, **fields}``. Unknown names raise ``AttributeError``."""

    _VERBS: dict[str, Callable[[GameSpec, Any, Mapping[str, Any] | Event], Any]] = {
        "verify": verify, "can": can, "act": act}

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.kinds = tuple(catalogue(spec).types)

    def __getattr__(self, name: str) -> Callable[..., Any]:
        verb, _, kind = name.partition("_")
        how = self._VERBS.get(verb)
        if how is None or kind not in self.kinds:
            raise AttributeError(f"{self.spec.name} has no action {name!r}")

        def call(state: Any, **fields: Any) -> Any:
            return how(self.spec, state, {"type": kind, **fields})

        call.__name__ = call.__qualname__ = name
        call.__doc__ = f"{verb} a {kind} event of {self.spec.name} (:func:`rules.contract.{verb}`)."
        return call

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *(f"{verb}_{kind}" for verb in self._VERBS for kind in self.kinds)})


_CONTRACTS: dict[str, GameContract] = {}


def contract_for(spec: GameSpec) -> GameContract:
    """The :class:`GameContract` of ``spec`` (one per game)."""
    found = _CONTRACTS.get(spec.name)
    if found is None or found.spec is not spec:
        found = _CONTRACTS[spec.name] = GameContract(spec)
    return found
