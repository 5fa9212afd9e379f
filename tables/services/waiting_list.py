"""The list ("the waiting list"): players waiting for a seat per game and limit.

A player is entered by initials or a player-card number (:func:`player_ref_clean`), nothing else.
The longest-waiting first; the floor may move an entry with a note. Calling a player (a seat opened at
a matching table), seating them (the seat is offered to the croupier's next hand, see
:func:`seat_offers_for`), removing them (no-show, left). Status moves go through
:func:`casino.status.status_transition` with :attr:`WaitingListEntry.ALLOWED`. Every service is one
transaction; refusals raise ``ApplicationError`` in the active language and write nothing.
"""

from __future__ import annotations

import re

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from casino.errors import ApplicationError
from casino.status import audit_record, status_transition
from tables.models import Game, Table, WaitingListEntry

_INITIALS = re.compile(r"^[A-ZÄÖÜ]{1,4}$")
_CARD = re.compile(r"^[0-9]{4,12}$")
S = WaitingListEntry.Status


def player_ref_clean(value: str) -> str:
    """Initials (1-4 letters, e.g. ``"JD"``) or a player-card number (4-12 digits); upper-cased, dots and
    spaces dropped. Raises ``ApplicationError`` (field ``player_ref``) for anything else, e.g. a name."""
    ref = re.sub(r"[\s.]", "", value or "").upper()
    if not (_INITIALS.match(ref) or _CARD.match(ref)):
        raise ApplicationError(_("Enter initials (up to 4 letters) or a player-card number (4 to 12 digits), "
                                 "nothing else."), extra={"field": "player_ref"})
    return ref


def player_ref_public(ref: str) -> str:
    """What the public board shows: initials as they are, a card number masked to its last two digits."""
    return ref if not ref.isdigit() else "••" + ref[-2:]


def waiting_list_add(*, game: str, limit_label: str, player_ref: str, actor, note: str = "") -> WaitingListEntry:
    """Put a player at the end of the list for ``game`` at ``limit_label`` (e.g. ``"5/10"``).

    Raises ``ApplicationError``: unknown game, empty limit, a bad player reference, the player already on
    that list (field ``player_ref``)."""
    if game not in Game.values:
        raise ApplicationError(_("Choose a game."), extra={"field": "game"})
    limit_label = (limit_label or "").strip()
    if not limit_label or len(limit_label) > 64:
        raise ApplicationError(_("Name the limit the player waits for, e.g. 5/10."), extra={"field": "limit_label"})
    ref = player_ref_clean(player_ref)
    with transaction.atomic():
        last = WaitingListEntry.objects.filter(game=game, limit_label=limit_label).aggregate(m=Max("position"))["m"]
        try:
            with transaction.atomic():
                entry = WaitingListEntry.objects.create(game=game, limit_label=limit_label, player_ref=ref,
                                                        position=(last or 0) + 1, note=(note or "").strip()[:200],
                                                        added_by=actor, added_at=timezone.now())
        except IntegrityError:
            raise ApplicationError(_("%(ref)s is already on the list for %(limit)s.") % {"ref": ref,
                                                                                        "limit": limit_label},
                                   code="already_listed", extra={"field": "player_ref"}) from None
        audit_record(obj=entry, action="listed", actor=actor, data={"game": game, "limit": limit_label})
    return entry


def waiting_list_move(*, entry: WaitingListEntry, actor, note: str, to_front: bool = False, up: bool = True) -> WaitingListEntry:
    """Move an entry one place up or down (or to the front) of its list, with the floor's ``note`` why.

    Raises ``ApplicationError`` without a note (field ``note``) or for an entry no longer waiting."""
    note = (note or "").strip()
    if not note:
        raise ApplicationError(_("Say why the order changes."), extra={"field": "note"})
    with transaction.atomic():
        entry = WaitingListEntry.objects.select_for_update().get(pk=entry.pk)
        if entry.status not in (S.WAITING, S.CALLED):
            raise ApplicationError(_("%(ref)s is no longer waiting.") % {"ref": entry.player_ref}, code="not_waiting")
        same = WaitingListEntry.objects.select_for_update().filter(
            game=entry.game, limit_label=entry.limit_label, status__in=[S.WAITING, S.CALLED])
        ordered = list(same.order_by("position", "added_at", "id"))
        i = next(n for n, e in enumerate(ordered) if e.pk == entry.pk)
        if to_front:
            ordered.insert(0, ordered.pop(i))
        else:
            j = i - 1 if up else i + 1
            if 0 <= j < len(ordered):
                ordered[i], ordered[j] = ordered[j], ordered[i]
        for n, e in enumerate(ordered, start=1):
            e.position = n
        WaitingListEntry.objects.bulk_update(ordered, ["position"])
        entry.position = next(e.position for e in ordered if e.pk == entry.pk)
        entry.note = note[:200]
        entry.save(update_fields=["position", "note"])
        audit_record(obj=entry, action="moved", actor=actor, reason=note, data={"position": entry.position})
    return entry


def waiting_list_call(*, entry: WaitingListEntry, table: Table, actor) -> WaitingListEntry:
    """Call the player to ``table`` (a seat opened there): waiting -> called. The table must deal the
    entry's game and be open. Raises ``ApplicationError`` otherwise."""
    _matching(entry, table)
    return status_transition(obj=entry, to=S.CALLED, allowed=WaitingListEntry.ALLOWED, actor=actor,
                             reason=f"called to {table.name}", noun=_("list entry"),
                             extra_updates={"called_at": timezone.now(), "called_table": table})


def _matching(entry: WaitingListEntry, table: Table) -> None:
    if table.game != entry.game:
        raise ApplicationError(_("%(table)s does not deal %(game)s.") % {"table": table.name,
                                                                          "game": entry.get_game_display()},
                               extra={"field": "table"})
    if table.status != Table.Status.OPEN:
        raise ApplicationError(_("%(table)s is not open.") % {"table": table.name}, extra={"field": "table"})


def waiting_list_seat(*, entry: WaitingListEntry, table: Table, seat: int, actor) -> WaitingListEntry:
    """Seat the player at ``table`` ``seat``: -> seated; the seat is offered to the croupier's next hand.

    Raises ``ApplicationError``: the player already seated (``code="already_seated"``) or removed, a table
    of another game or not open, a seat outside the table, a seat already offered to another player."""
    with transaction.atomic():
        locked = WaitingListEntry.objects.select_for_update().get(pk=entry.pk)
        if locked.status == S.SEATED:
            raise ApplicationError(_("%(ref)s is already seated at %(table)s, seat %(seat)s.")
                                   % {"ref": locked.player_ref, "table": locked.table.name, "seat": locked.seat},
                                   code="already_seated")
        if locked.status == S.REMOVED:
            raise ApplicationError(_("%(ref)s was removed from the list.") % {"ref": locked.player_ref},
                                   code="not_waiting")
        _matching(locked, table)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= table.seats:
            raise ApplicationError(_("%(table)s has seats 1 to %(n)s.") % {"table": table.name, "n": table.seats},
                                   extra={"field": "seat"})
        taken = WaitingListEntry.objects.filter(table=table, seat=seat, status=S.SEATED,
                                                offer_taken_at__isnull=True).first()
        if taken is not None:
            raise ApplicationError(_("Seat %(seat)s at %(table)s is already offered to %(ref)s.")
                                   % {"seat": seat, "table": table.name, "ref": taken.player_ref},
                                   code="seat_offered", extra={"field": "seat"})
        return status_transition(obj=locked, to=S.SEATED, allowed=WaitingListEntry.ALLOWED, actor=actor,
                                 reason=f"seated at {table.name} seat {seat}", noun=_("list entry"),
                                 extra_updates={"seated_at": timezone.now(), "table": table, "seat": seat})


def waiting_list_remove(*, entry: WaitingListEntry, actor, reason: str = "") -> WaitingListEntry:
    """Take a player off the list (no-show, left): -> removed, with the reason."""
    reason = (reason or "").strip()[:200] or gettext_noop("no-show")  # stored English, shown translated (stored_text)
    return status_transition(obj=entry, to=S.REMOVED, allowed=WaitingListEntry.ALLOWED, actor=actor, reason=reason,
                             noun=_("list entry"),
                             extra_updates={"removed_at": timezone.now(), "removed_reason": reason})


def seat_offers_for(*, table: Table):
    """The seats the floor gave to players from the list at ``table`` that no hand has taken yet
    (the croupier's next hand offers them): entries with ``seat`` and ``player_ref``."""
    return WaitingListEntry.objects.filter(table=table, status=S.SEATED, offer_taken_at__isnull=True).order_by("seat")


def seat_offer_take(*, table: Table, seats: list[int]) -> int:
    """Mark the offers of ``seats`` at ``table`` as taken by a hand (call when the hand opens); returns how many."""
    return seat_offers_for(table=table).filter(seat__in=seats).update(offer_taken_at=timezone.now())
