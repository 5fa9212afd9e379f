"""Property: random legal hands of each game, logged event by event through the service, always close
with one entry equal to the engine's settlement, leave every entry balanced and every pot account at zero."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounting.models import JournalEntry
from casino.roles import FLOOR_MANAGER
from rules.engines import capsa
from rules.engines.registry import get_engine
from tables.models import Hand
from tables.services.hands import SeatInput, hand_event_append, hand_open
from tables.services.simulation import random_hand_events
from tests.tables.hands_support import CAPSA_CONFIG, assert_ledger_balanced, table_make, user_in

pytestmark = pytest.mark.django_db

#: Seated players per game (kept below the table maximum so a run stays within a few seconds).
SEATS = {"seven_card_stud": (2, 5), "forty_one": (3, 5), "capsa_susun": (2, 4)}


def _actor():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.filter(username="prop-floor").first() or user_in(FLOOR_MANAGER, "prop-floor")


def _random_events(game: str, config, seats: dict[int, int], button: int, rng: random.Random) -> list[dict]:
    if game == "capsa_susun":  # more fouls and surrenders than the simulator's default deal
        return capsa.random_deal(config, seats, button, rng, foul_rate=0.3, surrender_rate=0.15)
    return random_hand_events(game=game, config=config, seats=seats, button=button, rng=rng)


def _cents(entry: JournalEntry, role: str) -> dict[int, int]:
    out: dict[int, int] = {}
    for posting in entry.postings.filter(role=role, account__code__endswith=":players"):
        out[posting.seat] = out.get(posting.seat, 0) + abs(int(posting.amount * 100))
    return out


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(game=st.sampled_from(sorted(SEATS)), seed=st.integers(0, 2**32 - 1))
def test_random_legal_hands_leave_the_ledger_balanced_and_the_pots_at_zero(game, seed):
    rng = random.Random(seed)
    low, high = SEATS[game]
    chosen = sorted(rng.sample(range(1, 9 if game != "capsa_susun" else 5), rng.randint(low, high)))
    # short stacks on purpose: all-ins and side pots
    stacks = {seat: rng.choice([300, 800, 1500, 5000, 20000]) * (100 if game == "capsa_susun" else 1)
              for seat in chosen}
    config = None
    if game == "capsa_susun":
        pair = rng.sample(chosen, 2)
        config = {**CAPSA_CONFIG, "pair_stakes": {f"{pair[0]}-{pair[1]}": rng.choice(["2.00", "5.00"])}}
    table = table_make(game=game, config=config)
    actor = _actor()
    hand = hand_open(table=table, seats=[SeatInput(seat=s, stack=c) for s, c in stacks.items()], actor=actor)
    engine = get_engine(game)
    events = _random_events(game, engine.build_config(hand.limit_snapshot), stacks, hand.button_seat, rng)
    state = None
    for seq, event in enumerate(events):
        _, state = hand_event_append(hand=hand, event=event, idempotency_key=f"p{seq}", expected_seq=seq, actor=actor)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.CLOSED and state["complete"]
    settlement = state["settlement"]
    entries = list(JournalEntry.objects.filter(hand=hand))
    moved = any(int(v) for v in settlement["contributions"].values())
    assert len(entries) == (1 if moved else 0)
    if entries:
        entry = entries[0]
        contributions = {int(s): int(c) for s, c in settlement["contributions"].items() if int(c)}
        assert _cents(entry, "contribution") == contributions
        tax = entry.postings.filter(role="tax", account__code__endswith=":tax")
        assert sum(p.amount for p in tax) == Decimal(settlement["tax"]) / 100
    assert_ledger_balanced()
