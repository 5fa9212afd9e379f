"""The croupier's table screen (issue 15): ``/croupier/`` and the table page for a tablet at the table.

Long module: the table screen's views (open a hand, log one event, Capsa's whole deal, the floor call)
render one hand fragment through shared page helpers (the hand's context, the duty check, a refusal's
message); split, the pages would import each other's private helpers.

Views translate only (STYLE.md 9): they read the form, call the same services as the hand API
(:mod:`tables.services.hands`: ``hand_open``, ``hand_event_append``, ``hand_events_submit``) and render the
engine's answer through the one adapter :mod:`tables.pages.croupier_view`. For an htmx request they
render only the ``#hand`` fragment; a refused action answers 200 with the unchanged hand and the
engine's message, so the page always shows the current state.

Who may open what: ``/croupier/`` is the croupier's place (floor managers and accountants are sent to
their own); a table page and its posts need the croupier on duty at that table now (403 otherwise,
the same check as the API's).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from casino.errors import ApplicationError, ConflictError
from casino.i18n import gettext_noop, message_text
from casino.money import MoneyInputError, cents_input_check, format_money, parse_money_input
from casino.roles import ACCOUNTANT, CROUPIER, FLOOR_MANAGER, has_role
from rules.engines.errors import RuleViolation
from rules.engines.money import to_cents
from tables.models import DealerAssignment, Hand, HandEvent, Table
from tables.pages import croupier_view as cv
from tables.selectors import limit_profile_in_force
from tables.services.floor import table_button_for_next_hand
from tables.services.hands import (
    SeatInput,
    croupier_assigned_now,
    hand_event_append,
    hand_events_submit,
    hand_open,
    hand_replay,
    hand_state,
    hand_void_views,
    limit_changes,
)
from tables.services.waiting_list import seat_offers_for

#: Event form fields the page sends besides ``type`` (amounts in EUR as typed, or whole cents from the
#: spread-limit picker; cards as repeated ``card`` fields).
SEAT_FIELD, TO_FIELD, TO_CENTS_FIELD, CARD_FIELD = "seat", "to", "to_cents", "card"
#: Events whose one card is sent as ``card`` (the others take ``cards``).
SINGLE_CARD_EVENTS = frozenset({"deal_community", "burn", "card_exposed"})


# --- places and permissions ----------------------------------------------------------------------------


def _own_place(user) -> str | None:
    """Where a non-croupier goes instead of ``/croupier/`` (their own role's place)."""
    if has_role(user, CROUPIER):
        return None
    if has_role(user, FLOOR_MANAGER):
        return "/floor/"
    if has_role(user, ACCOUNTANT):
        return "/accounting/"
    return "/"


def _tables_on_duty(user) -> list[Table]:
    """The tables ``user`` is the dealer on duty at now (the latest live assignment at each table)."""
    now = timezone.now()
    candidates = (Table.objects.filter(assignments__dealer__user=user, assignments__start__lte=now)
                  .filter(Q(assignments__end__isnull=True) | Q(assignments__end__gt=now)).distinct().order_by("name"))
    return [t for t in candidates if croupier_assigned_now(table=t, user=user)]


def _forbidden(request: HttpRequest, table: Table | None) -> HttpResponse:
    context = {"table": table, "floor_names": _floor_names()}
    return render(request, "tables/croupier/not_on_duty.html", context, status=403)


def _floor_names() -> list[str]:
    users = get_user_model().objects.filter(groups__name=FLOOR_MANAGER, is_active=True).order_by("username")
    return [u.get_full_name() or u.get_username() for u in users[:5]]


def _table_for(request: HttpRequest, table_id: int) -> Table | HttpResponse:
    """The table if the signed-in croupier is on duty there now, else the response to send."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise Http404
    place = _own_place(request.user)
    if place is not None and not has_role(request.user, CROUPIER):
        if request.method == "GET":
            return redirect(place)
        return _forbidden(request, table)
    if not croupier_assigned_now(table=table, user=request.user):
        return _forbidden(request, table)
    return table


@login_required
@require_GET
def croupier_home(request: HttpRequest) -> HttpResponse:
    """``GET /croupier/``: the tables the croupier is on duty at now; other roles go to their own place."""
    place = _own_place(request.user)
    if place is not None:
        return redirect(place)
    tables = _tables_on_duty(request.user)
    upcoming = (DealerAssignment.objects.select_related("table").filter(dealer__user=request.user,
                                                                        start__gt=timezone.now())
                .order_by("start")[:3])
    return render(request, "tables/croupier/home.html",
                  {"tables": tables, "upcoming": upcoming, "floor_names": _floor_names()})


# --- the table page ------------------------------------------------------------------------------------


def _open_hand(table: Table) -> Hand | None:
    return Hand.objects.filter(table=table, status=Hand.Status.OPEN).order_by("-number").first()


def _last_hand(table: Table) -> Hand | None:
    return (Hand.objects.filter(table=table).exclude(status=Hand.Status.OPEN).select_related("limit_profile")
            .order_by("-number").first())


def _views(hand: Hand, events: list[dict[str, Any]], *, status: str) -> tuple[Any, dict[str, Any]]:
    """``(typed view, engine view)`` of ``hand`` after ``events``, from one replay (the service's
    ``hand_replay``): the game's one typed view (its registry entry's ``hand_view``) and the engine's own view
    with the hand's ``status`` and ``event_count``."""
    from rules.registry import get_game

    engine, state = hand_replay(hand=hand, events=events)
    answer = dict(engine.view(state)) | {"status": status, "event_count": len(events)}
    typed = get_game(hand.game).hand_view(state)
    if status == Hand.Status.VOID:  # a void hand shows its void, as the API and its ledger entry
        return hand_void_views(hand, typed, answer)
    return typed, answer


def _table_view(hand: Hand, table: Table | None, events: list[dict[str, Any]], *, status: str) -> cv.TableView:
    typed, answer = _views(hand, events, status=status)
    return cv.table_view(game=hand.game, typed=typed, state=answer, events=events, seats=hand.seats,
                         record_down_cards=bool(table and table.record_down_cards), limits=hand.limit_snapshot)


def _stored_events(hand: Hand) -> list[dict[str, Any]]:
    return list(HandEvent.objects.filter(hand_id=hand.pk).order_by("seq").values_list("payload", flat=True))


def _hand_context(hand: Hand, state: dict[str, Any], table: Table) -> dict[str, Any]:
    """The page's context for ``hand`` as stored now (one query for its events, one replay): whatever the
    service answered (a replayed tap, a refusal, a stale sequence), the screen shows the current state.
    ``state`` gives the hand's ``status`` after the service call."""
    events = _stored_events(hand)
    typed, answer = _views(hand, events, status=str(state.get("status") or hand.status))
    view = cv.table_view(game=hand.game, typed=typed, state=answer, events=events, seats=hand.seats,
                         record_down_cards=table.record_down_cards, limits=hand.limit_snapshot)
    context: dict[str, Any] = {"hand": hand, "view": view, "table": table, "ranks": cv.ranks_for(hand.game),
                               "suits": cv.SUIT_KEYS, "limit_label": _limit_label(hand)}
    if view.complete or answer["status"] != Hand.Status.OPEN:
        context.update(_next_hand_context(table, last=hand, outcome=view.outcome))
    if view.house_take == "fee" and answer.get("expect") in ("deal", "set"):  # Capsa: the whole deal at once
        context["capsa_form"] = _capsa_form_context(hand, answer)
    return context


def _limit_label(hand: Hand) -> str:
    profile = hand.limit_profile
    return f"{profile.limit_label} (v{profile.version})" if profile else ""


def _next_hand_context(table: Table, *, last: Hand | None, outcome=None) -> dict[str, Any]:
    """The next-hand form: seats and stacks carried over from ``last`` (start + net), the limits in force,
    a notice when the floor changed them since ``last``, and the button/forehand the rules give."""
    carried: dict[int, int] = {}
    if last is not None:
        if outcome is None:
            try:
                outcome = _table_view(last, None, _stored_events(last), status=last.status).outcome
            except RuleViolation:
                outcome = None
        for seat, info in last.seats.items():
            carried[int(seat)] = int(info["stack"])
        if outcome is not None and not outcome.void:
            carried = {row["seat"]: row["final"] for row in outcome.rows}
    profile = limit_profile_in_force(table=table)
    changed = last is not None and profile is not None and last.limit_profile_id != profile.pk
    occupied = [s for s, stack in carried.items() if stack > 0]
    try:
        button = table_button_for_next_hand(table=table, occupied_seats=occupied) if occupied else None
    except ApplicationError:
        button = None
    rows = [{"seat": n, "seated": carried.get(n, 0) > 0, "stack": format_money(carried[n], grouping=False) if carried.get(n) else ""}
            for n in range(1, table.seats + 1)]
    offers = {e.seat: e.player_ref for e in seat_offers_for(table=table)}  # seats the floor gave from the list
    for row in rows:
        row["offer"] = offers.get(row["seat"], "")
    what_changed = (message_text(limit_changes(table.game, last.limit_profile.config, profile.config))
                    if changed and last.limit_profile is not None else "")
    changed = changed and bool(what_changed)  # a new version with the last hand's values changes nothing
    return {"next_rows": rows, "next_profile": profile, "limits_changed": changed, "limits_what_changed": what_changed,
            "next_take": cv.house_take(table.game),
            "last_profile": last.limit_profile if last is not None else None, "next_button": button,
            "last_hand": last}


@login_required
@require_GET
def croupier_table(request: HttpRequest, table_id: int) -> HttpResponse:
    """``GET /croupier/tables/<id>/``: the table page (the open hand, or the next-hand form)."""
    table = _table_for(request, table_id)
    if isinstance(table, HttpResponse):
        return table
    return _render_table(request, table, notice=request.GET.get("notice"))


def _render_table(request: HttpRequest, table: Table, *, error: dict | None = None, notice: str | None = None,
                  status: int = 200, next_rows: list[dict[str, Any]] | None = None) -> HttpResponse:
    """The table page (or its ``#hand`` fragment for htmx); ``next_rows``: the next-hand form's rows as the
    croupier posted them (kept after a refusal)."""
    hand = _open_hand(table)
    if hand is not None:
        context = _hand_context(hand, {"status": hand.status}, table)
    else:
        last = _last_hand(table)
        context = {"hand": None, "view": None, "table": table}
        context.update(_next_hand_context(table, last=last))
        if last is not None:
            try:
                context["view"] = _table_view(last, table, _stored_events(last), status=last.status)
                context["hand"] = last
                context["limit_label"] = _limit_label(last)
            except RuleViolation:
                pass
    if next_rows is not None:
        for row in next_rows:  # the waiting-list offers stay marked
            row["offer"] = next((r.get("offer", "") for r in context.get("next_rows", []) if r["seat"] == row["seat"]), "")
        context["next_rows"] = next_rows
    context.update({"error": error, "notice": notice})
    if not request.htmx:
        context.update(_floor_call_context(table))
    template = "tables/croupier/_hand.html" if request.htmx else "tables/croupier/table.html"
    return render(request, template, context, status=status)


# --- opening the next hand -----------------------------------------------------------------------------


def _next_hand_input(post, table: Table) -> tuple[list[SeatInput], dict[int, str], list[dict[str, Any]]]:
    """The next-hand form as posted: ``(seats, field errors by seat, rows)``. Every ticked seat's stack is
    read (EUR as the language writes it -> cents) and every bad one reported at once; ``rows`` are the form's
    rows as the croupier left them (ticks and typed stacks kept, each with its error) to show again."""
    seats: list[SeatInput] = []
    errors: dict[int, str] = {}
    rows = []
    for n in range(1, table.seats + 1):
        ticked, raw = bool(post.get(f"seat_{n}")), post.get(f"stack_{n}", "").strip()
        if ticked:
            try:
                cents = to_cents(parse_money_input(raw, field=_("seat %(n)s stack") % {"n": n}))
                if cents <= 0:
                    raise MoneyInputError(_("seat %(seat)s: the stack must be more than 0.00") % {"seat": n})
                seats.append(SeatInput(seat=n, stack=cents))
            except (MoneyInputError, RuleViolation) as exc:
                errors[n] = str(getattr(exc, "message", exc))
        rows.append({"seat": n, "seated": ticked, "stack": raw, "error": errors.get(n, "")})
    return seats, errors, rows


def _players_error(table: Table, ticked: int) -> str | None:
    """The refusal when ``ticked`` players cannot be dealt the table's game (the game's range, at most the
    table's seats); the limit version may narrow it further, which the hand service checks."""
    from tables.models import SEAT_RANGE

    low, high = SEAT_RANGE.get(table.game, (2, table.seats))
    high = min(high, table.seats)
    if low <= ticked <= high:
        return None
    return _("%(game)s is dealt to %(low)s to %(high)s players; %(n)s seated") % {
        "game": table.get_game_display(), "low": low, "high": high, "n": ticked}


@login_required
@require_POST
def croupier_hand_open(request: HttpRequest, table_id: int) -> HttpResponse:
    """``POST /croupier/tables/<id>/hands/``: open the next hand with the seats ticked and their stacks (EUR).

    A refusal shows every problem of the form at once (each bad stack next to its seat, a player count the
    game cannot be dealt to, then the hand service's refusal) and the form as the croupier left it."""
    table = _table_for(request, table_id)
    if isinstance(table, HttpResponse):
        return table
    seats, field_errors, rows = _next_hand_input(request.POST, table)
    problems = list(field_errors.values())
    count = _players_error(table, len(seats) + len(field_errors))
    if count:
        problems.append(count)
    if problems:
        return _render_table(request, table, error={"messages": problems, "code": "invalid_seats", "form": True},
                             next_rows=rows)
    try:
        hand_open(table=table, seats=seats, actor=request.user)
    except ConflictError:
        return _render_table(request, table, notice=_("This hand was already opened (on this or another terminal)."))
    except (ApplicationError, RuleViolation) as exc:
        return _render_table(request, table, error=_error(exc, table.game) | {"form": True}, next_rows=rows)
    return _render_table(request, table)


# --- logging one event ---------------------------------------------------------------------------------


def _event_from_post(post, game: str) -> dict[str, Any]:
    """The engine event of a tapped button: ``type``, ``seat``, ``to`` (EUR as the language writes it -> cents), cards joined from the
    repeated ``card`` fields (``??`` kept), ``face`` (a stud card dealt face up by accident, R12.2); a ``misdeal``
    (Forty-one, a card exposed on the deal, B.4b) carries its ``reason`` with the exposed card named. Raises ``MoneyInputError`` (an ``ApplicationError``) for a bad amount."""
    kind = (post.get("type") or "").strip()
    event: dict[str, Any] = {"type": kind}
    if post.get(SEAT_FIELD):
        try:
            event["seat"] = int(post[SEAT_FIELD])
        except ValueError:
            event["seat"] = post[SEAT_FIELD]
    if post.get(TO_CENTS_FIELD):  # the spread-limit picker sends whole cents
        try:
            cents = int(post[TO_CENTS_FIELD])
        except ValueError:
            raise MoneyInputError(_("amount: %(text)s is not an amount") % {"text": post[TO_CENTS_FIELD][:20]}) from None
        # bounded as a typed amount is: a negative or a 25-digit value is told in EUR, not in raw cents
        event["to"] = cents_input_check(cents, field=_("amount"))
    elif post.get(TO_FIELD):
        event["to"] = to_cents(parse_money_input(post[TO_FIELD], field=_("amount")))
    cards = [c.strip() for c in post.getlist(CARD_FIELD) if c.strip()]
    if post.get("face") in ("up", "down"):
        event["face"] = post["face"]  # a stud down card dealt face up: the exposure of R12.2
    if kind == "misdeal":  # Forty-one: a card exposed on the deal (B.4b); the card is named in the reason
        reason = (post.get("reason") or "").strip()[:200]
        event["reason"] = ": ".join(p for p in (reason, " ".join(cards)) if p)
        return event
    if cards:
        event["card" if kind in SINGLE_CARD_EVENTS else "cards"] = " ".join(cards)
    return event


#: The engines' "amount is missing" reasons name the API's field ('to'); the page names the amount box instead.
_AMOUNT_MISSING = {
    "the amount is missing (give '%(key)s': %(meaning)s)":
        gettext_noop("the amount is missing (please enter the amount: %(meaning)s)", meaning="").template,
    "%(kind)s event: the amount is missing (give 'to': the seat's total bet in this round after the action)":
        gettext_noop("%(kind)s event: the amount is missing (please enter the amount: the seat's total bet in this "
                     "round after the action)", kind="").template,
}


def _page_words(message: Any) -> Any:
    """``message`` (an engine :class:`~rules.engines.messages.Message`) with every "amount is missing" reason in
    the page's words: the amount box, not the API's field name ("bitte den Betrag angeben", not "bitte 'to'")."""
    from rules.engines.messages import Message

    if not isinstance(message, Message):
        return message
    params = {key: _page_words(value) for key, value in message.params.items()}
    template = _AMOUNT_MISSING.get(message.template, message.template)
    if template is not message.template:
        params.pop("key", None)
    return Message(template, params, message.context)


def _message_text(exc: Exception) -> str:
    """The refusal's text in the reader's language: an engine message (template + parameters, see
    :mod:`rules.engines.messages`) rendered through the catalogue, amounts in the language's number
    format; the hand service wraps the engine error, whose original is the wrapper's context."""
    from rules.engines.messages import Message

    original = exc if isinstance(exc, RuleViolation) else exc.__context__
    message = getattr(original, "message", None)
    if isinstance(original, RuleViolation) and isinstance(message, Message) and str(message) == str(
            getattr(exc, "message", message)):
        return message_text(_page_words(message))
    return message_text(_page_words(getattr(exc, "message", None)) or str(exc))


def _error(exc: Exception, game: str) -> dict[str, Any]:
    """A refusal as the page shows it: the message, its code and the rule (linked to the rule's text)."""
    message = _message_text(exc)
    extra = getattr(exc, "extra", {}) or {}
    rule = extra.get("rule") or getattr(exc, "rule", None)
    return {"message": message, "code": getattr(exc, "code", "invalid"), "rule": rule,
            "rule_url": cv.rule_url(game, rule)}


@login_required
@require_POST
def croupier_event(request: HttpRequest, hand_id: int) -> HttpResponse:
    """``POST /croupier/hands/<id>/events/``: log one tapped action through ``hand_event_append`` (the service
    of ``POST /api/v1/hands/{id}/events/``) with the tap's idempotency key and the expected sequence.

    A retry with the same key logs nothing new; a stale ``expected_seq`` shows the current state with the
    notice that another terminal logged; a refused action shows the engine's message, the hand unchanged.
    """
    hand = Hand.objects.select_related("table", "limit_profile").filter(pk=hand_id).first()
    if hand is None:
        raise Http404
    table = hand.table  # who may log is checked by the service, under the hand's row lock (403 below)
    key = (request.POST.get("idempotency_key") or "").strip()
    try:
        expected = int(request.POST.get("expected_seq", ""))
    except ValueError:
        expected = None
    notice = error = None
    try:
        event = _event_from_post(request.POST, hand.game)
        _record, state = hand_event_append(hand=hand.pk, event=event, idempotency_key=key, expected_seq=expected,
                                           actor=request.user)
        if state.pop("replayed", False):
            notice = _("That tap was already logged; nothing was logged twice.")
    except ConflictError as exc:
        state = exc.extra.get("state") or {"status": hand.status}
        if exc.code == "stale_sequence":
            notice = _("Another terminal logged at this hand in between: this is the current state. "
                       "Check it and tap again.")
        else:
            error = _error(exc, hand.game)
    except (ApplicationError, RuleViolation) as exc:
        if getattr(exc, "status_code", 400) == 403:
            return _forbidden(request, table)
        state = getattr(exc, "extra", {}).get("state") or {"status": hand.status}
        error = _error(exc, hand.game)
    hand.status = state.get("status", hand.status)
    if hand.status != Hand.Status.OPEN:
        table.refresh_from_db(fields=["button_seat"])  # the close moved the button / forehand
    context = _hand_context(hand, state, table)
    context.update({"error": error, "notice": notice})
    return render(request, "tables/croupier/_hand.html", context)


# --- Capsa: the whole deal, previewed then confirmed ---------------------------------------------------


def _capsa_form_context(hand: Hand, state: dict[str, Any]) -> dict[str, Any]:
    snapshot = hand.limit_snapshot or {}
    _dealt, to_enter = cv.capsa_pending(state)
    natural = bool(snapshot.get("naturals_enabled", True)) and snapshot.get("natural_declaration") == "optional"
    return {"seats": to_enter, "surrender": bool(snapshot.get("surrender_enabled")), "natural": natural,
            "rows": (("front", 3), ("middle", 5), ("back", 5))}


def _capsa_settings(post, seats: list[int]) -> dict[int, dict[str, str]]:
    out = {}
    for seat in seats:
        out[seat] = {row: " ".join(c.strip() for c in post.getlist(f"{row}_{seat}") if c.strip())
                     for row in ("front", "middle", "back")}
    return out


def _capsa_events(hand: Hand, table: Table, post) -> list[dict[str, Any]]:
    """Every event still to log for the deal as entered: the deals of the seats not yet dealt, the settings
    the engine waits for, then the surrender round and the reveal as the engine's view asks for them
    (replayed through the service's ``hand_replay``; a refusal raises and nothing is logged)."""
    stored = list(HandEvent.objects.filter(hand_id=hand.pk).order_by("seq").values_list("payload", flat=True))
    engine, state = hand_replay(hand=hand, events=stored)
    dealt, to_enter = cv.capsa_pending(engine.view(state))
    settings = _capsa_settings(post, to_enter)
    surrenders = {s for s in (int(x) for x in hand.seats) if post.get(f"surrender_{s}")}
    naturals = {s for s in to_enter if post.get(f"natural_{s}")}
    events = cv.capsa_deal_events(settings=settings, dealt=dealt)
    for event in events:
        state = engine.apply(state, event)
    declared = cv.capsa_natural_events(seats=naturals, awaiting=engine.view(state).get("awaiting") or [])
    for event in declared:
        state = engine.apply(state, event)
    sets = cv.capsa_set_events(settings={s: rows for s, rows in settings.items() if s not in naturals},
                               awaiting=engine.view(state).get("awaiting") or [])
    for event in sets:
        state = engine.apply(state, event)
    events += declared + sets
    for _i in range(2 * len(hand.seats) + 2):
        nxt = cv.capsa_next_event(engine.view(state), surrenders)
        if nxt is None:
            break
        state = engine.apply(state, nxt)
        events.append(nxt)
    return events


@login_required
@require_POST
def croupier_capsa(request: HttpRequest, hand_id: int) -> HttpResponse:
    """``POST /croupier/hands/<id>/capsa/``: ``action=preview`` shows what the engine makes of the settings
    entered (fouls, naturals, royalties, units, money) without logging; ``action=confirm`` logs the whole
    deal at once through ``hand_events_submit`` (the service of ``POST /api/v1/hands/{id}/events/batch/``)
    with the tap's idempotency key."""
    hand = Hand.objects.select_related("table", "limit_profile").filter(pk=hand_id).first()
    if hand is None:
        raise Http404
    table = _table_for(request, hand.table_id)
    if isinstance(table, HttpResponse):
        return table
    error = preview = notice = None
    state = None
    try:
        events = _capsa_events(hand, table, request.POST)
        if request.POST.get("action") == "confirm":
            key = (request.POST.get("idempotency_key") or "").strip()[:100]
            if not events:  # a resent or repeated Confirm (same key or a reloaded page's new one): nothing is left
                notice = _("That tap was already logged; nothing was logged twice.")
            else:
                hand, state = hand_events_submit(hand=hand, events=events, idempotency_key=key, actor=request.user)
                if state.pop("replayed", False):
                    notice = _("That tap was already logged; nothing was logged twice.")
        else:
            stored = list(HandEvent.objects.filter(hand_id=hand.pk).order_by("seq").values_list("payload", flat=True))
            engine, dry = hand_replay(hand=hand, events=stored + events)
            preview = _table_view(hand, table, stored + events, status=hand.status)
    except (ApplicationError, RuleViolation) as exc:
        if getattr(exc, "status_code", 400) == 403:
            return _forbidden(request, table)
        error = _error(exc, hand.game)
    if state is None:
        state = hand_state(hand=hand)
    if hand.status != Hand.Status.OPEN:
        table.refresh_from_db(fields=["button_seat"])  # the close moved the button
    context = _hand_context(hand, state, table)
    context.update({"error": error, "notice": notice, "preview": preview, "entered": _capsa_settings(request.POST, sorted(
        int(s) for s in hand.seats)), "surrendered": [int(s) for s in hand.seats if request.POST.get(f"surrender_{s}")],
        "naturals": [int(s) for s in hand.seats if request.POST.get(f"natural_{s}")]})
    return render(request, "tables/croupier/_hand.html", context)


# --- calling the floor ---------------------------------------------------------------------------------


def _floor_call_context(table: Table) -> dict[str, Any]:
    from tables.models import FloorCall

    return {"table": table, "floor_reasons": FloorCall.Reason.choices,
            "open_calls": list(FloorCall.objects.filter(table=table, status=FloorCall.Status.OPEN)
                               .order_by("-created_at")[:3])}


@login_required
@require_POST
def croupier_floor_call(request: HttpRequest, table_id: int) -> HttpResponse:
    """``POST /croupier/tables/<id>/floor-call/``: record a floor call (reason, optional note, the open hand)
    through ``floor_call_create``; the floor manager sees it on ``/floor/``. A second press for the same
    reason while the call is open pages nobody twice (the service returns the open call)."""
    from tables.services.floor_calls import floor_call_create

    table = _table_for(request, table_id)
    if isinstance(table, HttpResponse):
        return table
    context = _floor_call_context(table)
    try:
        call = floor_call_create(table=table, reason=request.POST.get("reason", ""), actor=request.user,
                                 hand=_open_hand(table), note=request.POST.get("note", ""))
        context.update(_floor_call_context(table))
        context["called"] = call
    except ApplicationError as exc:
        context["call_error"] = exc.message
    return render(request, "tables/croupier/_floor_call.html", context)
