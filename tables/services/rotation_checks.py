"""The checks every rotation plan passes however it was made: working time (house rhythm and the
working-time law, :mod:`tables.services.working_time`) and, when the dealers cannot staff the tables,
what would work instead (close which table, call how many relief dealers).

Called by :func:`tables.services.floor.rotation_plan_generate`, ``rotation_plan_slots_replace`` (the
grid page and ``PUT /api/v1/rotation-plans/{id}/slots/``) and ``rotation_plan_publish``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from casino.errors import ApplicationError
from tables.services.rotation import DealerSpec, LongBreak, PlanInfeasible, TableSpec, dealers_needed, plan_rotation
from tables.services.working_time import Stint, Violation, WorkingTimeRules, working_time_violations


def working_time_rules(*, period_minutes: int, periods_before_break: int) -> WorkingTimeRules:
    """The rules for a plan: its deal/break rhythm (``period_minutes`` x ``periods_before_break`` dealing,
    then at least one period off) and the working-time law from the settings."""
    return WorkingTimeRules(
        max_deal_minutes=period_minutes * periods_before_break, min_break_minutes=period_minutes,
        long_break_after_minutes=settings.WORKING_TIME_BREAK_AFTER_MINUTES,
        long_break_minutes=settings.WORKING_TIME_BREAK_MINUTES,
    )


def plan_long_break(*, period_minutes: int) -> LongBreak:
    """The working-time law (settings ``WORKING_TIME_BREAK_AFTER_MINUTES`` / ``WORKING_TIME_BREAK_MINUTES``,
    AZG § 11 by default) in a plan's periods: at most ``after // period`` periods dealt, then a break of
    ``ceil(break / period)`` periods in one piece (20-minute periods: 18, then 2)."""
    after = max(1, settings.WORKING_TIME_BREAK_AFTER_MINUTES // period_minutes)
    return LongBreak(after_periods=after, periods=max(1, -(-settings.WORKING_TIME_BREAK_MINUTES // period_minutes)))


def _hm(moment) -> str:
    return timezone.localtime(moment).strftime("%H:%M")


def _duration(minutes: int) -> str:
    hours, rest = divmod(int(minutes), 60)
    if not hours:
        return _("%(m)s min") % {"m": rest}
    return _("%(h)s h %(m)s min") % {"h": hours, "m": rest} if rest else _("%(h)s h") % {"h": hours}


def violation_text(v: Violation, rules: WorkingTimeRules) -> str:
    """One breach in words: the dealer, the slot, the rule and what the rule allows."""
    where = v.table or _("break")
    slot = f"{v.dealer}, {_hm(v.start)}–{_hm(v.end)} ({where})"
    if v.rule == "H2":
        return _("%(slot)s: deals %(dealt)s in a row; the house rhythm allows %(limit)s, then a break of at least "
                 "%(brk)s (rule H2).") % {"slot": slot, "dealt": _duration(v.minutes), "limit": _duration(v.limit),
                                          "brk": _duration(rules.min_break_minutes)}
    if v.rule == "H2-break":
        return _("%(slot)s: a break of %(had)s is too short; the house rhythm needs at least %(limit)s "
                 "(rule H2).") % {"slot": slot, "had": _duration(v.minutes), "limit": _duration(v.limit)}
    return _("%(slot)s: %(worked)s of work without a break of %(brk)s; once the working day passes %(limit)s a "
             "break of at least %(brk)s in one piece is due (working-time rule AZG § 11).") % {
        "slot": slot, "worked": _duration(v.minutes), "limit": _duration(v.limit),
        "brk": _duration(rules.long_break_minutes)}


def slots_working_time_check(*, slots: Sequence[Mapping[str, Any]], period_minutes: int,
                             periods_before_break: int) -> None:
    """Raise ``ApplicationError(code="working_time")`` naming every breach (dealer, slot, rule) in
    ``slots`` (each ``{"dealer", "table" or None, "start", "end"}``); ``extra["violations"]`` lists them."""
    rules = working_time_rules(period_minutes=period_minutes, periods_before_break=periods_before_break)
    stints = [Stint(dealer=str(s["dealer"]), start=s["start"], end=s["end"],
                    table=str(s["table"]) if s.get("table") is not None else None) for s in slots]
    found = working_time_violations(stints=stints, rules=rules)
    if found:
        texts = [violation_text(v, rules) for v in found]
        raise ApplicationError(_("The plan breaks the working-time rules: %(list)s") % {"list": " ".join(texts)},
                               code="working_time",
                               extra={"violations": [{"dealer": v.dealer, "start": v.start.isoformat(),
                                                      "end": v.end.isoformat(), "table": v.table, "rule": v.rule,
                                                      "text": t} for v, t in zip(found, texts)]})


def staffing_advice(*, tables: Sequence[Any], dealers: Sequence[Any], periods_before_break: int,
                    periods: int, long_break: LongBreak | None = None) -> str:
    """What would let the dealers on shift staff the tables: how many relief dealers to call (overall or
    for a game) or which tables to close (the last ones by name), counting the house rhythm and, when
    given, the working-time law's long break (:func:`~tables.services.rotation.dealers_needed`). Empty if
    the counts look sufficient."""
    advice: list[str] = []
    k = periods_before_break
    if long_break is not None and not long_break.binds(k):
        long_break = None
    need = dealers_needed(len(tables), k, periods, long_break)
    if len(dealers) < need:
        short = need - len(dealers)
        keep = len(tables)
        while keep > 0 and dealers_needed(keep, k, periods, long_break) > len(dealers):
            keep -= 1
        close = sorted(tables, key=lambda t: t.name)[keep:]
        advice.append(ngettext("call %(n)s relief dealer", "call %(n)s relief dealers", short) % {"n": short})
        if close:
            advice.append(ngettext("or close table %(names)s", "or close tables %(names)s", len(close))
                          % {"names": ", ".join(t.name for t in close)})
        return " ".join(advice)
    for game in sorted({t.game for t in tables}):
        game_tables = sorted((t for t in tables if t.game == game), key=lambda t: t.name)
        qualified = [d for d in dealers if game in d.games]
        need = dealers_needed(len(game_tables), k, periods, long_break)
        if len(qualified) < need:
            short = need - len(qualified)
            keep = len(game_tables)
            while keep > 0 and dealers_needed(keep, k, periods, long_break) > len(qualified):
                keep -= 1
            close = game_tables[keep:]
            label = game_tables[0].get_game_display()
            advice.append(ngettext("call %(n)s relief dealer for %(game)s", "call %(n)s relief dealers for %(game)s",
                                   short) % {"n": short, "game": label})
            advice.append(ngettext("or close table %(names)s", "or close tables %(names)s", len(close))
                          % {"names": ", ".join(t.name for t in close)})
    return " ".join(advice)


#: Assignments the planner may try per trial when looking for what would work (a trial that fits is quick).
TRIAL_SEARCH_BUDGET = 600
#: Most relief dealers (or tables to close) tried one by one.
TRIAL_MAX = 3


def staffing_advice_by_trial(*, tables: Sequence[Any], dealers: Sequence[Any], periods_before_break: int,
                             periods: int, long_break: LongBreak | None = None) -> str:
    """What would work when the counts of :func:`staffing_advice` look sufficient but the planner found no
    grid (the breaks of the working-time law fall too close together): plan again with 1, 2, 3 relief
    dealers qualified for every game of the plan, and with the last 1, 2, 3 tables (by name) closed; the
    first of each that plans is the advice. Empty if none does. ``tables`` / ``dealers``: model objects
    (``pk``, ``name`` / ``games``)."""
    table_specs = [TableSpec(t.pk, t.name, t.game) for t in tables]
    dealer_specs = [DealerSpec(d.pk, str(d), frozenset(d.games)) for d in dealers]
    games = frozenset(t.game for t in tables)

    def plans(ts: Sequence[TableSpec], ds: Sequence[DealerSpec]) -> bool:
        try:
            plan_rotation(tables=ts, dealers=ds, periods=periods, periods_before_break=periods_before_break,
                          long_break=long_break, search_budget=TRIAL_SEARCH_BUDGET)
        except PlanInfeasible:
            return False
        return True

    advice: list[str] = []
    for extra in range(1, TRIAL_MAX + 1):
        relief = [DealerSpec(-i, f"relief {i}", games) for i in range(1, extra + 1)]
        if plans(table_specs, [*dealer_specs, *relief]):
            advice.append(ngettext("call %(n)s relief dealer", "call %(n)s relief dealers", extra) % {"n": extra})
            break
    by_name = sorted(table_specs, key=lambda t: t.name)
    for close in range(1, min(TRIAL_MAX, len(by_name) - 1) + 1):
        if plans(by_name[:-close], dealer_specs):
            names = ", ".join(t.name for t in by_name[-close:])
            text = ngettext("close table %(names)s", "close tables %(names)s", close) % {"names": names}
            if advice:
                text = ngettext("or close table %(names)s", "or close tables %(names)s", close) % {"names": names}
            advice.append(text)
            break
    return " ".join(advice)
