"""The croupier's table screen with Django's test client (issue 15): who may open what, and that each
tap goes through the hand service once (idempotency key, expected sequence), refusals leave the hand
unchanged and show the engine's message with its rule linked."""

from __future__ import annotations

import pytest

from tables.models import Hand, HandEvent
from tests.tables.hands_support import accountant, croupier_on_duty, floor_manager, table_make, user_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def stud():
    table = table_make(game="seven_card_stud", name="Stud page")
    user = croupier_on_duty(table, "page-croupier")
    return table, user


def _open(client, table, stacks):
    data = {}
    for seat, stack in stacks.items():
        data[f"seat_{seat}"] = "1"
        data[f"stack_{seat}"] = stack
    return client.post(f"/croupier/tables/{table.pk}/hands/", data, HTTP_HX_REQUEST="true")


def _tap(client, hand, key, expected, **event):
    return client.post(f"/croupier/hands/{hand.pk}/events/", {"idempotency_key": key, "expected_seq": expected, **event},
                       HTTP_HX_REQUEST="true")


def test_croupier_home_lists_the_table_on_duty(client, stud):
    table, user = stud
    client.force_login(user)
    page = client.get("/croupier/")
    assert page.status_code == 200
    assert f"/croupier/tables/{table.pk}/" in page.content.decode()


def test_croupier_without_a_table_is_told_whom_to_ask(client):
    floor_manager("floor-boss")
    client.force_login(user_in("croupier", "idle-croupier"))
    page = client.get("/croupier/")
    text = page.content.decode()
    assert page.status_code == 200
    assert "not on duty at a table now" in text
    assert "floor-boss" in text


@pytest.mark.parametrize("make, place", [(floor_manager, "/floor/"), (accountant, "/accounting/")])
def test_floor_and_accountant_are_sent_to_their_own_place(client, stud, make, place):
    table, _user = stud
    client.force_login(make(f"someone-{place.strip('/')}"))
    assert client.get("/croupier/").url == place
    assert client.get(f"/croupier/tables/{table.pk}/").url == place


def test_croupier_not_on_duty_cannot_open_the_page_or_post_to_it(client, stud):
    table, user = stud
    client.force_login(user)
    assert _open(client, table, {1: "100.00", 2: "100.00"}).status_code == 200
    hand = Hand.objects.get(table=table)
    other = user_in("croupier", "other-croupier")
    client.force_login(other)
    assert client.get(f"/croupier/tables/{table.pk}/").status_code == 403
    assert _open(client, table, {1: "100.00", 2: "100.00"}).status_code == 403
    refused = _tap(client, hand, "k-other", 0, type="ante", seat="1")
    assert refused.status_code == 403
    assert HandEvent.objects.filter(hand=hand).count() == 0


def test_anonymous_users_go_to_the_login(client, stud):
    table, _user = stud
    page = client.get(f"/croupier/tables/{table.pk}/")
    assert page.status_code == 302 and "/accounts/login/" in page.url


def test_a_tap_logs_once_and_a_stale_terminal_sees_the_current_state(client, stud):
    table, user = stud
    client.force_login(user)
    _open(client, table, {1: "100.00", 3: "100.00"})
    hand = Hand.objects.get(table=table)
    first = _tap(client, hand, "tap-1", 0, type="ante", seat="1")
    again = _tap(client, hand, "tap-1", 0, type="ante", seat="1")
    assert first.status_code == again.status_code == 200
    assert "already logged" in again.content.decode()
    assert HandEvent.objects.filter(hand=hand).count() == 1
    stale = _tap(client, hand, "tap-2", 0, type="ante", seat="3")
    assert "Another terminal logged" in stale.content.decode()
    assert 'data-event-count="1"' in stale.content.decode()
    assert HandEvent.objects.filter(hand=hand).count() == 1


def test_a_refused_action_shows_the_engine_message_with_the_rule_linked(client, stud):
    table, user = stud
    client.force_login(user)
    _open(client, table, {1: "100.00", 3: "100.00"})
    hand = Hand.objects.get(table=table)
    for i, seat in enumerate((1, 3)):
        _tap(client, hand, f"a{seat}", i, type="ante", seat=str(seat))
    _tap(client, hand, "d1", 2, type="deal", seat="1", card=["??", "??", "3c"])
    _tap(client, hand, "d3", 3, type="deal", seat="3", card=["??", "??", "Kd"])
    refused = _tap(client, hand, "bad", 4, type="check", seat="3")
    text = refused.content.decode()
    assert refused.status_code == 200
    assert "Refused" in text and 'class="rule"' in text
    assert HandEvent.objects.filter(hand=hand).count() == 4
    page = client.get(f"/croupier/tables/{table.pk}/")
    body = page.content.decode()
    assert "Bring-in 5.00" in body
    assert "K♦" in body


def test_the_floor_call_button_records_a_call_the_floor_sees(client, stud):
    from tables.models import FloorCall

    table, user = stud
    client.force_login(user)
    _open(client, table, {1: "100.00", 2: "100.00"})
    page = client.post(f"/croupier/tables/{table.pk}/floor-call/", {"reason": "dispute", "note": "seat 2 disputes the pot"},
                       HTTP_HX_REQUEST="true")
    assert page.status_code == 200
    call = FloorCall.objects.get(table=table)
    assert (call.reason, call.status, call.created_by, call.hand) == ("dispute", "open", user, Hand.objects.get(table=table))
    assert "The floor is called" in page.content.decode()
    refused = client.post(f"/croupier/tables/{table.pk}/floor-call/", {"reason": "nonsense"}, HTTP_HX_REQUEST="true")
    assert "Choose why the floor is called" in refused.content.decode()
    assert FloorCall.objects.filter(table=table).count() == 1


def test_a_refused_action_is_shown_in_german(client, stud):
    table, user = stud
    client.force_login(user)
    _open(client, table, {1: "100.00", 3: "100.00"})
    hand = Hand.objects.get(table=table)
    page = client.post(f"/croupier/hands/{hand.pk}/events/", {"idempotency_key": "de-1", "expected_seq": 0,
                                                               "type": "check", "seat": "1"},
                       HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="de-AT")
    text = page.content.decode()
    assert "Abgelehnt" in text
    assert HandEvent.objects.filter(hand=hand).count() == 0


def test_a_table_that_records_every_card_asks_for_the_down_cards(client, stud):
    from tables.services.floor import table_update

    table, user = stud
    client.force_login(user)
    _open(client, table, {1: "100.00", 3: "100.00"})
    hand = Hand.objects.get(table=table)
    for i, seat in enumerate((1, 3)):
        _tap(client, hand, f"a{seat}", i, type="ante", seat=str(seat))
    unknown = client.get(f"/croupier/tables/{table.pk}/").content.decode()
    assert unknown.count('value="??"') == 2  # the two down cards of the first deal, preset as unseen
    table_update(table=table, record_down_cards=True, reason="camera at this table")
    known = client.get(f"/croupier/tables/{table.pk}/").content.decode()
    assert 'value="??"' not in known
    assert known.count('name="card" value=""') == 3 + 1  # the deal's three; the exposed-card form's one


CAPSA_ROWS = {1: ("As Ad 2c", "Kc Kd 3h 4s 5d", "Qs Qh 6c 7d 8h"), 2: ("2d 3c 4h", "9c 9d Th Js 6s", "Tc Td Ts 7c 8c")}


def test_a_capsa_deal_half_logged_elsewhere_is_finished_on_the_page(client):
    from tables.services.hands import hand_event_append

    table = table_make(game="capsa_susun", name="Capsa page", seats=4)
    user = croupier_on_duty(table, "capsa-page-croupier")
    client.force_login(user)
    _open(client, table, {1: "100.00", 2: "100.00"})
    hand = Hand.objects.get(table=table)
    seat1 = " ".join(CAPSA_ROWS[1])
    hand_event_append(hand=hand, event={"type": "deal", "seat": 1, "cards": seat1}, idempotency_key="other-1",
                      expected_seq=0, actor=user)
    form = {"idempotency_key": "capsa-1", "action": "confirm"}
    for seat, (front, middle, back) in CAPSA_ROWS.items():
        form |= {f"front_{seat}": front.split(), f"middle_{seat}": middle.split(), f"back_{seat}": back.split()}
    page = client.post(f"/croupier/hands/{hand.pk}/capsa/", form, HTTP_HX_REQUEST="true")
    assert page.status_code == 200
    hand.refresh_from_db()
    types = list(HandEvent.objects.filter(hand=hand).order_by("seq").values_list("payload__type", flat=True))
    assert types[:4] == ["deal", "deal", "set", "set"] and types[-1] == "reveal"
    assert hand.status == Hand.Status.CLOSED
    assert "Seat 1 pays seat 2" in page.content.decode()
    again = client.post(f"/croupier/hands/{hand.pk}/capsa/", form, HTTP_HX_REQUEST="true")
    assert again.status_code == 200
    assert HandEvent.objects.filter(hand=hand).count() == len(types)


def test_spread_limit_offers_an_amount_picker_bounded_by_min_and_max(client):
    table = table_make(game="seven_card_stud", name="Stud spread", config={
        "limit_type": "spread", "spread_min": "10.00", "spread_max": "50.00", "ante": "1.00", "taxe_amount": "2.00"})
    user = croupier_on_duty(table, "spread-croupier")
    client.force_login(user)
    _open(client, table, {1: "200.00", 3: "200.00"})
    hand = Hand.objects.get(table=table)
    _tap(client, hand, "a1", 0, type="ante", seat="1")
    _tap(client, hand, "a3", 1, type="ante", seat="3")
    _tap(client, hand, "d1", 2, type="deal", seat="1", card=["??", "??", "3c"])
    _tap(client, hand, "d3", 3, type="deal", seat="3", card=["??", "??", "Kd"])
    page = _tap(client, hand, "b1", 4, type="bring_in", seat="1").content.decode()
    # raise to: the bring-in + 10.00 to 50.00, in whole cents, moving by the 1.00 chip; quick amounts
    assert 'name="to_cents" min="2000" max="6000" step="1" value="2000" data-step="100"' in page
    assert 'data-set="2000"' in page and 'data-set="4000"' in page and 'data-set="6000"' in page
    refused = _tap(client, hand, "r3", 5, type="raise", seat="3", to_cents="6100").content.decode()
    assert "Refused" in refused and HandEvent.objects.filter(hand=hand).count() == 5
    raised = _tap(client, hand, "r3b", 5, type="raise", seat="3", to_cents="3500").content.decode()
    assert "Refused" not in raised
    assert HandEvent.objects.filter(hand=hand, payload__type="raise", payload__to=3500).count() == 1
    typed = _tap(client, hand, "c1", 6, type="raise", seat="1", to="45.00").content.decode()  # the typed form
    assert "Refused" not in typed and HandEvent.objects.filter(hand=hand, payload__to=4500).count() == 1


@pytest.mark.parametrize("game", [g.name for g in __import__("rules.registry", fromlist=["GAMES"]).GAMES])
def test_every_game_in_the_registry_opens_and_offers_its_first_actions(client, game):
    from rules.registry import get_game
    from tests.factories import DEFAULT_CONFIGS

    spec = get_game(game)
    table = table_make(game=game, name=f"Page {game}", seats=min(spec.players[1], 4), config=DEFAULT_CONFIGS[game])
    user = croupier_on_duty(table, f"page-{game}")
    client.force_login(user)
    page = _open(client, table, {1: "100.00", 2: "100.00", 3: "100.00"})
    text = page.content.decode()
    assert page.status_code == 200 and 'data-status="open"' in text
    assert 'class="act' in text or 'class="capsa"' in text  # buttons or the Capsa entry form
    assert "Refused" not in text


def test_a_refusal_links_its_rule_number_to_the_served_rule_page():
    from tables.pages.croupier_view import rule_url

    assert rule_url("seven_card_stud", "R6.2") == "/rules/seven_card_stud/#R6.2"
    assert rule_url("razz", "R6.2") == "/rules/seven_card_stud/#R6.2"  # Razz shares stud's betting rules
    assert rule_url("forty_one", "B.4") == "/rules/forty_one/#B.4"
    assert rule_url("capsa_susun", None) is None
