"""``import_phh``: the eight real WSOP stud hands stored with their exact finishing stacks, all or nothing per file."""

from __future__ import annotations

import tomllib
from decimal import Decimal
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Sum

from accounting.models import JournalEntry, Posting
from tables.models import Game, Hand, LimitProfile
from tables.services.hands import hand_state
from tables.services.phh_import import IMPORT_REASON
from tests.factories import floor_manager, make_table
from tests.shared_data import PHH_DIR

pytestmark = pytest.mark.django_db

FILES = sorted(PHH_DIR.glob("*.phh"))


def _recorded(path: Path) -> dict:
    """The file's own fields, read with tomllib (not with the reader under test)."""
    return tomllib.loads(path.read_text(encoding="utf-8"))


@pytest.fixture
def stud_table():
    floor_manager("floor")
    return make_table(game=Game.SEVEN_CARD_STUD, name="WSOP stud", status="open")


def _import(*files, table="WSOP stud"):
    out = StringIO()
    call_command("import_phh", "--table", table, *map(str, files), stdout=out)
    return out.getvalue()


def test_eight_hands_end_at_their_recorded_finishing_stacks(stud_table):
    out = _import(*FILES)
    assert out.count("imported as hand #") == 8
    hands = list(Hand.objects.filter(table=stud_table).order_by("number"))
    assert len(hands) == 8
    for hand, path in zip(hands, FILES, strict=True):
        raw = _recorded(path)
        assert hand.status == Hand.Status.CLOSED and hand.source == "phh"
        assert {int(s): info["stack"] for s, info in hand.seats.items()} == dict(
            enumerate(raw["starting_stacks"], start=1))
        stacks = {int(s): c for s, c in hand_state(hand=hand)["stacks"].items()}
        assert stacks == dict(enumerate(raw["finishing_stacks"], start=1)), path.name


def test_each_stake_level_gets_one_limit_version_with_the_import_reason(stud_table):
    _import(*FILES)
    versions = LimitProfile.objects.filter(table=stud_table, reason__startswith=IMPORT_REASON).order_by("version")
    stakes = sorted({(r["small_bet"], r["big_bet"], r["bring_in"]) for r in map(_recorded, FILES)})
    assert versions.count() == len(stakes) == 2
    for profile in versions:
        assert profile.config["bring_in_mode"] == "partial_with_completion"
        assert profile.config["open_pair_option"] == "off"
        assert Decimal(profile.config["taxe_amount"]) == 0
    for hand in Hand.objects.filter(table=stud_table).select_related("limit_profile"):
        raw = _recorded(next(p for p in FILES if _recorded(p)["starting_stacks"] == [
            hand.seats[str(k)]["stack"] for k in range(1, len(hand.seats) + 1)]))
        assert Decimal(hand.limit_profile.config["higher"]) * 100 == raw["big_bet"]


def test_imported_hands_post_balanced_entries_without_taxe(stud_table):
    _import(*FILES)
    entries = JournalEntry.objects.filter(hand__table=stud_table, kind=JournalEntry.Kind.HAND_SETTLEMENT)
    assert entries.count() == 8
    for entry in entries:
        assert entry.postings.aggregate(t=Sum("amount"))["t"] == Decimal("0.00")
    assert not Posting.objects.filter(account__code=f"table:{stud_table.pk}:tax").exists()


def test_importing_the_same_files_again_stores_nothing_new(stud_table):
    _import(*FILES[:3])
    profiles = LimitProfile.objects.count()
    out = _import(*FILES[:3])
    assert out.count("already imported") == 3
    assert Hand.objects.filter(table=stud_table).count() == 3
    assert LimitProfile.objects.count() == profiles


def test_a_file_whose_replay_misses_its_finishing_stacks_is_refused_whole(stud_table, tmp_path):
    text = FILES[0].read_text(encoding="utf-8")
    raw = _recorded(FILES[0])
    wrong = list(raw["finishing_stacks"])
    wrong[0], wrong[1] = wrong[0] + 100, wrong[1] - 100
    bad = tmp_path / "tampered.phh"
    bad.write_text(text.replace(f"finishing_stacks = {raw['finishing_stacks']}".replace("'", ""),
                                f"finishing_stacks = {wrong}"), encoding="utf-8")
    assert str(wrong) in bad.read_text(encoding="utf-8")
    versions = LimitProfile.objects.filter(table=stud_table).count()
    with pytest.raises(CommandError, match="tampered.phh: the replay ends at seat 1 "):
        _import(bad)
    assert not Hand.objects.filter(table=stud_table).exists()
    assert LimitProfile.objects.filter(table=stud_table).count() == versions


def test_an_illegal_action_refuses_that_file_and_keeps_the_others(stud_table, tmp_path):
    text = FILES[1].read_text(encoding="utf-8")
    bad = tmp_path / "illegal.phh"
    bad.write_text(text.replace(" pb'", " cbr 999999'", 1), encoding="utf-8")
    assert bad.read_text(encoding="utf-8") != text
    with pytest.raises(CommandError, match=r"illegal.phh: .*action 5") as info:
        _import(FILES[0], bad, FILES[2])
    assert FILES[0].name not in str(info.value)
    assert Hand.objects.filter(table=stud_table).count() == 2


def test_a_table_of_another_game_is_refused(tmp_path):
    floor_manager("floor")
    make_table(game=Game.FORTY_ONE, name="Forty-one 1", status="open")
    phh = tmp_path / "hand.phh"
    phh.write_text("variant = 'F7S'\n", encoding="utf-8")
    with pytest.raises(CommandError, match="deals Forty-one"):
        _import(phh, table="Forty-one 1")
    assert not Hand.objects.exists()


def test_an_unknown_table_is_refused(tmp_path):
    with pytest.raises(CommandError, match="no table named"):
        _import(tmp_path / "x.phh", table="Nowhere")


def test_demo_evening_skips_the_recorded_hands_with_a_notice_when_the_data_is_missing(monkeypatch, tmp_path):
    from tables import demo_evening

    monkeypatch.setattr(demo_evening, "PHH_DIR", tmp_path / "absent")
    out = StringIO()
    assert demo_evening.phh_hands_import(stdout=out) == 0
    assert "no PHH hands at" in out.getvalue() and "skipping" in out.getvalue()
    assert not Hand.objects.exists()


def test_demo_evening_imports_the_eight_hands_once(monkeypatch):
    from tables import demo_evening

    floor_manager("floor")
    assert demo_evening.phh_hands_import(stdout=StringIO()) == 8
    assert demo_evening.phh_hands_import(stdout=StringIO()) == 0
    assert Hand.objects.filter(table__name=demo_evening.PHH_TABLE, status=Hand.Status.CLOSED).count() == 8


# --- issue 13: an imported hand keeps the date the file records ------------------------------------------------


def test_an_imported_hand_keeps_the_recorded_date_as_its_gaming_day(stud_table):
    import datetime as dt

    from django.utils import timezone

    from accounting.services.reports import tax_report_build
    from casino.gaming_day import gaming_day_of

    _import(FILES[0])
    hand = Hand.objects.get()
    recorded = _recorded(FILES[0])
    played = dt.date(recorded["year"], recorded["month"], recorded["day"])
    assert hand.gaming_day == played == dt.date(2023, 6, 22)
    assert gaming_day_of(hand.opened_at) == played
    assert JournalEntry.objects.get(hand=hand).gaming_day == played
    today = gaming_day_of(timezone.now())
    assert tax_report_build(date_from=today, date_to=today).totals["hands"] == 0
    assert tax_report_build(date_from=played, date_to=played).totals["hands"] == 1


def test_a_recorded_time_and_zone_are_kept():
    import datetime as dt
    from zoneinfo import ZoneInfo

    from casino.errors import ApplicationError
    from tables.services.phh_import import phh_recorded_at

    text = (PHH_DIR / "00-22-43.phh").read_text(encoding="utf-8")
    at = phh_recorded_at(text + "\ntime = 21:15:00\ntime_zone = 'America/Los_Angeles'\n")
    assert at == dt.datetime(2023, 6, 22, 21, 15, tzinfo=ZoneInfo("America/Los_Angeles"))
    with pytest.raises(ApplicationError, match="no real date"):
        phh_recorded_at(text.replace("day = 22", "day = 31").replace("month = 6", "month = 2"))


def test_a_file_without_a_date_is_dated_when_it_is_imported():
    from tables.services.phh_import import phh_recorded_at

    text = (PHH_DIR / "00-22-43.phh").read_text(encoding="utf-8")
    assert phh_recorded_at("\n".join(line for line in text.splitlines() if not line.startswith("day ="))) is None
