"""The floor pages through Django's test client: who may open them, what they show, bounded queries,
the limit form's errors all at once, the public board without names."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from casino.roles import ACCOUNTANT, CROUPIER, FLOOR_MANAGER
from tables.models import (
    Dealer,
    DealerPush,
    FloorCall,
    LimitChangeRequest,
    LimitProfile,
    RotationPlan,
    Table,
    WaitingListEntry,
)
from tables.services.dealer_push import dealer_push
from tables.services.floor_calls import floor_call_create
from tables.services.waiting_list import waiting_list_add
from tests.factories import make_dealer, make_table, make_user

pytestmark = pytest.mark.django_db

PAGES = ["/floor/", "/floor/dealers/", "/floor/rotation/", "/floor/list/", "/floor/report/"]


@pytest.fixture
def boss_client(client):
    client.force_login(make_user("boss", FLOOR_MANAGER))
    return client


@pytest.mark.parametrize("role", [CROUPIER, ACCOUNTANT])
def test_croupiers_and_accountants_can_neither_see_nor_change_the_floor(client, role):
    table = make_table(status=Table.Status.OPEN)
    dealer = make_dealer("anna")
    client.force_login(make_user(f"u-{role}", role))
    for path in [*PAGES, f"/floor/tables/{table.pk}/"]:
        assert client.get(path).status_code == 403, path
    posts = [("/floor/dealers/push/", {"dealer": dealer.pk, "kind": "assign", "table": table.pk, "reason": "x"}),
             (f"/floor/tables/{table.pk}/limits/", {"limits-ante": "1.00"}),
             ("/floor/list/", {"game": "seven_card_stud", "limit": "5/10", "player_ref": "JD"})]
    for path, data in posts:
        assert client.post(path, data).status_code == 403, path
    assert not DealerPush.objects.exists() and not WaitingListEntry.objects.exists()
    assert LimitProfile.objects.filter(table=table).count() == 1


def test_anonymous_visitors_are_sent_to_the_login(client):
    response = client.get("/floor/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_every_floor_page_opens_for_the_floor_manager(boss_client):
    make_table(status=Table.Status.OPEN)
    for path in PAGES:
        assert boss_client.get(path).status_code == 200, path


def test_the_floor_shows_limit_dealer_and_alerts_of_each_table(boss_client):
    boss = make_user("boss", FLOOR_MANAGER)
    stud = make_table(status=Table.Status.OPEN, name="Stud 1")
    make_table(status=Table.Status.OPEN, name="Stud 2")
    dealer_push(dealer=make_dealer("anna"), kind="assign", table=stud, reason="start", actor=boss)
    floor_call_create(table=stud, reason="ruling", note="seat 3 out of turn", actor=make_user("carla", CROUPIER))
    html = boss_client.get("/floor/").content.decode()
    assert "Stud 1" in html and "5/10" in html and "anna" in html
    assert "seat 3 out of turn" in html
    assert "Open without a dealer" in html  # Stud 2


def test_the_poll_returns_only_the_cards(boss_client):
    make_table(status=Table.Status.OPEN, name="Stud 1")
    html = boss_client.get("/floor/", HTTP_HX_REQUEST="true").content.decode()
    assert "Stud 1" in html and "<html" not in html


def test_the_floor_page_needs_the_same_queries_for_3_and_30_tables(boss_client):
    def count() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert boss_client.get("/floor/").status_code == 200
        return len(ctx)

    for i in range(3):
        make_table(status=Table.Status.OPEN, name=f"T{i}")
    few = count()
    for i in range(3, 30):
        make_table(status=Table.Status.OPEN, name=f"T{i}")
    assert count() == few


def test_the_limit_form_reports_every_missing_key_at_once_and_saves_nothing(boss_client):
    table = make_table(status=Table.Status.OPEN, name="Stud 1")
    data = {"limits-limit_type": "split", "limits-lower": "", "limits-higher": "", "limits-ante": "",
            "limits-bring_in_mode": "full_bet", "limits-raise_cap": "3", "limits-open_pair_option": "on",
            "limits-taxe_mode": "flat", "limits-taxe_amount": ""}
    response = boss_client.post(f"/floor/tables/{table.pk}/limits/", data)
    assert response.status_code == 400
    html = response.content.decode()
    for label in ("Lower limit is required", "Higher limit is required", "Ante is required", "Taxe amount is required"):
        assert label in html
    assert LimitProfile.objects.filter(table=table).count() == 1


def test_the_limit_form_words_the_engines_refusal(boss_client):
    table = make_table(status=Table.Status.OPEN, name="Stud 1")
    data = {"limits-limit_type": "split", "limits-lower": "10.00", "limits-higher": "5.00", "limits-ante": "1.00",
            "limits-bring_in_mode": "full_bet", "limits-raise_cap": "3", "limits-open_pair_option": "on",
            "limits-taxe_mode": "flat", "limits-taxe_amount": "2.00"}
    html = boss_client.post(f"/floor/tables/{table.pk}/limits/", data).content.decode()
    assert "Higher limit: must be at least the lower limit" in html


def test_the_limit_forms_error_summary_names_each_field_and_links_to_it(boss_client):
    """Break-test finding 24: the summary at the top said "must not be negative" without saying which field."""
    table = make_table(status=Table.Status.OPEN, name="Stud 1")
    data = {"limits-limit_type": "split", "limits-lower": "abc", "limits-higher": "-5", "limits-ante": "1.00",
            "limits-bring_in_mode": "full_bet", "limits-raise_cap": "3", "limits-open_pair_option": "on",
            "limits-taxe_mode": "flat", "limits-taxe_amount": "2.00"}
    html = boss_client.post(f"/floor/tables/{table.pk}/limits/", data).content.decode()
    summary = html[html.index('class="form-errors"'):html.index("</ul></div>", html.index('class="form-errors"'))]
    assert '<a href="#id_limits-lower">Lower limit (EUR)</a>: ' in summary
    assert '<a href="#id_limits-higher">Higher limit (EUR)</a>: Enter the amount without a sign.' in summary


def test_a_players_request_entered_on_the_form_is_approved_from_the_floor(boss_client):
    table = make_table(status=Table.Status.OPEN, name="Stud 1")
    data = {"as_request": "1", "request-limit_type": "split", "request-lower": "10.00", "request-higher": "20.00",
            "request-ante": "2.00", "request-bring_in_mode": "full_bet", "request-raise_cap": "3",
            "request-open_pair_option": "on", "request-taxe_mode": "flat", "request-taxe_amount": "2.00",
            "request-reason": "seats 1 and 3 ask"}
    assert boss_client.post(f"/floor/tables/{table.pk}/limits/", data).status_code == 302
    req = LimitChangeRequest.objects.get()
    assert req.limit_label == "10/20" and req.note == "seats 1 and 3 ask"
    boss_client.post(f"/floor/requests/{req.pk}/approve/", {"note": "ok"})
    req.refresh_from_db()
    assert req.status == "approved" and req.resulting_profile.config["lower"] == "10.00"
    assert "10/20" in boss_client.get("/floor/").content.decode()


def test_a_push_leaving_an_open_table_without_a_dealer_asks_to_confirm_naming_it(boss_client):
    boss = make_user("boss", FLOOR_MANAGER)
    stud = make_table(status=Table.Status.OPEN, name="Stud 1")
    anna = make_dealer("anna")
    dealer_push(dealer=anna, kind="assign", table=stud, reason="start", actor=boss)
    response = boss_client.post("/floor/dealers/push/", {"dealer": anna.pk, "kind": "break", "reason": "tired"})
    assert response.status_code == 409 and "Stud 1" in response.content.decode()
    assert DealerPush.objects.count() == 1
    boss_client.post("/floor/dealers/push/", {"dealer": anna.pk, "kind": "break", "reason": "tired", "confirm": "yes"})
    assert DealerPush.objects.filter(kind="break", uncovered_table=stud).exists()


def test_the_grid_page_refuses_four_hours_forty_naming_dealer_slot_and_rule(boss_client):
    table = make_table(status=Table.Status.OPEN, name="Stud 1")
    dealers = [make_dealer(n, ["seven_card_stud"]) for n in ("anna", "bert", "cleo")]
    start = timezone.now().replace(second=0, microsecond=0) + dt.timedelta(hours=1)
    from tables.services.floor import rotation_plan_generate

    plan = rotation_plan_generate(name="late", shift_start=start, shift_end=start + dt.timedelta(minutes=280),
                                  tables=[table], dealers=dealers, period_minutes=20, periods_before_break=3)
    cells = {f"cell-{table.pk}-{p}": dealers[0].pk for p in range(14)}
    response = boss_client.post(f"/floor/rotation/{plan.pk}/", cells)
    assert response.status_code == 400
    html = response.content.decode()
    assert "anna" in html and "rule H2" in html
    assert RotationPlan.objects.get().slots.filter(dealer=dealers[0], table__isnull=False).count() < 14
    # the refused picks stay on screen, so Publish (which publishes the saved grid) waits until it is saved
    assert 'id="publish" disabled' in html and '<p id="publish-note" class="muted">' in html
    saved = boss_client.get(f"/floor/rotation/{plan.pk}/").content.decode()
    assert 'id="publish" disabled' not in saved and '<p id="publish-note" class="muted" hidden>' in saved


def test_the_rotation_pdf_and_the_shift_report_pdf_are_pdfs(boss_client):
    table = make_table(status=Table.Status.OPEN, name="Stud 1")
    dealers = [make_dealer(n, ["seven_card_stud"]) for n in ("anna", "bert")]
    from tables.services.floor import rotation_plan_generate

    start = timezone.now() + dt.timedelta(hours=1)
    plan = rotation_plan_generate(name="p", shift_start=start, shift_end=start + dt.timedelta(hours=2),
                                  tables=[table], dealers=dealers)
    for path in (f"/floor/rotation/{plan.pk}/pdf/", "/floor/report/pdf/"):
        response = boss_client.get(path)
        assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF"), path


def test_the_shift_report_draws_its_charts_as_svg(boss_client):
    html = boss_client.get("/floor/report/").content.decode()
    assert html.count("<svg") == 3


def test_the_public_board_needs_no_login_and_shows_no_names(client):
    boss = make_user("boss", FLOOR_MANAGER)
    waiting_list_add(game="seven_card_stud", limit_label="5/10", player_ref="JD", actor=boss, note="Johann D. at bar")
    waiting_list_add(game="seven_card_stud", limit_label="5/10", player_ref="987654321", actor=boss)
    response = client.get("/floor/board/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "JD" in html and "••21" in html
    assert "987654321" not in html and "Johann" not in html and "boss" not in html


def test_floor_calls_resolved_from_the_table_page(boss_client):
    table = make_table(status=Table.Status.OPEN, name="Stud 1")
    call = floor_call_create(table=table, reason="chips", actor=make_user("carla", CROUPIER))
    boss_client.post(f"/floor/calls/{call.pk}/resolve/", {"note": "fill brought", "next": f"/floor/tables/{table.pk}/"})
    call.refresh_from_db()
    assert call.status == FloorCall.Status.RESOLVED and call.resolution_note == "fill brought"


def test_the_floor_speaks_german_to_a_german_browser(boss_client):
    table = make_table(status=Table.Status.OPEN, name="Stud 1")
    with translation.override("en"):  # the middleware's German must not outlive the test (same thread)
        html = boss_client.get("/floor/", HTTP_ACCEPT_LANGUAGE="de-AT").content.decode()
        form = boss_client.get(f"/floor/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="de-AT").content.decode()
    assert translation.get_language() == "en"
    assert "Der Floor" in html and "Offen ohne Croupier" in html and "offen" in html
    assert "Niedriges Limit (EUR)" in form and "Limits ändern" in form


def test_the_engines_refusal_reaches_the_form_in_german(boss_client):
    table = make_table(status=Table.Status.OPEN, name="Stud 1")
    data = {"limits-limit_type": "split", "limits-lower": "10.00", "limits-higher": "5.00", "limits-ante": "1.00",
            "limits-bring_in_mode": "full_bet", "limits-raise_cap": "3", "limits-open_pair_option": "on",
            "limits-taxe_mode": "flat", "limits-taxe_amount": "2.00"}
    with translation.override("en"):
        html = boss_client.post(f"/floor/tables/{table.pk}/limits/", data, HTTP_ACCEPT_LANGUAGE="de-AT").content.decode()
    assert "Hohes Limit: muss mindestens das niedrigere Limit sein (R3.1)" in html


@pytest.mark.parametrize("path", ["/floor/report/", "/floor/report/pdf/"])
@pytest.mark.parametrize("day", ["9999-12-31", "abc"])
def test_a_shift_report_for_no_day_says_so_instead_of_failing_or_reporting_another_day(boss_client, path, day):
    """9999-12-31 has no next day (was a 500); the PDF of a bad day was the default day's PDF (break test)."""
    response = boss_client.get(path, {"day": day}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and response["Content-Type"].startswith("text/html")
    assert "Give the day as YYYY-MM-DD" in response.content.decode()


def test_a_rotation_name_longer_than_its_column_is_refused_in_the_form(boss_client):
    make_table(status=Table.Status.OPEN, name="Stud 1")
    make_dealer("anna", ["seven_card_stud"])
    make_dealer("bert", ["seven_card_stud"])
    day = (timezone.localtime() + dt.timedelta(days=1)).date().isoformat()
    form = {"name": "x" * 129, "day": day, "start": "18:00", "end": "20:00", "period": "30", "k": "2"}
    response = boss_client.post("/floor/rotation/", form, HTTP_ACCEPT_LANGUAGE="de-AT")
    assert response.status_code == 400  # was a 500 from the database
    assert "höchstens 128 Zeichen" in response.content.decode() and not RotationPlan.objects.exists()
    assert 'maxlength="128"' in response.content.decode()


def test_the_push_notice_names_the_table_the_dealer_goes_to(boss_client):
    table = make_table(status=Table.Status.OPEN, name="Stud 2")
    anna = make_dealer("anna", ["seven_card_stud"])
    page = boss_client.post("/floor/dealers/push/", {"dealer": anna.pk, "kind": "assign", "table": table.pk,
                                                     "reason": "relief"}, follow=True,
                            HTTP_ACCEPT_LANGUAGE="de-AT").content.decode()
    assert "an einen Tisch setzen: Stud 2 (relief) um " in page


def test_a_rotation_with_no_dealer_ticked_is_refused_not_planned_with_everyone(boss_client):
    make_table(status=Table.Status.OPEN, name="Stud 1")
    make_dealer("anna", ["seven_card_stud"])
    make_dealer("bert", ["seven_card_stud"])
    day = (timezone.localtime() + dt.timedelta(days=1)).date().isoformat()
    form = {"name": "late", "day": day, "start": "18:00", "end": "20:00", "period": "30", "k": "2",
            "tables": [str(t.pk) for t in Table.objects.all()], "dealers": ["999"]}  # unticked, or one that is gone
    response = boss_client.post("/floor/rotation/", form, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and "tick the dealers on shift" in response.content.decode()
    assert not RotationPlan.objects.exists()


@pytest.mark.parametrize(("day", "start", "end"), [("0001-01-01", "00:00", "02:00"), ("9999-12-31", "18:00", "02:00")])
def test_a_rotation_at_the_calendars_ends_is_refused_and_the_pages_still_open(boss_client, day, start, end):
    """Year 1 at midnight was stored as a year-0 time that no page could read back; 9999-12-31 has no next day."""
    make_table(status=Table.Status.OPEN, name="Stud 1")
    make_dealer("anna", ["seven_card_stud"])
    make_dealer("bert", ["seven_card_stud"])
    form = {"name": "edge", "day": day, "start": start, "end": end, "period": "30", "k": "2",
            "tables": [str(t.pk) for t in Table.objects.all()], "dealers": [str(d.pk) for d in Dealer.objects.all()]}
    assert boss_client.post("/floor/rotation/", form).status_code == 400
    assert not RotationPlan.objects.exists() and boss_client.get("/floor/rotation/").status_code == 200


@pytest.mark.parametrize(("path", "field"), [("/floor/rotation/", "name"), ("/floor/list/", "note")])
def test_a_null_character_in_a_page_form_is_a_readable_400(boss_client, path, field):
    response = boss_client.post(path, {field: "a\x00b"}, HTTP_ACCEPT_LANGUAGE="de-AT")
    assert response.status_code == 400
    assert f"das Formularfeld {field} enthält ein Nullzeichen" in response.content.decode()


def test_a_shift_report_refused_keeps_what_was_typed_and_shows_no_other_shift(boss_client):
    response = boss_client.get("/floor/report/", {"day": "9999-12-31", "start": "07:00"}, HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert response.status_code == 400 and 'value="9999-12-31"' in html and 'value="07:00"' in html
    assert "<svg" not in html and " hands</p>" not in html


def test_the_lists_limit_suggestions_read_in_the_pages_number_format(boss_client):
    """The suggestion keeps the stored label as its value (the list matches tables by it) and shows it the
    page's way (break test: "2-4 @ 1.00" on a German page)."""
    from tests.tables.hands_support import table_make

    table_make(game="capsa_susun", limit_label="2-4 @ 1.00")
    html = boss_client.get("/floor/list/", HTTP_ACCEPT_LANGUAGE="de-AT").content.decode()
    assert '<option value="2-4 @ 1.00" label="2-4 @ 1,00">' in html
