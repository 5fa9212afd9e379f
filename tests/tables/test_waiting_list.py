"""The list: players waiting per game and limit; called, seated, removed, reordered with a note."""

from __future__ import annotations

import pytest

from casino.errors import ApplicationError
from tables.models import Table, WaitingListEntry
from tables.services import waiting_list as wl
from tests.factories import floor_manager, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss():
    return floor_manager()


def names(game="seven_card_stud", limit="5/10"):
    return list(WaitingListEntry.objects.filter(game=game, limit_label=limit, status__in=["waiting", "called"])
                .order_by("position", "added_at").values_list("player_ref", flat=True))


def test_players_wait_longest_first_and_the_floor_can_reorder_with_a_note(boss):
    for ref in ("jd", "M.K.", "12345678"):
        wl.waiting_list_add(game="seven_card_stud", limit_label="5/10", player_ref=ref, actor=boss)
    assert names() == ["JD", "MK", "12345678"]
    card = WaitingListEntry.objects.get(player_ref="12345678")
    moved = wl.waiting_list_move(entry=card, actor=boss, note="came back from a break", to_front=True)
    assert names() == ["12345678", "JD", "MK"] and moved.note == "came back from a break"
    wl.waiting_list_move(entry=WaitingListEntry.objects.get(player_ref="MK"), actor=boss, note="swap", up=True)
    assert names() == ["12345678", "MK", "JD"]


@pytest.mark.parametrize("ref", ["John Doe", "", "A1", "123"])
def test_only_initials_or_a_card_number_are_accepted(boss, ref):
    with pytest.raises(ApplicationError) as err:
        wl.waiting_list_add(game="forty_one", limit_label="5/10", player_ref=ref, actor=boss)
    assert err.value.extra["field"] == "player_ref"
    assert not WaitingListEntry.objects.exists()


def test_a_player_is_on_one_list_once(boss):
    wl.waiting_list_add(game="forty_one", limit_label="5/10", player_ref="AB", actor=boss)
    with pytest.raises(ApplicationError) as err:
        wl.waiting_list_add(game="forty_one", limit_label="5/10", player_ref="ab", actor=boss)
    assert err.value.code == "already_listed"


def test_calling_and_seating_offers_the_seat_to_the_next_hand_and_seating_twice_is_refused(boss):
    table = make_table(status=Table.Status.OPEN, name="Stud 1")
    entry = wl.waiting_list_add(game="seven_card_stud", limit_label="5/10", player_ref="JD", actor=boss)
    entry = wl.waiting_list_call(entry=entry, table=table, actor=boss)
    assert entry.status == "called" and entry.called_table == table
    entry = wl.waiting_list_seat(entry=entry, table=table, seat=4, actor=boss)
    assert (entry.status, entry.seat) == ("seated", 4)
    assert [e.player_ref for e in wl.seat_offers_for(table=table)] == ["JD"]
    with pytest.raises(ApplicationError) as err:
        wl.waiting_list_seat(entry=entry, table=table, seat=5, actor=boss)
    assert err.value.code == "already_seated"
    other = wl.waiting_list_add(game="seven_card_stud", limit_label="5/10", player_ref="MK", actor=boss)
    with pytest.raises(ApplicationError) as err:
        wl.waiting_list_seat(entry=other, table=table, seat=4, actor=boss)
    assert err.value.code == "seat_offered"
    assert wl.seat_offer_take(table=table, seats=[4]) == 1
    assert not wl.seat_offers_for(table=table).exists()


def test_a_table_of_another_game_or_a_seat_outside_it_is_refused(boss):
    capsa = make_table(game="capsa_susun", status=Table.Status.OPEN, name="Capsa 1")
    stud = make_table(status=Table.Status.OPEN, name="Stud 1")
    entry = wl.waiting_list_add(game="seven_card_stud", limit_label="5/10", player_ref="JD", actor=boss)
    with pytest.raises(ApplicationError, match="Capsa 1"):
        wl.waiting_list_call(entry=entry, table=capsa, actor=boss)
    with pytest.raises(ApplicationError) as err:
        wl.waiting_list_seat(entry=entry, table=stud, seat=9, actor=boss)
    assert err.value.extra["field"] == "seat"
    assert WaitingListEntry.objects.get().status == "waiting"


def test_a_no_show_is_removed_and_cannot_be_seated(boss):
    table = make_table(status=Table.Status.OPEN)
    entry = wl.waiting_list_add(game="seven_card_stud", limit_label="5/10", player_ref="JD", actor=boss)
    entry = wl.waiting_list_remove(entry=entry, actor=boss)
    assert (entry.status, entry.removed_reason) == ("removed", "no-show")
    with pytest.raises(ApplicationError):
        wl.waiting_list_seat(entry=entry, table=table, seat=1, actor=boss)


def test_the_public_board_masks_card_numbers():
    assert wl.player_ref_public("JD") == "JD"
    assert wl.player_ref_public("12345678") == "••78"


def test_the_seat_given_from_the_list_shows_on_the_croupiers_next_hand_and_the_hand_takes_it(client, boss):
    from tests.tables.hands_support import croupier_on_duty, table_make

    table = table_make(game="seven_card_stud", name="Stud offer")
    croupier = croupier_on_duty(table, "offer-croupier")
    entry = wl.waiting_list_add(game="seven_card_stud", limit_label="5/10", player_ref="JD", actor=boss)
    wl.waiting_list_seat(entry=entry, table=table, seat=4, actor=boss)
    client.force_login(croupier)
    assert "from the list: JD" in client.get(f"/croupier/tables/{table.pk}/").content.decode()
    data = {"seat_1": "1", "stack_1": "100.00", "seat_4": "1", "stack_4": "200.00"}
    assert client.post(f"/croupier/tables/{table.pk}/hands/", data, HTTP_HX_REQUEST="true").status_code == 200
    assert table.hands.count() == 1
    assert not wl.seat_offers_for(table=table).exists()
    assert WaitingListEntry.objects.get(pk=entry.pk).offer_taken_at is not None
