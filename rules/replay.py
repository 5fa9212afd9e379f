"""The one replay (issue 14): the hand service and reconciliation rebuild a hand the same way.

A stored hand is its game, the frozen limit snapshot it was dealt under, its seats with their
starting stacks, its button (or forehand) and its events; the engine state is never stored
(DESIGN.md). :func:`replay_hand` rebuilds the state, :func:`replay_settlement` the money result of
a finished hand. Both are pure: the callers read the rows and pass plain values.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from rules.engines.base import Settlement
from rules.registry import get_engine

__all__ = ["hand_config", "replay_hand", "replay_settlement", "seat_stacks", "snapshot_config"]


def snapshot_config(snapshot: Mapping[str, Any]) -> Mapping[str, Any]:
    """The engine config keys inside a hand's frozen limit snapshot: the snapshot itself, or the dict
    under its ``"config"`` key (a snapshot with label/version metadata); both are accepted."""
    inner = snapshot.get("config") if isinstance(snapshot, Mapping) else None
    return inner if isinstance(inner, Mapping) else snapshot


def seat_stacks(seats: Mapping[Any, Any]) -> dict[int, int]:
    """A hand's stored seats (``{"3": {"stack": 5000, ...}}`` or ``{3: 5000}``) as ``{seat: stack cents}``."""
    out: dict[int, int] = {}
    for seat, info in seats.items():
        out[int(seat)] = int(info["stack"] if type(info) is dict or isinstance(info, Mapping) else info)
    return out


@functools.lru_cache(maxsize=512)
def _built(game: str, snapshot_json: str) -> Any:
    return get_engine(game).build_config(json.loads(snapshot_json))


def hand_config(game: str, snapshot: Mapping[str, Any]) -> Any:
    """The engine config of a frozen snapshot, built once per process per distinct snapshot (configs are
    frozen, the cache key is the snapshot's whole content). Raises ``ConfigError`` for a bad snapshot."""
    return _built(game, json.dumps(snapshot_config(snapshot), sort_keys=True))


def replay_hand(*, game: str, snapshot: Mapping[str, Any], seats: Mapping[Any, Any], button: int,
                events: Sequence[Mapping[str, Any]], config: Any = None) -> Any:
    """The engine state of a hand after ``events`` (JSON-able event records, in order).

    ``config``, when given, is :func:`hand_config` of ``(game, snapshot)`` already built by a caller that
    replays many hands dealt under one snapshot (reconciliation's batches); it saves the cache lookup,
    which serialises the snapshot. Raises the engine's ``RuleViolation`` when an event does not replay
    (the stud games' error names the event's index, ``extra["event_index"]``; Forty-one's and Capsa's are the
    event's own error, as their ``apply`` raises it) and ``ConfigError`` for an unknown game or a bad snapshot.
    """
    engine = get_engine(game)
    if config is None:
        config = hand_config(game, snapshot)
    return engine.replay(config, seat_stacks(seats), list(events), button=button)


def replay_settlement(*, game: str, snapshot: Mapping[str, Any], seats: Mapping[Any, Any], button: int,
                      events: Sequence[Mapping[str, Any]], config: Any = None) -> Settlement:
    """The :class:`~rules.engines.base.Settlement` of a finished hand, rebuilt by :func:`replay_hand`
    (``config`` as there).

    Raises as :func:`replay_hand`, and ``ValueError`` when the events do not finish the hand.
    """
    engine = get_engine(game)  # replay_hand's steps, the engine looked up once
    if config is None:
        config = hand_config(game, snapshot)
    state = engine.replay(config, seat_stacks(seats), list(events), button=button)
    if not engine.is_complete(state):
        raise ValueError("the stored events do not finish the hand")
    settlement: Settlement = engine.settlement(state)
    return settlement
