"""Every limit version the engines accept is storable, and every stored value takes effect (issue 13).

The defects: a spread stud version without a label was a 500 (the automatic label overflowed its
column), and a Forty-one ``min_players: 2`` was stored and then the 2-seat hand refused "3 to 7".
"""

from __future__ import annotations

import pytest

from casino.roles import FLOOR_MANAGER
from tables.models import Hand, LimitChangeRequest, LimitProfile
from tests.factories import DEFAULT_CONFIGS, make_profile, make_table, make_user
from tests.tables.hands_support import Terminal, croupier_on_duty

pytestmark = pytest.mark.django_db

API = "/api/v1"
STUD = DEFAULT_CONFIGS["seven_card_stud"]


@pytest.fixture
def as_floor(api_client):
    api_client.force_authenticate(make_user("boss", FLOOR_MANAGER))
    return api_client


def _spread(low: str, high: str) -> dict:
    config = {k: v for k, v in STUD.items() if k not in ("lower", "higher")}
    return {**config, "limit_type": "spread", "spread_min": low, "spread_max": high}


@pytest.mark.parametrize(("low", "high", "label"), [("10.00", "50.00", "10-50"), ("20.00", "100.00", "20-100"),
                                                     ("2.50", "12.50", "2.50-12.50")])
def test_a_spread_version_without_a_label_is_stored_with_a_short_readable_label(as_floor, low, high, label):
    table = make_table()
    response = as_floor.post(f"{API}/limit-profiles/", {"table": table.pk, "config": _spread(low, high)}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["limit_label"] == label
    assert LimitProfile.objects.get(pk=response.json()["id"]).limit_label == label


def test_a_limit_change_request_for_a_spread_without_a_label_is_stored(as_floor):
    table = make_table()
    response = as_floor.post(f"{API}/limit-change-requests/", {"table": table.pk, "requested_config": _spread(
        "10.00", "50.00")}, format="json")
    assert response.status_code == 201, response.content
    assert LimitChangeRequest.objects.get(pk=response.json()["id"]).limit_label == "10-50"


def test_split_labels_are_short_too(as_floor):
    table = make_table()
    response = as_floor.post(f"{API}/limit-profiles/", {"table": table.pk, "config": STUD}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["limit_label"] == "5/10"


def test_forty_one_min_players_two_takes_effect_at_the_next_hand(api_client):
    table = make_table(game="forty_one", status="open")
    make_profile(table, min_players=2)
    terminal = Terminal(api_client, croupier_on_duty(table))
    response = terminal.open(table, {1: 10000, 2: 10000})
    assert response.status_code == 201, response.json()
    assert Hand.objects.get(pk=response.json()["id"]).limit_snapshot["min_players"] == 2


def test_forty_one_max_players_is_the_most_seats_a_hand_is_dealt_to(api_client):
    table = make_table(game="forty_one", status="open")
    make_profile(table, max_players=4)
    terminal = Terminal(api_client, croupier_on_duty(table))
    response = terminal.open(table, {1: 10000, 2: 10000, 3: 10000, 4: 10000, 5: 10000})
    assert response.status_code == 400
    assert "is dealt to 3 to 4 players; 5 seated" in response.json()["message"]


def test_forty_one_without_min_players_still_needs_three(api_client):
    table = make_table(game="forty_one", status="open")
    terminal = Terminal(api_client, croupier_on_duty(table))
    response = terminal.open(table, {1: 10000, 2: 10000})
    assert response.status_code == 400 and "3 to" in response.json()["message"]
