"""The floor API (/api/v1/...): the floor manager's flow, readable 400s that save nothing, role
permissions (every role tries every write it must not do) and croupiers' scoped reads."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from casino.models import AuditEntry
from casino.roles import ACCOUNTANT, CROUPIER, FLOOR_MANAGER
from tables.models import (
    DealerAssignment,
    Game,
    LimitChangeRequest,
    LimitProfile,
    RotationPlan,
    RotationSlot,
    Table,
    TableSession,
)
from tables.services import floor as services
from tests.factories import DEFAULT_CONFIGS, make_dealer, make_profile, make_table, make_user

#: One table of each of three games: the plans below are sized for three tables.
THREE_HOUSE_GAMES = (Game.SEVEN_CARD_STUD, Game.FORTY_ONE, Game.CAPSA_SUSUN)

pytestmark = pytest.mark.django_db

API = "/api/v1"
STUD = DEFAULT_CONFIGS[Game.SEVEN_CARD_STUD]
SHIFT = dt.datetime(2030, 3, 1, 17, 0, tzinfo=dt.UTC)


@pytest.fixture
def as_floor(api_client):
    api_client.force_authenticate(make_user("boss", FLOOR_MANAGER))
    return api_client


def saved_state() -> tuple[int, ...]:
    """Row counts of everything the floor API writes (a refused call must leave them unchanged)."""
    return (Table.objects.count(), LimitProfile.objects.count(), LimitChangeRequest.objects.count(),
            TableSession.objects.count(), RotationPlan.objects.count(), RotationSlot.objects.count(),
            DealerAssignment.objects.count(), AuditEntry.objects.count(),
            Table.objects.filter(status=Table.Status.OPEN).count())


# ---- the floor manager's evening ----------------------------------------------------------------

def test_floor_manager_sets_up_a_table_from_scratch(as_floor):
    response = as_floor.post(f"{API}/tables/", {"name": "Stud 7", "game": "seven_card_stud", "seats": 8}, format="json")
    assert response.status_code == 201, response.json()
    table = response.json()
    assert (table["status"], table["seats"]) == ("closed", 8)
    response = as_floor.post(f"{API}/limit-profiles/", {"table": table["id"], "limit_label": "5/10", "config": STUD,
                                                        "reason": "opening limits"}, format="json")
    assert response.status_code == 201, response.json()
    assert (response.json()["version"], response.json()["config"]["ante"]) == (1, "1.00")
    response = as_floor.post(f"{API}/tables/{table['id']}/open/", {"opening_float": "2500.00"}, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["opening_float"] == "2500.00"
    response = as_floor.post(f"{API}/tables/{table['id']}/open/", {"opening_float": "2500.00"}, format="json")
    assert response.status_code == 400
    assert response.json()["message"] == "table 'Stud 7' is already open"
    response = as_floor.post(f"{API}/tables/{table['id']}/close/", {"closing_float": "2611.50", "reason": "done"},
                             format="json")
    assert (response.status_code, response.json()["closing_float"]) == (200, "2611.50")
    audit = as_floor.get(f"{API}/tables/{table['id']}/audit/").json()
    assert [(a["action"], a["to_status"]) for a in audit][:3] == [("status_change", "closed"),
                                                                  ("status_change", "open"), ("limits_changed", "")]
    assert {a["actor"] for a in audit} == {"boss"}


@pytest.mark.parametrize("amount", [2500.5, True, "NaN", "-5", "1.005"],
                         ids=["json_float", "json_bool", "nan", "negative", "three_decimals"])
def test_a_float_that_is_not_a_decimal_amount_does_not_open_the_table(as_floor, amount):
    """Found by the break-it review: a JSON float was accepted as the counted opening float."""
    table = make_table(status=Table.Status.CLOSED)
    make_profile(table)
    response = as_floor.post(f"{API}/tables/{table.pk}/open/", {"opening_float": amount}, format="json")
    assert response.status_code == 400, response.json()
    assert "opening_float" in response.json()["message"]
    assert Table.objects.get(pk=table.pk).status == Table.Status.CLOSED and not TableSession.objects.exists()


@pytest.mark.parametrize(("body", "field", "text"), [
    ({"name": "X", "game": "forty_one", "seats": 8}, "seats", "Forty-one is dealt to 3 to 7 seats"),
    ({"name": "X", "game": "capsa_susun", "seats": 5}, "seats", "Capsa Susun is dealt to 2 to 4 seats"),
    ({"name": "X", "game": "bridge", "seats": 4}, "game", "not a valid choice"),
])
def test_a_bad_table_is_a_readable_400_and_nothing_is_saved(as_floor, body, field, text):
    before = saved_state()
    response = as_floor.post(f"{API}/tables/", body, format="json")
    assert response.status_code == 400
    assert response.json()["message"].startswith(f"{field}:") and text in response.json()["message"]
    assert saved_state() == before


@pytest.mark.parametrize(("change", "field", "text"), [
    ({"lower": "10.00", "higher": "5.00"}, "higher", "at least the lower limit"),
    ({"ante": "-1.00"}, "ante", "negative"),
    ({"limit_type": "spread", "lower": None, "higher": None, "spread_min": "50.00", "spread_max": "10.00"},
     "spread_max", "below spread_min"),
])
def test_a_bad_limit_profile_is_a_400_naming_the_field(as_floor, change, field, text):
    table = make_table()
    config = {k: v for k, v in {**STUD, **change}.items() if v is not None}
    before = saved_state()
    response = as_floor.post(f"{API}/limit-profiles/", {"table": table.pk, "config": config}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_config" and body["extra"]["field"] == f"config.{field}"
    assert f"{field}:" in body["message"] and text in body["message"]
    assert saved_state() == before


def test_limit_versions_cannot_be_edited_or_deleted(as_floor):
    profile = make_profile(make_table())
    for method in ("put", "patch", "delete"):
        response = getattr(as_floor, method)(f"{API}/limit-profiles/{profile.pk}/", {"config": STUD}, format="json")
        assert response.status_code == 405
    assert LimitProfile.objects.get(pk=profile.pk).config == profile.config


def test_players_request_flow_through_the_api(as_floor):
    table = make_table(status=Table.Status.OPEN)
    wanted = {**STUD, "lower": "10.00", "higher": "20.00", "taxe_amount": "3.00"}
    response = as_floor.post(f"{API}/limit-change-requests/", {"table": table.pk, "limit_label": "10/20",
                                                               "requested_config": wanted, "note": "seat 3 asks"},
                             format="json")
    assert response.status_code == 201, response.json()
    request_id = response.json()["id"]
    pending = as_floor.get(f"{API}/limit-change-requests/", {"status": "pending", "table": table.pk}).json()
    assert [r["id"] for r in pending["results"]] == [request_id]
    response = as_floor.post(f"{API}/limit-change-requests/{request_id}/approve/", {"decision_note": "ok"},
                             format="json")
    assert response.status_code == 200, response.json()
    profile = LimitProfile.objects.get(pk=response.json()["resulting_profile"])
    assert (profile.version, profile.limit_label) == (2, "10/20")
    response = as_floor.post(f"{API}/limit-change-requests/{request_id}/reject/", {}, format="json")
    assert response.status_code == 400 and "cannot go from approved to rejected" in response.json()["message"]


def test_rotation_plan_generate_edit_publish_and_assignments(as_floor):
    tables = [make_table(game=g, status=Table.Status.OPEN) for g in THREE_HOUSE_GAMES]
    dealers = [make_dealer(f"d{i}") for i in range(5)]
    body = {"name": "Evening", "shift_start": SHIFT.isoformat(), "shift_end": (SHIFT + dt.timedelta(hours=4)).isoformat(),
            "tables": [t.pk for t in tables], "dealers": [d.pk for d in dealers]}
    response = as_floor.post(f"{API}/rotation-plans/", body, format="json")
    assert response.status_code == 201, response.json()
    plan = response.json()
    assert plan["status"] == "proposed" and len(plan["slots"]) == 8 * 5
    slots = [{"dealer": s["dealer"], "table": s["table"], "start": s["start"], "end": s["end"]} for s in plan["slots"]]
    overlapping = [*slots, {**slots[0], "table": None, "start": (SHIFT + dt.timedelta(minutes=10)).isoformat()}]
    before = saved_state()
    response = as_floor.put(f"{API}/rotation-plans/{plan['id']}/slots/", {"slots": overlapping}, format="json")
    assert response.status_code == 400
    assert "has overlapping slots" in response.json()["message"]
    assert saved_state() == before
    response = as_floor.put(f"{API}/rotation-plans/{plan['id']}/slots/", {"slots": slots, "reason": "checked"},
                            format="json")
    assert response.status_code == 200, response.json()
    response = as_floor.post(f"{API}/rotation-plans/{plan['id']}/publish/", {}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "published"
    listed = as_floor.get(f"{API}/dealer-assignments/", {"table": tables[0].pk}).json()
    assert listed["count"] == 8
    assert all(a["plan"] == plan["id"] for a in listed["results"])


def test_a_plan_that_cannot_staff_the_tables_is_a_400_with_the_reason(as_floor):
    tables = [make_table(game=g, status=Table.Status.OPEN) for g in THREE_HOUSE_GAMES]
    make_dealer("only", [Game.SEVEN_CARD_STUD])
    before = saved_state()
    response = as_floor.post(f"{API}/rotation-plans/", {
        "shift_start": SHIFT.isoformat(), "shift_end": (SHIFT + dt.timedelta(hours=2)).isoformat(),
        "tables": [t.pk for t in tables]}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "plan_infeasible"
    assert response.json()["message"].startswith("cannot staff every table: no dealer on shift may deal forty_one")
    assert saved_state() == before


def test_takeover_through_the_api(as_floor):
    table = make_table(status=Table.Status.OPEN)
    anna, ben = make_dealer("anna"), make_dealer("ben")
    first = as_floor.post(f"{API}/dealer-assignments/", {"dealer": anna.pk, "table": table.pk}, format="json")
    assert first.status_code == 201, first.json()
    second = as_floor.post(f"{API}/dealer-assignments/", {"dealer": ben.pk, "table": table.pk}, format="json")
    assert second.status_code == 201
    active = as_floor.get(f"{API}/dealer-assignments/", {"active": "true"}).json()["results"]
    assert [a["dealer_name"] for a in active] == ["ben"]
    response = as_floor.post(f"{API}/dealer-assignments/{second.json()['id']}/end/", {}, format="json")
    assert response.status_code == 200 and response.json()["end"]


def test_a_takeover_that_uncovers_the_dealers_open_table_is_refused_until_confirmed(as_floor):
    stud1 = make_table(status=Table.Status.OPEN, name="Stud 1")
    stud2 = make_table(status=Table.Status.OPEN, name="Stud 2")
    anna = make_dealer("anna")
    services.dealer_assignment_start(dealer=anna, table=stud1)
    before = saved_state()
    body = {"dealer": anna.pk, "table": stud2.pk, "reason": "needed there"}
    refused = as_floor.post(f"{API}/dealer-assignments/", body, format="json")
    assert refused.status_code == 400
    answer = refused.json()
    assert answer["code"] == "needs_confirmation"
    assert answer["extra"] == {"table": "Stud 1", "table_id": stud1.pk, "dealer": anna.pk}
    assert "Stud 1" in answer["message"] and "confirm_uncovered" in answer["message"]
    assert saved_state() == before
    german = as_floor.post(f"{API}/dealer-assignments/", body, format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert german.json()["code"] == "needs_confirmation"
    assert "ohne Croupier" in german.json()["message"] and "Stud 1" in german.json()["message"]
    confirmed = as_floor.post(f"{API}/dealer-assignments/", body | {"confirm_uncovered": True}, format="json")
    assert confirmed.status_code == 201, confirmed.json()
    assert confirmed.json()["table_name"] == "Stud 2"
    active = as_floor.get(f"{API}/dealer-assignments/", {"active": "true"}).json()["results"]
    assert [(a["dealer_name"], a["table_name"]) for a in active] == [("anna", "Stud 2")]
    takeover = AuditEntry.objects.filter(action="takeover").order_by("-pk").first()
    assert takeover.data["uncovered_table"] == stud1.pk


def test_a_takeover_from_a_covered_paused_or_same_table_needs_no_confirmation(as_floor):
    stud1 = make_table(status=Table.Status.OPEN, name="Stud 1")
    stud2 = make_table(status=Table.Status.OPEN, name="Stud 2")
    paused = make_table(status=Table.Status.PAUSED, name="Stud 3")
    anna, ben = make_dealer("anna"), make_dealer("ben")
    services.dealer_assignment_start(dealer=anna, table=paused)
    moved = as_floor.post(f"{API}/dealer-assignments/", {"dealer": anna.pk, "table": stud1.pk}, format="json")
    assert moved.status_code == 201, moved.json()  # a paused table needs no dealer
    relief = as_floor.post(f"{API}/dealer-assignments/", {"dealer": ben.pk, "table": stud1.pk}, format="json")
    assert relief.status_code == 201, relief.json()  # ben relieves anna at Stud 1: Stud 1 stays covered
    again = as_floor.post(f"{API}/dealer-assignments/", {"dealer": ben.pk, "table": stud1.pk}, format="json")
    assert again.status_code == 201, again.json()
    free = as_floor.post(f"{API}/dealer-assignments/", {"dealer": anna.pk, "table": stud2.pk}, format="json")
    assert free.status_code == 201, free.json()  # anna was relieved: she deals nowhere now


def test_lists_are_filterable(as_floor):
    make_table(game=Game.FORTY_ONE, status=Table.Status.OPEN)
    make_table(game=Game.CAPSA_SUSUN)
    make_dealer("stud-only", [Game.SEVEN_CARD_STUD])
    make_dealer("all-games")
    assert [t["game"] for t in as_floor.get(f"{API}/tables/", {"status": "open"}).json()["results"]] == ["forty_one"]
    assert as_floor.get(f"{API}/tables/", {"game": "capsa_susun"}).json()["count"] == 1
    assert [d["username"] for d in as_floor.get(f"{API}/dealers/", {"game": "capsa_susun"}).json()["results"]] == [
        "all-games"]
    assert as_floor.get(f"{API}/table-sessions/", {"open": "true"}).json()["count"] == 1
    assert as_floor.get(f"{API}/limit-profiles/", {"game": "forty_one"}).json()["count"] == 1


def test_list_endpoints_do_not_query_per_row(as_floor, django_assert_max_num_queries):
    for i in range(4):
        table = make_table(game=Game.SEVEN_CARD_STUD, status=Table.Status.OPEN)
        services.dealer_assignment_start(dealer=make_dealer(f"n{i}"), table=table)
    for path in ("tables", "limit-profiles", "dealers", "table-sessions", "dealer-assignments", "rotation-plans",
                 "limit-change-requests"):
        with django_assert_max_num_queries(8):
            assert as_floor.get(f"{API}/{path}/").status_code == 200


# ---- permissions --------------------------------------------------------------------------------

@pytest.fixture
def floor_objects():
    table = make_table(status=Table.Status.OPEN)
    closed = make_table(game=Game.CAPSA_SUSUN)
    make_profile(closed)
    dealer = make_dealer("dealer-a")
    for i in range(4):
        make_dealer(f"dealer-{i}")
    request = services.limit_change_request_create(table=table, requested_config={**STUD, "ante": "2.00"})
    plan = services.rotation_plan_generate(name="p", shift_start=SHIFT, shift_end=SHIFT + dt.timedelta(hours=1),
                                           tables=[table])
    assignment = services.dealer_assignment_start(dealer=dealer, table=table)
    return {"table": table, "closed": closed, "dealer": dealer, "request": request, "plan": plan,
            "assignment": assignment, "user": make_user("someone-new", CROUPIER)}


WRITES = [
    ("post", "/tables/", lambda o: {"name": "New", "game": "forty_one", "seats": 5}),
    ("patch", "/tables/{table}/", lambda o: {"name": "Renamed"}),
    ("post", "/tables/{closed}/open/", lambda o: {"opening_float": "100.00"}),
    ("post", "/tables/{table}/pause/", lambda o: {}),
    ("post", "/tables/{table}/close/", lambda o: {"closing_float": "100.00"}),
    ("post", "/limit-profiles/", lambda o: {"table": o["table"].pk, "config": {**STUD, "ante": "3.00"}}),
    ("post", "/limit-change-requests/", lambda o: {"table": o["table"].pk, "requested_config": STUD}),
    ("post", "/limit-change-requests/{request}/approve/", lambda o: {}),
    ("post", "/limit-change-requests/{request}/reject/", lambda o: {}),
    ("post", "/dealers/", lambda o: {"user": o["user"].pk, "games": ["forty_one"]}),
    ("patch", "/dealers/{dealer}/", lambda o: {"active": False}),
    ("post", "/rotation-plans/", lambda o: {"shift_start": SHIFT.isoformat(),
                                            "shift_end": (SHIFT + dt.timedelta(hours=1)).isoformat(),
                                            "tables": [o["table"].pk]}),
    ("put", "/rotation-plans/{plan}/slots/", lambda o: {"slots": []}),
    ("post", "/rotation-plans/{plan}/publish/", lambda o: {}),
    ("post", "/rotation-plans/{plan}/cancel/", lambda o: {}),
    ("post", "/dealer-assignments/", lambda o: {"dealer": o["dealer"].pk, "table": o["table"].pk}),
    ("post", "/dealer-assignments/{assignment}/end/", lambda o: {}),
]


@pytest.mark.parametrize("role", [CROUPIER, ACCOUNTANT, None])
def test_every_role_but_the_floor_manager_is_refused_every_write(api_client, floor_objects, role):
    user = floor_objects["dealer"].user if role == CROUPIER else make_user(f"u-{role}", role)
    api_client.force_authenticate(user)
    before = saved_state()
    for method, path, body in WRITES:
        url = API + path.format(**{k: getattr(v, "pk", v) for k, v in floor_objects.items()})
        response = getattr(api_client, method)(url, body(floor_objects), format="json")
        assert response.status_code == 403, (method, url, response.status_code)
        assert response.json()["code"] == "permission_denied"
    assert saved_state() == before


def test_anonymous_callers_are_refused(api_client, floor_objects):
    for path in ("tables", "limit-profiles", "dealers", "rotation-plans", "table-sessions", "dealer-assignments"):
        assert api_client.get(f"{API}/{path}/").status_code in (401, 403)


def test_the_floor_manager_may_make_every_write(as_floor, floor_objects):
    for method, path, body in WRITES:
        url = API + path.format(**{k: getattr(v, "pk", v) for k, v in floor_objects.items()})
        response = getattr(as_floor, method)(url, body(floor_objects), format="json")
        # every write is allowed; a few are refused on their merits after earlier ones (e.g. a closed table)
        assert response.status_code != 403, (method, url, response.json())


def test_croupiers_read_their_own_assignments_and_the_tables_they_deal(api_client, floor_objects):
    other_table = make_table(game=Game.FORTY_ONE, status=Table.Status.OPEN)
    services.dealer_assignment_start(dealer=make_dealer("dealer-b"), table=other_table)
    dealer = floor_objects["dealer"]
    api_client.force_authenticate(dealer.user)
    tables = api_client.get(f"{API}/tables/").json()["results"]
    assert [t["id"] for t in tables] == [floor_objects["table"].pk]
    assert api_client.get(f"{API}/tables/{other_table.pk}/").status_code == 404
    assignments = api_client.get(f"{API}/dealer-assignments/").json()["results"]
    assert {a["dealer"] for a in assignments} == {dealer.pk}
    assert [d["id"] for d in api_client.get(f"{API}/dealers/").json()["results"]] == [dealer.pk]
    profiles = api_client.get(f"{API}/limit-profiles/").json()["results"]
    assert {p["table"] for p in profiles} == {floor_objects["table"].pk}
    sessions = api_client.get(f"{API}/table-sessions/").json()["results"]
    assert {s["table"] for s in sessions} == {floor_objects["table"].pk}
    assert api_client.get(f"{API}/rotation-plans/").json()["count"] == 0  # the plan is only proposed


def test_croupiers_see_only_their_slots_of_a_published_plan(api_client):
    table = make_table(status=Table.Status.OPEN)
    mine, other = make_dealer("mine"), make_dealer("other")
    start = timezone.now().replace(microsecond=0)
    plan = services.rotation_plan_generate(name="now", shift_start=start, shift_end=start + dt.timedelta(hours=2),
                                           tables=[table], dealers=[mine, other])
    services.rotation_plan_publish(plan=plan)
    api_client.force_authenticate(mine.user)
    plans = api_client.get(f"{API}/rotation-plans/").json()["results"]
    assert [p["id"] for p in plans] == [plan.pk]
    assert {s["dealer"] for s in plans[0]["slots"]} == {mine.pk}


def test_accountants_read_everything(api_client, floor_objects):
    api_client.force_authenticate(make_user("acc", ACCOUNTANT))
    assert api_client.get(f"{API}/tables/").json()["count"] == 2
    assert api_client.get(f"{API}/dealers/").json()["count"] == 5
    assert api_client.get(f"{API}/rotation-plans/").json()["count"] == 1
    assert api_client.get(f"{API}/limit-change-requests/").json()["count"] == 1
    table = floor_objects["table"]
    assert api_client.get(f"{API}/tables/{table.pk}/audit/").status_code == 200


def test_the_openapi_schema_documents_the_floor_endpoints(as_floor):
    response = as_floor.get(f"{API}/schema/", {"format": "json"})
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in ("/api/v1/tables/", "/api/v1/tables/{id}/open/", "/api/v1/limit-profiles/",
                 "/api/v1/limit-change-requests/{id}/approve/", "/api/v1/dealers/", "/api/v1/rotation-plans/",
                 "/api/v1/rotation-plans/{id}/slots/", "/api/v1/table-sessions/", "/api/v1/dealer-assignments/"):
        assert path in paths, path
    ref = paths["/api/v1/tables/{id}/open/"]["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    schema = response.json()["components"]["schemas"][ref.rsplit("/", 1)[-1]]
    assert "opening_float" in schema["properties"] and "opening_float" in schema["required"]
