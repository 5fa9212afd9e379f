"""Shared set-up for the hand-logging and ledger tests: tables with limit profiles, a croupier on duty,
the API calls a terminal makes, and ledger checks (random legal hands: ``rules.engines.stud_sim.random_hand``,
``forty_one.random_hand``, ``capsa.random_deal``).

Plain functions (no fixtures) so both ``tests/tables`` and ``tests/accounting`` can import them.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.utils import timezone

from accounting.models import JournalEntry, Posting
from casino.roles import ACCOUNTANT, CROUPIER, FLOOR_MANAGER
from rules.engines.money import format_cents
from tables.models import Dealer, DealerAssignment, LimitProfile, Table
from tests.factories import make_user

#: Limit profiles of the three games as the floor stores them (EUR strings).
STUD_CONFIG = {"lower": "5.00", "higher": "10.00", "ante": "1.00", "taxe_amount": "2.00"}
FORTY_ONE_CONFIG = {"ante": "2.00", "limits": ["5.00", "10.00"], "tax_cap": "10.00", "bonus_41_amount": "50.00"}
CAPSA_CONFIG = {"unit_value": "1.00"}
CONFIGS = {"seven_card_stud": STUD_CONFIG, "forty_one": FORTY_ONE_CONFIG, "capsa_susun": CAPSA_CONFIG}


def user_in(role: str | None, username: str):
    """A user ``username`` in ``role``'s group (:func:`tests.factories.make_user`)."""
    return make_user(username, role)


def table_make(*, game: str = "seven_card_stud", name: str | None = None, seats: int = 8,
               config: dict | None = None, status: str = Table.Status.OPEN, limit_label: str = "test",
               effective_from: dt.datetime | None = None) -> Table:
    """A table with one limit profile (version 1, ``config`` default :data:`CONFIGS`, in force since
    ``effective_from``, default an hour ago), written directly (no floor services, no session)."""
    table = Table.objects.create(name=name or f"{game}-{Table.objects.count() + 1}", game=game, seats=seats,
                                 status=status)
    LimitProfile.objects.create(table=table, version=1, game=game, limit_label=limit_label,
                                config=config if config is not None else CONFIGS[game],
                                effective_from=effective_from or timezone.now() - dt.timedelta(hours=1))
    return table


def croupier_on_duty(table: Table, username: str = "croupier"):
    user = user_in(CROUPIER, username)
    dealer = Dealer.objects.create(user=user, games=[table.game])
    DealerAssignment.objects.create(dealer=dealer, table=table, start=timezone.now() - dt.timedelta(minutes=30))
    return user


def floor_manager(username: str = "floor"):
    return user_in(FLOOR_MANAGER, username)


def accountant(username: str = "accountant"):
    return user_in(ACCOUNTANT, username)


def eur(cents: int) -> str:
    return format_cents(cents)


def seats_payload(stacks: dict[int, int], refs: dict[int, str] | None = None) -> list[dict[str, Any]]:
    """API seats from ``{seat: cents}``."""
    refs = refs or {}
    return [{"seat": s, "stack": eur(c), **({"player_ref": refs[s]} if s in refs else {})}
            for s, c in sorted(stacks.items())]


def event_to_api(event: dict[str, Any]) -> dict[str, Any]:
    """An engine event (cents) as a terminal sends it (EUR strings)."""
    out = dict(event)
    for key in ("amount", "to"):
        if key in out and isinstance(out[key], int):
            out[key] = eur(out[key])
    return out


class Terminal:
    """A croupier's terminal: opens a hand and posts events with fresh keys and the expected seq."""

    def __init__(self, client, user):
        self.client = client
        self.client.force_authenticate(user)
        self.counter = 0

    def open(self, table: Table, stacks: dict[int, int], refs: dict[int, str] | None = None):
        return self.client.post("/api/v1/hands/", {"table": table.pk, "seats": seats_payload(stacks, refs)},
                                format="json")

    def post(self, hand_id: int, event: dict[str, Any], *, seq: int, key: str | None = None):
        self.counter += 1
        body = {"idempotency_key": key or f"t-{hand_id}-{self.counter}", "expected_seq": seq, "event": event}
        return self.client.post(f"/api/v1/hands/{hand_id}/events/", body, format="json")

    def play(self, hand_id: int, events: list[dict[str, Any]], *, start_seq: int = 0):
        """Post engine events one by one (converted to EUR); assert each is accepted; return the last answer."""
        response = None
        for offset, event in enumerate(events):
            response = self.post(hand_id, event_to_api(event), seq=start_seq + offset)
            assert response.status_code == 201, (offset, event, response.json())
        return response


# --- ledger checks -------------------------------------------------------------------------------------------


def entry_legs(entry: JournalEntry) -> list[tuple[str, Decimal, str, int | None]]:
    return [(p.account.code, p.amount, p.role, p.seat) for p in entry.postings.select_related("account")]


def assert_ledger_balanced() -> None:
    """Every entry's legs sum to zero and every table's pot account is at zero (summed as Decimal in Python:
    SQLite's SUM over decimals is a float)."""
    totals: dict[int, Decimal] = {}
    pots: dict[str, Decimal] = {}
    for entry_id, code, amount in Posting.objects.values_list("entry_id", "account__code", "amount"):
        totals[entry_id] = totals.get(entry_id, Decimal(0)) + amount
        if code.endswith(":pot"):
            pots[code] = pots.get(code, Decimal(0)) + amount
    assert set(totals) == set(JournalEntry.objects.values_list("id", flat=True)), "an entry without postings"
    assert {k: v for k, v in totals.items() if v} == {}, "unbalanced entries"
    assert {k: v for k, v in pots.items() if v} == {}, "pot accounts not at zero"


def seat_sums(entry: JournalEntry, role: str) -> dict[int, int]:
    """Per seat, the cents moved into the players' account by legs of ``role`` (signed, players side)."""
    out: dict[int, int] = {}
    for p in entry.postings.select_related("account").filter(role=role, account__code__endswith=":players"):
        out[p.seat] = out.get(p.seat, 0) + int(p.amount * 100)
    return out
