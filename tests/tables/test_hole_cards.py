"""Hole cards (issue 20): a croupier reads only the tables they deal or dealt during the current gaming
day, and never a live hand's face-down cards at a table they are not dealing now; floor managers and
accountants read everything; croupiers have no admin page showing cards. Tested read by read."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone

from casino.roles import CROUPIER
from tables.models import Dealer, DealerAssignment
from tests.tables.hands_support import Terminal, accountant, croupier_on_duty, floor_manager, table_make, user_in

pytestmark = pytest.mark.django_db

HOLE = ("Ks", "Kd", "Ad", "7h", "9h", "9d")  # the face-down cards dealt below (3c, Qs, Jh go up)


def _dealer(username: str, table, *, start: dt.datetime, end: dt.datetime | None):
    user = user_in(CROUPIER, username)
    dealer, _ = Dealer.objects.get_or_create(user=user, defaults={"games": [table.game]})
    DealerAssignment.objects.create(dealer=dealer, table=table, start=start, end=end)
    return user


@pytest.fixture
def floor(api_client):
    """Stud table A with a live hand on third street (croupier ``dealing`` on duty), table B dealt by
    ``elsewhere``, ``earlier`` who dealt at A until ten minutes ago, ``yesterday`` who dealt at A on an
    earlier gaming day, and ``off`` who deals nowhere."""
    now = timezone.now()
    table_a = table_make(game="seven_card_stud", name="A")
    table_b = table_make(game="seven_card_stud", name="B")
    earlier = _dealer("earlier", table_a, start=now - dt.timedelta(hours=1), end=now - dt.timedelta(minutes=10))
    yesterday = _dealer("yesterday", table_a, start=now - dt.timedelta(days=2, hours=1),
                        end=now - dt.timedelta(days=2))
    dealing = croupier_on_duty(table_a, "dealing")
    elsewhere = croupier_on_duty(table_b, "elsewhere")
    off = user_in(CROUPIER, "off")
    terminal = Terminal(api_client, dealing)
    hand_id = terminal.open(table_a, {1: 10000, 3: 10000, 5: 10000}).json()["id"]
    events = [{"type": "ante", "seat": s} for s in (1, 3, 5)] + [
        {"type": "deal", "seat": 1, "cards": "Ks Kd 3c"}, {"type": "deal", "seat": 3, "cards": "Ad 7h Qs"},
        {"type": "deal", "seat": 5, "cards": "9h 9d Jh"}]
    terminal.play(hand_id, events)
    api_client.force_authenticate(None)
    return {"hand": hand_id, "a": table_a, "b": table_b, "dealing": dealing, "earlier": earlier,
            "yesterday": yesterday, "elsewhere": elsewhere, "off": off, "floor": floor_manager("fm"),
            "accountant": accountant("acc")}


def _get(client, user, url):
    client.force_authenticate(user)
    return client.get(url)


def _shows_hole_cards(body: str) -> bool:
    """Any face-down card as a word of its own (``Ks``, not the ``Ks`` inside ``Thanks``)."""
    pattern = "|".join(HOLE)
    return re.search(rf"(?<![\w#-])({pattern})(?![\w-])", body) is not None


@pytest.mark.parametrize("who, listed", [("dealing", True), ("earlier", True), ("floor", True), ("accountant", True),
                                         ("elsewhere", False), ("yesterday", False), ("off", False)])
def test_the_hand_list_shows_a_croupier_only_the_tables_they_deal_or_dealt_today(api_client, floor, who, listed):
    for url in ("/api/v1/hands/", "/api/v1/hands/?status=open", f"/api/v1/hands/?table={floor['a'].pk}"):
        answer = _get(api_client, floor[who], url)
        assert answer.status_code == 200
        assert (floor["hand"] in [h["id"] for h in answer.json()["results"]]) is listed, (who, url)


@pytest.mark.parametrize("who", ["elsewhere", "yesterday", "off"])
def test_a_croupier_away_from_the_table_cannot_read_its_hand_at_all(api_client, floor, who):
    for suffix in ("", "events/"):
        answer = _get(api_client, floor[who], f"/api/v1/hands/{floor['hand']}/{suffix}")
        assert answer.status_code == 404, (suffix, answer.content)
        assert not _shows_hole_cards(answer.content.decode())


@pytest.mark.parametrize("who", ["dealing", "floor", "accountant"])
def test_the_dealer_on_duty_the_floor_and_accounting_read_the_cards_logged(api_client, floor, who):
    answer = _get(api_client, floor[who], f"/api/v1/hands/{floor['hand']}/events/")
    assert answer.status_code == 200
    deals = [e["event"] for e in answer.json() if e["event"]["type"] == "deal"]
    assert [d["cards"] for d in deals] == ["Ks Kd 3c", "Ad 7h Qs", "9h 9d Jh"]


def test_a_croupier_who_dealt_there_earlier_reads_the_live_hand_without_its_cards(api_client, floor):
    events = _get(api_client, floor["earlier"], f"/api/v1/hands/{floor['hand']}/events/")
    assert events.status_code == 200
    assert [e["seq"] for e in events.json()] == [1, 2, 3, 4, 5, 6]
    deals = [e["event"] for e in events.json() if e["event"]["type"] == "deal"]
    assert all(d["cards"] is None and d["hidden"] == ["cards"] for d in deals)
    assert not _shows_hole_cards(events.content.decode())
    state = _get(api_client, floor["earlier"], f"/api/v1/hands/{floor['hand']}/")
    assert state.status_code == 200
    assert state.json()["state"]["boards"] == {"1": "3c", "3": "Qs", "5": "Jh"}
    assert not _shows_hole_cards(state.content.decode())


def test_the_state_of_a_live_hand_never_shows_face_down_cards_even_to_its_dealer(api_client, floor):
    answer = _get(api_client, floor["dealing"], f"/api/v1/hands/{floor['hand']}/")
    assert answer.status_code == 200 and answer.json()["state"]["down_cards"] == {"1": 2, "3": 2, "5": 2}
    assert not _shows_hole_cards(answer.content.decode())


def test_the_answers_of_the_dealers_own_actions_name_no_face_down_card(api_client, floor):
    """The state and the typed view of a logged action, a refused one and a stale one (issue 14's ``view``
    beside ``state``) count the face-down cards, never name them."""
    terminal = Terminal(api_client, floor["dealing"])
    logged = terminal.post(floor["hand"], {"type": "bring_in", "seat": 1}, seq=6, key="own-7")
    refused = terminal.post(floor["hand"], {"type": "raise", "seat": 3, "to": "99.00"}, seq=7, key="own-8")
    stale = terminal.post(floor["hand"], {"type": "call", "seat": 3}, seq=3, key="own-9")
    assert (logged.status_code, refused.status_code, stale.status_code) == (201, 400, 409)
    for answer in (logged, refused, stale):
        body = answer.json()
        view = body["view"] if "view" in body else body["extra"]["view"]
        assert [s["down_cards"] for s in view["seats"]] == [["??", "??"]] * 3
        assert not _shows_hole_cards(answer.content.decode())


def test_once_the_hand_is_over_a_croupier_who_dealt_there_today_reads_its_cards(api_client, floor):
    from tables.models import Hand

    Hand.objects.filter(pk=floor["hand"]).update(status=Hand.Status.VOID)
    answer = _get(api_client, floor["earlier"], f"/api/v1/hands/{floor['hand']}/events/")
    assert answer.status_code == 200 and "Ks Kd 3c" in answer.content.decode()


# --- admin -------------------------------------------------------------------------------------------------


def _admin(client, user, url):
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    client.force_login(user)
    return client.get(url)


@pytest.mark.parametrize("who", ["dealing", "earlier", "elsewhere", "off"])
def test_croupiers_have_no_admin_page_showing_cards(client, floor, who):
    events = _admin(client, floor[who], "/admin/tables/handevent/")
    assert events.status_code == 403
    hand = client.get(f"/admin/tables/hand/{floor['hand']}/change/")
    assert hand.status_code in (200, 302) and not _shows_hole_cards(hand.content.decode())
    listing = client.get("/admin/tables/hand/")
    assert listing.status_code == 403 or not _shows_hole_cards(listing.content.decode())


@pytest.mark.parametrize("who", ["floor", "accountant"])
def test_floor_and_accounting_read_the_cards_in_the_admin(client, floor, who):
    events = _admin(client, floor[who], "/admin/tables/handevent/")
    assert events.status_code == 200
    hand = client.get(f"/admin/tables/hand/{floor['hand']}/change/")
    assert hand.status_code == 200 and "Ks Kd 3c" in hand.content.decode()
