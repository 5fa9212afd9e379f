"""Per-hand reconciliation: a machine that did not log the hand replays it and checks the ledger entry.

Accounting stories: a clean hand of each game reconciles; each kind of tampering (a changed award,
a missing posting, a Taxe taken on a hand that ended on 3rd street, a missing entry, doctored events)
is flagged as a Discrepancy with what, expected and found; nothing is corrected; running twice (or
twice at once) gives one result; a proper correction (reversal + new entry) reconciles.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
import threading

import pytest
from django.db import connection
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from accounting.models import Discrepancy, JournalEntry, Posting, ReconciliationRun
from accounting.services.ledger import journal_entry_post, journal_entry_reverse
from accounting.services.reconciliation import hand_reconcile
from accounting.services.settlement import hand_settlement_post, settlement_lines
from accounting.tasks import reconcile_hand
from rules.engines.registry import get_engine
from tables.models import Hand, HandEvent
from tests.accounting.helpers import STACK, make_hand, make_table
from tests.accounting.helpers import stored_hand_settlement as _settlement
from tests.accounting.tamper import behind_the_service

pytestmark = pytest.mark.django_db

OPENED = dt.datetime(2026, 5, 4, 20, 0, tzinfo=dt.UTC)


def _stud_hand_with(rng_seed: int, predicate, table=None):
    """A posted-or-not stud hand whose settlement satisfies ``predicate`` (found by trying seeds)."""
    table = table or make_table("seven_card_stud")
    rng = random.Random(rng_seed)
    for _ in range(200):
        hand = make_hand(table, rng=rng, opened_at=OPENED, post=False)
        if predicate(_settlement(hand)):
            return hand
        HandEvent.objects.filter(hand=hand).delete()
        hand.delete()
    raise AssertionError("no such hand in 200 tries")


def _third_street_fold_events(table):
    """Antes, the 3rd-street deal, the bring-in, everyone else folds: the hand ends on 3rd street (R8.2)."""
    engine = get_engine("seven_card_stud")
    config = engine.build_config(table.limit_profiles.get().config)
    state = engine.new_hand(config, {1: STACK, 2: STACK, 3: STACK}, button=1)
    deck = ["2c", "Ah", "5d", "Kc", "Kd", "9s", "Qs", "Qh", "Jc"]
    events = []
    while not engine.is_complete(state):
        view = engine.view(state)
        legal = view["legal_actions"]
        if view["expect"] == "deal":
            event = {"type": "deal", "seat": legal[0]["seat"], "cards": " ".join(deck.pop() for _ in range(3))}
        else:
            pick = next((a for a in legal if a["type"] == "fold"), legal[0])
            event = {"type": pick["type"], "seat": pick["seat"]}
        state = engine.apply(state, event)
        events.append(event)
    assert engine.view(state)["street"] == 3 and engine.settlement(state).tax == 0
    return events


def _kinds(hand):
    return sorted(Discrepancy.objects.filter(hand=hand).values_list("kind", flat=True))


@pytest.mark.parametrize("game", ["seven_card_stud", "forty_one", "capsa_susun"])
def test_a_correctly_posted_hand_of_each_game_reconciles(game):
    table = make_table(game)
    rng = random.Random(7)
    hands = [make_hand(table, rng=rng, opened_at=OPENED) for _ in range(8)]
    for hand in hands:
        run = hand_reconcile(hand_id=hand.id)
        assert run.status == ReconciliationRun.Status.OK, Discrepancy.objects.filter(hand=hand).values("what", "expected", "found")
    assert not Discrepancy.objects.exists()
    assert set(Hand.objects.values_list("reconciliation", flat=True)) == {Hand.Reconciliation.RECONCILED}


def test_a_changed_award_is_flagged_for_both_seats_with_expected_and_found():
    hand = _stud_hand_with(11, lambda s: len([a for a in s.awards.values() if a]) == 1 and s.tax)
    true = _settlement(hand)
    winner = next(s for s, a in true.awards.items() if a)
    other = next(s for s in true.contributions if s != winner)
    # The croupier pays 5.00 of the winner's pot to another seat.
    awards = {**true.awards, winner: true.awards[winner] - 500, other: true.awards.get(other, 0) + 500}
    pot_awards = tuple((0, s, a) for s, a in sorted(awards.items()) if a)
    hand_settlement_post(hand=hand, settlement=dataclasses.replace(true, awards=awards, pot_awards=pot_awards))

    run = hand_reconcile(hand_id=hand.id)

    assert run.status == ReconciliationRun.Status.DISCREPANCY
    flagged = {d.check_key.split(":", 3)[-1]: d for d in Discrepancy.objects.filter(hand=hand, kind="award")}
    assert set(flagged) == {f"seat{winner}", f"seat{other}"}
    assert flagged[f"seat{winner}"].expected == f"{true.awards[winner] / 100:.2f}"
    assert flagged[f"seat{winner}"].found == f"{(true.awards[winner] - 500) / 100:.2f}"
    assert flagged[f"seat{other}"].found == f"{(true.awards.get(other, 0) + 500) / 100:.2f}"
    assert Hand.objects.get(id=hand.id).reconciliation == Hand.Reconciliation.DISCREPANCY


def test_a_missing_posting_is_flagged_and_nothing_is_corrected():
    hand = _stud_hand_with(12, lambda s: s.tax > 0)
    lines = settlement_lines(hand=hand, settlement=_settlement(hand))
    kept = [line for line in lines if line.role != "tax"]  # the Taxe pair (pot -t / tax +t) never posted
    journal_entry_post(lines=kept, idempotency_key=f"hand:{hand.id}:settlement", kind=JournalEntry.Kind.HAND_SETTLEMENT,
                       hand=hand, table=hand.table, gaming_day=hand.gaming_day)
    postings_before = list(Posting.objects.order_by("id").values_list("id", "amount"))

    hand_reconcile(hand_id=hand.id)

    assert _kinds(hand) == ["pot_not_cleared", "tax"]
    tax = Discrepancy.objects.get(hand=hand, kind="tax")
    assert (tax.expected, tax.found) == ("2.00", "0.00")
    assert list(Posting.objects.order_by("id").values_list("id", "amount")) == postings_before


def test_a_taxe_taken_on_a_hand_that_ended_on_third_street_is_flagged():
    table = make_table("seven_card_stud")
    hand = make_hand(table, rng=random.Random(1), opened_at=OPENED, events=_third_street_fold_events(table), post=False)
    true = _settlement(hand)
    winner = next(s for s, a in true.awards.items() if a)
    skimmed = dataclasses.replace(true, tax=200, awards={**true.awards, winner: true.awards[winner] - 200},
                                  pot_awards=((0, winner, true.awards[winner] - 200),))
    hand_settlement_post(hand=hand, settlement=skimmed)

    hand_reconcile(hand_id=hand.id)

    tax = Discrepancy.objects.get(hand=hand, kind="tax")
    assert (tax.expected, tax.found) == ("0.00", "2.00")
    assert "award" in _kinds(hand)


def test_a_closed_hand_without_a_settlement_entry_is_flagged():
    hand = make_hand(make_table("forty_one"), rng=random.Random(3), opened_at=OPENED, post=False)
    hand_reconcile(hand_id=hand.id)
    assert _kinds(hand) == ["missing_entry"]


def _capsa_level_deal_events():
    """Two seats dealt the same ranks (suits swapped c<->h, d<->s, no natural) and set alike: with no suit
    tiebreak every row is level, so nothing changes hands (A.6)."""
    rows = {1: {"front": "2c 3h 5s", "middle": "7c 7d 9h Js Kc", "back": "Ac Ad Qh Qs 8d"},
            2: {"front": "2h 3c 5d", "middle": "7h 7s 9c Jd Kh", "back": "Ah As Qc Qd 8s"}}
    events = [{"type": "deal", "seat": s, "cards": " ".join(r.values())} for s, r in rows.items()]
    events += [{"type": "set", "seat": s, **r} for s, r in rows.items()]
    return events + [{"type": "play", "seat": 2}, {"type": "play", "seat": 1}, {"type": "reveal"}]  # button 1


def test_a_closed_hand_where_no_money_moves_needs_no_entry_and_reconciles():
    table = make_table("capsa_susun", raw={"unit_value": "1.00"})  # commission on winnings only
    hand = make_hand(table, rng=random.Random(5), opened_at=OPENED, seats=(1, 2), events=_capsa_level_deal_events(),
                     post=False)
    settlement = _settlement(hand)
    assert settlement.net == {1: 0, 2: 0} and not any(settlement.contributions.values())
    assert hand_settlement_post(hand=hand, settlement=settlement) is None  # nothing to post

    run = hand_reconcile(hand_id=hand.id)

    assert run.status == ReconciliationRun.Status.OK
    assert _kinds(hand) == []
    assert Hand.objects.get(id=hand.id).reconciliation == Hand.Reconciliation.RECONCILED


def test_a_hand_that_moves_money_still_needs_its_entry():
    hand = make_hand(make_table("capsa_susun"), rng=random.Random(6), opened_at=OPENED, post=False)
    assert any(_settlement(hand).fees.values())  # the per-seat fee always moves money
    hand_reconcile(hand_id=hand.id)
    assert _kinds(hand) == ["missing_entry"]


def test_doctored_events_that_no_longer_replay_are_flagged():
    hand = make_hand(make_table("capsa_susun"), rng=random.Random(4), opened_at=OPENED)
    first = hand.events.get(seq=1)
    with behind_the_service() as cursor:  # the database refuses the edit itself
        cursor.execute("UPDATE tables_handevent SET payload = %s WHERE id = %s", ['{"type": "no_such_event"}', first.id])
    hand_reconcile(hand_id=hand.id)
    assert _kinds(hand) == ["event_digest", "replay_failed"]


def test_running_twice_gives_one_run_and_no_duplicate_discrepancies():
    hand = _stud_hand_with(13, lambda s: s.tax > 0)
    true = _settlement(hand)
    hand_settlement_post(hand=hand, settlement=dataclasses.replace(true, tax=true.tax - 100,
                                                                   returned={**true.returned, 1: true.returned.get(1, 0) + 100}))
    first = hand_reconcile(hand_id=hand.id)
    count = Discrepancy.objects.count()
    second = reconcile_hand.apply(args=(hand.id,)).get()
    assert second == first.status == ReconciliationRun.Status.DISCREPANCY
    assert hand_reconcile(hand_id=hand.id).pk == first.pk
    assert ReconciliationRun.objects.filter(hand=hand).count() == 1
    assert Discrepancy.objects.count() == count > 0


def test_a_reversal_and_a_correct_entry_make_a_new_version_that_reconciles(role_user):
    hand = _stud_hand_with(14, lambda s: s.tax > 0)
    true = _settlement(hand)
    wrong = hand_settlement_post(hand=hand, settlement=dataclasses.replace(
        true, tax=true.tax + 100, awards={s: a - 100 if a >= 100 and s == max(true.awards, key=true.awards.get) else a
                                          for s, a in true.awards.items()}, pot_awards=()))
    assert hand_reconcile(hand_id=hand.id).status == ReconciliationRun.Status.DISCREPANCY
    journal_entry_reverse(entry=wrong, actor=role_user("accountant"), reason="Taxe taken twice")
    journal_entry_post(lines=settlement_lines(hand=hand, settlement=true), idempotency_key=f"hand:{hand.id}:corrected",
                       kind=JournalEntry.Kind.ADJUSTMENT, hand=hand, table=hand.table, gaming_day=hand.gaming_day)

    run = hand_reconcile(hand_id=hand.id)

    assert run.status == ReconciliationRun.Status.OK
    assert ReconciliationRun.objects.filter(hand=hand).count() == 2
    assert Hand.objects.get(id=hand.id).reconciliation == Hand.Reconciliation.RECONCILED
    assert Discrepancy.objects.filter(hand=hand, status=Discrepancy.Status.OPEN).exists()  # the accountant closes it


def test_an_open_hand_is_not_reconciled_yet():
    hand = make_hand(make_table("forty_one"), rng=random.Random(5), opened_at=OPENED, post=False)
    Hand.objects.filter(id=hand.id).update(status=Hand.Status.OPEN)
    assert hand_reconcile(hand_id=hand.id) is None
    assert not ReconciliationRun.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_two_concurrent_runs_of_one_hand_give_one_result():
    hand = _stud_hand_with(15, lambda s: s.tax > 0)
    true = _settlement(hand)
    hand_settlement_post(hand=hand, settlement=dataclasses.replace(true, tax=0, returned={
        **true.returned, 1: true.returned.get(1, 0) + true.tax}))
    barrier = threading.Barrier(4)
    results, errors = [], []

    def run():
        try:
            barrier.wait()
            results.append(hand_reconcile(hand_id=hand.id).pk)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert len(set(results)) == 1
    assert ReconciliationRun.objects.filter(hand=hand).count() == 1
    assert Discrepancy.objects.filter(hand=hand, kind="tax").count() == 1


def test_reconcile_task_runs_on_a_real_worker(live_worker):
    hand = make_hand(make_table("capsa_susun"), rng=random.Random(6), opened_at=OPENED)
    result = reconcile_hand.delay(hand.id)
    assert result.get(timeout=30) == ReconciliationRun.Status.OK
    assert Hand.objects.get(id=hand.id).reconciliation == Hand.Reconciliation.RECONCILED


def _convention_legs(settlement, table_id=1):
    """The legs the ledger convention prescribes, as the reconciliation's Leg records (cents)."""
    from accounting.services.reconciliation import Leg

    legs = []

    def pair(out_code, in_code, cents, role, seat=None, pot=None):
        if cents:
            legs.append(Leg(1, "hand_settlement", out_code, table_id, -cents, role, seat, pot))
            legs.append(Leg(1, "hand_settlement", in_code, table_id, cents, role, seat, pot))

    players, pot = f"table:{table_id}:players", f"table:{table_id}:pot"
    for seat, cents in settlement.contributions.items():
        pair(players, pot, cents, "contribution", seat)
    if settlement.pot_awards:
        for pot_index, seat, cents in settlement.pot_awards:
            pair(pot, players, cents, "award", seat, pot_index)
    else:
        for seat, cents in settlement.awards.items():
            pair(pot, players, cents, "award", seat)
    for seat, cents in settlement.returned.items():
        pair(pot, players, cents, "returned", seat)
    pair(pot, f"table:{table_id}:tax", settlement.tax, "tax")
    for seat, cents in settlement.fees.items():
        pair(players, f"table:{table_id}:fee", cents, "fee", seat)
    for seat, cents in settlement.bonus.items():
        legs.append(Leg(1, "hand_settlement", "house:bonus_expense", None, -cents, "bonus", seat, None))
        legs.append(Leg(1, "hand_settlement", players, table_id, cents, "bonus", seat, None))
    return [leg for leg in legs if leg.cents]


@hsettings(max_examples=60, deadline=None)
@given(game=st.sampled_from(["seven_card_stud", "forty_one", "capsa_susun"]), seed=st.integers(0, 10_000),
       which=st.integers(0, 10_000), delta=st.sampled_from([-100, -1, 1, 500]), paired=st.booleans())
def test_any_changed_leg_or_pair_of_legs_is_found_and_the_true_legs_are_clean(game, seed, which, delta, paired):
    from accounting.services.reconciliation import HandFacts, Leg, settlement_findings
    from tests.accounting.helpers import RAW, random_events

    engine = get_engine(game)
    config = engine.build_config(RAW[game])
    stacks = {1: STACK, 2: STACK, 3: STACK}
    events = random_events(game, config, stacks, 1, random.Random(seed))
    settlement = engine.settlement(engine.replay(config, stacks, events, button=1))
    facts = HandFacts(1, 1, 1, game, "closed", 1, {}, {"1": {}, "2": {}, "3": {}}, OPENED.date(), len(events))
    legs = _convention_legs(settlement)
    assert settlement_findings(facts, settlement, legs) == []
    index = which % len(legs)
    changed = list(legs)
    leg = legs[index]
    changed[index] = leg._replace(cents=leg.cents + delta)
    if paired:  # keep the entry balanced: move the same amount on the other leg of the pair
        partner = index + 1 if index % 2 == 0 else index - 1
        changed[partner] = legs[partner]._replace(cents=legs[partner].cents - delta)
    assert isinstance(changed[index], Leg)
    assert settlement_findings(facts, settlement, changed), (leg, delta, paired)
