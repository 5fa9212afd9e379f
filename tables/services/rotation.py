"""The dealer rotation planner: pure Python, no database (issue 7, DESIGN.md "tables/").

A shift is cut into periods of ``period_minutes`` (default 30); in every period each dealer on shift
either deals at one table or is on a break. The planner returns a grid ``{dealer_id: [table_id or
None, ...]}`` (one entry per period, ``None`` = break) that keeps these rules:

* **H1 coverage**: every table has exactly one dealer in every period, qualified for its game.
* **H2 breaks**: nobody deals more than ``periods_before_break`` periods in a row (default 2): after
  that many periods the dealer takes (at least) one period off.
* **S1 no repeat**: a dealer does not deal the same table in two consecutive periods when another
  dealer qualified for that table is on a break they did not have to take.
* **S2 even breaks**: the dealers' break counts differ as little as the qualifications allow (at most
  by one when every dealer may deal every table).
* **AZG long break** (the working-time law, when given: ``long_break_after_periods`` /
  ``long_break_periods``): nobody deals more than ``long_break_after_periods`` periods (breaks shorter
  than ``long_break_periods`` periods in one piece do not count as work, nor do they reset the count)
  without a break of ``long_break_periods`` periods in one piece. By default (Austria, AZG § 11) a
  30-minute break once the working day passes six hours: with 20-minute periods, two periods off in a
  row after at most 18 dealt. The planner plans that break in: a dealer whose long break is due soon is
  preferred for a break, a started long break is continued, and the dealers on break relieve them.

How: each period is one min-cost assignment (Hungarian algorithm) of the dealers to the tables plus
``D - T`` break places. Costs, highest weight first: a repeat at the same table (S1), then breaks
given to dealers who had fewest breaks and dealt longest (S2). Forced breaks (H2) and unqualified
dealers (H1) are forbidden edges. A depth-first search with a one-period look-ahead backs up when a
choice would leave a later period unstaffable; if no grid exists, :class:`PlanInfeasible` explains why.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from rules.engines.messages import Message, gettext_noop

#: S1: cost of a dealer dealing the same table as in the previous period (dominates every break cost).
REPEAT_COST = 1_000_000
#: S2: cost per break a dealer has already had (fewest breaks go first).
BREAK_COUNT_COST = 1_000
#: S2: reward per period a dealer has dealt in a row (the longest-dealing dealer goes first).
CONSECUTIVE_REWARD = 10
#: Mild preference for not returning to the table dealt just before a break.
SAME_AS_LAST_TABLE_COST = 1
_FORBIDDEN = math.inf
#: AZG: reward for continuing a started long break of a dealer whose long break is due (dominates S2).
LONG_BREAK_CONTINUE_REWARD = 100_000
#: AZG: reward per period dealt past the point where the long break is due soon (picks who goes first).
LONG_BREAK_DUE_REWARD = 2_000
#: Search budget (assignments tried) before the planner gives up and reports the plan infeasible.
SEARCH_BUDGET = 4_000


class PlanInfeasible(Exception):
    """No rotation can staff every table; ``reason`` says why in floor terms."""

    def __init__(self, reason: str, *, period: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.period = period


@dataclass(frozen=True)
class TableSpec:
    """A table to staff: its id, display name and game."""

    id: int
    name: str
    game: str


@dataclass(frozen=True)
class DealerSpec:
    """A dealer on shift: id, display name and the games they may deal."""

    id: int
    name: str
    games: frozenset[str]


Grid = dict[int, list[int | None]]


@dataclass(frozen=True)
class LongBreak:
    """The working-time law in periods: at most ``after_periods`` periods dealt before a break of
    ``periods`` periods in one piece (AZG § 11 with 30-minute periods: 12 and 1; with 20-minute: 18 and 2)."""

    after_periods: int
    periods: int

    def binds(self, periods_before_break: int) -> bool:
        """False when every house-rhythm break already is a long break and the rhythm never lets a dealer
        deal ``after_periods`` in a row (then the law adds nothing to H2)."""
        return self.periods > 1 or periods_before_break > self.after_periods


@lru_cache(maxsize=256)
def max_deal_periods(periods: int, periods_before_break: int, long_break: LongBreak | None = None) -> int:
    """Most periods one dealer can deal in ``periods`` under H2 (and the long break, if given), by dynamic
    programming over (periods dealt in a row, periods dealt since the last long break, periods off)."""
    k = periods_before_break
    after = long_break.after_periods if long_break is not None else periods + 1
    long_periods = long_break.periods if long_break is not None else 1
    # Forward over the periods: for every reachable (run, since, off), the most deals so far. ``off`` > 0
    # implies ``run`` 0, and a break of ``long_periods`` resets ``since``, so few states are reachable.
    reach: dict[tuple[int, int, int], int] = {(0, 0, 0): 0}
    for _ in range(periods):
        nxt: dict[tuple[int, int, int], int] = {}
        for (run, since, off), dealt in reach.items():
            off2 = min(off + 1, long_periods)
            key = (0, 0 if off2 >= long_periods else since, off2 if off2 < long_periods else 0)
            if nxt.get(key, -1) < dealt:
                nxt[key] = dealt
            if run < k and since < after:
                key = (run + 1, since + 1 if long_break is not None else 0, 0)
                if nxt.get(key, -1) < dealt + 1:
                    nxt[key] = dealt + 1
        reach = nxt
    return max(reach.values())


def dealers_needed(tables: int, periods_before_break: int, periods: int,
                   long_break: LongBreak | None = None) -> int:
    """Fewest dealers for ``tables`` tables over ``periods`` periods: H2's per-period count
    (:func:`min_dealers_needed`) and, with the working-time law, the total of deals over what one dealer
    can deal in the shift (:func:`max_deal_periods`). A necessary count (the planner may still need more
    when qualifications split the dealers)."""
    need = min_dealers_needed(tables, periods_before_break, periods)
    if long_break is not None and tables:
        capacity = max_deal_periods(periods, periods_before_break, long_break)
        need = max(need, math.ceil(tables * periods / capacity) if capacity else math.inf)  # type: ignore[arg-type]
    return need


def min_dealers_needed(tables: int, periods_before_break: int, periods: int) -> int:
    """Fewest dealers able to staff ``tables`` tables for ``periods`` periods with H2.

    Within any ``k + 1`` consecutive periods a dealer deals at most ``k`` (H2), so ``T (k + 1)`` deals
    need ``ceil(T (k + 1) / k)`` dealers; a shift no longer than ``k`` periods needs only ``T``.
    """
    if tables == 0:
        return 0
    if periods <= periods_before_break:
        return tables
    return math.ceil(tables * (periods_before_break + 1) / periods_before_break)


def hungarian(cost: Sequence[Sequence[float]]) -> tuple[list[int], float]:
    """Min-cost perfect assignment on a square matrix: ``(col_of_row, total)``; ``inf`` entries are
    forbidden and a total of ``inf`` means no perfect assignment avoids them. O(n^3) (Kuhn-Munkres,
    shortest augmenting paths with potentials)."""
    n = len(cost)
    if n == 0:
        return [], 0.0
    big = 1e15
    a = [[(big if c == _FORBIDDEN else c) for c in row] for row in cost]
    u = [0.0] * (n + 1)
    v = [0.0] * (n + 1)
    p = [0] * (n + 1)
    way = [0] * (n + 1)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [math.inf] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[j0] = True
            i0 = p[j0]
            delta = math.inf
            j1 = 0
            for j in range(1, n + 1):
                if not used[j]:
                    cur = a[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(n + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    col_of_row = [0] * n
    for j in range(1, n + 1):
        col_of_row[p[j] - 1] = j - 1
    total = 0.0
    for i, j in enumerate(col_of_row):
        if cost[i][j] == _FORBIDDEN:
            return col_of_row, math.inf
        total += cost[i][j]
    return col_of_row, total


@dataclass
class _State:
    consecutive: dict[int, int]
    breaks: dict[int, int]
    previous: dict[int, int | None]
    last_table: dict[int, int | None]
    #: AZG: periods dealt since the last long break, and the periods off in the current break.
    since_long: dict[int, int]
    off_run: dict[int, int]


def _rules_text(k: int, long_break: LongBreak | None) -> Message:
    """The rotation rules a refusal cites (H2, and the working-time law when it binds), as a marked message."""
    if long_break is None:
        return gettext_noop("at most %(k)s periods in a row each", k=k)
    return gettext_noop("at most %(k)s periods in a row each, and a break of %(periods)s periods in one piece after "
                        "at most %(after)s periods dealt (working-time rule)",
                        k=k, periods=long_break.periods, after=long_break.after_periods)


def _precheck(tables: Sequence[TableSpec], dealers: Sequence[DealerSpec], k: int, periods: int,
              long_break: LongBreak | None = None) -> None:
    """Necessary conditions with readable reasons (Hall's condition per set of games, H1 + H2 + AZG)."""
    games = sorted({t.game for t in tables})
    for t in tables:
        if not any(t.game in d.games for d in dealers):
            raise PlanInfeasible(gettext_noop("no dealer on shift may deal %(game)s (table '%(table)s')",
                                              game=t.game, table=t.name))
    need = dealers_needed(len(tables), k, periods, long_break)
    if len(dealers) < need:
        raise PlanInfeasible(gettext_noop(
            "tables to staff: %(tables)s, each needs a dealer in every period, and a dealer may deal %(rules)s, "
            "so at least %(need)s dealers are needed; %(on_shift)s on shift",
            tables=len(tables), rules=_rules_text(k, long_break), need=need, on_shift=len(dealers)))
    for size in range(1, len(games) + 1):
        for subset in combinations(games, size):
            n_tables = sum(1 for t in tables if t.game in subset)
            qualified = [d for d in dealers if d.games & set(subset)]
            need = dealers_needed(n_tables, k, periods, long_break)
            if len(qualified) < need:
                raise PlanInfeasible(gettext_noop(
                    "%(games)s tables to staff: %(tables)s, they need at least %(need)s qualified dealers "
                    "(%(rules)s); only %(qualified)s on shift",
                    games=" / ".join(subset), tables=n_tables, need=need, rules=_rules_text(k, long_break),
                    qualified=len(qualified)))


def _long_break_due(state: _State, did: int, k: int, long_break: LongBreak | None) -> int:
    """How far ``did`` is into the stretch where their long break is due (0 = not yet; >= 1 = due soon).
    The stretch opens two dealing runs (``2 k`` periods) before the law's limit, so that the dealers'
    long breaks are spread over several periods instead of all falling due at once."""
    if long_break is None:
        return 0
    return max(0, state.since_long[did] - (long_break.after_periods - 2 * k) + 1)


def _cost_matrix(tables: Sequence[TableSpec], dealers: Sequence[DealerSpec], k: int, state: _State,
                 force_break: frozenset[int] = frozenset(), force_work: frozenset[int] = frozenset(),
                 long_break: LongBreak | None = None) -> list[list[float]]:
    n_break = len(dealers) - len(tables)
    matrix: list[list[float]] = []
    for d in dealers:
        forced_off = state.consecutive[d.id] >= k or d.id in force_break
        due = _long_break_due(state, d.id, k, long_break)
        if long_break is not None:
            forced_off = forced_off or state.since_long[d.id] >= long_break.after_periods
        row: list[float] = []
        for t in tables:
            if forced_off or t.game not in d.games:
                row.append(_FORBIDDEN)
                continue
            c = 0.0
            if state.previous[d.id] == t.id:
                c += REPEAT_COST
            elif state.previous[d.id] is None and state.last_table[d.id] == t.id:
                c += SAME_AS_LAST_TABLE_COST
            row.append(c)
        brk = (_FORBIDDEN if d.id in force_work
               else BREAK_COUNT_COST * state.breaks[d.id] - CONSECUTIVE_REWARD * state.consecutive[d.id])
        if due and brk != _FORBIDDEN:
            brk -= LONG_BREAK_DUE_REWARD * due
            if state.off_run[d.id] > 0:  # a long break begun: finish it rather than waste the periods off
                brk -= LONG_BREAK_CONTINUE_REWARD
        row.extend([brk] * n_break)
        matrix.append(row)
    return matrix


def _solve(tables, dealers, k, state, long_break=None, **force) -> tuple[dict[int, int | None], float]:
    matrix = _cost_matrix(tables, dealers, k, state, long_break=long_break, **force)
    cols, total = hungarian(matrix)
    out: dict[int, int | None] = {}
    for d, col in zip(dealers, cols):
        out[d.id] = tables[col].id if col < len(tables) else None
    return out, total


def _advance(state: _State, choice: Mapping[int, int | None], long_break: LongBreak | None = None) -> _State:
    consecutive, breaks, previous, last_table = dict(state.consecutive), dict(state.breaks), {}, dict(state.last_table)
    since_long, off_run = dict(state.since_long), dict(state.off_run)
    long_periods = long_break.periods if long_break is not None else 1
    for did, tid in choice.items():
        previous[did] = tid
        if tid is None:
            consecutive[did] = 0
            breaks[did] += 1
            off_run[did] += 1
            if off_run[did] >= long_periods:
                since_long[did] = 0
        else:
            consecutive[did] += 1
            last_table[did] = tid
            since_long[did] += 1
            off_run[did] = 0
    return _State(consecutive, breaks, previous, last_table, since_long, off_run)


def _candidates(tables, dealers, k, state, long_break=None) -> list[dict[int, int | None]]:
    """The best assignment of this period, then near-best alternatives (one dealer's role flipped)."""
    best, cost = _solve(tables, dealers, k, state, long_break)
    if cost == math.inf:
        return []
    found = [(cost, best)]
    seen = {tuple(sorted(best.items(), key=lambda kv: kv[0]))}
    for d in dealers:
        force = {"force_work": frozenset({d.id})} if best[d.id] is None else {"force_break": frozenset({d.id})}
        alt, alt_cost = _solve(tables, dealers, k, state, long_break, **force)
        key = tuple(sorted(alt.items(), key=lambda kv: kv[0]))
        if alt_cost < math.inf and key not in seen:
            seen.add(key)
            found.append((alt_cost, alt))
    found.sort(key=lambda item: item[0])
    return [choice for _, choice in found]


def plan_rotation(*, tables: Sequence[TableSpec], dealers: Sequence[DealerSpec], periods: int,
                  periods_before_break: int = 2, long_break: LongBreak | None = None,
                  search_budget: int = SEARCH_BUDGET) -> Grid:
    """Plan ``periods`` periods; return ``{dealer_id: [table_id | None per period]}`` (None = break).

    ``long_break``: the working-time law in periods (AZG § 11), planned in as its own breaks; None =
    only the house rhythm H2. Raises :class:`PlanInfeasible` with the reason when the dealers cannot
    staff every table in every period under H1, H2 and the law (too few dealers overall, too few
    qualified for a game, or no grid found within ``search_budget`` assignments tried).
    """
    if periods < 1:
        raise PlanInfeasible(gettext_noop("the shift is shorter than one rotation period"))
    if periods_before_break < 1:
        raise PlanInfeasible(gettext_noop("periods_before_break must be at least 1"))
    tables = sorted(tables, key=lambda t: t.id)
    dealers = sorted(dealers, key=lambda d: d.id)
    if len({t.id for t in tables}) != len(tables) or len({d.id for d in dealers}) != len(dealers):
        raise PlanInfeasible(gettext_noop("a table or a dealer is listed twice"))
    if not tables:
        return {d.id: [None] * periods for d in dealers}
    if long_break is not None and (long_break.after_periods < 1 or long_break.periods < 1):
        raise PlanInfeasible(gettext_noop("the working-time rule needs at least one period of work and of break"))
    if long_break is not None and not long_break.binds(periods_before_break):
        long_break = None  # every house-rhythm break already satisfies the law
    _precheck(tables, dealers, periods_before_break, periods, long_break)
    k = periods_before_break
    start = _State({d.id: 0 for d in dealers}, {d.id: 0 for d in dealers},
                   {d.id: None for d in dealers}, {d.id: None for d in dealers},
                   {d.id: 0 for d in dealers}, {d.id: 0 for d in dealers})
    budget = [search_budget]
    deepest = [0]

    def search(p: int, state: _State) -> list[dict[int, int | None]] | None:
        if p == periods:
            return []
        deepest[0] = max(deepest[0], p)
        for choice in _candidates(tables, dealers, k, state, long_break):
            budget[0] -= 1
            if budget[0] < 0:
                return None
            nxt = _advance(state, choice, long_break)
            if p + 1 < periods and _solve(tables, dealers, k, nxt, long_break)[1] == math.inf:
                continue  # look-ahead: the next period could not be staffed
            rest = search(p + 1, nxt)
            if rest is not None:
                return [choice, *rest]
        return None

    periods_plan = search(0, start)
    if periods_plan is None:
        raise PlanInfeasible(gettext_noop(
            "no rotation staffs every table in period %(period)s with the qualified dealers on shift and %(rules)s",
            period=deepest[0] + 1, rules=_rules_text(k, long_break)), period=deepest[0])
    return {d.id: [choice[d.id] for choice in periods_plan] for d in dealers}


def plan_violations(*, grid: Mapping[int, Sequence[int | None]], tables: Sequence[TableSpec],
                    dealers: Sequence[DealerSpec], periods_before_break: int) -> list[str]:
    """Check a grid against H1, H2 and S1; return readable violations (empty list = the plan keeps them).

    S2 (even breaks) is a quality measure, not checked here: see :func:`break_spread`.
    """
    problems: list[str] = []
    by_id = {d.id: d for d in dealers}
    game_of = {t.id: t.game for t in tables}
    periods = len(next(iter(grid.values()), []))
    k = periods_before_break
    for p in range(periods):
        seen: dict[int, int] = {}
        for did, row in grid.items():
            tid = row[p]
            if tid is None:
                continue
            if tid not in game_of:
                problems.append(f"period {p + 1}: dealer {did} at unknown table {tid}")
                continue
            if game_of[tid] not in by_id[did].games:
                problems.append(f"period {p + 1}: dealer {did} is not qualified for table {tid}")
            if tid in seen:
                problems.append(f"period {p + 1}: table {tid} has two dealers ({seen[tid]}, {did})")
            seen[tid] = did
        for tid in game_of:
            if tid not in seen:
                problems.append(f"period {p + 1}: table {tid} has no dealer")
    for did, row in grid.items():
        run = 0
        for p, tid in enumerate(row):
            run = run + 1 if tid is not None else 0
            if run > k:
                problems.append(f"dealer {did} deals more than {k} periods in a row (period {p + 1})")
    for p in range(1, periods):
        for did, row in grid.items():
            tid = row[p]
            if tid is None or row[p - 1] != tid:
                continue
            for other, orow in grid.items():
                if other == did or orow[p] is not None or game_of[tid] not in by_id[other].games:
                    continue
                run = 0
                for q in range(p - 1, -1, -1):
                    if orow[q] is None:
                        break
                    run += 1
                if run < k:
                    problems.append(f"period {p + 1}: dealer {did} deals table {tid} twice in a row while "
                                    f"qualified dealer {other} is free")
    return problems


def break_spread(grid: Mapping[int, Sequence[int | None]]) -> tuple[int, int]:
    """``(fewest, most)`` breaks any dealer gets in ``grid`` (S2)."""
    counts = [sum(1 for tid in row if tid is None) for row in grid.values()]
    return (min(counts), max(counts)) if counts else (0, 0)
