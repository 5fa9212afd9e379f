"""Seven Card Stud configuration: the spec's §13 table as a frozen, validated dataclass.

:func:`build_config` takes the raw keys of a limit profile (money as EUR strings or ``Decimal``,
converted once to int cents by :func:`~rules.engines.money.to_cents`) and returns a
:class:`StudConfig`; :func:`config_to_dict` gives the raw form back (round-trips). Every
``[decision]`` of the spec is a key with the spec's default; the keys the spec marks *required*
(limits, ``ante``, ``bring_in`` under ``partial_with_completion``, the Taxe tariff) have no default
and raise :class:`~rules.engines.errors.ConfigError` naming the field when missing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from decimal import Decimal, InvalidOperation
from typing import Any

from rules.engines.errors import ConfigError
from rules.engines.messages import gettext_noop
from rules.engines.money import config_cents, from_cents

__all__ = ["StudConfig", "build_config", "config_to_dict", "STREETS", "CHOICES"]

#: The five betting streets, 3rd to 7th (R1.3).
STREETS = (3, 4, 5, 6, 7)

#: Allowed values of every choice key (spec §13); the first one is the default.
CHOICES: dict[str, tuple[str, ...]] = {
    "limit_type": ("split", "spread"),
    "bring_in_mode": ("full_bet", "partial_with_completion"),
    "short_bring_in": ("complete_to_lower_limit", "half_bet_rule"),
    "open_pair_option": ("on", "off"),
    "open_pair_scope": ("any_player", "paired_player_only"),
    "open_pair_check": ("at_deal", "while_showing"),
    "high_board_tiebreak": ("position", "suit"),
    "allin_high_board_opener": ("next_clockwise", "next_highest_board"),
    "short_allin_rule": ("half_bet", "full_bet"),
    "spread_min_raise": ("table_min", "previous_increment"),
    "taxe_mode": ("flat", "percent_with_cap"),
    "taxe_from": ("main_pot", "pro_rata"),
    "out_of_cards_policy": ("community_card", "rrop_reshuffle"),
    "odd_chip_rule": ("high_card_by_suit", "first_left_of_dealer"),
}

#: Boolean keys and their defaults (spec §13).
BOOLEANS: dict[str, bool] = {
    "ante_trimming": True,
    "bring_in_may_fold": False,
    "spread_bring_in_may_exceed_min": True,
    "uncap_heads_up": False,
    "board_counts_straights_flushes": False,
    "spread_short_allin_reopens": False,
    "burn_before_first_deal": False,
    "use_last_card": True,
}

#: Keys a limit profile may carry that are not game rules; ignored here.
IGNORED_KEYS = frozenset({"game", "currency", "name", "label", "limit_level", "level", "description"})

_MONEY_KEYS = ("lower", "higher", "ante", "bring_in", "taxe_amount", "taxe_cap", "chip_unit")
_PER_STREET_KEYS = ("spread_min", "spread_max")


@dataclass(frozen=True, slots=True)
class StudConfig:
    """A validated stud limit profile. Money in int cents; per-street spread limits as a 5-tuple
    for streets 3..7 (R3.2 stepped spread). See spec §13 for every key's meaning."""

    limit_type: str
    lower: int | None
    higher: int | None
    spread_min: tuple[int, ...] | None
    spread_max: tuple[int, ...] | None
    ante: int
    ante_trimming: bool
    bring_in_mode: str
    bring_in: int | None
    bring_in_may_fold: bool
    short_bring_in: str
    spread_bring_in_may_exceed_min: bool
    raise_cap: int
    uncap_heads_up: bool
    open_pair_option: str
    open_pair_scope: str
    open_pair_check: str
    high_board_tiebreak: str
    board_counts_straights_flushes: bool
    allin_high_board_opener: str
    short_allin_rule: str
    spread_min_raise: str
    spread_short_allin_reopens: bool
    taxe_mode: str
    taxe_amount: int | None
    taxe_percent: str | None
    taxe_cap: int | None
    taxe_from: str
    burn_before_first_deal: bool
    out_of_cards_policy: str
    use_last_card: bool
    odd_chip_rule: str
    chip_unit: int

    @property
    def split(self) -> bool:
        return self.limit_type == "split"

    def limits(self, street: int) -> tuple[int, int]:
        """Spread limit ``(min, max)`` in cents for ``street`` (R3.2, R7.1)."""
        k = street - 3
        return self.spread_min[k], self.spread_max[k]  # type: ignore[index]

    def unit(self, street: int) -> int:
        """Split-limit bet size in cents for ``street``: L on 3rd/4th, H from 5th (R3.1, R6.1)."""
        return self.lower if street <= 4 else self.higher  # type: ignore[return-value]

    def bring_in_amount(self) -> int:
        """The forced bring-in in cents: L (``full_bet``), ``bring_in`` (partial) or spread min (R4.2, R7.4)."""
        if not self.split:
            return self.limits(3)[0]
        if self.bring_in_mode == "full_bet":
            return self.lower  # type: ignore[return-value]
        return self.bring_in  # type: ignore[return-value]


def _money(raw: Mapping[str, Any], key: str, *, required: bool) -> int | None:
    if key not in raw or raw[key] is None:
        if required:
            raise ConfigError(key, gettext_noop("is required for this limit profile (spec §13)"))
        return None
    return config_cents(raw[key], key)


def _per_street(raw: Mapping[str, Any], key: str) -> tuple[int, ...]:
    if key not in raw or raw[key] is None:
        raise ConfigError(key, gettext_noop("is required for spread limit (spec §13)"))
    value = raw[key]
    if isinstance(value, Mapping):
        out = []
        for street in STREETS:
            item = value.get(street, value.get(str(street)))
            if item is None:
                raise ConfigError(key, gettext_noop("has no value for street %(street)s (R3.2)", street=street))
            out.append(_money({key: item}, key, required=True))
        extra = set(map(str, value)) - {str(s) for s in STREETS}
        if extra:
            raise ConfigError(key, gettext_noop("unknown street(s) %(extra)s; streets are 3 to 7", extra=sorted(extra)))
        return tuple(out)  # type: ignore[arg-type]
    if isinstance(value, (list, tuple)):
        if len(value) != 5:
            raise ConfigError(key, gettext_noop("a per-street table needs 5 values, streets 3 to 7 (R3.2)"))
        return tuple(_money({key: v}, key, required=True) for v in value)  # type: ignore[misc]
    one = _money({key: value}, key, required=True)
    return (one,) * 5  # type: ignore[return-value]


def _choice(raw: Mapping[str, Any], key: str) -> str:
    options = CHOICES[key]
    value = raw.get(key, options[0])
    if key == "open_pair_option" and isinstance(value, bool):
        value = "on" if value else "off"
    if value not in options:
        raise ConfigError(key, gettext_noop("%(value)s is not one of %(options)s", value=repr(value), options=', '.join(options)))
    return str(value)


def _bool(raw: Mapping[str, Any], key: str) -> bool:
    value = raw.get(key, BOOLEANS[key])
    if isinstance(value, str) and value.lower() in ("true", "false"):
        value = value.lower() == "true"
    if not isinstance(value, bool):
        raise ConfigError(key, gettext_noop("%(value)s is not true or false", value=repr(value)))
    return value


def build_config(raw: Mapping[str, Any]) -> StudConfig:
    """Build a :class:`StudConfig` from the §13 keys of a limit profile.

    Money keys (``lower``, ``higher``, ``ante``, ``bring_in``, ``taxe_amount``, ``taxe_cap``,
    ``chip_unit``, ``spread_min``, ``spread_max``) are EUR strings/Decimals; ``spread_min``/``spread_max``
    may be one value or a per-street table (list of 5 or ``{street: value}``, R3.2). ``taxe_percent``
    is a percentage (``"5"`` = 5 %). Raises :class:`ConfigError` naming the field for a missing
    required key, an unknown key, a bad value or an inconsistent combination (e.g. ``bring_in`` not
    below L under ``partial_with_completion``, R4.6).
    """
    if not isinstance(raw, Mapping):
        raise ConfigError("config", gettext_noop("must be a mapping of the spec's configuration keys"))
    known = {f.name for f in fields(StudConfig)} | IGNORED_KEYS
    unknown = sorted(set(raw) - known)
    if unknown:
        raise ConfigError(unknown[0], gettext_noop("is not a Seven Card Stud configuration key (spec §13)"))
    limit_type = _choice(raw, "limit_type")
    lower = higher = None
    smin = smax = None
    if limit_type == "split":
        lower = _money(raw, "lower", required=True)
        higher = _money(raw, "higher", required=True)
        if lower <= 0:  # type: ignore[operator]
            raise ConfigError("lower", gettext_noop("must be more than 0 (R3.1)"))
        if higher < lower:  # type: ignore[operator]
            raise ConfigError("higher", gettext_noop("must be at least the lower limit (R3.1)"))
    else:
        smin = _per_street(raw, "spread_min")
        smax = _per_street(raw, "spread_max")
        for street, lo, hi in zip(STREETS, smin, smax):
            if lo <= 0:
                raise ConfigError("spread_min", gettext_noop("must be more than 0 on street %(street)s (R7.1)", street=street))
            if hi < lo:
                raise ConfigError("spread_max", gettext_noop("is below spread_min on street %(street)s (R7.1)", street=street))
    ante = _money(raw, "ante", required=True)
    assert ante is not None  # required=True raised otherwise
    bring_in_mode = _choice(raw, "bring_in_mode")
    bring_in = _money(raw, "bring_in", required=bring_in_mode == "partial_with_completion" and limit_type == "split")
    if bring_in_mode == "partial_with_completion" and limit_type == "split":
        if not 0 < bring_in < lower:  # type: ignore[operator]
            raise ConfigError("bring_in", gettext_noop("must be more than 0 and less than the lower limit (R4.6)"))
    raise_cap = raw.get("raise_cap", 3)
    if isinstance(raise_cap, bool) or not isinstance(raise_cap, int) or raise_cap < 0:
        raise ConfigError("raise_cap", gettext_noop("%(raise_cap)s is not a whole number of raises (R6.2)", raise_cap=repr(raise_cap)))
    taxe_mode = _choice(raw, "taxe_mode")
    taxe_amount = _money(raw, "taxe_amount", required=taxe_mode == "flat")
    taxe_percent = None
    taxe_cap = None
    if taxe_mode == "percent_with_cap" or raw.get("taxe_percent") is not None:
        if raw.get("taxe_percent") is None:
            raise ConfigError("taxe_percent", gettext_noop("is required under taxe_mode=percent_with_cap (R8.3)"))
        value = raw["taxe_percent"]
        if isinstance(value, (bool, float)):
            raise ConfigError("taxe_percent", gettext_noop("%(value)s is not a percentage; send a decimal string such as \"5\"", value=repr(value)))
        try:
            pct = Decimal(str(value).strip().rstrip("%").strip())
        except InvalidOperation:
            raise ConfigError("taxe_percent", gettext_noop("%(value)s is not a number", value=repr(value))) from None
        if not pct.is_finite() or not 0 <= pct <= 100:
            raise ConfigError("taxe_percent", gettext_noop("must be between 0 and 100 (R8.3)"))
        taxe_percent = str(pct)
        taxe_cap = _money(raw, "taxe_cap", required=taxe_mode == "percent_with_cap")
    chip_unit = _money(raw, "chip_unit", required=False)
    if chip_unit is None:
        chip_unit = 100  # spec §13 default: 1 (EUR)
    if chip_unit <= 0:
        raise ConfigError("chip_unit", gettext_noop("must be more than 0 (R11.3)"))
    cfg = StudConfig(
        limit_type=limit_type, lower=lower, higher=higher, spread_min=smin, spread_max=smax,
        ante=ante, ante_trimming=_bool(raw, "ante_trimming"), bring_in_mode=bring_in_mode,
        bring_in=bring_in, bring_in_may_fold=_bool(raw, "bring_in_may_fold"),
        short_bring_in=_choice(raw, "short_bring_in"),
        spread_bring_in_may_exceed_min=_bool(raw, "spread_bring_in_may_exceed_min"),
        raise_cap=raise_cap, uncap_heads_up=_bool(raw, "uncap_heads_up"),
        open_pair_option=_choice(raw, "open_pair_option"), open_pair_scope=_choice(raw, "open_pair_scope"),
        open_pair_check=_choice(raw, "open_pair_check"), high_board_tiebreak=_choice(raw, "high_board_tiebreak"),
        board_counts_straights_flushes=_bool(raw, "board_counts_straights_flushes"),
        allin_high_board_opener=_choice(raw, "allin_high_board_opener"),
        short_allin_rule=_choice(raw, "short_allin_rule"), spread_min_raise=_choice(raw, "spread_min_raise"),
        spread_short_allin_reopens=_bool(raw, "spread_short_allin_reopens"), taxe_mode=taxe_mode,
        taxe_amount=taxe_amount, taxe_percent=taxe_percent, taxe_cap=taxe_cap,
        taxe_from=_choice(raw, "taxe_from"), burn_before_first_deal=_bool(raw, "burn_before_first_deal"),
        out_of_cards_policy=_choice(raw, "out_of_cards_policy"), use_last_card=_bool(raw, "use_last_card"),
        odd_chip_rule=_choice(raw, "odd_chip_rule"), chip_unit=chip_unit,
    )
    return cfg


def config_to_dict(cfg: StudConfig) -> dict[str, Any]:
    """The JSON-able raw form of ``cfg`` (money as EUR strings); ``build_config`` of it gives ``cfg`` back."""
    out: dict[str, Any] = {}
    for f in fields(StudConfig):
        value = getattr(cfg, f.name)
        if value is None:
            continue
        if f.name in _MONEY_KEYS:
            value = str(from_cents(value))
        elif f.name in _PER_STREET_KEYS:
            value = [str(from_cents(v)) for v in value]
        out[f.name] = value
    return out
