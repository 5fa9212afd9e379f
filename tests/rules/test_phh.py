"""PHH stud hands: the eight real WSOP hands replay to their recorded stacks (spec §14 F4, F5),
the writer round-trips, and a broken history is an error with the action's index."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command

from rules.engines import stud
from rules.engines.phh import PhhError, dumps_phh, load_phh, loads_phh, replay_phh_hand
from tests.shared_data import PHH_DIR as DATA
from tests.shared_data import require_phh

FILES = sorted(DATA.glob("*.phh"))


def test_corpus_is_there():
    require_phh()
    assert len(FILES) == 8


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_real_hand_replays_to_recorded_finishing_stacks(path):
    hand = load_phh(path)
    result = replay_phh_hand(hand)
    assert stud.is_complete(result.state)
    assert dict(zip(result.state.seats, result.state.stack)) == hand.finishing_stacks
    st = stud.settlement(result.state)
    st.check_balanced()
    assert st.tax == 0


def pots_after(path: Path, n_actions: int) -> int:
    hand = load_phh(path)
    hand.actions = hand.actions[:n_actions]
    state = replay_phh_hand(hand).state
    return sum(p["amount"] for p in stud.view(state)["pots"])


def test_f4_pot_sizes_and_winner():
    path = DATA / "00-35-59.phh"
    assert pots_after(path, 14) == 1_850_000  # after 3rd street
    result = replay_phh_hand(load_phh(path))
    st = stud.settlement(result.state)
    assert [p.amount for p in st.pots] == [3_850_000]
    assert st.pot_awards == ((0, 1, 3_850_000),)


def test_f5_uncalled_bet_is_returned_and_pot_won_unshown():
    result = replay_phh_hand(load_phh(DATA / "00-22-43.phh"))
    st = stud.settlement(result.state)
    assert st.returned[5] == 400_000
    assert st.pot_awards == ((0, 5, 650_000),)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_writer_round_trips(path):
    hand = load_phh(path)
    result = replay_phh_hand(hand)
    text = dumps_phh(result.config, hand.seats, result.events, button=hand.button)
    again = loads_phh(text, name="written")
    assert again.actions == hand.actions
    assert again.finishing_stacks == hand.finishing_stacks
    assert replay_phh_hand(again).state.stack == result.state.stack


def test_unreplayable_history_names_the_action():
    text = (DATA / "00-35-59.phh").read_text().replace("'p3 f', 'p4 f'", "'p4 f', 'p3 f'")
    with pytest.raises(PhhError) as info:
        replay_phh_hand(loads_phh(text, name="bad.phh"))
    assert info.value.extra["action_index"] == 11
    assert "bad.phh: action 11 ('p4 f')" in str(info.value) and "seat 3's turn" in str(info.value)


def test_non_stud_variant_is_refused():
    with pytest.raises(PhhError, match="not Seven Card Stud"):
        loads_phh("variant = 'NT'\n")


def test_replay_phh_command_prints_stacks_and_checks(tmp_path, capsys):
    call_command("replay_phh", "--check", *map(str, FILES))
    out = capsys.readouterr().out
    assert "seat 5: 4600000" in out
    bad = tmp_path / "bad.phh"
    bad.write_text((DATA / "00-35-59.phh").read_text().replace("4600000]", "4600001]"))
    with pytest.raises(SystemExit) as info:
        call_command("replay_phh", "--check", str(bad))
    assert info.value.code == 1
    err = capsys.readouterr().err
    assert f"{bad}: seat 5 finishes with 4600000, recorded 4600001" in err
