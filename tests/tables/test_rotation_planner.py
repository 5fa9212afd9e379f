"""The rotation planner (pure, no database): shapes of the floor and the plan's invariants.

Every generated plan is checked against H1 (every table has one qualified dealer in every period),
H2 (a break after at most ``periods_before_break`` periods) and S1 (no dealer deals the same table
twice in a row while another qualified dealer is free) by ``plan_violations``, plus an independent
re-check written here, so the planner is not only judged by its own checker.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.services.rotation import (
    DealerSpec,
    PlanInfeasible,
    TableSpec,
    break_spread,
    hungarian,
    min_dealers_needed,
    plan_rotation,
    plan_violations,
)

STUD, FORTY_ONE, CAPSA = "seven_card_stud", "forty_one", "capsa_susun"
ALL = frozenset({STUD, FORTY_ONE, CAPSA})


def tables_of(*games: str) -> list[TableSpec]:
    return [TableSpec(i, f"T{i}", game) for i, game in enumerate(games, start=1)]


def dealers_of(*qualifications: frozenset[str]) -> list[DealerSpec]:
    return [DealerSpec(100 + i, f"D{i}", q) for i, q in enumerate(qualifications)]


def assert_invariants(grid, tables, dealers, k, periods):
    """H1, H2 and S1 re-checked independently of ``plan_violations``, then via it."""
    assert set(grid) == {d.id for d in dealers}
    assert all(len(row) == periods for row in grid.values())
    games = {t.id: t.game for t in tables}
    quals = {d.id: d.games for d in dealers}
    for p in range(periods):
        at_table = [(did, row[p]) for did, row in grid.items() if row[p] is not None]
        assert sorted(tid for _, tid in at_table) == sorted(games), f"period {p}: not one dealer per table"
        assert all(games[tid] in quals[did] for did, tid in at_table), f"period {p}: unqualified dealer"
    for did, row in grid.items():
        longest = max((len(list(run)) for dealing, run in itertools.groupby(row, key=lambda t: t is not None)
                       if dealing), default=0)
        assert longest <= k, f"dealer {did} deals {longest} periods in a row"
    assert plan_violations(grid=grid, tables=tables, dealers=dealers, periods_before_break=k) == []


@pytest.mark.parametrize(("shape", "tables", "dealers"), [
    ("more dealers than tables", tables_of(STUD, FORTY_ONE, CAPSA), dealers_of(*[ALL] * 8)),
    ("twice as many dealers", tables_of(STUD, FORTY_ONE, CAPSA), dealers_of(*[ALL] * 6)),
    ("exactly enough (3 tables, k=2: 5 dealers)", tables_of(STUD, FORTY_ONE, CAPSA), dealers_of(*[ALL] * 5)),
    ("exactly enough, one game per dealer", tables_of(STUD, FORTY_ONE, CAPSA),
     dealers_of(*[frozenset({g}) for g in (STUD, STUD, FORTY_ONE, FORTY_ONE, CAPSA, CAPSA)])),
    ("single-game dealers plus generalists", tables_of(STUD, STUD, FORTY_ONE, CAPSA),
     dealers_of(frozenset({STUD}), frozenset({STUD}), frozenset({CAPSA}), frozenset({FORTY_ONE}), ALL, ALL, ALL)),
    ("one table, two dealers", tables_of(CAPSA), dealers_of(ALL, ALL)),
    ("six tables, nine dealers", tables_of(STUD, FORTY_ONE, CAPSA, STUD, FORTY_ONE, CAPSA), dealers_of(*[ALL] * 9)),
])
@pytest.mark.parametrize("periods", [1, 3, 16])
def test_generated_plans_keep_coverage_breaks_and_rotation(shape, tables, dealers, periods):
    grid = plan_rotation(tables=tables, dealers=dealers, periods=periods, periods_before_break=2)
    assert_invariants(grid, tables, dealers, 2, periods)


@pytest.mark.parametrize("n_dealers", [5, 6, 7, 8, 10])
def test_breaks_are_spread_evenly_when_every_dealer_may_deal_every_table(n_dealers):
    tables = tables_of(STUD, FORTY_ONE, CAPSA)
    grid = plan_rotation(tables=tables, dealers=dealers_of(*[ALL] * n_dealers), periods=16)
    fewest, most = break_spread(grid)
    assert most - fewest <= 1
    assert sum(row.count(None) for row in grid.values()) == (n_dealers - 3) * 16


def test_no_dealer_repeats_a_table_in_consecutive_periods_when_there_are_spare_dealers():
    tables = tables_of(STUD, FORTY_ONE, CAPSA)
    grid = plan_rotation(tables=tables, dealers=dealers_of(*[ALL] * 6), periods=16)
    for row in grid.values():
        assert all(a is None or a != b for a, b in zip(row, row[1:]))


def test_one_table_with_two_dealers_alternates_instead_of_repeating():
    grid = plan_rotation(tables=tables_of(STUD), dealers=dealers_of(ALL, ALL), periods=6)
    assert [tuple(row) for row in grid.values()] in ([(1, None) * 3, (None, 1) * 3], [(None, 1) * 3, (1, None) * 3])


def test_a_period_setting_of_three_lets_dealers_deal_three_periods_in_a_row():
    tables = tables_of(STUD, FORTY_ONE, CAPSA)
    dealers = dealers_of(*[ALL] * 4)  # ceil(3 * 4 / 3) = 4
    grid = plan_rotation(tables=tables, dealers=dealers, periods=12, periods_before_break=3)
    assert_invariants(grid, tables, dealers, 3, 12)


@pytest.mark.parametrize(("tables", "dealers", "reason"), [
    (tables_of(STUD, FORTY_ONE, CAPSA), dealers_of(*[ALL] * 4), "at least 5 dealers are needed; 4 on shift"),
    (tables_of(STUD, FORTY_ONE, CAPSA), dealers_of(*[frozenset({STUD, FORTY_ONE})] * 6),
     "no dealer on shift may deal capsa_susun"),
    (tables_of(STUD, CAPSA), dealers_of(frozenset({STUD}), frozenset({STUD}), frozenset({STUD}), frozenset({CAPSA})),
     "capsa_susun tables to staff: 1, they need at least 2 qualified dealers"),
    (tables_of(STUD, STUD), dealers_of(frozenset({STUD}), frozenset({STUD}), frozenset({CAPSA}),
                                       frozenset({CAPSA})), "seven_card_stud tables to staff: 2, they need at least 3 qualified dealers"),
])
def test_a_plan_that_cannot_staff_every_table_is_refused_with_the_reason(tables, dealers, reason):
    with pytest.raises(PlanInfeasible) as caught:
        plan_rotation(tables=tables, dealers=dealers, periods=16)
    assert reason in caught.value.reason


def test_the_planners_reason_reads_in_german_with_its_numbers():
    """The reason is a marked message: a German refusal is German throughout (break-test finding 13)."""
    from django.utils import translation

    from casino.i18n import message_text

    with pytest.raises(PlanInfeasible) as caught:
        plan_rotation(tables=tables_of(STUD, FORTY_ONE, CAPSA), dealers=dealers_of(*[ALL] * 4), periods=16)
    with translation.override("de-at"):
        german = message_text(caught.value.reason)
    assert german.startswith("zu besetzende Tische: 3, jeder braucht in jeder Periode einen Croupier")
    assert "höchstens 2 Perioden hintereinander" in german and "mindestens 5 Croupiers nötig; 4 im Dienst" in german


def test_a_short_shift_needs_no_break_so_one_dealer_per_table_suffices():
    tables = tables_of(STUD, FORTY_ONE)
    dealers = dealers_of(ALL, ALL)
    grid = plan_rotation(tables=tables, dealers=dealers, periods=2)
    assert_invariants(grid, tables, dealers, 2, 2)
    with pytest.raises(PlanInfeasible):
        plan_rotation(tables=tables, dealers=dealers, periods=3)


@pytest.mark.parametrize(("tables", "k", "periods", "needed"), [
    (3, 2, 16, 5), (3, 1, 16, 6), (4, 3, 16, 6), (3, 2, 2, 3), (0, 2, 16, 0),
])
def test_minimum_dealers_follows_the_break_rule(tables, k, periods, needed):
    assert min_dealers_needed(tables, k, periods) == needed


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.integers(0, 20), min_size=1, max_size=5), min_size=1, max_size=5))
def test_hungarian_finds_the_minimum_of_brute_force(rows):
    n = len(rows)
    matrix = [(row * n)[:n] for row in rows]
    _, total = hungarian(matrix)
    best = min(sum(matrix[i][p[i]] for i in range(n)) for p in itertools.permutations(range(n)))
    assert total == best


game_sets = st.sets(st.sampled_from([STUD, FORTY_ONE, CAPSA]), min_size=1).map(frozenset)


@settings(max_examples=40, deadline=None)
@given(table_games=st.lists(st.sampled_from([STUD, FORTY_ONE, CAPSA]), min_size=1, max_size=4),
       dealer_games=st.lists(game_sets, min_size=1, max_size=8), periods=st.integers(1, 12),
       k=st.integers(1, 3))
def test_every_plan_keeps_the_invariants_or_is_refused_with_a_reason(table_games, dealer_games, periods, k):
    tables = tables_of(*table_games)
    dealers = dealers_of(*dealer_games)
    try:
        grid = plan_rotation(tables=tables, dealers=dealers, periods=periods, periods_before_break=k)
    except PlanInfeasible as err:
        assert err.reason
        # Refusals are never wrong on a floor where everyone may deal everything and there are enough dealers.
        assert not (all(d.games == ALL for d in dealers)
                    and len(dealers) >= min_dealers_needed(len(tables), k, periods))
        return
    assert_invariants(grid, tables, dealers, k, periods)
    if all(d.games == ALL for d in dealers) and periods >= 2 * (k + 1):
        fewest, most = break_spread(grid)
        assert most - fewest <= 1


# ---- the working-time law's long break (AZG § 11), planned in -------------------------------------

def _azg_breaches(grid, k, long_break, minutes=20):
    """The grid's breaches of H2 and AZG § 11 by the independent checker of working_time.py."""
    import datetime as dt

    from tables.services.working_time import Stint, WorkingTimeRules, working_time_violations

    t0 = dt.datetime(2026, 12, 3, 14, 0, tzinfo=dt.UTC)
    step = dt.timedelta(minutes=minutes)
    stints = [Stint(str(did), t0 + p * step, t0 + (p + 1) * step, None if tid is None else str(tid))
              for did, row in grid.items() for p, tid in enumerate(row)]
    rules = WorkingTimeRules(max_deal_minutes=minutes * k, min_break_minutes=minutes,
                             long_break_after_minutes=long_break.after_periods * minutes,
                             long_break_minutes=(long_break.periods - 1) * minutes + 1)
    return working_time_violations(stints=stints, rules=rules)


@pytest.mark.parametrize(("n_tables", "n_dealers", "periods", "k"), [
    (2, 3, 30, 3),   # 20-minute periods, 10 h: 18 periods dealt, then 2 periods off in one piece
    (4, 6, 30, 3),
    (10, 15, 30, 3),
    (5, 8, 36, 3),
])
def test_the_planner_plans_the_long_break_in_instead_of_refusing(n_tables, n_dealers, periods, k):
    from tables.services.rotation import LongBreak

    long_break = LongBreak(after_periods=18, periods=2)
    tables, dealers = tables_of(*[STUD] * n_tables), dealers_of(*[ALL] * n_dealers)
    without_law = plan_rotation(tables=tables, dealers=dealers, periods=periods, periods_before_break=k)
    assert {v.rule for v in _azg_breaches(without_law, k, long_break)} == {"AZG11"}  # the old plan broke it
    grid = plan_rotation(tables=tables, dealers=dealers, periods=periods, periods_before_break=k,
                         long_break=long_break)
    assert_invariants_without_s1(grid, tables, dealers, k, periods)
    assert _azg_breaches(grid, k, long_break) == []
    for row in grid.values():  # whoever deals more than 18 periods has two periods off in a row between
        if sum(t is not None for t in row) > 18:
            assert any(row[p] is None and row[p + 1] is None for p in range(1, periods - 2)), row


def assert_invariants_without_s1(grid, tables, dealers, k, periods):
    """H1 and H2 (a dealer on a long break is free but may not be called back: S1 is not judged)."""
    games = {t.id: t.game for t in tables}
    for p in range(periods):
        at_table = [row[p] for row in grid.values() if row[p] is not None]
        assert sorted(at_table) == sorted(games), f"period {p}: not one dealer per table"
    for row in grid.values():
        longest = max((len(list(run)) for dealing, run in itertools.groupby(row, key=lambda t: t is not None)
                       if dealing), default=0)
        assert longest <= k


def test_the_long_break_adds_nothing_when_every_rhythm_break_is_long_enough():
    from tables.services.rotation import LongBreak, dealers_needed, max_deal_periods

    # 30-minute periods, 2 dealt then 1 off: every break is 30 minutes, the law never binds.
    assert not LongBreak(after_periods=12, periods=1).binds(2)
    assert LongBreak(after_periods=6, periods=1).binds(7)  # 60-minute periods, 7 in a row: 7 h
    assert LongBreak(after_periods=18, periods=2).binds(3)
    tables, dealers = tables_of(STUD, STUD), dealers_of(*[ALL] * 3)
    assert (plan_rotation(tables=tables, dealers=dealers, periods=16, long_break=LongBreak(12, 1))
            == plan_rotation(tables=tables, dealers=dealers, periods=16))
    # one dealer, 20-minute periods, 3 in a row: DDDb x 4 + DD (18 dealt) + bb + DDD ... = 22 of 30
    assert max_deal_periods(30, 3, None) == 23
    assert max_deal_periods(30, 3, LongBreak(18, 2)) == 22
    assert max_deal_periods(15, 3, LongBreak(4, 2)) == 10  # DDDbb DDDbb DDDbD beats the greedy DDDbDbb... (9)
    assert dealers_needed(12, 3, 30, LongBreak(18, 2)) == 17 > min_dealers_needed(12, 3, 30) == 16


def test_too_few_dealers_for_the_long_breaks_are_refused_with_the_rule():
    from tables.services.rotation import LongBreak

    with pytest.raises(PlanInfeasible, match=r"at least 17 dealers are needed; 16 on shift") as err:
        plan_rotation(tables=tables_of(*[STUD] * 12), dealers=dealers_of(*[ALL] * 16), periods=30,
                      periods_before_break=3, long_break=LongBreak(18, 2))
    assert "working-time rule" in err.value.reason
