"""The demo evening for ``manage.py seed_demo`` (after :func:`tables.demo.seed_demo`): hands on the demo floor.

Idempotent: if the evening is there (every table below has its hands), nothing happens.

1. **Real stud hands.** A stud table ``Stud WSOP`` (8 seats) is set up with the US-rules limits the
   eight WSOP 2023 hands in ``data/phh/wsop-2023-43-5/`` were played under (bring-in with
   completion, no open-pair option, no Taxe; 1 PHH chip = 1 cent) and the files are imported with
   :func:`tables.services.phh_import.phh_file_import` (the ``import_phh`` command's service): each
   ends at its recorded finishing stacks, and the table's limit versions follow the files' stakes
   (one version per stake level, reason "imported from PHH <file>"). Without the data folder the step
   is skipped with a notice.
2. **A simulated evening** of Forty-one, Capsa Susun and house-rules stud (with the Taxe) at the demo
   tables ``Forty-one 1``, ``Capsa 1`` and ``Stud 1``, dealt by the dealer on duty through the same
   services a croupier's API calls use (:func:`tables.services.simulation.shift_simulate`, the
   ``simulate_shift`` command's service). Seeds are fixed, so the evening is the same on every fresh
   machine: each table's seed is the first from its base whose pure preview moves money in every
   hand and, at Forty-one, shows a 41 (so the house has paid a bonus). If nobody is on duty at a
   table (outside the demo rotation's hours), a demo dealer takes it over for the next hour. Should the preview and the real shift ever differ,
   the Forty-one table deals on until a 41 is shown, at most :data:`MAX_EXTRA_FORTY_ONE` extra hands.
3. **Reconciled.** The gaming day is reconciled in process (the service the nightly Celery run
   calls), and so is the recorded day of the imported hands (22 June 2023: an imported hand keeps the
   date its file records), so every hand shows ``reconciled``; the tax report of today's gaming day has
   figures in every column (hands, pots, Taxe/tax, Capsa fees, 41 bonuses, gross gaming revenue) and
   shows only what was dealt today.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from casino.errors import ApplicationError
from casino.gaming_day import gaming_day_of
from casino.i18n import gettext_noop
from tables.models import Dealer, Game, Hand, Table

#: Where the recorded hands live (``data/phh/`` in the repository, MIT licence beside them).
PHH_DIR = Path(settings.PHH_SAMPLE_DIR)
PHH_TABLE = "Stud WSOP"
PHH_TABLE_SEATS = 8
#: (table name, hands, seed) of the simulated evening; the tables come from ``tables.demo``.
SIMULATED = [("Forty-one 1", 12, 4101), ("Capsa 1", 12, 2402), ("Stud 1", 6, 7103)]
#: Most extra Forty-one hands dealt while waiting for a 41 (the house's bonus) to be shown.
MAX_EXTRA_FORTY_ONE = 20
FLOAT = "2000.00"


def _out(stdout, text: str) -> None:
    if stdout is not None:
        stdout.write(text if text.endswith("\n") else text + "\n")


def demo_evening_exists() -> bool:
    """True when every table of the evening already has its hands (then seeding does nothing)."""
    names = [name for name, _hands, _seed in SIMULATED]
    if any(not Hand.objects.filter(table__name=name).exists() for name in names):
        return False
    return not PHH_DIR.is_dir() or Hand.objects.filter(table__name=PHH_TABLE).count() >= len(_phh_files())


def _phh_files() -> list[Path]:
    return sorted(PHH_DIR.glob("*.phh")) if PHH_DIR.is_dir() else []


def _floor_user():
    return get_user_model().objects.filter(username="floor").first()


def _phh_table(files: list[Path], floor) -> Table:
    """The stud table of the recorded hands, set up with the first file's limits and opened."""
    from rules.engines.phh import load_phh
    from tables.services.floor import limit_profile_create, table_create, table_open
    from tables.services.phh_import import IMPORT_REASON, phh_limit_label

    table = Table.objects.filter(name=PHH_TABLE).first() or table_create(
        name=PHH_TABLE, game=Game.SEVEN_CARD_STUD, seats=PHH_TABLE_SEATS, actor=floor,
        reason="demo: recorded WSOP 2023 stud hands (US rules)")
    if not table.limit_profiles.exists():
        first = load_phh(files[0])
        limit_profile_create(table=table, config=first.config, actor=floor, chip_unit="0.01",
                             limit_label=phh_limit_label(first.config),
                             reason=f"{IMPORT_REASON} {files[0].name}")
    if table.status == Table.Status.CLOSED:
        table_open(table=table, opening_float=FLOAT, actor=floor, reason="demo: recorded hands")
    table.refresh_from_db()
    return table


def phh_hands_import(*, stdout=None) -> int:
    """Step 1: import the eight recorded stud hands (skipped with a notice if the folder is missing)."""
    from tables.services.phh_import import phh_file_import

    files = _phh_files()
    if not files:
        _out(stdout, f"Demo evening: no PHH hands at {PHH_DIR}; skipping the recorded stud hands.")
        return 0
    floor = _floor_user()
    table = _phh_table(files, floor)
    imported = 0
    for path in files:
        try:
            result = phh_file_import(table=table, text=path.read_text(encoding="utf-8"), name=path.name, actor=floor)
        except ApplicationError as exc:
            _out(stdout, f"Demo evening: {path.name} refused: {exc.message}")
            continue
        imported += int(result.created)
    count = Hand.objects.filter(table=table).count()
    _out(stdout, f"Demo evening: '{table}' holds {count} recorded WSOP stud hands ({imported} imported now).")
    return imported


def _dealer_on_duty(table: Table, floor):
    """The dealer on duty at ``table``; if none, a demo dealer qualified for its game takes over for an hour."""
    from tables.selectors import dealer_on_duty
    from tables.services.floor import dealer_assignment_start

    dealer = dealer_on_duty(table=table)
    if dealer is not None:
        return dealer
    now = timezone.now()
    busy = Dealer.objects.filter(assignments__start__lte=now).filter(
        Q(assignments__end__isnull=True) | Q(assignments__end__gt=now)).values_list("pk", flat=True)
    candidates = [d for d in Dealer.objects.filter(active=True).exclude(pk__in=list(busy)).order_by("pk")
                  if d.may_deal(table.game)]
    candidates = candidates or [d for d in Dealer.objects.filter(active=True).order_by("pk") if d.may_deal(table.game)]
    if not candidates:
        raise ApplicationError(gettext_noop("no dealer may deal at '%(table)s'", table=table), code="no_dealer")
    dealer_assignment_start(dealer=candidates[0], table=table, actor=floor, at=now,
                            end=now + dt.timedelta(hours=1), reason="demo evening: simulated hands")
    return candidates[0]


def _worth_showing(game: str):
    """The seed test of a demo shift: every hand moves money, and at Forty-one someone shows a 41."""
    def wanted(settlements) -> bool:
        if any(not any(s.contributions.values()) for s in settlements):
            return False
        return game != Game.FORTY_ONE or any(sum(s.bonus.values()) for s in settlements)
    return wanted


def simulated_evening(*, stdout=None) -> None:
    """Step 2: the simulated hands at the demo tables (tables that already have hands are left alone)."""
    from tables.services.simulation import shift_seed_find, shift_simulate

    floor = _floor_user()
    for name, hands, seed in SIMULATED:
        table = Table.objects.filter(name=name).first()
        if table is None:
            _out(stdout, f"Demo evening: no table '{name}' (run tables.demo first); skipped.")
            continue
        if Hand.objects.filter(table=table).exists():
            continue
        if table.status != Table.Status.OPEN:
            _out(stdout, f"Demo evening: '{table}' is {table.status}; skipped.")
            continue
        dealer = _dealer_on_duty(table, floor)
        seed = shift_seed_find(table=table, hands=hands, seed=seed, wanted=_worth_showing(table.game))
        result = shift_simulate(table=table, hands=hands, seed=seed)  # the dealer on duty at each hand
        extra = 0
        while table.game == Game.FORTY_ONE and result.bonus == 0 and extra < MAX_EXTRA_FORTY_ONE:
            extra += 1
            more = shift_simulate(table=table, hands=1, seed=seed * 1000 + extra)
            result.hands += more.hands
            for key in ("events", "pots", "tax", "fees", "bonus"):
                setattr(result, key, getattr(result, key) + getattr(more, key))
        _out(stdout, f"Demo evening: {result.as_line()} (dealer {dealer}).")


def evening_reconcile(*, stdout=None) -> None:
    """Step 3: reconcile today's gaming day in process and print the tax report's totals."""
    from accounting.services.reconciliation import gaming_day_reconcile
    from accounting.services.reports import tax_report_build

    day = gaming_day_of(timezone.now())
    recorded_days = set(Hand.objects.filter(table__name=PHH_TABLE).exclude(gaming_day=day)
                        .values_list("gaming_day", flat=True))
    for recorded in sorted(recorded_days):  # the imported hands keep their own (recorded) gaming day
        gaming_day_reconcile(day=recorded)
    run = gaming_day_reconcile(day=day)
    report = tax_report_build(date_from=day, date_to=day)
    t = {key: (f"{value:.2f}" if key != "hands" else value) for key, value in report.totals.items()}
    reconciled = Hand.objects.filter(gaming_day=day, reconciliation=Hand.Reconciliation.RECONCILED).count()
    _out(stdout, f"Demo evening: gaming day {day} reconciled ({run.status}; {reconciled} hands reconciled). "
                 f"Tax report: {t['hands']} hands, pots {t['pots']}, Taxe/tax {t['tax']}, Capsa fees {t['fees']}, "
                 f"41 bonuses {t['bonus']}, gross gaming revenue {t['ggr']}.")


def seed_demo_evening(*, stdout) -> None:
    """Seed the demo evening (module docstring); does nothing if it is already there."""
    if demo_evening_exists():
        _out(stdout, "Demo evening: already there (nothing to add).")
        return
    phh_hands_import(stdout=stdout)
    simulated_evening(stdout=stdout)
    evening_reconcile(stdout=stdout)



#: ``casino/management/commands/seed_demo.py`` calls ``seed_demo(stdout=...)`` of each module in its hooks.
seed_demo = seed_demo_evening
