"""Logging a hand: open it, append engine events one by one (or a whole hand at once), close or void it.

Long module: one service with one locking contract (below: the hand row lock, sequence numbers, auto-close),
whose entry points (open, log one event or many, close, void) share its private helpers (the lock, the
event store, the close, the state answers); split, they would import each other's internals.

DESIGN.md data flow: croupier action -> this service -> rules engine (validate, next state) -> the event's
canonical record stored (:mod:`rules.engines.events`; never the request as sent) -> on close: the ledger entry
(``accounting.services.settlement``) -> Celery reconciliation.
The engine state is never stored: every call replays the hand's stored events (tens per hand).

Locking contract (Zulip style): every write takes ``SELECT ... FOR UPDATE`` on the ``Hand`` row (and
:func:`hand_open` on the ``Table`` row, to take the next hand number), so two terminals posting to one
hand serialize: the second sees the first's event and its ``expected_seq`` is then stale (409).

Sequence numbers: a hand's events are numbered ``seq`` = 1, 2, ...; ``hand.event_count`` is the number
stored. A client appending sends ``expected_seq`` = the ``event_count`` it last saw.

Auto-close: when the engine reports the hand complete after an event, the same transaction closes the
hand (:func:`hand_close`): the status becomes ``closed``, the settlement entry is posted, the button
moves, and the reconciliation task is enqueued on commit. An explicit close is only needed for hands
the engine completes without a further event (it is refused while the engine still expects one).

Permissions (checked here, not only in the API): only a croupier assigned to the table right now or a
floor manager may open, log or close; voiding needs a floor manager and a reason; nobody changes a
closed or void hand (corrections are reversing ledger entries).
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import connection, transaction
from django.db.models import Max, QuerySet
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from casino import rows as sqlrows
from casino.digests import chain_digest, hand_chain, hand_event_record, hand_header_record
from casino.errors import ApplicationError, ConflictError
from casino.gaming_day import gaming_day_of
from casino.i18n import Amount, comma_list, gettext_noop, message_text, status_word
from casino.roles import CROUPIER, FLOOR_MANAGER, has_role
from casino.status import audit_record, status_transition
from casino.text_limits import NOTE_MAX_CHARS
from rules import contract
from rules.core.view import HandView
from rules.engines.errors import RuleViolation
from rules.engines.messages import event_name, semicolon_list
from rules.registry import get_engine, get_game
from rules.replay import hand_config, replay_hand
from tables.models import SEAT_RANGE, Dealer, DealerAssignment, Hand, HandEvent, LimitProfile, Table, TableSession
from tables.selectors import dealer_on_duty, hand_view_redacted, limit_profile_in_force
from tables.services.floor import table_button_advance, table_button_for_next_hand
from tables.services.waiting_list import seat_offer_take

#: A player reference is an opaque id from the player system (never a name): letters, digits and ``._:-``.
PLAYER_REF_PATTERN = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
#: Largest stored event (JSON characters); a croupier's event is a few dozen.
MAX_EVENT_CHARS = 4000
#: The keys a batch gives its events (:func:`hand_events_submit`: the batch's key, ``:`` and the event's number);
#: a single event's key may not have this form (it would be taken for, or break the retry of, a batch's event).
BATCH_EVENT_KEY = re.compile(r"^.*:[0-9]+$", re.DOTALL)
#: Most events accepted in one whole-hand submission.
MAX_EVENTS_PER_SUBMISSION = 400


@dataclass(frozen=True)
class SeatInput:
    """One seated player when a hand opens: ``seat`` number, ``stack`` in cents, optional ``player_ref``."""

    seat: int
    stack: int
    player_ref: str | None = None


# --- permissions ---------------------------------------------------------------------------------------------


def croupier_assigned_now(*, table: Table, user, at: dt.datetime | None = None) -> bool:
    """True if ``user`` is the dealer on duty at ``table`` at ``at`` (default now), as
    :func:`tables.selectors.dealer_on_duty` answers: where assignments overlap, only the latest one counts,
    so two croupiers never log at one table."""
    dealer = dealer_on_duty(table=table, at=at)
    return dealer is not None and dealer.active and dealer.user_id == getattr(user, "pk", None)


def hand_logging_check(*, table: Table, actor) -> None:
    """Raise :class:`ApplicationError` (403, ``not_assigned``) unless ``actor`` may log at ``table`` now:
    a floor manager, or a croupier assigned to this table right now."""
    if actor is not None and has_role(actor, FLOOR_MANAGER):
        return
    if actor is not None and has_role(actor, CROUPIER) and croupier_assigned_now(table=table, user=actor):
        return
    raise _not_assigned_error(table)


def _not_assigned_error(table: Table) -> ApplicationError:
    return ApplicationError(
        gettext_noop("you are not dealing at table '%(table)s' now: only the croupier assigned to it (or a floor manager) may log its hands", table=table), code="not_assigned", status_code=403)


def _logging_check_locked(locked: Hand, actor) -> None:
    """:func:`hand_logging_check` for a hand fetched by :func:`_lock`, which already carries the dealer on
    duty at its table (annotation ``on_duty_user_id``): no further query."""
    if actor is not None and has_role(actor, FLOOR_MANAGER):
        return
    if (actor is not None and has_role(actor, CROUPIER) and locked.on_duty_user_id is not None
            and locked.on_duty_user_id == getattr(actor, "pk", None)):
        return
    raise _not_assigned_error(locked.table)


# --- replay ---------------------------------------------------------------------------------------------------


def hand_replay(*, hand: Hand, events: Sequence[Mapping[str, Any]] | None = None):
    """Rebuild the engine state of ``hand`` by replaying its stored events (or ``events`` if given) through
    the one replay reconciliation uses too (:func:`rules.replay.replay_hand`).

    Returns ``(engine, state)``. The config is rebuilt from the frozen ``hand.limit_snapshot``, so a
    later limit change never alters an old hand. Raises ``RuleViolation`` only if the stored events no
    longer replay (an engine change): reconciliation reports that.
    """
    if events is None:
        events = list(HandEvent.objects.filter(hand_id=hand.pk).order_by("seq").values_list("payload", flat=True))
    state = replay_hand(game=hand.game, snapshot=hand.limit_snapshot, seats=hand.seats, button=hand.button_seat,
                        events=events)
    return get_engine(hand.game), state


#: The key under which a service's answer carries the typed view of the same engine state beside the engine's
#: own answer (:meth:`rules.core.view.HandView.as_dict`, cents): the API lifts it out as the answer's ``view``,
#: next to ``state`` (the engine's answer, one shape per engine); an error carrying the state has both in
#: its ``extra``.
VIEW_KEY = "view"


def _state_answer(hand: Hand, engine, state) -> dict[str, Any]:
    """The engine's view plus the hand's ``status`` and ``event_count`` (amounts in cents)."""
    view = dict(engine.view(state))
    view["status"] = hand.status
    view["event_count"] = hand.event_count
    return view


def _typed_view(hand: Hand, state) -> HandView:
    """The game's one typed view of an engine ``state`` already replayed (no further replay, no query)."""
    build = get_game(hand.game).hand_view
    assert build is not None  # every registered game has one (tests/rules/test_contract.py)
    return build(state)


def _answer(hand: Hand, engine, state, typed: HandView | None = None) -> dict[str, Any]:
    """:func:`_state_answer` plus, under :data:`VIEW_KEY`, the typed view of the same ``state`` (``typed`` if
    already built) as JSON-able dicts (cents), its face-down cards unnamed as the state's
    (:func:`tables.selectors.hand_view_redacted`): both from the one replay."""
    answer = _state_answer(hand, engine, state)
    answer[VIEW_KEY] = hand_view_redacted((typed if typed is not None else _typed_view(hand, state)).as_dict())
    return answer


def hand_void_views(hand: Hand, typed: HandView, answer: dict[str, Any]) -> tuple[HandView, dict[str, Any]]:
    """The typed view and the engine's answer (:func:`_state_answer`, cents) of a voided hand's stored events,
    made to answer its void (house rules: stud R12.4, Forty-one misdeal, Capsa A.5), as its ``hand_void`` ledger
    entry books it (:func:`accounting.services.settlement.hand_void_post`, from the same ``contributions``):
    complete, nothing left to log, every contribution returned, no pot, no house take, each seat back at its
    opening stack, and an outcome with ``void`` True. The floor voids at any point of a hand, where the engines'
    own ``misdeal`` event is refused, so the engines' state (replayed) knows nothing of the void: this is the
    one place that adds it (the API's ``state``/``view``, the croupier page)."""
    from dataclasses import replace

    from rules.core.view import outcome_of
    from rules.engines.base import Settlement

    opening = {int(seat): int(row["stack"]) for seat, row in hand.seats.items()}
    put_in = {int(seat): int(cents) for seat, cents in (answer.get("contributions") or {}).items()}
    contributions = {seat: put_in.get(seat, 0) for seat in sorted(opening)}
    settled = Settlement(contributions=contributions, awards={}, returned=dict(contributions), tax=0)
    void_typed = replace(
        typed, phase="complete", expect=None, to_act=None, legal_actions=(), pots=(), house_take=0, complete=True,
        outcome=outcome_of(settled, void=True),
        seats=tuple(replace(seat, stack=opening.get(seat.seat, seat.stack), in_pot=0, round_bet=0)
                    for seat in typed.seats))
    void_answer = dict(answer) | {"phase": "complete", "expect": None, "to_act": None, "legal_actions": [],
                                  "complete": True, "void": True, "tax": 0}
    for key, value in (("pots", []), ("stacks", dict(opening)), ("returned", dict(contributions))):
        if key in void_answer:
            void_answer[key] = value
    void_answer["settlement"] = {"contributions": contributions, "awards": {}, "returned": dict(contributions),
                                 "tax": 0, "net": settled.net, "pots": [], "pot_awards": [], "winners": []}
    return void_typed, void_answer


def _state_extra(hand: Hand, engine, state) -> dict[str, Any]:
    """The ``extra`` of an error that carries the hand's unchanged state: ``state`` (:func:`_state_answer`)
    and ``view`` (the typed view, :data:`VIEW_KEY`), both of the one ``state`` (cents)."""
    answer = _answer(hand, engine, state)
    return {"state": answer, VIEW_KEY: answer.pop(VIEW_KEY)}


def hand_state(*, hand: Hand, upto: int | None = None, typed: bool = False) -> dict[str, Any]:
    """The croupier's answer for ``hand`` after its first ``upto`` events (default all): whose turn, legal
    actions with amounts, pots, tax so far, ``complete`` and at the end the settlement (cents); a void hand's
    (all its events) answers its void (:func:`hand_void_views`). With ``typed``
    it also carries the typed view of the same replay under :data:`VIEW_KEY` (:mod:`rules.core.view`)."""
    events = list(hand.events.order_by("seq").values_list("payload", flat=True))
    if upto is not None:
        events = events[:upto]
    engine, state = hand_replay(hand=hand, events=events)
    if hand.status == Hand.Status.VOID and upto is None:  # the whole hand: it answers its void
        view, answer = hand_void_views(hand, _typed_view(hand, state), _state_answer(hand, engine, state))
        if typed:
            answer[VIEW_KEY] = hand_view_redacted(view.as_dict())
        return answer
    answer = _answer(hand, engine, state) if typed else _state_answer(hand, engine, state)
    if upto is not None:
        answer["event_count"] = upto
    return answer


def hand_view(*, hand: Hand, upto: int | None = None) -> HandView:
    """The one typed view of ``hand`` after its first ``upto`` events (default all), the same shape for every
    game (:mod:`rules.core.view`: seats, whose turn, legal actions with ``to``/``add`` in cents and the
    spread range, pots with eligible seats, the house take so far, the outcome once complete; a void hand's,
    all its events, the void outcome: :func:`hand_void_views`)."""
    events = list(hand.events.order_by("seq").values_list("payload", flat=True))
    if upto is not None:
        events = events[:upto]
    engine, state = hand_replay(hand=hand, events=events)
    if hand.status == Hand.Status.VOID and upto is None:  # the whole hand: it answers its void
        return hand_void_views(hand, _typed_view(hand, state), _state_answer(hand, engine, state))[0]
    return _typed_view(hand, state)


def _violation(exc: RuleViolation, *, hand: Hand | None, unchanged: dict[str, Any] | None,
               prefix: str = "") -> ApplicationError:
    """Translate an engine error into a 400 carrying the unchanged state and typed view (``unchanged``:
    :func:`_state_extra`) and the hand's id, number and event count (STYLE.md rule 10). ``hand`` None: the
    refused request would have opened the hand and nothing was stored (the hand it opened is rolled back), so
    the refusal names no hand and carries no event count."""
    extra = exc.as_dict()["extra"]
    if hand is not None:
        extra["event_count"] = hand.event_count
        extra.update(hand.reference_extra)
    if unchanged is not None:
        extra.update(unchanged)
    message = gettext_noop("%(prefix)s%(message)s", prefix=prefix, message=exc.message) if prefix else exc.message
    return ApplicationError(message, code=exc.code, extra=extra)


def _event_check(event: Any, *, index: int | None = None) -> dict[str, Any]:
    """Shape check before the engine sees it: a JSON object with a ``type`` string, not too large
    (:data:`MAX_EVENT_CHARS`), a ``note`` of at most :data:`~casino.text_limits.NOTE_MAX_CHARS` characters, and no
    key starting with ``_``: README promises "no unknown keys", and such keys were never a documented feature
    (the engines' parser lets them pass, so that events stored with one still replay; new ones are refused here,
    before they reach the digest-chained record)."""
    where = gettext_noop("event %(index)s: ", index=index) if index is not None else ""
    if not isinstance(event, Mapping):
        raise ApplicationError(gettext_noop("%(where)san event must be a JSON object with a \"type\", e.g. {\"type\": \"fold\", \"seat\": 3}", where=where), code="unknown_event")
    kind = event.get("type")
    if not isinstance(kind, str) or not kind.strip():
        raise ApplicationError(gettext_noop("%(where)sthe event has no \"type\" (e.g. \"bet\", \"fold\", \"deal\")", where=where),
                               code="unknown_event")
    note = event.get("note")
    if isinstance(note, str) and len(note) > NOTE_MAX_CHARS:
        raise ApplicationError(gettext_noop("%(where)sthe note is too long (%(size)s characters; at most %(max)s)", where=where, size=len(note), max=NOTE_MAX_CHARS), code="note_too_long")
    try:
        # a non-finite seat (1e309) is left to the engine's seat check, which refuses any seat but a whole number
        json.dumps({key: value for key, value in event.items() if key != "seat"}, allow_nan=False)
        # characters as the person wrote them (an umlaut is one, not the six of its \u escape)
        size = len(json.dumps(event, ensure_ascii=False))
    except (TypeError, ValueError):
        raise ApplicationError(gettext_noop("%(where)sthe event is not plain JSON (numbers must be finite)", where=where),
                               code="unknown_event") from None
    if size > MAX_EVENT_CHARS:
        raise ApplicationError(gettext_noop("%(where)sthe event is too large (%(size)s characters; at most %(max)s)", where=where, size=size, max=MAX_EVENT_CHARS), code="unknown_event")
    hidden = next((key for key in event if isinstance(key, str) and key.startswith("_")), None)
    if hidden is not None:
        raise ApplicationError(gettext_noop("%(where)san event takes no key %(key)s: only its own fields and a \"note\"", where=where, key=repr(hidden)), code="unknown_event")
    return dict(event)


# --- open -----------------------------------------------------------------------------------------------------


def _seats_check(*, table: Table, seats: Sequence[SeatInput], config: Any = None) -> dict[str, dict[str, Any]]:
    """Check the seats of a new hand; the number of players is the game's range (:data:`SEAT_RANGE`)
    narrowed or widened by the limit version's ``min_players``/``max_players`` where the engine config has
    them (Forty-one B.9), never more than the table's seats. Raises :class:`ApplicationError` (``invalid_seats``)."""
    low, high = SEAT_RANGE.get(table.game, (2, table.seats))
    low = getattr(config, "min_players", low)
    high = getattr(config, "max_players", high)
    numbers = [s.seat for s in seats]
    twice = sorted({n for n in numbers if numbers.count(n) > 1})
    if twice:
        raise ApplicationError(gettext_noop("seat %(seat)s is listed twice", seat=", ".join(map(str, twice))),
                               code="invalid_seats", extra={"seat": twice[0]})
    if not low <= len(numbers) <= min(high, table.seats):
        raise ApplicationError(gettext_noop("%(get_game_display)s at '%(table)s' is dealt to %(low)s to %(min)s players; %(n_numbers)s seated", get_game_display=table.get_game_display(), table=table, low=low, min=min(high, table.seats), n_numbers=len(numbers)), code="invalid_seats")
    out: dict[str, dict[str, Any]] = {}
    for s in sorted(seats, key=lambda s: s.seat):
        if not 1 <= s.seat <= table.seats:
            raise ApplicationError(gettext_noop("seat %(seat)s does not exist at '%(table)s' (seats 1 to %(seats)s)", seat=s.seat, table=table, seats=table.seats),
                                   code="invalid_seats")
        if not isinstance(s.stack, int) or s.stack <= 0:
            raise ApplicationError(gettext_noop("seat %(seat)s: the stack must be more than 0.00", seat=s.seat), code="invalid_seats")
        ref = s.player_ref or None
        if ref is not None and not PLAYER_REF_PATTERN.match(ref):
            raise ApplicationError(gettext_noop("seat %(seat)s: a player reference is an id of letters, digits and ._:- (at most 64), never a name", seat=s.seat), code="invalid_player_ref")
        out[str(s.seat)] = {"stack": s.stack, "player_ref": ref}
    return out


def hand_open(*, table: Table, seats: Sequence[SeatInput], actor, source: str = "live",
              opened_at: dt.datetime | None = None, button_seat: int | None = None,
              profile: LimitProfile | None = None) -> Hand:
    """Open the next hand at an open ``table`` with ``seats``; return it. One transaction.

    Takes the next hand number (under a lock on the table row), the dealer on duty from the live
    assignment, the button/forehand (the table's ``button_seat`` if that seat is occupied, else the next
    occupied seat clockwise), and a frozen snapshot of the limit profile in force (the engine's full
    config, defaults filled in). ``button_seat`` overrides the button for imported hands (PHH); it
    must be an occupied seat. An imported hand also gives ``opened_at`` (when it was played: its gaming
    day) and the ``profile`` it was checked against (the version in force now, not at ``opened_at``). The engine validates the seats (``RuleViolation`` -> 400).
    Raises :class:`ApplicationError`: table not open, no limit profile, bad seats, actor not assigned (403),
    a hand still open at the table (409).
    """
    hand_logging_check(table=table, actor=actor)
    opened_at = opened_at or timezone.now()
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        if locked.status != Table.Status.OPEN:
            raise ApplicationError(gettext_noop("table '%(locked)s' is %(status)s: hands are dealt only at an open table", locked=locked, status=status_word(locked)),
                                   code="table_not_open")
        running = Hand.objects.filter(table=locked, status=Hand.Status.OPEN).order_by("number").first()
        if running is not None:
            raise ConflictError(_("%(hand)s is still open at '%(table)s': close or void it first")
                                % {"hand": running.reference, "table": locked}, code="hand_open",
                                extra=running.reference_extra)
        profile = profile or limit_profile_in_force(table=locked, at=opened_at)
        if profile is None:
            raise ApplicationError(gettext_noop("table '%(locked)s' has no limit profile in force: the floor must set its limits", locked=locked),
                                   code="no_limit_profile")
        engine = get_engine(locked.game)
        try:
            config = engine.build_config(profile.config)
        except RuleViolation as exc:
            raise ApplicationError(exc.message, code=exc.code, extra=exc.as_dict()["extra"]) from None
        seat_map = _seats_check(table=locked, seats=seats, config=config)
        try:
            occupied = [int(s) for s in seat_map]
            if button_seat is not None and button_seat not in occupied:
                raise ApplicationError(gettext_noop("the button seat %(button_seat)s is not occupied", button_seat=button_seat), code="invalid_seats")
            button = (button_seat if button_seat is not None
                      else table_button_for_next_hand(table=locked, occupied_seats=occupied))
            engine.new_hand(config, {int(s): v["stack"] for s, v in seat_map.items()}, button=button)
        except RuleViolation as exc:
            raise ApplicationError(exc.message, code=exc.code, extra=exc.as_dict()["extra"]) from None
        number = (Hand.objects.filter(table=locked).aggregate(top=Max("number"))["top"] or 0) + 1
        session = TableSession.objects.filter(table=locked, closed_at__isnull=True).first()
        snapshot = engine.config_to_dict(config)
        header = hand_header_record(table_id=locked.pk, number=number, game=locked.game, button_seat=button,
                                    limit_snapshot=snapshot, seats=seat_map, gaming_day=gaming_day_of(opened_at),
                                    opened_at=opened_at)
        hand = Hand.objects.create(
            table=locked, session=session, number=number, game=locked.game, dealer=dealer_on_duty(table=locked,
                                                                                                  at=opened_at),
            button_seat=button, limit_profile=profile, limit_snapshot=snapshot, seats=seat_map,
            opened_at=opened_at, opened_by=actor, gaming_day=gaming_day_of(opened_at), source=source,
            digest=hand_chain(header, [])[0],
        )
        audit_record(obj=hand, action="hand_open", actor=actor, to_status=hand.status,
                     data={"number": number, "button_seat": button, "limit_profile": profile.pk})
        # Seats the floor gave to players from the list are taken by this hand (no longer offered).
        seat_offer_take(table=locked, seats=occupied)
    return hand


# --- events ---------------------------------------------------------------------------------------------------


def _lock(hand: Hand | int) -> Hand:
    """The hand row under ``SELECT ... FOR UPDATE`` (by id; 404 if there is none), with, in the same query,
    the user id of the dealer on duty at its table now (``on_duty_user_id``: the latest live assignment, as
    :func:`tables.selectors.dealer_on_duty`; None when there is none or its dealer is inactive) for
    :func:`_logging_check_locked`, and its table's name, game and seats (``hand.table``, its other fields
    deferred; the table row is read, not locked).

    Plain SQL (:mod:`casino.rows`): every logged action runs it, and the ORM spent more time building this
    query than the database answering it (issue 19)."""
    return _lock_query(hand, with_events=False)[0]


def _lock_with_events(hand: Hand | int) -> tuple[Hand, list[tuple[int, Any, str]]]:
    """:func:`_lock` and the hand's stored events as ``(seq, payload, idempotency_key)`` in order (the replay and
    the idempotency look-up of :func:`hand_event_append`), on PostgreSQL in the lock's own query (issue 19).

    The events are read in the lock's statement, on the snapshot it started with: when the lock had to wait for
    another transaction logging to the hand, the row comes back as that one committed it but the events as they
    were before. Events are only ever added under this lock, with the row's ``event_count`` in the same
    transaction, so the events read are the committed ones exactly when they are ``event_count`` events numbered
    1..n; otherwise they are read again, after the lock (:func:`_event_rows`), as every other backend does."""
    locked, events = _lock_query(hand, with_events=connection.vendor == "postgresql")
    if events is None or len(events) != locked.event_count or (events and events[-1][0] != locked.event_count):
        events = _event_rows(locked.pk)
    return locked, events


def _lock_query(hand: Hand | int, *, with_events: bool) -> tuple[Hand, list[tuple[int, Any, str]] | None]:
    """The query of :func:`_lock` (and with ``with_events``, PostgreSQL only, the hand's events as one JSON
    array of ``[seq, payload, idempotency_key]``); returns the locked hand and those events (None without)."""
    pk = hand.pk if isinstance(hand, Hand) else hand
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    sql = _lock_sql(connection.vendor, connection.features.has_select_for_update_of, with_events)
    if connection.features.has_select_for_update and not connection.in_atomic_block:
        raise transaction.TransactionManagementError("_lock needs a transaction (it locks the hand row)")
    extra = ("table_name", "table_game", "table_seats", "on_duty_user_id") + (("events_json",) if with_events else ())
    locked = sqlrows.row(Hand, sql, [now, now, pk], extra=extra)
    if locked is None:
        raise Http404(f"no hand {pk}")
    locked.table = sqlrows.instance(Table, ["id", "name", "game", "seats"],
                                 [locked.table_id, locked.table_name, locked.table_game, locked.table_seats])
    if not with_events:
        return locked, None
    found = json.loads(locked.__dict__.pop("events_json") or "[]")
    return locked, [(seq, payload, key) for seq, payload, key in found]


@functools.lru_cache(maxsize=8)
def _lock_sql(vendor: str, lock_of: bool, with_events: bool) -> str:
    """The statement of :func:`_lock_query` on a backend (``vendor``; ``lock_of``: it can lock the hand's row alone,
    ``FOR UPDATE OF``): a function of the code and the schema, written once per process (issue 19)."""
    lock = " FOR UPDATE OF h" if lock_of else ""
    events = (f", (SELECT json_agg(json_build_array(e.seq, e.payload, e.idempotency_key) ORDER BY e.seq)::text "
              f"FROM {sqlrows.table(HandEvent)} e WHERE e.hand_id = h.id) AS events_json" if with_events else "")
    return (f"SELECT {sqlrows.columns(Hand, 'h')}, t.name AS table_name, t.game AS table_game, t.seats AS table_seats, "
            f"(SELECT CASE WHEN d.active THEN d.user_id END FROM {sqlrows.table(DealerAssignment)} a "
            f"INNER JOIN {sqlrows.table(Dealer)} d ON d.id = a.dealer_id "
            f"WHERE a.table_id = h.table_id AND a.start <= %s AND (a.\"end\" IS NULL OR a.\"end\" > %s) "
            f"ORDER BY a.start DESC LIMIT 1) AS on_duty_user_id{events} "
            f"FROM {sqlrows.table(Hand)} h INNER JOIN {sqlrows.table(Table)} t ON t.id = h.table_id WHERE h.id = %s{lock}")


def _closed_error(hand: Hand) -> ApplicationError:
    return ApplicationError(_("%(hand)s at '%(table)s' is %(status)s: nothing can be added or changed")
                            % {"hand": hand.reference, "table": hand.table, "status": str(hand.get_status_display()).lower()},
                            code="hand_closed", extra={"status": hand.status, "event_count": hand.event_count,
                                                       **hand.reference_extra})


def _stale_message(hand: Hand, expected_seq: int, actor) -> str:
    """Why ``expected_seq`` does not match: what the hand has, what the terminal expected, and who logged the
    events it has not seen (another terminal is blamed only when another user logged them)."""
    head = _("%(hand)s has %(count)s events; you expected %(expected)s") % {
        "hand": hand.reference, "count": hand.event_count, "expected": expected_seq}
    if expected_seq > hand.event_count:
        return head + ": " + _("your terminal counts events that were not stored; reload the hand and log again")
    unseen = list(HandEvent.objects.filter(hand=hand, seq__gt=expected_seq).order_by("seq")
                  .values_list("seq", "payload__type", "created_by__username", "created_by_id"))
    first, last = unseen[0][0], unseen[-1][0]
    # the event types as the reader's words ("Geben, Geben" in German), as the idempotency conflict names them
    types = message_text(comma_list([event_name(str(t)) for _seq, t, _u, _id in unseen]))
    names = ", ".join(dict.fromkeys(str(u or "?") for _seq, _t, u, _id in unseen))
    others = any(user_id != getattr(actor, "pk", None) for _seq, _t, _u, user_id in unseen)
    params = {"first": first, "last": last, "types": types, "users": names}
    if len(unseen) == 1:
        what = (_("event %(first)s (%(types)s) was logged by %(users)s from another terminal") if others
                else _("event %(first)s (%(types)s) was logged by %(users)s (you) already"))
    else:
        what = (_("events %(first)s-%(last)s (%(types)s) were logged by %(users)s from another terminal") if others
                else _("events %(first)s-%(last)s (%(types)s) were logged by %(users)s (you) already"))
    return head + ": " + (what % params) + "; " + _("check the current state and log again")


def hand_event_append(*, hand: Hand | int, event: Mapping[str, Any], idempotency_key: str,
                      expected_seq: int | None, actor) -> tuple[HandEvent, dict[str, Any]]:
    """Apply one event (amounts in cents) to an open hand and store it; return ``(HandEvent, state)``.

    ``hand`` is the hand or its id (the row is fetched once, under its lock; no such hand -> ``Http404``).
    In one transaction holding the hand's row lock: a stored event with the same ``idempotency_key`` is
    answered as stored (nothing changes; a different request under that key is a 409: the retry's canonical
    record is compared with the stored one, :func:`_same_request`); a closed/void hand
    is refused (400 ``hand_closed``); ``expected_seq`` must equal ``hand.event_count`` (else 409
    ``stale_sequence`` with the current state; ``None`` skips the check); the engine validates the event
    against the replayed state (``RuleViolation`` -> 400 with the unchanged state) and the event's canonical
    record is stored (:func:`rules.contract.act`: cards ``"4d"``, amounts in cents), never the request as
    sent. A completed hand is
    closed in the same transaction (module docstring). ``state`` is :func:`hand_state`'s answer plus
    ``replayed`` (True when the key was already stored) and the typed view of the same replay under
    :data:`VIEW_KEY`; the errors that carry the unchanged ``state`` carry its ``view`` beside it.

    A key ending in ``:`` and a number (:data:`BATCH_EVENT_KEY`, the form of a batch's event keys) is refused
    (400 ``idempotency_key_reserved``): such keys stay the batches' (already stored ones are kept as they are).

    Queries on the usual path (issues 10 and 19): the lock with the dealer on duty and the hand's events
    (payloads and keys: the replay and the idempotency lookup; :func:`_lock_with_events`), then the event's
    INSERT with the ``event_count`` UPDATE (one statement on PostgreSQL, :class:`casino.rows.Writes`).
    """
    if not idempotency_key or len(idempotency_key) > 128:
        raise ApplicationError(gettext_noop("each event needs an idempotency key of 1 to 128 characters"),
                               code="idempotency_key_required")
    if BATCH_EVENT_KEY.match(idempotency_key):
        raise ApplicationError(gettext_noop("idempotency key %(idempotency_key)s ends in ':' and a number, the form a batch gives its events' keys; use a key that does not end so (e.g. '%(example)s')", idempotency_key=repr(idempotency_key), example=idempotency_key.rsplit(":", 1)[0] + "-" + idempotency_key.rsplit(":", 1)[1]),
                               code="idempotency_key_reserved")
    event = _event_check(event)
    with transaction.atomic():
        locked, rows = _lock_with_events(hand)
        _logging_check_locked(locked, actor)
        stored_seq = next((seq for seq, _, key in rows if key == idempotency_key), None)
        if stored_seq is not None:
            _retry_check(locked, rows, event)
            stored = HandEvent.objects.select_related("created_by").get(hand_id=locked.pk, seq=stored_seq)
            stored.hand = locked  # the answer reads its game (no query)
            if not _same_request(locked, stored.payload, event):
                raise ConflictError(gettext_noop("idempotency key %(idempotency_key)s was already used for event %(seq)s (%(type)s); use a new key for a new event", idempotency_key=repr(idempotency_key), seq=stored.seq, type=event_name(stored.payload.get('type'))),
                                    code="idempotency_conflict", extra={"seq": stored.seq})
            engine, state = hand_replay(hand=locked, events=[p for seq, p, _ in rows if seq <= stored.seq])
            answer = _answer(locked, engine, state) | {"event_count": stored.seq}
            return stored, answer | {"replayed": True}
        if locked.status != Hand.Status.OPEN:
            raise _closed_error(locked)
        engine, state = hand_replay(hand=locked, events=[p for _, p, _ in rows])
        if expected_seq is not None and expected_seq != locked.event_count:
            raise ConflictError(
                _stale_message(locked, expected_seq, actor), code="stale_sequence",
                extra={"event_count": locked.event_count, "expected_seq": expected_seq, **locked.reference_extra,
                       **_state_extra(locked, engine, state)})
        try:
            new_state, canonical = contract.act(get_game(locked.game), state, event)
        except RuleViolation as exc:
            raise _violation(exc, hand=locked, unchanged=_state_extra(locked, engine, state)) from None
        complete = engine.is_complete(new_state)
        record = _store(locked, canonical, idempotency_key, actor)
        writes = sqlrows.Writes().insert([record], returning_pk=True)
        typed = _typed_view(locked, new_state)
        if complete:  # the close's one UPDATE of the hand row writes the new head too, sent with the event
            locked = _close_locked(locked, engine, new_state, actor, typed=typed, writes=writes)
        else:
            _head_save(locked, writes)
        return record, _answer(locked, engine, new_state, typed) | {"replayed": False}


def _event_rows(hand_id: int) -> list[tuple[int, Any, str]]:
    """``(seq, payload, idempotency_key)`` of a hand's stored events in order: the replay and the idempotency
    look-up of :func:`hand_event_append` in one query (plain SQL, :mod:`casino.rows`)."""
    payload = sqlrows.converter(HandEvent, "payload")
    return [(seq, payload(value), key) for seq, value, key in sqlrows.select(
        f"SELECT seq, payload, idempotency_key FROM {sqlrows.table(HandEvent)} WHERE hand_id = %s ORDER BY seq",
        [hand_id])]


def _store(locked: Hand, event: dict[str, Any], idempotency_key: str, actor) -> HandEvent:
    """The next event of a locked hand (its canonical record, :func:`rules.contract.act`; not yet saved), chained
    to the hand's digest head (:mod:`casino.digests`); ``locked.event_count`` and ``locked.digest`` move on
    (saved by :func:`_head_save` or by the close)."""
    locked.event_count += 1
    locked.digest = chain_digest(locked.digest, hand_event_record(seq=locked.event_count, payload=event,
                                                                  idempotency_key=idempotency_key))
    return HandEvent(hand=locked, seq=locked.event_count, payload=event, idempotency_key=idempotency_key,
                     created_by=actor, digest=locked.digest)


def _head_save(locked: Hand, writes: sqlrows.Writes | None = None) -> None:
    """Write a locked hand's event count and digest head (one UPDATE), sent with ``writes`` if given (the new
    event's INSERT: one statement on PostgreSQL)."""
    (writes or sqlrows.Writes()).update(Hand, locked.pk, event_count=locked.event_count, digest=locked.digest).send()


def hand_events_submit(*, events: Sequence[Mapping[str, Any]], idempotency_key: str, actor, hand: Hand | None = None,
                       table: Table | None = None, seats: Sequence[SeatInput] | None = None,
                       source: str = "batch", button_seat: int | None = None, opened_at: dt.datetime | None = None,
                       profile: LimitProfile | None = None) -> tuple[Hand, dict[str, Any]]:
    """Log many events at once, all or nothing; return ``(hand, state)`` (``state`` with the typed view under
    :data:`VIEW_KEY`, as :func:`hand_event_append`).

    Either onto an open ``hand`` (after its stored events), or a whole new hand: ``table`` + ``seats``
    (opened as by :func:`hand_open`, ``source`` recorded). Each event is validated in order through the
    engine; the first bad one refuses the whole submission (400, message ``"event N (type): ..."``,
    ``extra.index`` = N) and nothing is stored. Onto an open hand the refusal also carries the hand (``hand``,
    ``hand_number``) and its ``state``/``view`` (and ``event_count``) as the events before N left it; for a new hand it carries none
    of these: the hand it opened is rolled back with the refusal, so there is no stored hand to name or show
    (only ``index`` and the engine's own ``extra``). Event ``i`` gets the key ``"{idempotency_key}:{i}"``;
    submitting the same key again returns the stored hand, with ``"replayed": True`` in ``state``, and writes
    nothing. A hand the events
    complete is closed (and posted) in the same transaction.
    """
    if not idempotency_key or len(idempotency_key) > 100:
        raise ApplicationError(gettext_noop("a submission needs an idempotency key of 1 to 100 characters"),
                               code="idempotency_key_required")
    if (hand is None) == (table is None):
        raise ApplicationError(gettext_noop("submit events either to an open hand or with a table and seats for a new hand"),
                               code="invalid_submission")
    if not isinstance(events, Sequence) or isinstance(events, str | bytes) or not events:
        raise ApplicationError(gettext_noop("a submission needs a non-empty list of events"), code="invalid_submission")
    if len(events) > MAX_EVENTS_PER_SUBMISSION:
        raise ApplicationError(gettext_noop("at most %(max_events_per_submission)s events per submission", max_events_per_submission=MAX_EVENTS_PER_SUBMISSION), code="invalid_submission")
    checked = [_event_check(e, index=i) for i, e in enumerate(events, start=1)]
    first_key = f"{idempotency_key}:1"
    opened = hand is None  # this submission opens the hand: a refusal rolls it back
    with transaction.atomic():
        if hand is None:
            Table.objects.select_for_update().get(pk=table.pk)  # serializes submissions at this table
            earlier = HandEvent.objects.select_related("hand").filter(hand__table=table, idempotency_key=first_key).first()
            if earlier is not None:
                _submission_replay_check(earlier.hand, checked, idempotency_key, seats=seats)
                return earlier.hand, hand_state(hand=earlier.hand, typed=True) | {"replayed": True}
            hand = hand_open(table=table, seats=seats or (), actor=actor, source=source, button_seat=button_seat,
                             opened_at=opened_at, profile=profile)
        locked = _lock(hand)
        _logging_check_locked(locked, actor)
        if HandEvent.objects.filter(hand=locked, idempotency_key=first_key).exists():
            _submission_replay_check(locked, checked, idempotency_key)
            return locked, hand_state(hand=locked, typed=True) | {"replayed": True}
        if locked.status != Hand.Status.OPEN:
            raise _closed_error(locked)
        engine, state = hand_replay(hand=locked)
        spec = get_game(locked.game)
        records: list[HandEvent] = []
        for index, event in enumerate(checked, start=1):
            if engine.is_complete(state):
                raise ApplicationError(gettext_noop("event %(index)s (%(event)s): the hand is already complete after event %(index2)s; remove the events after it", index=index, event=event_name(event['type']), index2=index - 1), code="hand_complete",
                                       extra={"index": index})
            try:
                state, canonical = contract.act(spec, state, event)
            except RuleViolation as exc:
                # a new hand is rolled back with the refusal: no hand, event count, state or view to name
                error = _violation(exc, hand=None if opened else locked,
                                   unchanged=None if opened else _state_extra(locked, engine, state),
                                   prefix=gettext_noop("event %(index)s (%(type)s): ", index=index, type=event_name(event["type"])))
                error.extra["index"] = index
                raise error from None
            records.append(_store(locked, canonical, f"{idempotency_key}:{index}", actor))
        HandEvent.objects.bulk_create(records)
        typed = _typed_view(locked, state)
        if engine.is_complete(state):
            locked = _close_locked(locked, engine, state, actor, typed=typed)
        else:
            _head_save(locked)
        return locked, _answer(locked, engine, state, typed)


def _retry_check(locked: Hand, rows: Sequence[tuple[int, Any, str]], event: Mapping[str, Any]) -> None:
    """A retry under a stored key is validated as a fresh event first: a body the event parser refuses (a seat
    ``1.0`` or ``true``, which Python's ``==`` would take for the stored ``1``) gets the 400 a fresh event with
    it gets now (the engine's words on the hand's current state, as :func:`hand_event_append` answers)."""
    spec = get_game(locked.game)
    try:
        contract.record(spec, event, context=hand_config(locked.game, locked.limit_snapshot))
    except RuleViolation:  # refused out of context: the engine's own words on the hand as it stands
        engine, state = hand_replay(hand=locked, events=[p for _, p, _ in rows])
        try:
            contract.act(spec, state, event)
        except RuleViolation as exc:
            raise _violation(exc, hand=locked, unchanged=_state_extra(locked, engine, state)) from None


def _same_json(a: Any, b: Any) -> bool:
    """True if ``a`` and ``b`` are the same JSON (types too: ``1``, ``1.0`` and ``true`` differ, as on the wire)."""
    try:
        return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    except (TypeError, ValueError):
        return False


def _same_request(hand: Hand, stored: Any, event: Mapping[str, Any]) -> bool:
    """True if ``event`` (a retry under a stored idempotency key) is the request whose record is ``stored``:
    the stored canonical record equals the retry's canonical record (:func:`rules.contract.record`; the
    same raw body always gives the same record; a body the parser refuses is never the same request), or
    the stored payload is the retry as sent, the same JSON (a hand logged before records were canonical whose
    chain the migration could not vouch for)."""
    if _same_json(stored, event):
        return True
    try:
        return bool(stored == contract.record(get_game(hand.game), event,
                                               context=hand_config(hand.game, hand.limit_snapshot)))
    except RuleViolation:
        return False


def _submission_replay_check(hand: Hand, events: Sequence[Mapping[str, Any]], idempotency_key: str, *,
                             seats: Sequence[SeatInput] | None = None) -> None:
    """A submission key seen before: the retry must carry the same events (and seats, for a new hand) as
    the stored submission, else 409 ``idempotency_conflict`` (a reused key never silently drops events)."""
    prefix = f"{idempotency_key}:"
    stored: dict[int, Any] = {}
    for key, payload in HandEvent.objects.filter(hand=hand, idempotency_key__startswith=prefix).values_list(
            "idempotency_key", "payload"):
        suffix = key[len(prefix):]
        if suffix.isdigit():
            stored[int(suffix)] = payload
    stored_events = [stored[i] for i in sorted(stored)]
    same = len(stored_events) == len(events) and all(
        _same_request(hand, payload, event) for payload, event in zip(stored_events, events))
    if same and seats is not None:
        same = {str(s.seat): s.stack for s in seats} == {k: v["stack"] for k, v in hand.seats.items()}
    if not same:
        raise ConflictError(_("idempotency key '%(key)s' was already used for another submission (%(hand)s, %(n)s "
                              "events); use a new key for new events")
                            % {"key": idempotency_key, "hand": hand.reference, "n": len(stored)},
                            code="idempotency_conflict", extra={**hand.reference_extra, "events": len(stored)})


def _config_value(field: Any, value: Any) -> Any:
    """One limit value as a message part: money as an :class:`Amount` (the reader's number format), a list of
    amounts (per street) as a list, yes/no, a choice by its label; anything else as written."""
    from rules.engines.money import to_cents

    kind = getattr(field, "kind", "")
    if value is None:
        return gettext_noop("none")
    if isinstance(value, bool):
        return gettext_noop("yes") if value else gettext_noop("no")
    try:
        if kind in ("money", "money_pair", "per_street"):
            values = value if isinstance(value, list | tuple) else [value]
            return comma_list([Amount(to_cents(v)) for v in values])
        if kind in ("percent", "fraction"):  # "0.05" is 0.05 % as a percent key, 5 % as a fraction (rules specs)
            share = Decimal(str(value)) * (100 if kind == "fraction" else 1)
            return gettext_noop("%(share)s %%", share=share.normalize())  # the decimal mark at render time
    except (ValueError, TypeError, ArithmeticError, RuleViolation):
        pass
    for choice, label in getattr(field, "choice_labels", ()):
        if choice == value:
            return gettext_noop(label.replace("%", "%%"))
    return str(value)


def _config_key(game: str, key: str) -> tuple[Any, Any]:
    """``(field, label)`` of config key ``key`` of ``game``: its description (None for a key the game does not
    describe) and its label as a translatable message (the key itself when undescribed)."""
    from rules.config_fields import config_field

    try:
        field = config_field(game, key)
    except KeyError:
        return None, key
    return field, gettext_noop(field.label.replace("%", "%%"))


def _config_differences(game: str, keys: Sequence[str], played: Mapping[str, Any], wanted: Mapping[str, Any]) -> Any:
    """The keys on which a PHH file's limits differ from the table's, as one message: each key's label (the
    key itself in brackets), the file's value and the table's, in the reader's language (issue 18)."""
    parts = []
    for key in keys:
        field, label = _config_key(game, key)
        parts.append(gettext_noop("%(label)s (%(key)s): in the file %(file)s, at the table %(table)s", label=label,
                                  key=key, file=_config_value(field, played.get(key)),
                                  table=_config_value(field, wanted.get(key))))
    return semicolon_list(parts)


def limit_changes(game: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> Any:
    """What changed from one limit version's config to the next (``before``, ``after``: config keys of ``game``,
    absent keys at their defaults), as one message for the croupier's next-hand form: each changed key's label
    with its old and new value in the reader's number format (``Ante: 1.00 → 2.00; Taxe: 2.00 → 3.00``); an
    empty string when nothing the engine reads changed (only the label or the version)."""
    from rules.config_fields import values_with_defaults

    old, new = values_with_defaults(game, dict(before)), values_with_defaults(game, dict(after))
    parts = []
    for key in [k for k in new if old.get(k) != new.get(k)] + [k for k in old if k not in new]:
        field, label = _config_key(game, key)
        parts.append(gettext_noop("%(label)s: %(old)s → %(new)s", label=label, old=_config_value(field, old.get(key)),
                                  new=_config_value(field, new.get(key))))
    return semicolon_list(parts) if parts else ""


def hand_phh_submit(*, table: Table, text: str, idempotency_key: str, actor) -> tuple[Hand, dict[str, Any]]:
    """Log a whole stud hand (Seven Card Stud, Razz, Hi-Lo) from a PHH file (reader :mod:`rules.engines.phh`),
    all or nothing.

    PHH players p1..pN become seats 1..N with the button on seat N; 1 PHH chip = 1 cent. The table must
    deal the file's game (``F7S``, ``FR``, ``F7S/8``) and its limit profile in force is the one the file was played under (the frozen
    snapshot must describe the hand truthfully): otherwise 400 ``phh_config_mismatch`` naming the keys
    that differ. A file the engine refuses is a 400 naming the action. The hand is opened at the date and
    time the file records (:func:`tables.services.phh_time.phh_recorded_at`: its own gaming day, never
    the import's). Then as :func:`hand_events_submit`.
    """
    from rules.engines.phh import loads_phh, replay_phh_hand
    from rules.registry import GAMES

    if table.game not in {g.name for g in GAMES if g.phh_variant}:
        raise ApplicationError(gettext_noop("a PHH file holds a Seven Card Stud hand; '%(table)s' deals %(get_game_display)s", table=table, get_game_display=table.get_game_display()),
                               code="phh_wrong_game")
    try:
        phh = loads_phh(text, name=gettext_noop("PHH file"))  # named in the reader's language
    except RuleViolation as exc:
        raise ApplicationError(exc.message, code=exc.code, extra=exc.as_dict()["extra"]) from None
    if phh.game != table.game:
        raise ApplicationError(gettext_noop("a PHH file holds a %(label)s hand; '%(table)s' deals %(get_game_display)s", label=phh.variant.label, table=table, get_game_display=table.get_game_display()), code="phh_wrong_game")
    try:
        replayed = replay_phh_hand(phh)
    except RuleViolation as exc:
        raise ApplicationError(exc.message, code=exc.code, extra=exc.as_dict()["extra"]) from None
    profile = limit_profile_in_force(table=table)
    if profile is None:
        raise ApplicationError(gettext_noop("table '%(table)s' has no limit profile in force: the floor must set its limits", table=table),
                               code="no_limit_profile")
    engine = get_engine(table.game)
    try:
        wanted = engine.config_to_dict(engine.build_config(profile.config))
    except RuleViolation as exc:
        raise ApplicationError(exc.message, code=exc.code, extra=exc.as_dict()["extra"]) from None
    played = engine.config_to_dict(replayed.config)
    differing = sorted(k for k in set(wanted) | set(played) if wanted.get(k) != played.get(k))
    if differing:
        details = _config_differences(table.game, differing, played, wanted)
        raise ApplicationError(gettext_noop("the PHH hand was played under other limits than the table's: %(details)s", details=details),
                               code="phh_config_mismatch", extra={"keys": differing})
    seats = [SeatInput(seat=seat, stack=stack) for seat, stack in sorted(phh.seats.items())]
    from tables.services.phh_time import phh_recorded_at

    return hand_events_submit(table=table, seats=seats, events=replayed.events, actor=actor,
                              idempotency_key=idempotency_key, source="phh", button_seat=phh.button,
                              opened_at=phh_recorded_at(text), profile=profile)


# --- close / void ---------------------------------------------------------------------------------------------


def _close_locked(locked: Hand, engine, state, actor, typed: HandView | None = None,
                  writes: sqlrows.Writes | None = None) -> Hand:
    """Close a locked (:func:`_lock`), complete hand: post its entry, move the button one occupied seat
    clockwise with the floor service (:func:`tables.services.floor.table_button_advance`, the engine's
    ``next_button``; not after a misdeal), mark its reconciliation due (``awaiting``, in this transaction: the
    sweep finds it whatever happens to the broker) and enqueue it on commit.

    Queries (issue 19: at most twice an ordinary action): the ledger's chain lock with the table's accounts, the
    chain's head with the new entry's id, then in one statement on PostgreSQL (:class:`casino.rows.Writes`) the
    writes already in ``writes`` (the closing event's INSERT), the entry (run first) and its legs, the button, one
    UPDATE of the hand row (status, close time, due reconciliation, event count and digest head) and one INSERT of
    its two audit rows."""
    from accounting.services.settlement import hand_settlement_post
    from accounting.tasks import reconcile_hand_enqueue

    writes = writes if writes is not None else sqlrows.Writes()
    settlement = engine.settlement(state)
    typed = typed if typed is not None else _typed_view(locked, state)
    entry = hand_settlement_post(hand=locked, settlement=settlement, actor=actor, writes=writes)
    button = None
    if not (typed.outcome is not None and typed.outcome.void):  # after a misdeal the button stays (B.4b, A.5.1, R12.1)
        button = table_button_advance(table=locked.table, occupied_seats=[int(s) for s in locked.seats],
                                      played_button=locked.button_seat, writes=writes)
    closed = status_transition(
        obj=locked, to=Hand.Status.CLOSED, allowed=Hand.ALLOWED, actor=actor, noun="hand", locked=True,
        extra_updates={"closed_at": timezone.now(), "reconciliation": Hand.Reconciliation.AWAITING,
                       "event_count": locked.event_count, "digest": locked.digest},
        audit_also=[{"action": "hand_close", "actor": actor,
                     "data": {"entry": entry.pk if entry else None, "next_button": button,
                              "events": locked.event_count}}], writes=writes)
    writes.send()
    reconcile_hand_enqueue(closed.pk)
    return closed


def hand_close(*, hand: Hand, actor) -> Hand:
    """Close a complete open hand: post its settlement entry, move the button, enqueue reconciliation.

    Raises :class:`ApplicationError`: the hand is closed/void already (``hand_closed``), or the engine
    does not consider it complete (``hand_not_complete``, naming whose turn it is).
    """
    with transaction.atomic():
        locked = _lock(hand)
        _logging_check_locked(locked, actor)
        if locked.status != Hand.Status.OPEN:
            raise _closed_error(locked)
        engine, state = hand_replay(hand=locked)
        if not engine.is_complete(state):
            unchanged = _state_extra(locked, engine, state)
            who = unchanged["state"].get("to_act")
            detail = (_("seat %(seat)s is to act") % {"seat": who} if who is not None
                      else _("the engine expects more events"))
            raise ApplicationError(_("%(hand)s is not finished: %(detail)s; log the rest or ask the floor to void it")
                                   % {"hand": locked.reference, "detail": detail}, code="hand_not_complete",
                                   extra={**unchanged, **locked.reference_extra})
        return _close_locked(locked, engine, state, actor)


def hand_void(*, hand: Hand, actor, reason: str) -> Hand:
    """Void an open hand (misdeal, irregularity): floor manager only, with a reason. One transaction.

    The house rules give every contribution back and take no tax (stud R12.4, Forty-one misdeal, Capsa
    A.5): a ``hand_void`` ledger entry records each seat's contribution and its refund. The button does
    not move (Forty-one B.4b). A closed hand is never voided (correct it with a reversing entry). Its
    reconciliation becomes due (``awaiting``) and is enqueued on commit, as for a closed hand.
    """
    from accounting.services.settlement import hand_void_post
    from accounting.tasks import reconcile_hand_enqueue

    if actor is None or not has_role(actor, FLOOR_MANAGER):
        raise ApplicationError(gettext_noop("only a floor manager may void a hand"), code="permission_denied", status_code=403)
    reason = (reason or "").strip()
    if not reason:
        raise ApplicationError(gettext_noop("voiding a hand needs a reason (e.g. \"misdeal: card exposed on the deal\")"),
                               code="reason_required")
    with transaction.atomic():
        locked = _lock(hand)
        if locked.status != Hand.Status.OPEN:
            raise _closed_error(locked)
        engine, state = hand_replay(hand=locked)
        contributions = engine.view(state).get("contributions") or {}
        voided = status_transition(obj=locked, to=Hand.Status.VOID, allowed=Hand.ALLOWED, actor=actor, reason=reason,
                                   noun="hand", locked=True,
                                   extra_updates={"closed_at": timezone.now(), "void_reason": reason,
                                                  "reconciliation": Hand.Reconciliation.AWAITING})
        hand_void_post(hand=voided, contributions=contributions, reason=reason, actor=actor)
        reconcile_hand_enqueue(voided.pk)
    return voided


# --- selectors ------------------------------------------------------------------------------------------------


def hand_list() -> QuerySet[Hand]:
    """Hands, newest first, with table, dealer and limit profile joined."""
    return Hand.objects.select_related("table", "dealer__user", "limit_profile", "opened_by")


def hand_event_list(*, hand: Hand) -> QuerySet[HandEvent]:
    """A hand's events in sequence order."""
    return HandEvent.objects.filter(hand=hand).select_related("created_by").order_by("seq")
