"""``/floor/list/`` (the floor keeps the list) and ``/floor/board/`` (the public board: no login, read
only, initials only, refreshes itself)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from casino.errors import ApplicationError
from tables.models import Game, LimitProfile, Table, WaitingListEntry
from tables.pages.common import floor_only, refusal
from tables.selectors_floor import waiting_lists
from tables.services import waiting_list as wl

BOARD_POLL_SECONDS = 5


def _limit_labels() -> list[str]:
    return sorted(set(LimitProfile.objects.values_list("limit_label", flat=True).distinct()))


@floor_only
def list_page(request):
    """``GET /floor/list/``: the lists per game and limit with their actions; ``POST``: add a player."""
    status = 200
    if request.method == "POST":
        try:
            entry = wl.waiting_list_add(game=request.POST.get("game", ""), limit_label=request.POST.get("limit", ""),
                                        player_ref=request.POST.get("player_ref", ""), actor=request.user,
                                        note=request.POST.get("note", ""))
            messages.success(request, _("%(ref)s is on the list for %(game)s %(limit)s.")
                             % {"ref": entry.player_ref, "game": entry.get_game_display(), "limit": entry.limit_label})
            return redirect("floor:list")
        except ApplicationError as err:
            refusal(request, err)
            status = 400
    tables = list(Table.objects.filter(status=Table.Status.OPEN).order_by("name"))
    groups = waiting_lists()
    for g in groups:
        g["tables"] = [t for t in tables if t.game == g["game"]]
    return render(request, "tables/floor/list.html",
                  {"groups": groups, "games": Game.choices, "limits": _limit_labels(), "post": request.POST},
                  status=status)


@floor_only
@require_POST
def list_action(request, pk: int, action: str):
    """``POST /floor/list/<id>/<call|seat|remove|up|down|front>/``."""
    if action not in ("call", "seat", "remove", "up", "down", "front"):
        raise Http404
    entry = get_object_or_404(WaitingListEntry, pk=pk)
    table = Table.objects.filter(pk=request.POST.get("table") or 0).first()
    try:
        if action in ("call", "seat") and table is None:
            raise ApplicationError(_("Choose the table."), extra={"field": "table"})
        if action == "call":
            wl.waiting_list_call(entry=entry, table=table, actor=request.user)
            messages.success(request, _("%(ref)s called to %(table)s.") % {"ref": entry.player_ref, "table": table})
        elif action == "seat":
            seat = request.POST.get("seat", "")
            wl.waiting_list_seat(entry=entry, table=table, seat=int(seat) if seat.isdigit() else -1, actor=request.user)
            messages.success(request, _("%(ref)s seated at %(table)s, seat %(seat)s; the croupier's next hand offers "
                                        "the seat.") % {"ref": entry.player_ref, "table": table, "seat": seat})
        elif action == "remove":
            wl.waiting_list_remove(entry=entry, actor=request.user, reason=request.POST.get("note", ""))
            messages.success(request, _("%(ref)s removed from the list.") % {"ref": entry.player_ref})
        elif action in ("up", "down", "front"):
            wl.waiting_list_move(entry=entry, actor=request.user, note=request.POST.get("note", ""),
                                 to_front=action == "front", up=action == "up")
    except ApplicationError as err:
        refusal(request, err)
    return redirect("floor:list")


def board_page(request):
    """``GET /floor/board/``: the public board for a screen in the room (no login): per game and limit the
    waiting players by initials (card numbers masked), longest-waiting first; an htmx poll refreshes it."""
    groups = waiting_lists(public=True)
    rows = [{"game_label": g["game_label"], "limit": g["limit"],
             "refs": [(wl.player_ref_public(e.player_ref), e.status == WaitingListEntry.Status.CALLED)
                      for e in g["entries"]]} for g in groups]
    template = "tables/floor/_board.html" if request.htmx else "tables/floor/board.html"
    return render(request, template, {"rows": rows, "poll": BOARD_POLL_SECONDS})
