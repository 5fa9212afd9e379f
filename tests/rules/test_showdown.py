"""The showdown tool for Seven Card Stud: rules.engines.showdown.run_showdown and `manage.py showdown` (issue 3)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from rules.engines.errors import ConfigError, DuplicateCard, InvalidCard, RuleViolation, WrongCardCount
from rules.engines.showdown import MalformedShowdown, group_ranking, parse_showdown_hands
from rules.showdown import run_showdown

REPO = Path(__file__).resolve().parents[2]


def stud(hands, **extra):
    return {"game": "seven_card_stud", "hands": hands, **extra}


# --- group_ranking ---------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        ({1: 5, 2: 9, 3: 5}, [[2], [1, 3]]),
        ({4: 1}, [[4]]),
        ({3: 7, 1: 7, 2: 7}, [[1, 2, 3]]),
        ({1: (2, 5), 2: (2, 6), 3: (1, 9)}, [[2], [1], [3]]),
        ({}, []),
    ],
)
def test_group_ranking_orders_best_first_and_groups_ties(keys, expected):
    assert group_ranking(keys) == expected


# --- stud via run_showdown -----------------------------------------------------------------------

def test_c1_six_high_straight_beats_the_wheel():
    result = run_showdown(stud({"1": "As 2d 3c 4h 9s Kd 5s", "2": "2h 3s 4d 5c 6h Qc 9c"}))
    assert result["game"] == "seven_card_stud"
    assert result["ranking"] == [[2], [1]]
    assert result["seats"]["1"] == {
        "category": "straight",
        "description": "Straight, five high",
        "cards": "5s 4h 3c 2d As",
        "key": result["seats"]["1"]["key"],
        "shown": "As 2d 3c 4h 9s Kd 5s",
    }
    assert result["seats"]["2"]["description"] == "Straight, six high"
    assert result["seats"]["2"]["cards"] == "6h 5c 4d 3s 2h"


def test_d11_equal_hands_share_a_ranking_group():
    # D11: both play A-K-Q-J-9 and split; S3 (ranked last) has a pair... of nothing: K-high.
    result = run_showdown(stud({
        "2": "Ah Kc Qd Js 9h 4c 2d",
        "1": "As Kd Qc Jh 9s 3d 2c",
        "3": "7h 8h Kh 5c 6c Tc 3c",
    }))
    assert result["ranking"] == [[1, 2], [3]]
    assert list(result["seats"]) == ["1", "2", "3"]
    assert result["seats"]["1"]["category"] == result["seats"]["2"]["category"] == "high_card"


def test_d12_three_way_split_and_folded_seats_absent():
    result = run_showdown(stud({
        "1": "5c 6d 7h 8s 9c Kd 2h",
        "2": "5d 6h 7s 8c 9d Ks 2c",
        "3": "5h 6s 7c 8d 9h Kh 2d",
    }))
    assert result["ranking"] == [[1, 2, 3]]
    assert {s["description"] for s in result["seats"].values()} == {"Straight, nine high"}


def test_d10_trip_aces_beat_two_pair_beat_a_pair():
    result = run_showdown(stud({
        1: "Ac Ad 9c 3s Jd 6h As",
        2: ["6c", "6d", "8c", "4d", "Ks", "7h", "Qs"],
        3: "QcQdTc5d4s9hTh",
    }))
    assert result["ranking"] == [[1], [3], [2]]
    assert result["seats"]["1"]["description"] == "Three of a kind, aces"
    assert result["seats"]["3"]["description"] == "Two pair, queens and tens, nine kicker"
    assert result["seats"]["2"]["description"] == "One pair, sixes"


def test_hands_may_also_be_a_list_of_seat_entries():
    result = run_showdown(stud([{"seat": 5, "cards": "Ah Kh Qh Jh Th 2c 3c"}, {"seat": 2, "cards": "2h 2d 2s 3d 3h 9s 8c"}]))
    assert result["ranking"] == [[5], [2]]
    assert result["seats"]["2"]["description"] == "Full house, twos full of threes"
    assert result["seats"]["5"]["description"] == "Royal flush"


def test_b7_community_card_completes_every_hand():
    # B7/E1: the community card 7d makes S1's K-K-7-7 beat S2's A-A.
    result = run_showdown(stud({"1": "9c 3d Ks Kd 7c 2h", "2": "Jc 5d Ah Ad 4c 3s"}, community="7d"))
    assert result["ranking"] == [[1], [2]]
    assert result["community"] == "7d"
    assert result["seats"]["1"]["description"] == "Two pair, kings and sevens, nine kicker"


def test_community_card_requires_six_own_cards():
    with pytest.raises(WrongCardCount) as exc:
        run_showdown(stud({"1": "9c 3d Ks Kd 7c 2h 8h"}, community="7d"))
    assert exc.value.seat == 1


def test_community_card_may_not_also_be_in_a_hand():
    with pytest.raises(DuplicateCard) as exc:
        run_showdown(stud({"1": "9c 3d Ks Kd 7c 7d"}, community="7d"))
    assert "7d" in str(exc.value)
    assert str(exc.value) == "card 7d appears twice: the community card and seat 1"


# --- dispatch to the other games ------------------------------------------------------------------

@pytest.mark.parametrize("game", ["forty_one", "capsa_susun", "razz", "seven_card_stud_hi_lo"])
def test_other_games_are_handed_to_the_showdown_their_registry_entry_names(monkeypatch, game):
    import dataclasses

    from rules import registry

    seen = []

    def fake(doc):
        seen.append(doc)
        return {"game": doc["game"], "ranking": [[7]], "seats": {}}

    games = tuple(dataclasses.replace(g, showdown=fake) if g.name == game else g for g in registry.GAMES)
    monkeypatch.setattr(registry, "GAMES", games)
    doc = {"game": game, "hands": {"7": "As"}}
    assert run_showdown(doc) == {"game": game, "ranking": [[7]], "seats": {}}
    assert seen == [doc]


def test_a_game_without_a_showdown_tool_is_a_config_error(monkeypatch):
    import dataclasses

    from rules import registry

    games = tuple(dataclasses.replace(g, showdown=None) if g.name == "forty_one" else g for g in registry.GAMES)
    monkeypatch.setattr(registry, "GAMES", games)
    with pytest.raises(ConfigError) as exc:
        run_showdown({"game": "forty_one", "hands": {"1": "As Ks Qs Js"}})
    assert "forty_one" in exc.value.message


# --- errors ----------------------------------------------------------------------------------------

ERROR_CASES = [
    ("duplicate across hands", stud({"1": "As Kd Qs Jc Th 2c 3d", "2": "As 2h 3h 4h 5h 9d 8d"}), DuplicateCard,
     ["As", "seat 1", "seat 2"]),
    ("duplicate in one hand", stud({"1": "As Kd Qs Jc As 2c 3d"}), DuplicateCard, ["seat 1", "As"]),
    ("too few cards", stud({"1": "As Kd Qs Jc"}), WrongCardCount, ["seat 1", "4 cards"]),
    ("too many cards", stud({"3": "As Kd Qs Jc Th 9c 8c 7c"}), WrongCardCount, ["seat 3", "8 cards"]),
    ("not a card", stud({"1": "As Kd Qs Jc Th 2c 3d", "2": "2h 3h 4h 5h 1h 6h 7h"}), InvalidCard, ["seat 2", "'1h'"]),
    ("unknown game", {"game": "texas_holdem", "hands": {"1": "As Kd Qs Jc Th"}}, ConfigError, ["texas_holdem"]),
    ("missing game", {"hands": {"1": "As Kd Qs Jc Th"}}, MalformedShowdown, ['"game"']),
    ("missing hands", {"game": "seven_card_stud"}, MalformedShowdown, ['"hands"']),
    ("empty hands", stud({}), MalformedShowdown, ["empty"]),
    ("hands not a mapping", stud("As Kd Qs Jc Th"), MalformedShowdown, ['"hands"']),
    ("not an object", ["seven_card_stud"], MalformedShowdown, ["JSON object"]),
    ("bad seat", stud({"one": "As Kd Qs Jc Th"}), MalformedShowdown, ["'one'"]),
    ("seat zero", stud({"0": "As Kd Qs Jc Th"}), MalformedShowdown, ["seat 0"]),
    ("cards not text", stud({"1": 17}), MalformedShowdown, ["seat 1"]),
]


@pytest.mark.parametrize(("doc", "error", "words"), [c[1:] for c in ERROR_CASES], ids=[c[0] for c in ERROR_CASES])
def test_bad_showdown_is_refused_with_a_readable_message(doc, error, words):
    with pytest.raises(error) as exc:
        run_showdown(doc)
    for word in words:
        assert word in exc.value.message
    body = exc.value.as_dict()
    assert set(body) == {"message", "code", "extra"}
    json.dumps(body)  # JSON-able


def test_parse_showdown_hands_checks_the_games_deck_and_counts():
    from rules.engines.cards import PIQUET_32

    with pytest.raises(InvalidCard) as exc:
        parse_showdown_hands({"hands": {"1": "As 6d"}}, deck=PIQUET_32)
    assert "6d" in exc.value.message and "seat 1" in exc.value.message
    with pytest.raises(WrongCardCount) as exc:
        parse_showdown_hands({"hands": {"1": "As Kd"}}, card_counts=(13,), game_label="a Capsa hand")
    assert exc.value.message == "seat 1 shows 2 cards; a Capsa hand has 13"
    hands = parse_showdown_hands({"hands": {"2": "Ah", "1": ["Kd"]}})
    assert list(hands) == [1, 2]
    assert [str(c) for c in hands[2]] == ["Ah"]


@pytest.mark.parametrize("shown", ["As Kd Qs Jc Th", "As Kd Qs Jc Th 9c"])
def test_stud_showdown_refuses_a_hand_of_fewer_than_seven_cards_naming_the_seat(shown):
    # issue 13: five or six cards were ranked; R11.2 needs 7 (or 6 + the community card).
    with pytest.raises(WrongCardCount) as exc:
        run_showdown(stud({"1": "2h 2d 2s 3d 3h 9s 8c", "4": shown}))
    count = len(shown.split())
    assert exc.value.message == f"seat 4 shows {count} cards; a stud hand at showdown has 7 (R11.2)"
    assert exc.value.as_dict()["extra"] == {"count": count, "allowed": [7], "seat": 4, "rule": "R11.2"}


def test_seat_given_twice_is_refused():
    with pytest.raises(MalformedShowdown):
        run_showdown(stud({"1": "As Kd Qs Jc Th 2c 3d", 1: "2h 3h 4h 5h 6h 7h 8h"}))


def test_run_showdown_does_not_mutate_its_input():
    doc = stud({"1": "As Kd Qs Jc Th 2c 3d", "2": ["2h", "3h", "4h", "5h", "6h", "7h", "8h"]})
    before = json.dumps(doc, sort_keys=True)
    run_showdown(doc)
    assert json.dumps(doc, sort_keys=True) == before


# --- management command ----------------------------------------------------------------------------

def run_command(text: str) -> dict:
    out = io.StringIO()
    call_command("showdown", stdin=io.StringIO(text), stdout=out)
    return json.loads(out.getvalue())


def test_command_reads_stdin_and_writes_the_ranking():
    result = run_command(json.dumps(stud({"1": "As 2d 3c 4h 9s Kd 5s", "2": "2h 3s 4d 5c 6h Qc 9c"})))
    assert result["ranking"] == [[2], [1]]
    assert result["seats"]["1"]["description"] == "Straight, five high"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (json.dumps(stud({"1": "As Kd Qs Jc Th 2c 3d", "2": "As 2h 3h 4h 5h 9d 8d"})), "As"),
        (json.dumps(stud({"1": "As Kd Qs Jc"})), "4 cards"),
        (json.dumps(stud({"1": "As Kd Qs Jc Xx"})), "'Xx'"),
        ('{"game": "seven_card_stud", "hands": ', "not JSON"),
        ("", "not JSON"),
    ],
)
def test_command_refuses_bad_input_with_status_2(text, words):
    with pytest.raises(CommandError) as exc:
        run_command(text)
    assert exc.value.returncode == 2
    assert words in str(exc.value)


def _manage(text: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "casino.settings_test"}
    return subprocess.run(
        [sys.executable, "manage.py", "showdown"], input=text, capture_output=True, text=True, cwd=REPO, env=env,
        timeout=60,
    )


def test_manage_py_showdown_exits_2_with_the_message_on_stderr():
    proc = _manage(json.dumps(stud({"1": "As Kd Qs Jc Th 2c 3d", "2": "As 2h 3h 4h 5h 9d 8d"})))
    assert proc.returncode == 2
    assert "As" in proc.stderr and "seat 2" in proc.stderr
    assert proc.stdout == ""


def test_manage_py_showdown_prints_one_json_document():
    proc = _manage(json.dumps(stud({"4": "Ah Kh Qh Jh Th 2c 3c"})))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["seats"]["4"]["description"] == "Royal flush"


def test_every_error_is_a_rule_violation():
    for _, doc, _, _ in ERROR_CASES:
        with pytest.raises(RuleViolation):
            run_showdown(doc)


# --- hostile input (review) --------------------------------------------------------------------------

@pytest.mark.parametrize("seat", ["²", "١", "1" * 5000, "100000", 100000, " 1 2 "])
def test_seat_that_is_not_a_plain_small_number_is_refused_with_a_message(seat):
    with pytest.raises(MalformedShowdown) as exc:
        run_showdown(stud({seat: "As Kd Qs Jc Th"}))
    assert "seat" in exc.value.message


@pytest.mark.parametrize(
    "text",
    [
        '{"game": "seven_card_stud", "hands": {"1": "As Kd Qs Jc Th"}, "x": ' + "[" * 50_000 + "]" * 50_000 + "}",
        '{"game": ' + "1" * 5000 + ', "hands": {"1": "As Kd Qs Jc Th"}}',
    ],
    ids=["nested too deep", "number too long"],
)
def test_command_refuses_pathological_json_with_status_2(text):
    with pytest.raises(CommandError) as exc:
        run_command(text)
    assert exc.value.returncode == 2
    assert "not JSON" in str(exc.value)
