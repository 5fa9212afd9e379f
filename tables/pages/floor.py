"""``/floor/``: the live floor (one card per table, refreshed by htmx every few seconds), a table's page
(limits through the generated form, players' requests approved or rejected, floor calls resolved) and
the dealers' page (pushes with a reason and the no-dealer confirmation)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_POST

from casino.errors import ApplicationError
from casino.i18n import message_text
from casino.templatetags.money import money_in_text
from tables.limit_form import LimitConfigForm
from tables.models import Dealer, DealerAssignment, DealerPush, FloorCall, LimitChangeRequest, Table
from tables.pages.common import floor_only, next_path, refusal
from tables.selectors import limit_profile_in_force
from tables.selectors_floor import TableCard, floor_overview, floor_summary, waiting_lists
from tables.services.dealer_push import dealer_push
from tables.services.floor import (
    limit_change_request_approve,
    limit_change_request_create,
    limit_change_request_reject,
    limit_profile_create,
)
from tables.services.floor_calls import floor_call_resolve

#: Seconds between two refreshes of the live floor (a change shows within this time).
POLL_SECONDS = 3


def _hm(moment) -> str:
    return timezone.localtime(moment).strftime("%H:%M")


def card_texts(cards: list[TableCard]) -> list[TableCard]:
    """Put the words of each card on it (translated, times in local time), so that the template of 250
    cards stays a few lookups per card (bench/floor_page.py)."""
    statuses = {Table.Status.OPEN: _("open"), Table.Status.PAUSED: _("paused"),
                Table.Status.CLOSED: pgettext("table status", "closed")}
    games = dict(Table._meta.get_field("game").choices)
    base = reverse("floor:floor") + "tables/"
    # Translated once per render, not once per card.
    words = {"no_limits": _("no limits"), "next_from": _("next: %(label)s from %(time)s"),
             "until": _("until %(time)s"), "at": _("%(dealer)s at %(time)s"), "running": _("#%(n)s running"),
             "none_open": _("none open"), "this_hour": _("%(n)s this hour"),
             "none": pgettext("no dealer at the table", "none"),
             "seats": _("%(taken)s taken, %(free)s free"), "dealer": _("Dealer"), "next": _("Next"),
             "hand": _("Hand"), "seats_label": _("Seats"), "no_dealer": "⚠ " + _("Open without a dealer"),
             "call": _("Floor call"), "request": _("Limit request")}
    for c in cards:
        t = c.table
        c.key = str(t.pk)
        c.url = f"{base}{t.pk}/"
        c.status_label, c.game_label = statuses.get(t.status, t.status), games.get(t.game, t.game)
        c.limit_text = money_in_text(c.limit) or words["no_limits"]
        c.pending_text = (words["next_from"] % {"label": money_in_text(c.pending_limit), "time": _hm(c.pending_from)}
                          if c.pending_limit else "")
        c.facts = []
        if t.status != Table.Status.CLOSED:
            dealer = ((f"{c.dealer} " + words["until"] % {"time": _hm(c.dealer_until)}) if c.dealer_until
                      else c.dealer) if c.dealer else None
            nxt = words["at"] % {"dealer": c.next_dealer, "time": _hm(c.next_dealer_from)} if c.next_dealer else "–"
            hand = (words["running"] % {"n": c.open_hand}) if c.open_hand else words["none_open"]
            c.facts = [(words["dealer"], dealer or words["none"], dealer is None), (words["next"], nxt, False),
                       (words["hand"], hand + " · " + words["this_hour"] % {"n": c.hands_this_hour}, False),
                       (words["seats_label"], words["seats"] % {"taken": c.seats_taken, "free": c.seats_free}, False)]
        c.alert_items = []
        if c.without_dealer:
            c.alert_items.append(("err", words["no_dealer"]))
        for call in c.floor_calls:
            note = f" – {call.note[:40]}" if call.note else ""
            c.alert_items.append(("warn", f"☎ {words['call']}: {call.get_reason_display()}{note} ({_hm(call.created_at)})"))
        if c.discrepancies_today:
            c.alert_items.append(("err", "≠ " + ngettext("%(n)s discrepancy today", "%(n)s discrepancies today",
                                                         c.discrepancies_today) % {"n": c.discrepancies_today}))
        for label in c.pending_requests:
            c.alert_items.append(("warn", f"⇅ {words['request']}: {label}"))
        c.html = card_html(c)
    return cards


def card_html(c: TableCard) -> str:
    """One card's HTML, escaped by ``format_html``. Built here rather than by a template include because
    the floor renders 250 of them every few seconds (the template engine took most of the 200 ms budget,
    bench/floor_page.py); the markup is the same as ``_card.html`` had."""
    facts = format_html_join("", "<dt>{}</dt><dd{}>{}</dd>",
                             ((label, mark_safe(' class="alert-text"') if alert else "", value)
                              for label, value, alert in c.facts))
    alerts = format_html_join("", '<li class="alert {}">{}</li>', c.alert_items)
    return format_html(
        '<article class="tcard status-{status}{alerting}" id="table-{key}" aria-labelledby="t{key}-name">'
        '<header><h2 id="t{key}-name"><a href="{url}">{name}</a></h2><span class="badge status">{status_label}</span>'
        '</header><p class="game">{game} · <strong class="limit">{limit}</strong>{pending}</p>{facts}{alerts}</article>',
        status=c.table.status, alerting=" has-alerts" if c.alert_items else "", key=c.key, url=c.url,
        name=c.table.name, status_label=c.status_label, game=c.game_label, limit=c.limit_text,
        pending=format_html(' <span class="badge warn">{}</span>', c.pending_text) if c.pending_text else "",
        facts=format_html('<dl class="facts">{}</dl>', facts) if c.facts else "",
        alerts=format_html('<ul class="alerts">{}</ul>', alerts) if c.alert_items else "")


@floor_only
def floor_page(request):
    """``GET /floor/``: the whole floor; an htmx request gets only the cards (the poll)."""
    cards = card_texts(floor_overview())
    context = {"cards": cards, "summary": floor_summary(cards), "lists": waiting_lists(), "poll": POLL_SECONDS,
               "now": timezone.now()}
    template = "tables/floor/_cards.html" if request.htmx else "tables/floor/floor.html"
    return render(request, template, context)


def _table_context(request, table: Table, **extra):
    card = card_texts(floor_overview(tables=Table.objects.filter(pk=table.pk)))[0]
    current = limit_profile_in_force(table=table)
    config = current.config if current else {}
    dealers = Dealer.objects.select_related("user").filter(active=True)
    return {"card": card, "table": table,
            "limit_form": extra.pop("limit_form", None) or LimitConfigForm(game=table.game, initial_config=config,
                                                                         prefix="limits"),
            "request_form": extra.pop("request_form", None) or LimitConfigForm(game=table.game, initial_config=config,
                                                                             prefix="request"),
            "dealers": [d for d in dealers if d.may_deal(table.game)],
            "requests": LimitChangeRequest.objects.filter(table=table).select_related("requested_by",
                                                                                      "decided_by")[:10],
            "pushes": DealerPush.objects.filter(table=table).select_related("dealer__user", "actor")[:8],
            **extra}


@floor_only
def table_page(request, pk: int):
    """``GET /floor/tables/<id>/``: one table: its card, limits form, requests, dealer pushes, floor calls."""
    table = get_object_or_404(Table, pk=pk)
    return render(request, "tables/floor/table.html", _table_context(request, table))


@floor_only
@require_POST
def table_limits(request, pk: int):
    """``POST /floor/tables/<id>/limits/``: a new limit version from the table's next hand (or, with
    ``as_request``, a players' request to decide on). Every error of the form is shown at once."""
    table = get_object_or_404(Table, pk=pk)
    as_request = "as_request" in request.POST
    prefix = "request" if as_request else "limits"
    current = limit_profile_in_force(table=table)
    form = LimitConfigForm(request.POST, game=table.game, initial_config=current.config if current else {},
                           prefix=prefix)
    if form.is_valid():
        try:
            if as_request:
                limit_change_request_create(table=table, requested_config=form.config, actor=request.user,
                                            limit_label=form.cleaned_data["limit_label"],
                                            note=form.cleaned_data["reason"])
                messages.success(request, _("The players' request is recorded; approve or reject it below."))
            else:
                profile = limit_profile_create(table=table, config=form.config, actor=request.user,
                                               limit_label=form.cleaned_data["limit_label"],
                                               reason=form.cleaned_data["reason"])
                messages.success(request, _("New limits %(label)s apply from the next hand.")
                                 % {"label": profile.limit_label})
            return redirect("floor:table", pk=table.pk)
        except ApplicationError as err:
            form.add_error(None, message_text(err.message))
    key = "request_form" if as_request else "limit_form"
    return render(request, "tables/floor/table.html", _table_context(request, table, **{key: form, "open_form": key}),
                  status=400)


@floor_only
@require_POST
def request_decide(request, pk: int, decision: str):
    """``POST /floor/requests/<id>/approve/`` or ``.../reject/`` with an optional note."""
    if decision not in ("approve", "reject"):
        raise Http404
    req = get_object_or_404(LimitChangeRequest, pk=pk)
    note = request.POST.get("note", "")
    try:
        if decision == "approve":
            limit_change_request_approve(request=req, actor=request.user, decision_note=note)
            messages.success(request, _("Approved: %(label)s from the next hand.") % {"label": req.limit_label})
        else:
            limit_change_request_reject(request=req, actor=request.user, decision_note=note)
            messages.success(request, _("Rejected: %(label)s.") % {"label": req.limit_label})
    except ApplicationError as err:
        refusal(request, err)
    return redirect(next_path(request, reverse("floor:table", args=[req.table_id])))


@floor_only
@require_POST
def call_resolve(request, pk: int):
    """``POST /floor/calls/<id>/resolve/``: the floor dealt with a call."""
    call = get_object_or_404(FloorCall, pk=pk)
    try:
        floor_call_resolve(call=call, actor=request.user, note=request.POST.get("note", ""))
        messages.success(request, _("Floor call at %(table)s resolved.") % {"table": call.table.name})
    except ApplicationError as err:
        refusal(request, err)
    return redirect(next_path(request, reverse("floor:floor")))


def _dealers_context(**extra):
    now = timezone.now()
    dealers = list(Dealer.objects.select_related("user").filter(active=True))
    running = {a.dealer_id: a for a in DealerAssignment.objects.select_related("table").filter(start__lte=now)
               .exclude(end__lte=now)}
    nxt: dict[int, DealerAssignment] = {}
    for a in DealerAssignment.objects.select_related("table").filter(start__gt=now).order_by("-start"):
        nxt[a.dealer_id] = a
    rows = [{"dealer": d, "now": running.get(d.pk), "next": nxt.get(d.pk)} for d in dealers]
    return {"rows": rows, "tables": Table.objects.exclude(status=Table.Status.CLOSED),
            "pushes": DealerPush.objects.select_related("dealer__user", "table", "actor", "uncovered_table")[:15],
            "kinds": DealerPush.Kind.choices, **extra}


@floor_only
def dealers_page(request):
    """``GET /floor/dealers/``: who deals where now and next; push a dealer (assign, relieve, break)."""
    return render(request, "tables/floor/dealers.html", _dealers_context())


@floor_only
@require_POST
def dealer_push_view(request):
    """``POST /floor/dealers/push/``: ``dealer``, ``kind``, ``table``, ``reason``, ``confirm``. A push that
    leaves an open table without a dealer comes back asking to confirm, naming the table."""
    dealer = get_object_or_404(Dealer, pk=request.POST.get("dealer") or 0)
    table = Table.objects.filter(pk=request.POST.get("table") or 0).first()
    back = next_path(request, reverse("floor:dealers"))
    try:
        push = dealer_push(dealer=dealer, kind=request.POST.get("kind", ""), table=table,
                           reason=request.POST.get("reason", ""), actor=request.user,
                           confirm_uncovered=request.POST.get("confirm") == "yes")
    except ApplicationError as err:
        if err.code == "needs_confirmation":
            return render(request, "tables/floor/confirm_push.html",
                          {"post": request.POST, "message": message_text(err.message), "dealer": dealer, "next": back}, status=409)
        refusal(request, err)
        return redirect(back)
    done = {"dealer": dealer, "kind": push.get_kind_display(), "reason": push.reason, "table": push.table,
            "time": timezone.localtime(push.at).strftime("%H:%M")}
    messages.success(request, (_("%(dealer)s: %(kind)s: %(table)s (%(reason)s) at %(time)s.") if push.table
                               else _("%(dealer)s: %(kind)s (%(reason)s) at %(time)s.")) % done)
    return redirect(back)
