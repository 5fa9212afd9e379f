"""The demo floor (seed_demo) and the floor's admin pages: they render, show the audit history, and
their writes go through the services."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from casino.roles import ACCOUNTANT, CROUPIER, FLOOR_MANAGER
from rules.engines.registry import get_engine
from tables.models import (
    Dealer,
    DealerAssignment,
    LimitChangeRequest,
    LimitProfile,
    RotationPlan,
    RotationSlot,
    Table,
    TableSession,
)
from tables.services.rotation import DealerSpec, TableSpec, plan_violations
from tests.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    """The floor part of seed_demo (tables.demo) with the demo users it expects."""
    from tables.demo import seed_demo

    User = get_user_model()
    make_user("floor", FLOOR_MANAGER)
    make_user("croupier", CROUPIER)
    User.objects.create_superuser(username="admin", password="pw-for-tests-only")
    out = io.StringIO()
    seed_demo(stdout=out)
    return out.getvalue()


def test_the_seed_demo_command_builds_the_floor_once():
    out = io.StringIO()
    call_command("seed_demo", "--allow-without-debug", stdout=out)
    assert "Demo floor: 3 tables open" in out.getvalue()
    # the demo users are printed, the four-eyes accountants each with their step
    assert "accountant2 role accountant (four eyes: confirms a count)" in out.getvalue()
    assert "accountant3 role accountant (four eyes: signs off a variance)" in out.getvalue()
    counts = (Table.objects.count(), LimitProfile.objects.count(), Dealer.objects.count(),
              RotationPlan.objects.count(), RotationSlot.objects.count(), DealerAssignment.objects.count())
    call_command("seed_demo", "--allow-without-debug", stdout=io.StringIO())
    assert counts == (Table.objects.count(), LimitProfile.objects.count(), Dealer.objects.count(),
                      RotationPlan.objects.count(), RotationSlot.objects.count(), DealerAssignment.objects.count())
    floor = Table.objects.filter(name__in=["Stud 1", "Forty-one 1", "Capsa 1"])
    assert sorted(floor.values_list("game", flat=True)) == ["capsa_susun", "forty_one", "seven_card_stud"]
    assert set(floor.values_list("status", flat=True)) == {"open"}
    assert LimitProfile.objects.filter(table__in=floor).count() == 3
    assert counts[2:4] == (6, 1)
    # the demo evening adds the PHH stud table (US rules, one limit version per stake level) when the data is there;
    # the accounting demo adds 'Stud 2', which dealt the previous gaming day (the accountants' day to close)
    assert set(Table.objects.exclude(pk__in=floor).values_list("name", flat=True)) <= {"Stud WSOP", "Stud 2"}


def test_the_floor_demo_is_idempotent(demo):
    from tables.demo import seed_demo

    before = (Table.objects.count(), LimitProfile.objects.count(), RotationSlot.objects.count(),
              DealerAssignment.objects.count(), TableSession.objects.count())
    seed_demo(stdout=io.StringIO())
    assert before == (Table.objects.count(), LimitProfile.objects.count(), RotationSlot.objects.count(),
                      DealerAssignment.objects.count(), TableSession.objects.count())


def test_the_demo_limits_are_the_documented_examples(demo):
    stud = LimitProfile.objects.get(game="seven_card_stud").config
    forty_one = LimitProfile.objects.get(game="forty_one").config
    capsa = LimitProfile.objects.get(game="capsa_susun").config
    assert (stud["lower"], stud["higher"], stud["ante"], stud["taxe_mode"]) == ("5.00", "10.00", "1.00", "flat")
    assert (forty_one["limits"], forty_one["ante"], forty_one["tax_rate"]) == (["5.00", "10.00"], "2.00", "0.05")
    assert (capsa["method"], capsa["unit_value"], capsa["fee_mode"], capsa["fee_rate"]) == (
        "2-4", "1.00", "commission", "0.05")
    for profile in LimitProfile.objects.all():
        get_engine(profile.game).build_config(profile.config)


def test_the_demo_rotation_is_published_and_keeps_the_invariants(demo):
    plan = RotationPlan.objects.get()
    assert plan.status == "published" and plan.slots.count() == 16 * 6
    tables = [TableSpec(t.pk, t.name, t.game) for t in plan.tables.all()]
    dealers = [DealerSpec(d.pk, str(d), frozenset(d.games)) for d in plan.dealers.all()]
    starts = sorted({s.start for s in plan.slots.all()})
    grid = {d.id: [None] * len(starts) for d in dealers}
    for slot in plan.slots.all():
        grid[slot.dealer_id][starts.index(slot.start)] = slot.table_id
    assert plan_violations(grid=grid, tables=tables, dealers=dealers, periods_before_break=2) == []
    # Publishing assigns every dealing slot not yet over (floor.py: the roster's past is not written after the
    # fact): whatever ended between the seeding and now was assigned, the rest still is; nothing else.
    assigned = set(DealerAssignment.objects.values_list("slot_id", flat=True))
    dealing = plan.slots.filter(table__isnull=False)
    assert set(dealing.filter(end__gt=timezone.now()).values_list("pk", flat=True)) <= assigned
    assert assigned <= set(dealing.values_list("pk", flat=True))


@pytest.fixture
def admin_client(client, demo):
    client.force_login(get_user_model().objects.get(username="admin"))
    return client


@pytest.mark.parametrize("model", [Table, LimitProfile, LimitChangeRequest, Dealer, RotationPlan, DealerAssignment,
                                   TableSession])
def test_admin_pages_render_with_the_audit_history(admin_client, model):
    name = model._meta.model_name
    assert admin_client.get(f"/admin/tables/{name}/").status_code == 200
    obj = model.objects.first()
    if obj is not None:
        page = admin_client.get(f"/admin/tables/{name}/{obj.pk}/change/")
        assert page.status_code == 200
        assert "Audit history" in page.content.decode()


def test_admin_table_page_shows_who_opened_it(admin_client):
    table = Table.objects.get(name="Stud 1")
    page = admin_client.get(f"/admin/tables/table/{table.pk}/change/").content.decode()
    assert "status changed" in page and "closed → open" in page and "floor" in page


def test_admin_refuses_a_bad_seat_count_with_the_services_message(admin_client):
    response = admin_client.post("/admin/tables/table/add/", {"name": "Capsa 9", "game": "capsa_susun", "seats": 6})
    assert response.status_code == 200
    assert "Capsa Susun is dealt to 2 to 4 seats" in response.content.decode()
    assert not Table.objects.filter(name="Capsa 9").exists()


def test_admin_limit_profile_form_names_the_bad_field(admin_client):
    table = Table.objects.get(name="Stud 1")
    response = admin_client.post(f"/admin/tables/limitprofile/add/?table={table.pk}", {
        "table": table.pk, "limit_label": "5/10", "currency": "EUR", "chip_unit": "1.00", "limit_type": "split",
        "lower": "10.00", "higher": "5.00", "ante": "1.00", "bring_in_mode": "full_bet", "taxe_mode": "flat",
        "taxe_amount": ""})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Taxe amount is required here." in html
    assert LimitProfile.objects.filter(table=table).count() == 1


def test_admin_limit_profile_add_asks_for_the_table_then_shows_its_games_keys(admin_client):
    table = Table.objects.get(name="Forty-one 1")
    assert "Forty-one 1" in admin_client.get("/admin/tables/limitprofile/add/").content.decode()
    html = admin_client.get(f"/admin/tables/limitprofile/add/?table={table.pk}").content.decode()
    assert 'name="bonus_41_amount"' in html and 'name="limits__0"' in html and "null" not in html.split("<form")[1][:0]
    config = {"table": table.pk, "limit_label": "10/20", "currency": "EUR", "chip_unit": "1.00",
              "limits__0": "10.00", "limits__1": "20.00", "ante": "3.00", "tax_cap": "8.00", "tax_rate": "5",
              "bonus_41_amount": "15.00", "reason": "players' wish"}
    form_html = admin_client.get(f"/admin/tables/limitprofile/add/?table={table.pk}").content.decode()
    assert "B.6" in form_html  # the rule number in the help text
    response = admin_client.post(f"/admin/tables/limitprofile/add/?table={table.pk}", config)
    assert response.status_code == 302, response.content.decode()[:2000]
    latest = LimitProfile.objects.filter(table=table).order_by("-version").first()
    assert latest.config["limits"] == ["10.00", "20.00"] and latest.config["bonus_41_amount"] == "15.00"
    assert latest.config["tax_rate"] == "0.05"  # typed as 5 (%), kept as the engine's fraction


def test_admin_pause_action_goes_through_the_transition_table(admin_client):
    table = Table.objects.get(name="Capsa 1")
    admin_client.post("/admin/tables/table/", {"action": "pause_tables", "_selected_action": [table.pk]})
    table.refresh_from_db()
    assert table.status == "paused"
    admin_client.post("/admin/tables/table/", {"action": "pause_tables", "_selected_action": [table.pk]})
    table.refresh_from_db()
    assert table.status == "paused"


def test_admin_close_action_asks_for_the_counted_float(admin_client):
    table = Table.objects.get(name="Capsa 1")
    form = admin_client.post("/admin/tables/table/", {"action": "close_tables", "_selected_action": [table.pk]})
    assert form.status_code == 200 and "Counted chip float" in form.content.decode()
    admin_client.post("/admin/tables/table/", {"action": "close_tables", "_selected_action": [table.pk],
                                               "apply": "1", "amount": "987.00"})
    table.refresh_from_db()
    assert table.status == "closed"
    assert str(TableSession.objects.filter(table=table).latest("opened_at").closing_float) == "987.00"


@pytest.mark.parametrize("model", [Table, LimitProfile, LimitChangeRequest, Dealer, RotationPlan, DealerAssignment,
                                   TableSession])
def test_floor_managers_and_accountants_use_the_admin_without_model_permissions(client, demo, model):
    """Found by the break-it review: the role groups carry no model permissions, so the demo's floor manager
    got 403 on every floor admin page the README sends them to."""
    name = model._meta.model_name
    obj = model.objects.first()
    for username, role in (("floor", FLOOR_MANAGER), ("acc-admin", ACCOUNTANT)):
        user = make_user(username, role)
        get_user_model().objects.filter(pk=user.pk).update(is_staff=True)
        client.force_login(get_user_model().objects.get(pk=user.pk))
        assert client.get(f"/admin/tables/{name}/").status_code == 200, (username, name)
        if obj is not None:
            assert client.get(f"/admin/tables/{name}/{obj.pk}/change/").status_code == 200, (username, name)
    croupier = make_user("croupier-admin", CROUPIER)
    get_user_model().objects.filter(pk=croupier.pk).update(is_staff=True)
    client.force_login(get_user_model().objects.get(pk=croupier.pk))
    assert client.get(f"/admin/tables/{name}/").status_code == 403


def test_only_a_floor_manager_adds_a_table_in_the_admin(client, demo):
    for username, role, status in (("floor", FLOOR_MANAGER, 302), ("acc-admin", ACCOUNTANT, 403)):
        user = make_user(username, role)
        get_user_model().objects.filter(pk=user.pk).update(is_staff=True)
        client.force_login(get_user_model().objects.get(pk=user.pk))
        response = client.post("/admin/tables/table/add/", {"name": f"Stud {username}", "game": "seven_card_stud",
                                                             "seats": 6})
        assert response.status_code == status, (username, response.content[:300])
    assert list(Table.objects.filter(name__startswith="Stud ").exclude(name="Stud 1")
                .values_list("name", flat=True)) == ["Stud floor"]


def test_admin_players_request_uses_the_generated_form_too(admin_client):
    table = Table.objects.get(name="Stud 1")
    html = admin_client.get(f"/admin/tables/limitchangerequest/add/?table={table.pk}").content.decode()
    assert 'name="lower"' in html and "R3.1" in html
    response = admin_client.post(f"/admin/tables/limitchangerequest/add/?table={table.pk}", {
        "table": table.pk, "limit_label": "10/20", "note": "seat 2 asks", "limit_type": "split", "lower": "10.00",
        "higher": "20.00", "ante": "2.00", "bring_in_mode": "full_bet", "taxe_mode": "flat", "taxe_amount": "2.00"})
    assert response.status_code == 302
    request = LimitChangeRequest.objects.get(note="seat 2 asks")
    assert request.requested_config["higher"] == "20.00" and request.status == "pending"
