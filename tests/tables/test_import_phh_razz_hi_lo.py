"""``import_phh`` at a Razz and a Seven Card Stud Hi-Lo table: the seven real hands are stored, closed,
posted and end at their recorded finishing stacks; a file of another game is refused."""

from __future__ import annotations

import tomllib
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from accounting.models import JournalEntry
from tables.models import Game, Hand
from tables.services.hands import hand_state
from tests.factories import floor_manager, make_table
from tests.shared_data import PHH_DIR, PHH_RAZZ_HILO_DIR

pytestmark = pytest.mark.django_db

RAZZ_FILES = sorted(PHH_RAZZ_HILO_DIR.glob("01-*.phh"))
HILO_FILES = sorted(PHH_RAZZ_HILO_DIR.glob("02-*.phh"))


def _import(table: str, *files) -> str:
    out = StringIO()
    call_command("import_phh", "--table", table, *map(str, files), stdout=out)
    return out.getvalue()


@pytest.mark.parametrize(("game", "files"), [(Game.RAZZ, RAZZ_FILES), (Game.SEVEN_CARD_STUD_HI_LO, HILO_FILES)],
                         ids=["razz", "hi_lo"])
def test_real_hands_are_stored_at_a_table_of_their_game_with_their_finishing_stacks(game, files):
    floor_manager("floor")
    table = make_table(game=game, name=f"WSOP {game}", status="open")
    out = _import(table.name, *files)
    assert out.count("imported as hand #") == len(files) > 0
    hands = list(Hand.objects.filter(table=table).order_by("number"))
    for hand, path in zip(hands, files, strict=True):
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        assert hand.status == Hand.Status.CLOSED and hand.game == game
        stacks = {int(s): c for s, c in hand_state(hand=hand)["stacks"].items()}
        assert stacks == dict(enumerate(raw["finishing_stacks"], start=1)), path.name
        assert JournalEntry.objects.filter(hand=hand).exists()
    again = _import(table.name, *files)  # a second import stores nothing
    assert again.count("already imported") == len(files) and Hand.objects.filter(table=table).count() == len(files)


def test_a_razz_file_is_refused_at_a_seven_card_stud_table_and_the_reverse():
    floor_manager("floor")
    stud = make_table(game=Game.SEVEN_CARD_STUD, name="Stud PHH", status="open")
    razz = make_table(game=Game.RAZZ, name="Razz PHH", status="open")
    with pytest.raises(CommandError, match="Razz"):
        _import(stud.name, RAZZ_FILES[0])
    with pytest.raises(CommandError, match="Seven Card Stud"):
        _import(razz.name, sorted(PHH_DIR.glob("*.phh"))[0])
    assert not Hand.objects.exists()


def test_the_hand_service_gives_the_typed_view_of_a_stored_hand():
    from tables.services.hands import hand_view

    floor_manager("floor")
    table = make_table(game=Game.RAZZ, name="Razz view", status="open")
    _import(table.name, RAZZ_FILES[0])
    hand = Hand.objects.get(table=table)
    final = hand_view(hand=hand)
    assert final.complete and final.outcome is not None and final.game == "razz"
    assert {s.seat: s.stack for s in final.seats} == {
        int(s): c for s, c in hand_state(hand=hand)["stacks"].items()}
    opening = hand_view(hand=hand, upto=5)  # the antes are in: the cards come next
    assert not opening.complete and opening.expect == "deal"
    assert {a.kind for a in opening.legal_actions} == {"deal"}
