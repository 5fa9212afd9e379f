"""The config description (rules/config_fields.py) matches what the engines accept, key by key."""

from __future__ import annotations

from dataclasses import fields

import pytest

from rules.config_fields import GAMES_DESCRIBED, KINDS, config_field, config_fields, values_with_defaults
from rules.engines import capsa_config, forty_one_config, stud_config
from rules.engines.errors import ConfigError
from rules.engines.registry import GAMES, get_engine

MODULES = {"seven_card_stud": stud_config, "forty_one": forty_one_config, "capsa_susun": capsa_config,
           # Razz and Hi-Lo build the stud config through their engine (the open-pair option off, RZ3.1)
           "razz": get_engine("razz"), "seven_card_stud_hi_lo": get_engine("seven_card_stud_hi_lo")}
DATACLASSES = {"seven_card_stud": stud_config.StudConfig, "forty_one": forty_one_config.FortyOneConfig,
               "capsa_susun": capsa_config.CapsaConfig, "razz": stud_config.StudConfig,
               "seven_card_stud_hi_lo": stud_config.StudConfig}
#: The money and required keys a house sets, per game (the minimum the engines need).
REQUIRED = {
    "seven_card_stud": {"lower": "5.00", "higher": "10.00", "ante": "1.00", "taxe_amount": "2.00"},
    "forty_one": {"limits": ["5.00", "10.00"], "ante": "2.00", "tax_cap": "5.00", "bonus_41_amount": "10.00"},
    "capsa_susun": {"unit_value": "1.00"},
}
REQUIRED["razz"] = REQUIRED["seven_card_stud_hi_lo"] = REQUIRED["seven_card_stud"]


def test_every_game_of_the_registry_is_described():
    assert set(GAMES_DESCRIBED) == set(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_every_engine_config_key_is_described_once(game):
    described = [f.key for f in config_fields(game)]
    assert len(described) == len(set(described))
    assert set(described) == {f.name for f in fields(DATACLASSES[game])}


@pytest.mark.parametrize("game", GAMES)
def test_descriptions_carry_label_help_rule_and_a_known_kind(game):
    for field in config_fields(game):
        assert field.kind in KINDS, field.key
        assert field.label and field.help and field.rule, field.key
        if field.kind == "choice":
            assert field.default in field.choices, field.key
            assert [v for v, _ in field.choice_labels] == list(field.choices), field.key


@pytest.mark.parametrize("game", GAMES)
def test_the_described_defaults_with_the_required_keys_build_the_engine_default(game):
    module = MODULES[game]
    values = values_with_defaults(game, REQUIRED[game])
    raw = {k: v for k, v in values.items() if v is not None}
    assert module.build_config(raw) == module.build_config(REQUIRED[game])


@pytest.mark.parametrize("game", GAMES)
def test_required_keys_are_those_the_engine_refuses_to_miss(game):
    module = MODULES[game]
    base = values_with_defaults(game, REQUIRED[game])
    for field in config_fields(game):
        if not field.is_required(base):
            continue
        raw = {k: v for k, v in base.items() if v is not None and k != field.key}
        with pytest.raises(ConfigError) as err:
            module.build_config(raw)
        assert err.value.field == field.key


def test_stud_choices_are_the_engines_choices():
    for key, options in stud_config.CHOICES.items():
        assert config_field("seven_card_stud", key).choices == options


def test_conditional_keys_follow_the_mode():
    base = values_with_defaults("seven_card_stud", {})
    assert config_field("seven_card_stud", "taxe_amount").is_required(base)
    assert not config_field("seven_card_stud", "taxe_cap").is_required(base)
    spread = {**base, "limit_type": "spread"}
    assert config_field("seven_card_stud", "spread_min").is_required(spread)
    assert not config_field("seven_card_stud", "lower").is_shown(spread)
