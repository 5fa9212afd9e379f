"""Forty-one configuration (spec B.9), tax (B.5) and the 41 bonus amount (B.6).

:func:`build_config` turns the table's limit profile (a dict of the B.9 keys, money as EUR strings
or ``Decimal``) into a frozen :class:`FortyOneConfig` with every amount in int cents.
:func:`config_to_dict` is its JSON-able inverse. Every [decision] of the spec is a key with the
spec's default; ``ante``, ``limits``, ``tax_cap`` and ``bonus_41_amount`` are required (no default
in code, rules README rule 4).

Per-limit keys (``tax_cap``, ``bonus_41_amount``): the spec writes them as a table per limit level
(``{"5/10": "10.00", "10/20": "15.00"}``). A table's limit profile has one limit level, so a single
amount (``"10.00"``) is accepted as the value for this table's ``limits``; given a mapping, the entry
for this table's limits is picked (keys such as ``"5/10"``, ``"5.00/10.00"``) and a missing entry is
a :class:`ConfigError`. :func:`config_to_dict` writes the single amount.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from rules.core.house_take import ROUNDINGS, HouseTake
from rules.engines.errors import ConfigError, RuleViolation
from rules.engines.evaluators.forty_one import (
    DEFAULT_CATEGORY_ORDER,
    FLUSH_TIEBREAKS,
    POINTS_MODES,
    validate_category_order,
)
from rules.engines.messages import gettext_noop
from rules.engines.money import config_cents, format_cents, to_cents

__all__ = ["FortyOneConfig", "TAX_ROUNDING", "build_config", "config_to_dict", "pot_taxes", "tax_on", "tax_policy"]

#: B.5 tax rounding: the ``tax_rounding`` choices, names of :data:`rules.core.house_take.ROUNDINGS` applied
#: to (pot x rate) / tax_step. Default ``"floor"``: the tax is rounded down to a whole ``tax_step`` (B.5, B.8 #11).
TAX_ROUNDING = {name: ROUNDINGS[name] for name in ("floor", "half_up")}

DECKS = ("french", "double_german")
LIMIT_NAMES = ("lower", "upper")
#: Keys a limit profile may carry that are not Forty-one rules; accepted and ignored.
IGNORED_KEYS = frozenset({"game", "currency", "chip_unit", "name", "limit_label"})
#: Hard bound of the game: 7 players x 4 cards = 28 of 32 cards (B.2).
MAX_SEATS = 7


@dataclass(frozen=True)
class FortyOneConfig:
    """A validated Forty-one configuration (B.9). Money in int cents.

    ``limits`` = (lower, upper); ``tax_cap`` and ``bonus_41_amount`` are the amounts for this table's
    limit level; ``tax_rate`` is a ``Decimal`` fraction (0.05); ``tax_step`` cents.
    """

    ante: int
    limits: tuple[int, int]
    tax_cap: int
    bonus_41_amount: int
    deck: str = "french"
    min_players: int = 3
    max_players: int = 7
    forehand_post_live: bool = True
    short_forehand_blind: str = "call_full"
    short_allin_rule: str = "half_bet"
    round_bet_sizes: tuple[str, str] = ("lower", "lower")
    round2_check_allowed: bool = True
    round2_first_to_act: str = "left_of_forehand"
    exposure_order: str = "simultaneous"
    max_raises_per_round: int = 3
    raise_cap_heads_up: int | None = 3
    uncap_after_cap: bool = False
    close_mode: str = "standard"
    points_mode: str = "rank_or_suit"
    category_order: tuple[str, ...] = DEFAULT_CATEGORY_ORDER
    flush_tiebreak: str = "position"
    tax_rate: Decimal = Decimal("0.05")
    tax_step: int = 1
    tax_rounding: str = "floor"
    tax_uncontested_pots: bool = True
    tax_includes_antes: bool = True
    tax_side_pots: str = "per_pot_main_first"
    bonus_41_requires: str = "any_shown"
    bonus_41_multiple_holders: str = "every_holder"

    @property
    def lower(self) -> int:
        return self.limits[0]

    @property
    def upper(self) -> int:
        return self.limits[1]

    def unit(self, round_no: int) -> int:
        """The bet and raise size of betting round 1 or 2, in cents (B.4 steps 3 and 5)."""
        return self.limits[LIMIT_NAMES.index(self.round_bet_sizes[round_no - 1])]

    @property
    def limit_label(self) -> str:
        """``"5.00/10.00"``."""
        return f"{format_cents(self.lower)}/{format_cents(self.upper)}"

    @property
    def evaluator_options(self) -> dict[str, Any]:
        """Keyword arguments for the evaluator (B.3 options)."""
        return {"points_mode": self.points_mode, "category_order": self.category_order,
                "flush_tiebreak": self.flush_tiebreak}


_CHOICES: dict[str, tuple[Any, ...]] = {
    "deck": DECKS,
    "short_forehand_blind": ("call_full", "call_short"),
    "short_allin_rule": ("half_bet", "full_bet"),
    "round2_first_to_act": ("left_of_forehand",),
    "exposure_order": ("simultaneous", "in_turn"),
    "close_mode": ("standard", "raise_right"),
    "points_mode": POINTS_MODES,
    "flush_tiebreak": FLUSH_TIEBREAKS,
    "tax_rounding": tuple(TAX_ROUNDING),
    "tax_side_pots": ("per_pot_main_first", "total_from_main_pot"),
    "bonus_41_requires": ("any_shown", "shown_at_showdown", "won_pot"),
    "bonus_41_multiple_holders": ("every_holder", "pot_winner_only"),
}
_BOOLS = ("forehand_post_live", "round2_check_allowed", "uncap_after_cap", "tax_uncontested_pots",
          "tax_includes_antes")
_REQUIRED = ("ante", "limits", "tax_cap", "bonus_41_amount")
_ALL_KEYS = frozenset(FortyOneConfig.__dataclass_fields__)


def _limits(raw: Any) -> tuple[int, int]:
    if isinstance(raw, str) and "/" in raw:
        raw = raw.split("/")
    if isinstance(raw, Mapping):
        raw = (raw.get("lower"), raw.get("upper"))
    if not isinstance(raw, list | tuple) or len(raw) != 2:
        raise ConfigError("limits", gettext_noop("must be [lower, upper], e.g. [\"5.00\", \"10.00\"]"))
    lower, upper = config_cents(raw[0], "limits"), config_cents(raw[1], "limits")
    if lower <= 0 or upper < lower:
        raise ConfigError("limits", gettext_noop("lower must be positive and upper at least lower (split limit, B.2)"))
    return lower, upper


def _per_limit(raw: Any, field: str, limits: tuple[int, int]) -> int:
    """The amount for this table's limit level from a single amount or a per-limit mapping (B.5, B.6)."""
    if isinstance(raw, Mapping):
        for key, amount in raw.items():
            parts = str(key).replace(" ", "").split("/")
            if len(parts) != 2:
                raise ConfigError(field, gettext_noop("key %(key)s is not a limit level such as \"5/10\"", key=repr(key)))
            try:
                level = tuple(to_cents(p, field=field) for p in parts)
            except RuleViolation:
                raise ConfigError(field, gettext_noop("key %(key)s is not a limit level such as \"5/10\"", key=repr(key))) from None
            if level == limits:
                return config_cents(amount, field)
        raise ConfigError(field, gettext_noop("no amount for this table's limit %(limit)s/%(limit2)s (required per limit level, B.9)", limit=format_cents(limits[0]), limit2=format_cents(limits[1])))
    return config_cents(raw, field)


def _int(raw: Any, field: str, low: int, high: int) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise ConfigError(field, gettext_noop("must be a whole number from %(low)s to %(high)s, got %(raw)s", low=low, high=high, raw=repr(raw)))
    return raw


def build_config(raw: Mapping[str, Any]) -> FortyOneConfig:
    """Build and validate a :class:`FortyOneConfig` from the B.9 keys.

    Money keys (``ante``, ``limits``, ``tax_cap``, ``bonus_41_amount``, ``tax_step``) are EUR strings or
    ``Decimal``; ``tax_rate`` a decimal fraction (``"0.05"``). Raises :class:`ConfigError` whose
    ``field`` names the first bad, missing or unknown key.
    """
    if not isinstance(raw, Mapping):
        raise ConfigError("config", gettext_noop("must be an object of Forty-one keys (B.9)"))
    unknown = sorted(set(raw) - _ALL_KEYS - IGNORED_KEYS)
    if unknown:
        raise ConfigError(unknown[0], gettext_noop("is not a Forty-one config key (B.9); known keys: %(all_keys)s", all_keys=', '.join(sorted(_ALL_KEYS))))
    for key in _REQUIRED:
        if raw.get(key) is None:
            raise ConfigError(key, gettext_noop("is required for Forty-one and has no default (B.9)"))
    values: dict[str, Any] = {}
    limits = _limits(raw["limits"])
    values["limits"] = limits
    values["ante"] = config_cents(raw["ante"], "ante")
    values["tax_cap"] = _per_limit(raw["tax_cap"], "tax_cap", limits)
    values["bonus_41_amount"] = _per_limit(raw["bonus_41_amount"], "bonus_41_amount", limits)
    for key, choices in _CHOICES.items():
        if key in raw:
            if raw[key] not in choices:
                raise ConfigError(key, gettext_noop("must be one of %(choices)s, got %(raw)s", choices=', '.join(map(str, choices)), raw=repr(raw[key])))
            values[key] = raw[key]
    for key in _BOOLS:
        if key in raw:
            if not isinstance(raw[key], bool):
                raise ConfigError(key, gettext_noop("must be true or false, got %(raw)s", raw=repr(raw[key])))
            values[key] = raw[key]
    if "min_players" in raw:
        values["min_players"] = _int(raw["min_players"], "min_players", 2, MAX_SEATS)
    if "max_players" in raw:
        values["max_players"] = _int(raw["max_players"], "max_players", 2, MAX_SEATS)
    if values.get("min_players", 3) > values.get("max_players", MAX_SEATS):
        raise ConfigError("min_players", gettext_noop("must not exceed max_players"))
    if "round_bet_sizes" in raw:
        sizes = raw["round_bet_sizes"]
        if (not isinstance(sizes, list | tuple) or len(sizes) != 2
                or any(s not in LIMIT_NAMES for s in sizes)):
            raise ConfigError("round_bet_sizes", gettext_noop("must be two of \"lower\"/\"upper\", e.g. [\"lower\", \"lower\"]"))
        values["round_bet_sizes"] = tuple(sizes)
    if "max_raises_per_round" in raw:
        values["max_raises_per_round"] = _int(raw["max_raises_per_round"], "max_raises_per_round", 0, 100)
    if "raise_cap_heads_up" in raw and raw["raise_cap_heads_up"] is not None:
        values["raise_cap_heads_up"] = _int(raw["raise_cap_heads_up"], "raise_cap_heads_up", 0, 100)
    elif "raise_cap_heads_up" in raw:
        values["raise_cap_heads_up"] = None
    if "category_order" in raw:
        values["category_order"] = validate_category_order(raw["category_order"])
    if "tax_rate" in raw:
        rate = raw["tax_rate"]
        if isinstance(rate, bool | float):
            raise ConfigError("tax_rate", gettext_noop("must be a decimal string such as \"0.05\""))
        try:
            rate = Decimal(str(rate))
        except InvalidOperation:
            raise ConfigError("tax_rate", gettext_noop("%(rate)s is not a number", rate=repr(rate))) from None
        if not rate.is_finite() or not Decimal(0) <= rate < Decimal(1):
            raise ConfigError("tax_rate", gettext_noop("must be a fraction from 0 to below 1, e.g. \"0.05\""))
        values["tax_rate"] = rate
    if "tax_step" in raw:
        values["tax_step"] = config_cents(raw["tax_step"], "tax_step")
        if values["tax_step"] <= 0:
            raise ConfigError("tax_step", gettext_noop("must be at least 0.01"))
    return FortyOneConfig(**values)


def config_to_dict(config: FortyOneConfig) -> dict[str, Any]:
    """The JSON-able B.9 form of ``config``; ``build_config(config_to_dict(c)) == c``."""
    out: dict[str, Any] = {}
    for name in FortyOneConfig.__dataclass_fields__:
        value = getattr(config, name)
        if name in ("ante", "tax_cap", "bonus_41_amount", "tax_step"):
            value = format_cents(value)
        elif name == "limits":
            value = [format_cents(v) for v in value]
        elif name in ("round_bet_sizes", "category_order"):
            value = list(value)
        elif name == "tax_rate":
            value = str(value)
        out[name] = value
    return out


def tax_policy(config: FortyOneConfig) -> HouseTake:
    """The Forty-one tax as a :class:`~rules.core.house_take.HouseTake` (B.5): ``tax_rate`` (a fraction) of
    a pot rounded by ``tax_rounding`` to a whole ``tax_step``, at most ``tax_cap`` per game, drawn from the
    pots by ``tax_side_pots``.

    Built once per config object and kept on it (both are frozen, so the policy never goes stale; a
    copy of the config carries the same policy, a changed config is a new object)."""
    policy: HouseTake | None = config.__dict__.get("_tax_policy")
    if policy is None:
        policy = HouseTake(rate=config.tax_rate, step=config.tax_step, rounding=config.tax_rounding,
                           cap=config.tax_cap, from_pots_rule=config.tax_side_pots)
        object.__setattr__(config, "_tax_policy", policy)
    return policy


def tax_on(amount: int, config: FortyOneConfig) -> int:
    """Tax on one pot of ``amount`` cents before the cap: ``amount x tax_rate`` rounded to ``tax_step``
    by ``tax_rounding`` (:data:`TAX_ROUNDING`; B.5). Example: 1800 at 5 % -> 90; step 50 -> 50 (F-22)."""
    return tax_policy(config).on(amount)


def pot_taxes(config: FortyOneConfig, pots: Sequence[int], *, contested: bool = True, antes: int = 0) -> list[int]:
    """The tax taken from each pot (cents, main pot first), B.5.

    ``pots``: pot amounts after uncalled bets went back; ``contested``: False for a hand won without a
    showdown (no tax then if ``tax_uncontested_pots`` is false); ``antes``: total antes, deducted from the
    main pot's taxable base when ``tax_includes_antes`` is false. ``per_pot_main_first``: each pot pays
    :func:`tax_on` its own amount until the one cap per game (``tax_cap``) is used up (F-28);
    ``total_from_main_pot``: the tax on the total, capped, taken from the main pot first
    (:meth:`rules.core.house_take.HouseTake.from_pots`).
    """
    if not contested and not config.tax_uncontested_pots:
        return [0] * len(pots)
    if pots and not config.tax_includes_antes:
        bases = list(pots)
        bases[0] = max(0, bases[0] - antes)
        return tax_policy(config).from_pots(pots, bases)
    return tax_policy(config).from_pots(pots)
